"""Priority and playing things: what a player may do when they have priority, playing lands,
announcing spells and activated abilities, and paying their costs.

2007 CR 408 (timing and priority; 408.1 sorcery timing), 212.6 (playing a land: main phase, empty
stack, once a turn), 409.1a-i (playing a spell or ability: announce and move to the stack 409.1a,
modes 409.1b, X 409.1c, targets 409.1d, total cost 409.1f, mana abilities 409.1g, pay 409.1h),
212.3d (summoning sickness and {T} costs).
"""

from __future__ import annotations

from collections.abc import Callable

from . import effects as fx
from .actions import DONE, PASS, Action, Decision, DecisionKind
from .errors import MtgError
from .mana import add_colored
from .model import (
    Card,
    ManaCost,
    Permanent,
    StackItem,
)
from .targets import mode_targets, target_count
from .turn_structure import MAIN_STEPS

K = DecisionKind


class Priority:
    """Mixed into :class:`~mtg_env.engine.game.Game`."""

    def _ask_priority(self, pl: int) -> None:
        opts = self._priority_options(pl)
        if len(opts) == 1:
            self.decision = _pass_only_decision(pl)
        else:
            self._ask(pl, K.PRIORITY, opts, f"player {pl}: {self.step}, priority")

    def _answer_priority(self, pl: int, a: Action) -> None:
        verb = a.verb
        if verb == "pass":
            self.passes += 1
            if self.passes >= 2:
                self.passes = 0
                if self.stack:
                    self.frames.append({"k": "resolve", "sid": self.stack[-1].id, "i": 0,
                                        "st": 0})
                    self.prio = self.active
                else:
                    self._end_step()
            else:
                self.prio = 1 - pl
                self._quiet = True  # passing priority changes nothing an SBE or trigger looks at
            return
        self.passes = 0
        self.prio = pl
        if verb == "play":
            card = self.cards[a.args[0]]
            if card.cdef.is_land:
                self._play_land(pl, card)
            else:
                self._begin_cast(pl, card)
        elif verb == "mana":
            pid, ab, color = a.args
            perm = self.perms[pid]
            ability = perm.activated[ab]
            self._log(f"player {pl} {'taps' if ability.cost.tap and color else 'activates'} "
                      f"{perm.card.label}" + (f" for {color * ability.mana_amount}" if color else ""))
            self._activate_mana(pid, ab, color)
            # A {T}-only mana ability with no other effect changes nothing an SBE or trigger
            # looks at (2007 CR 411: it doesn't use the stack).
            self._quiet = ability.tap_only and not ability.effects
        elif verb == "activate":
            pid, ab = a.args
            self._begin_activate(pl, pid, ab)

    def _priority_options(self, pl: int) -> list[Action]:
        self._fresh()
        P = self.players[pl]
        opts = [PASS]
        sorcery_ok = pl == self.active and self.step in MAIN_STEPS and not self.stack
        sources = None
        mods = self.rule_mods
        # Rule of Law: "Each player can't play more than one spell each turn." (it counts the
        # spells played before it came into play too); Steel Golem: "You can't play creature
        # spells." (2007 CR 409.1: a spell that can't be played isn't offered).
        spells_ok = not (mods and "one_spell_per_turn" in mods and P.spells_played_this_turn)
        # Pithing Needle: "Activated abilities of sources with the chosen name can't be played
        # unless they're mana abilities." (2007 CR 409.1: not offered.)
        pithed = mods.get("chosen_name_abilities_cant_be_played") if mods else None
        no_creatures = bool(mods) and pl in mods.get("cant_play_creature_spells", ())
        for card in P.hand:
            cdef = card.cdef
            if cdef.is_land:
                if sorcery_ok and P.lands_played < 1:
                    opts.append(_play_action(card))
                continue
            if not spells_ok or not (sorcery_ok or cdef.instant_speed):
                continue
            if no_creatures and "Creature" in cdef.types:
                continue
            if sources is None:
                sources = self._mana_sources(pl)
                avail = sum(P.mana_pool) + len(sources)
            cost = cdef.cost
            if cdef.static or (mods and "spell_cost_more" in mods):
                cost = self._spell_cost(pl, card)
            if cost.cmc > avail:
                continue
            if self._can_cast(pl, card, sources, cost):
                opts.append(_play_action(card))
        if (sorcery_ok and P.lands_played < 1 and mods
                and pl in mods.get("play_lands_from_graveyard", ())):
            for card in P.graveyard:  # Crucible of Worlds
                if card.cdef.is_land:
                    opts.append(_play_from_graveyard_action(card))
        for perm in self.perms.values():
            if perm.controller != pl:
                continue
            acts = perm.activated  # its abilities now: printed, copied or granted (418.5)
            if not acts:
                continue
            n_nonmana = -1
            i = -1  # the ability's position in ``acts`` (cheaper than enumerate for 1-2 abilities)
            for ab in acts:
                i += 1
                if ab.tap_only:  # the common case (lands): {T} is the whole cost
                    if perm.tapped or (perm.sick and "Creature" in perm.types
                                       and "haste" not in perm.keywords):
                        continue
                elif not self._can_pay_nonmana(pl, perm, ab):
                    continue
                elif ab.mana is not None and not ab.cost.mana.free:
                    # A mana ability is offered only when its whole cost can be paid.
                    if sources is None:
                        sources = self._mana_sources(pl)
                    if not self._can_afford(pl, ab.cost.mana, sources,
                                            exclude=perm.id if ab.cost.tap else None):
                        continue
                if ab.mana is not None:
                    if acts is perm.base.activated:
                        for color in ab.mana:
                            opts.append(_mana_action(perm, ab, i, color))
                    else:
                        _add_granted_mana(opts, perm, acts, i)
                    continue
                if n_nonmana < 0:
                    n_nonmana = sum(1 for a in acts if a.mana is None)
                if pithed and perm.cdef.name in pithed:
                    continue
                if ab.sorcery_speed and not sorcery_ok:
                    continue
                if ab.max_per_turn and perm.used_this_turn.get(i, 0) >= ab.max_per_turn:
                    continue
                if sources is None:
                    sources = self._mana_sources(pl)
                if not self._can_afford(pl, ab.cost.mana, sources,
                                        exclude=perm.id if ab.cost.tap else None):
                    continue
                if not self._targets_available(pl, ab.targets, source=perm):
                    continue
                opts.append(_activate_action(perm, i, n_nonmana > 1))
        return opts

    def _can_cast(self, pl: int, card: Card, sources: list, cost: ManaCost | None = None) -> bool:
        """Can ``pl`` play ``card`` now with ``sources``: its total cost (``cost``, from
        :meth:`_spell_cost`; the printed cost if None), its additional costs and targets."""
        cdef = card.cdef
        if not cdef.implemented:
            return False
        if cost is None:
            cost = cdef.cost
        if not self._can_afford(pl, cost, sources):
            return False
        if cdef.x_color and self._max_x(pl, cost, None, cdef.x_color) < 0:
            return False
        if cdef.additional_cost is not None and not self._can_pay_additional(
                pl, cdef.additional_cost, card):
            return False
        if cdef.enchant is not None:
            return self._targets_available(pl, (cdef.enchant,), spell_card=card)
        if cdef.modes:
            return any(self._targets_available(pl, mode_targets(m), spell_card=card)
                       for m in cdef.modes)
        return self._targets_available(pl, cdef.spell_targets, spell_card=card)

    def _spell_cost(self, pl: int, card: Card) -> ManaCost:
        """The total cost of playing ``card`` as a spell (2007 CR 409.1f): its mana cost plus
        cost increases minus cost reductions; a generic reduction reduces only generic mana (it
        can't reduce colored requirements) and never below zero. X stays X (chosen later).

        Increases: ``spell_cost_more`` statics of the opponent's permanents (Aura of Silence:
        "Artifact and enchantment spells your opponents play cost {2} more to play").
        Reductions: the card's own ``self_cost_less`` static, which works from the hand (Avatar
        of Might: "If an opponent controls at least four more creatures than you, Avatar of
        Might costs {6} less to play")."""
        cdef = card.cdef
        cost = cdef.cost
        generic = cost.generic
        mods = self.rule_mods
        if mods and 1 - pl in mods.get("spell_cost_more", ()):
            types = cdef.types
            for p in self.perms.values():
                if p.controller != pl and p.static:
                    for s in p.static:
                        if s.kind == "spell_cost_more" and not types.isdisjoint(s.params["types"]):
                            generic += s.params["amount"]
        if cdef.static:
            for s in cdef.static:
                if s.kind == "self_cost_less":
                    mine = theirs = 0
                    for p in self.perms.values():
                        if "Creature" in p.types:
                            if p.controller == pl:
                                mine += 1
                            else:
                                theirs += 1
                    if theirs - mine >= s.params["opponent_more_creatures"]:
                        generic = max(0, generic - s.params["amount"])
        if generic == cost.generic:
            return cost
        return ManaCost(generic, cost.colored, cost.x)

    def _play_land(self, pl: int, card: Card) -> None:
        # 2007 CR 212.6: one land per turn, main phase, empty stack; doesn't use the stack.
        # From the hand, or from the graveyard with Crucible of Worlds.
        P = self.players[pl]
        if card in P.hand:
            P.hand.remove(card)
            self._log(f"player {pl} plays {card.label}")
        else:
            P.graveyard.remove(card)
            self.dirty = True  # graveyard counts (Mortivore, layer 6a)
            self._log(f"player {pl} plays {card.label} from their graveyard")
        P.lands_played += 1
        self._put_into_play(card, pl)

    def _begin_cast(self, pl: int, card: Card) -> None:
        P = self.players[pl]
        P.hand.remove(card)
        item = StackItem(self._id(), "spell", pl, card=card, label=card.label,
                         data={"card": card.cdef.name, "from_hand": True})
        self.stack.append(item)  # 2007 CR 409.1a: the card moves to the stack on announcement
        self.frames.append({"k": "cast", "pl": pl, "sid": item.id, "st": 0})

    def _begin_activate(self, pl: int, pid: int, ab_index: int) -> None:
        perm = self.perms[pid]
        item = StackItem(self._id(), "activated", pl, source=pid, source_name=perm.card.label,
                         ability=ab_index, label=perm.card.label,
                         data={"card": perm.cdef.name, "src_colors": "".join(sorted(perm.colors))},
                         ability_def=perm.activated[ab_index])
        if perm.chosen:  # "the chosen color" of its source, should the source leave play
            item.data["chosen"] = perm.chosen
        self.stack.append(item)
        self.frames.append({"k": "cast", "pl": pl, "sid": item.id, "st": 0})

    def _run_cast(self, f: dict) -> None:
        item = self._item(f["sid"])
        pl = f["pl"]
        specs, _, obj = self.item_def(item)
        st = f["st"]
        if st == 0:  # modes (2007 CR 409.1b)
            f["st"] = 1
            if item.kind == "spell" and item.card.cdef.modes:
                cdef = item.card.cdef
                opts = [Action("mode", f"mode {i + 1}: {m.get('text', '')}".rstrip(": "), (i,))
                        for i, m in enumerate(cdef.modes)
                        if self._targets_available(pl, mode_targets(m), spell_card=item.card)]
                self._ask(pl, K.MODE, opts, f"choose a mode for {item.label}",
                          {"stack_id": item.id})
                return
        if st == 1:  # X (2007 CR 409.1c)
            f["st"] = 2
            x_cost = None
            x_color = None
            exclude = None
            if item.kind == "spell" and item.card.cdef.x_spell:
                x_cost = self._spell_cost(pl, item.card)
                x_color = item.card.cdef.x_color
            elif item.kind == "activated" and obj.x:
                x_cost = obj.cost.mana
                exclude = item.source if obj.cost.tap else None
            if x_cost is not None:
                top = self._max_x(pl, x_cost, exclude, x_color)
                if specs and specs[-1].count == "X":
                    # "X target cards": X can't exceed the legal targets (2012 601.2c)
                    top = min(top, len(self._legal_targets(pl, specs[-1], item=item)))
                elif specs and specs[-1].divided and not self._legal_targets(
                        pl, specs[-1], item=item, first_only=True):
                    # X damage divided among targets: each gets at least 1, so X > 0 needs
                    # a target (2012 601.2d)
                    top = 0
                opts = [Action("x", f"X={n}", (n,)) for n in range(max(top, 0) + 1)]
                self._ask(pl, K.X_VALUE, opts, f"choose X for {item.label}", {"stack_id": item.id})
                return
        if st == 2:  # targets (2007 CR 409.1d), one decision per target
            ti = len(item.targets)
            if specs and specs[-1].count is not None and ti >= len(specs) - 1:
                # "up to N" / "X target ...": one decision per target, "done" once enough
                if self._ask_counted_target(f, pl, item, specs[-1], len(specs) - 1):
                    return
                if specs[-1].divided and self._ask_division(pl, item, len(specs) - 1):
                    return
                ti = len(specs)
            if ti < len(specs):
                spec = specs[ti]
                cands = self._legal_targets(pl, spec, item=item, source=self.perms.get(item.source))
                if any(s.distinct for s in specs):
                    cands = self._distinct_candidates(pl, specs, item, cands)
                if not cands:
                    # Only reachable for triggers (spells/abilities are offered only with targets).
                    self._log(f"ability of {item.label}: no legal target, removed")
                    self.stack.remove(item)
                    self.frames.pop()
                    return
                opts = [Action("target", "target " + self._ref_text(r), (r,)) for r in cands]
                self._ask(pl, K.TARGET, opts, f"choose target {ti + 1} for {item.label}: "
                          + (spec.text or spec.kind), {"stack_id": item.id, "target_index": ti})
                return
            f["st"] = 3
        if st == 3:  # costs (2007 CR 409.1f-h)
            f["st"] = 4
            f["tt"] = self._targets_text(item)
            if f.get("trigger"):
                self.frames.pop()
                self._log(f"ability of {item.label} triggers" + f["tt"])
                return
            if item.kind == "spell":
                cdef = item.card.cdef
                total = self._spell_cost(pl, item.card)  # 2007 CR 409.1f
                cost = total.with_x(item.x) if cdef.x_spell else total
                if cdef.x_color and item.x:
                    cost = ManaCost(total.generic, add_colored(total.colored, cdef.x_color,
                                                               item.x * total.x))
                add = cdef.additional_cost
                if add is not None and (add.sacrifice or add.discard):
                    self._push_cost_choices(pl, add, item)
                    f["mana"] = [cost.generic, list(cost.colored)]
                    return
                self._pay_mana(pl, cost)
                if add is not None and add.sacrifice_all is not None:
                    self._sacrifice_all(pl, add, item)
            else:
                ab = obj
                perm = self.perms[item.source]
                cost = ab.cost.mana.with_x(item.x) if ab.x else ab.cost.mana
                if ab.cost.tap:
                    perm.tapped = True
                self._pay_mana(pl, cost, exclude=perm.id if ab.cost.tap else None)
                if ab.cost.sacrifice_all is not None:
                    self._sacrifice_all(pl, ab.cost, item)
                if ab.cost.pay_life:
                    self._lose_life(pl, ab.cost.pay_life)
                    self._log(f"player {pl} pays {ab.cost.pay_life} life (life {self.players[pl].life})")
                perm.used_this_turn[item.ability] = perm.used_this_turn.get(item.ability, 0) + 1
                if ab.cost.sacrifice or ab.cost.discard:
                    self._push_cost_choices(pl, ab.cost, item)
                    if ab.cost.sacrifice_self:
                        f["sac_self"] = True
                    return
                if ab.cost.sacrifice_self:
                    self._leave_play(perm, "graveyard", sacrifice=True)
            if self.frames[-1] is not f:
                return  # a mana ability's damage waits for its order decision (painland, 616.1)
        if f["st"] == 4:
            if "mana" in f:
                gen, col = f.pop("mana")
                self._pay_mana(pl, ManaCost(gen, tuple(col)))
                add = item.card.cdef.additional_cost if item.kind == "spell" else None
                if add is not None and add.sacrifice_all is not None:
                    self._sacrifice_all(pl, add, item)
                if self.frames[-1] is not f:
                    return  # a replacement order decision (a painland's damage) comes first
            if f.pop("sac_self", False) and item.source in self.perms:
                self._leave_play(self.perms[item.source], "graveyard", sacrifice=True)
            self.frames.pop()
            self._finish_cast(item, f.get("tt", ""))

    def _ask_counted_target(self, f: dict, pl: int, item: StackItem, spec, first: int) -> bool:
        """Ask for the next target of a spec taking a variable number of different targets
        (targets ``first`` on); False once no more can or will be chosen. "done" is offered once
        the minimum is reached (2007 CR 409.1d; 2012 601.2c: the same object can't be chosen
        twice for one word "target")."""
        lo, hi = target_count(item, spec)
        if spec.divided:  # each target gets at least 1 of the amount divided (2012 601.2d)
            total = self.divided_total(item)
            lo, hi = min(max(lo, 1), total), min(hi, total)
        chosen = [tuple(t) for t in item.targets[first:]]
        n = len(chosen)
        if f.get("tdone") or n >= hi:
            return False
        cands = [c for c in self._legal_targets(pl, spec, item=item,
                                                source=self.perms.get(item.source))
                 if tuple(c) not in chosen]
        if not cands:
            if n < lo:  # X is offered only up to the number of legal targets
                raise MtgError(f"engine error: {item.label} needs {lo} targets, has {n}")
            return False
        opts = [Action("target", "target " + self._ref_text(r), (r,)) for r in cands]
        if n >= lo:
            opts.insert(0, DONE)
        self._ask(pl, K.TARGET, opts, f"choose target {first + n + 1} for {item.label}: "
                  + (spec.text or spec.kind) + f" ({n} of up to {hi} chosen)",
                  {"stack_id": item.id, "target_index": first + n})
        return True

    def divided_total(self, item: StackItem) -> int:
        """The amount a spell or ability divides among its ``divided`` targets: the amount of
        its effect marked ``divided`` (X is chosen before the targets, 2007 CR 409.1c-d)."""
        for e in self.item_def(item)[1]:
            args = getattr(e, "args", None)
            if args is not None and getattr(args, "divided", False):
                return max(args.amount(self, item), 0)
        return 0

    def _ask_division(self, pl: int, item: StackItem, first: int) -> bool:
        """Divide the amount among the targets from ``first`` on as the spell is played (2007 CR
        409.1d, 2012 601.2d): one decision per target but the last, which gets the rest; each
        target gets at least 1. The shares are ``item.data["divided"]``, ``[kind, id, n]`` in
        target order. False once the division is complete."""
        targets = item.targets[first:]
        n = len(targets)
        if not n:
            return False
        shares = item.data.setdefault("divided", [])
        total = self.divided_total(item)
        while len(shares) < n:
            i = len(shares)
            rem = total - sum(e[2] for e in shares)
            hi = rem - (n - 1 - i)  # leave at least 1 for each later target
            kind, v = targets[i]
            if i == n - 1 or hi <= 1:
                shares.append([kind, v, rem if i == n - 1 else 1])
                continue
            name = self._ref_text(targets[i])
            opts = [Action("assign", f"assign {k} damage to {name}", (k,))
                    for k in range(1, hi + 1)]
            self._ask(pl, K.DIVIDE, opts, f"{item.label}: divide {rem} damage ({n - i} "
                      "targets left)", {"stack_id": item.id, "remaining": rem,
                                        "recipient": [kind, v],
                                        "divided": [list(e) for e in shares]})
            return True
        return False

    def _answer_cast(self, f: dict, a: Action) -> None:
        item = self._item(f["sid"])
        if a.verb == "done":  # no more targets for a counted target spec
            f["tdone"] = True
        elif a.verb == "assign":  # a target's share of the divided amount
            shares = item.data["divided"]
            first = len(self.item_def(item)[0]) - 1
            kind, v = item.targets[first + len(shares)]
            shares.append([kind, v, a.args[0]])
        elif a.verb == "mode":
            item.mode = a.args[0]
        elif a.verb == "x":
            item.x = a.args[0]
        elif a.verb == "target":
            item.targets.append(a.args[0])

    def _push_cost_choices(self, pl: int, cost, item: StackItem) -> None:
        if cost.sacrifice:
            cands = [("o", p.id) for p in self.perms.values()
                     if p.controller == pl and cost.sacrifice_filter.test(p, pl)]
            self.frames.append(self._choose_frame(pl, cands, 1, 1, "sacrifice",
                                                  f"sacrifice to pay for {item.label}"))
        if cost.discard:
            flt = cost.discard_filter
            cands = [("h", c.cid) for c in self.players[pl].hand
                     if flt is None or flt.test(c, pl)]
            self.frames.append(self._choose_frame(pl, cands, cost.discard, cost.discard, "discard",
                                                  f"discard to pay for {item.label}"))

    def _sacrifice_all(self, pl: int, cost, item: StackItem) -> None:
        """Pay "sacrifice all creatures you control" (Soulblast), after the mana (so a creature
        may first be tapped for mana, 2007 CR 409.1g-h). Their total power as they were last
        in play is kept for ``{sacrificed: power}``."""
        self._fresh()
        test = cost.sacrifice_all.test
        gone = [p for p in self.perms.values() if p.controller == pl and test(p, pl)]
        item.data["sacrificed_power"] = sum(p.power for p in gone)
        self._leave_play_together(gone, "graveyard", sacrifice=True)  # one event

    def _finish_cast(self, item: StackItem, targets_text: str) -> None:
        pl = item.controller
        if item.kind == "spell":
            self.players[pl].spells_played_this_turn += 1
            self._log(f"player {pl} plays {item.label}" + targets_text)
            cdef = item.card.cdef
            self._event("cast", player=pl, colors="".join(sorted(cdef.colors)), sid=item.id)
        else:
            self._log(f"player {pl} activates ability of {item.label}" + targets_text)
        self.prio = pl
        self.passes = 0

    def _can_pay_nonmana(self, pl: int, perm: Permanent, ab) -> bool:
        c = ab.cost
        if c.tap:
            if perm.tapped:
                return False
            if perm.is_creature and perm.sick and "haste" not in perm.keywords:
                return False  # 2007 CR 212.3d
        if c.pay_life and self.players[pl].life < c.pay_life:
            return False
        if c.sacrifice and not any(p.controller == pl and c.sacrifice_filter.test(p, pl)
                                   for p in self.perms.values()):
            return False
        if c.discard and _discardable(self.players[pl].hand, c, pl) < c.discard:
            return False
        return not (ab.condition and not fx.check_condition(self, ab.condition, pl, perm))

    def _can_pay_additional(self, pl: int, cost, card: Card | None = None) -> bool:
        if cost.pay_life and self.players[pl].life < cost.pay_life:
            return False
        if cost.sacrifice and not any(p.controller == pl and cost.sacrifice_filter.test(p, pl)
                                      for p in self.perms.values()):
            return False
        # The spell itself is on the stack when the cost is paid, not in the hand.
        hand = [c for c in self.players[pl].hand if c is not card]
        return not (cost.discard and _discardable(hand, cost, pl) < cost.discard)


def _discardable(hand: list[Card], cost, pl: int) -> int:
    """How many cards of ``hand`` a discard cost accepts ("discard a land card")."""
    flt = cost.discard_filter
    return len(hand) if flt is None else sum(1 for c in hand if flt.test(c, pl))


_ACTION_CACHE: dict[tuple, Action] = {}


def _cached(key: tuple, verb: str, text: Callable[[], str], args: tuple) -> Action:
    """Option objects are immutable, so the same option is built once and reused."""
    a = _ACTION_CACHE.get(key)
    if a is None:
        if len(_ACTION_CACHE) > 100_000:
            _ACTION_CACHE.clear()
        a = _ACTION_CACHE[key] = Action(verb, text(), args)
    return a


def _play_action(card: Card) -> Action:
    return _cached(("play", card.cid, card.label), "play", lambda: "play " + card.label,
                   (card.cid,))


def _play_from_graveyard_action(card: Card) -> Action:
    """Play a land card from the graveyard (Crucible of Worlds): the same ``play`` verb, which
    the env maps to the card's graveyard row."""
    return _cached(("play_gy", card.cid, card.label), "play",
                   lambda: f"play {card.label} from graveyard", (card.cid,))


def _activate_action(perm: Permanent, index: int, numbered: bool) -> Action:
    """``index`` is the ability's position among the permanent's abilities now (printed first,
    then granted ones)."""
    label = perm.card.label
    return _cached(("activate", perm.id, label, index, numbered), "activate",
                   lambda: f"activate {label}" + (f" ability {index + 1}" if numbered else ""),
                   (perm.id, index))


def _add_granted_mana(opts: list[Action], perm: Permanent, acts: tuple, i: int) -> None:
    """Offer mana ability ``acts[i]`` of a permanent with granted abilities (Joiner Adept's
    "{T}: Add one mana of any color" on a Swamp): an option whose text another of its mana
    abilities already offers is offered once, by the ability without a side effect (a painland's
    colored mana from the granted ability, not its own painful one)."""
    ab = acts[i]
    for color in ab.mana:
        act = _mana_action(perm, ab, i, color)
        for k, o in enumerate(opts):
            if o.text == act.text:
                if acts[o.args[1]].effects and not ab.effects:
                    opts[k] = act
                break
        else:
            opts.append(act)


def _mana_action(perm: Permanent, ab, index: int, color: str) -> Action:
    label = perm.card.label
    return _cached(("mana", perm.id, label, index, color, ab), "mana",
                   lambda: f"{'tap' if ab.cost.tap else 'activate'} {label} for "
                           f"{color * ab.mana_amount}" if color
                           # no mana of its own (Doubling Cube); distinct from a non-mana ability
                           else f"activate {label} (mana ability)",
                   (perm.id, index, color))


_PASS_ONLY: dict[int, Decision] = {}


def _pass_only_decision(pl: int) -> Decision:
    """One shared, immutable decision object for the common pass-only priority."""
    d = _PASS_ONLY.get(pl)
    if d is None:
        d = Decision(pl, K.PRIORITY, [PASS], f"player {pl}: priority (nothing to do but pass)")
        _PASS_ONLY[pl] = d
    return d
