"""The game: a state machine driven from outside (ARCHITECTURE.md).

The engine never calls a player. It runs game actions, state-based effects and triggers until a
player must choose, then stops with a :class:`Decision` listing every legal option;
:meth:`Game.apply` takes one option and runs to the next decision.

Procedures that need several choices (playing a spell, declaring attackers, dividing combat
damage, resolving an effect that asks for a card) are *frames*: plain dicts on ``self.frames``
holding where they are. Frames make the whole state plain data, so ``copy()`` and ``to_json()``
need no generators or closures.

Rule numbers in comments are 2007 CR numbers where known, else 2012 CR numbers.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import effects as fx
from .actions import DONE, KEEP, MULLIGAN, NO, PASS, YES, Action, Decision, DecisionKind
from .errors import IllegalActionError, MtgError
from .mana import plan_payment
from .model import (
    COLORS,
    Card,
    CardDef,
    ManaCost,
    Permanent,
    Player,
    StackItem,
    TargetSpec,
)
from .registry import get_card
from .rng import Rng
from .rules import block_allowed, protected_from, tap_mana_ability

STEPS = (
    "untap", "upkeep", "draw", "precombat_main", "beginning_of_combat", "declare_attackers",
    "declare_blockers", "combat_damage", "end_of_combat", "postcombat_main", "end_of_turn",
    "cleanup",
)
STEP_INDEX = {s: i for i, s in enumerate(STEPS)}
MAIN_STEPS = frozenset({"precombat_main", "postcombat_main"})
# 2007 CR 300.3: mana pools empty when a *phase* ends; these are the last steps of each phase.
PHASE_END_STEPS = frozenset({"draw", "precombat_main", "end_of_combat", "postcombat_main", "cleanup"})
COMBAT_STEPS = frozenset({"beginning_of_combat", "declare_attackers", "declare_blockers",
                          "combat_damage", "end_of_combat"})
MAX_HAND_SIZE = 7

K = DecisionKind


class Game:
    """A two-player game of Magic under the Tenth Edition (2007) rules.

    Create one with :meth:`new`, :meth:`from_position` or :meth:`from_json`; read
    :attr:`decision`; advance with :meth:`apply`.
    """

    # -- construction -------------------------------------------------------------------
    def __init__(self) -> None:
        self.players: list[Player] = [Player(0), Player(1)]
        self.cards: dict[int, Card] = {}
        self.perms: dict[int, Permanent] = {}
        self.stack: list[StackItem] = []
        self.effects: list[dict] = []
        self.turn = 1
        self.step = "untap"
        self.active = 0
        self.starting_player = 0
        self.prio = -1
        self.passes = 0
        self.step_begun = False
        self.fs_step = False
        self.fs_checked = False
        self.any_attackers = False
        self.cleanup_prio = False
        self.frames: list[dict] = []
        self.decision: Decision | None = None
        self.rng = Rng(0)
        self.next_id = 1
        self.ts = 1
        self.log: list[str] = []
        self.winner: int | None = None
        self.is_over = False
        self.end_reason = ""
        self.pending: list[dict] = []
        self.dirty = True
        self.label_counts: dict[str, int] = {}
        self.manual_mana = False
        self.skip_trivial = False
        self.max_turns: int | None = None
        self.max_decisions: int | None = None
        self.decisions_made = 0
        self.auto_applied = 0
        self.no_mana_empty = False
        self._ll: dict[int, int] = {}
        self._ll_acc: dict[int, int] = {}
        self._quiet = False

    @classmethod
    def new(cls, decks: list, seed: int = 0, starting_player: int | None = None,
            manual_mana: bool = False, skip_trivial: bool = False,
            max_turns: int | None = None, max_decisions: int | None = None) -> Game:
        """Start a game between two decks (``Deck`` objects or lists of card names).

        One seeded RNG drives every shuffle and random choice. With ``starting_player=None`` a
        seeded coin flip decides who plays first (2007 CR 101.2). ``max_turns`` and
        ``max_decisions`` end a runaway game as a draw (``end_reason`` says which).
        """
        if len(decks) != 2:
            raise MtgError("a game needs exactly two decks")
        g = cls()
        g.rng = Rng(seed)
        g.manual_mana = manual_mana
        g.skip_trivial = skip_trivial
        g.max_turns = max_turns
        g.max_decisions = max_decisions
        for pl, deck in enumerate(decks):
            names = deck.card_names() if hasattr(deck, "card_names") else list(deck)
            for name in names:
                card = g._new_card(get_card(name), pl)
                g.players[pl].library.append(card)
        for pl in (0, 1):
            g.rng.shuffle(g.players[pl].library)
        if starting_player is None:
            starting_player = g.rng.below(2)
            g._log(f"coin flip: player {starting_player} plays first")
        if starting_player not in (0, 1):
            raise MtgError("starting_player must be 0, 1 or None")
        g.starting_player = starting_player
        g.active = starting_player
        for pl in (starting_player, 1 - starting_player):
            g._draw(pl, 7)
        # 2007 CR 101.4: the starting player takes all their mulligans first.
        g.frames.append({"k": "mulligan", "pl": starting_player, "second": False})
        g._run()
        return g

    def _new_card(self, cdef: CardDef, owner: int) -> Card:
        n = self.label_counts.get(cdef.name, 0) + 1
        self.label_counts[cdef.name] = n
        label = cdef.name if n == 1 else f"{cdef.name}#{n}"
        card = Card(self.next_id, cdef, owner, label)
        self.next_id += 1
        self.cards[card.cid] = card
        return card

    # -- public API ---------------------------------------------------------------------
    @property
    def permanents(self) -> list[Permanent]:
        """Every permanent in play, characteristics up to date."""
        self._fresh()
        return list(self.perms.values())

    def legal_actions(self) -> list[Action]:
        """The options of the pending decision (empty when the game is over)."""
        return list(self.decision.options) if self.decision else []

    def apply(self, action: Action | str) -> None:
        """Take one option of the pending decision, given as an Action or its exact text.

        Raises :class:`IllegalActionError` (listing what is legal) for anything else; the
        state is then unchanged.
        """
        d = self.decision
        if d is None:
            raise IllegalActionError("the game is over: no decision is pending")
        chosen = None
        if isinstance(action, str):
            text = action
            chosen = d.find(text)
        else:
            text = action.text
            for o in d.options:  # agents usually hand back the very object offered
                if o is action:
                    chosen = o
                    break
            else:
                chosen = d.find(text)
                if chosen is not None and chosen != action:
                    chosen = None
        if chosen is None:
            legal = ", ".join(repr(a.text) for a in d.options)
            raise IllegalActionError(
                f"{text!r} is not a legal option for player {d.player}'s {d.kind.value} "
                f"decision ({d.prompt}); legal: {legal}")
        self.decisions_made += 1
        self.decision = None
        self._answer(d, chosen)
        self._run()
        if self.max_decisions is not None and self.decisions_made >= self.max_decisions:
            self._log(f"decision limit {self.max_decisions} reached")
            self._end_game([0, 1], "decision limit")

    def concede(self, player: int) -> None:
        """Player concedes (CR 102.3a): they lose at once."""
        if self.is_over:
            return
        self.players[player].conceded = True
        self._log(f"player {player} concedes")
        self._end_game([player], "concession")

    def view(self, player: int):
        """The redacted view of the game for ``player`` (see :mod:`mtg_env.engine.view`)."""
        from .view import view_for
        return view_for(self, player)

    @property
    def active_player(self) -> int:
        return self.active

    @property
    def priority_player(self) -> int | None:
        return self.prio if self.prio >= 0 else None

    def copy(self) -> Game:
        """An independent copy: flat data, no deepcopy (for search agents)."""
        g = Game.__new__(Game)
        g.players = [p.clone() for p in self.players]
        g.cards = self.cards.copy()
        g.perms = {k: v.clone() for k, v in self.perms.items()}
        g.stack = [s.clone() for s in self.stack]
        g.effects = [dict(e) for e in self.effects]
        g.turn = self.turn
        g.step = self.step
        g.active = self.active
        g.starting_player = self.starting_player
        g.prio = self.prio
        g.passes = self.passes
        g.step_begun = self.step_begun
        g.fs_step = self.fs_step
        g.fs_checked = self.fs_checked
        g.any_attackers = self.any_attackers
        g.cleanup_prio = self.cleanup_prio
        g.frames = [_copy_frame(f) for f in self.frames]
        g.decision = self.decision  # decisions are never mutated, so sharing is safe
        g.rng = Rng(self.rng.state)
        g.next_id = self.next_id
        g.ts = self.ts
        g.log = self.log[:]
        g.winner = self.winner
        g.is_over = self.is_over
        g.end_reason = self.end_reason
        g.pending = [dict(t) for t in self.pending]
        g.dirty = self.dirty
        g.label_counts = self.label_counts.copy()
        g.manual_mana = self.manual_mana
        g.skip_trivial = self.skip_trivial
        g.max_turns = self.max_turns
        g.max_decisions = self.max_decisions
        g.decisions_made = self.decisions_made
        g.auto_applied = self.auto_applied
        g.no_mana_empty = self.no_mana_empty
        g._ll = self._ll
        g._ll_acc = dict(self._ll_acc)
        g._quiet = self._quiet
        return g

    def determinize(self, player: int, seed: int) -> Game:
        """A copy in which what ``player`` can't see is resampled: the opponent's hand and
        library are reshuffled together (same sizes), and both libraries' order is shuffled.

        Search agents (information-set MCTS) plan on such copies; the deck lists are treated
        as known, the opponent's hand and every library order as hidden.
        """
        g = self.copy()
        rng = Rng(seed)
        opp = g.players[1 - player]
        in_hand = {c.cid for c in opp.hand}
        revealed = any(c[0] == "h" and c[1] in in_hand
                       for f in g.frames for c in f.get("cands", ()))
        if revealed:  # the hand is being looked at right now (Thrull Surgeon): it is known
            rng.shuffle(opp.library)
        else:
            pool = opp.hand + opp.library
            rng.shuffle(pool)
            opp.hand = pool[: len(opp.hand)]
            opp.library = pool[len(opp.hand):]
        rng.shuffle(g.players[player].library)
        return g

    def to_json(self) -> str:
        from .serialize import game_to_json
        return game_to_json(self)

    @classmethod
    def from_json(cls, text: str) -> Game:
        from .serialize import game_from_json
        return game_from_json(text)

    @classmethod
    def from_position(cls, data: dict, **options: Any) -> Game:
        from .position import game_from_position
        return game_from_position(data, **options)

    @classmethod
    def load_position(cls, path: str, **options: Any) -> Game:
        from .position import load_position
        return load_position(path, **options)

    def perm(self, pid: int) -> Permanent | None:
        return self.perms.get(pid)

    def find_permanent(self, label: str) -> Permanent:
        """The permanent in play with this label (``Grizzly Bears`` or ``Grizzly Bears#2``)."""
        self._fresh()
        for p in self.perms.values():
            if p.card.label == label:
                return p
        raise KeyError(f"no permanent labelled {label!r} in play")

    def __repr__(self) -> str:
        return (f"<Game turn={self.turn} step={self.step} active={self.active} "
                f"life={self.players[0].life}/{self.players[1].life}>")

    # -- main loop ----------------------------------------------------------------------
    def _run(self) -> None:
        while True:
            while self.decision is None and not self.is_over:
                if self.frames:
                    f = self.frames[-1]
                    _RUN[f["k"]](self, f)
                else:
                    self._flow()
            d = self.decision
            if d is None or not self.skip_trivial or len(d.options) != 1:
                return
            self.auto_applied += 1
            self.decisions_made += 1
            self.decision = None
            self._answer(d, d.options[0])

    def _ask(self, player: int, kind: DecisionKind, options: list[Action], prompt: str,
             context: dict | None = None) -> None:
        self.decision = Decision(player, kind, options, prompt, context)

    def _answer(self, d: Decision, a: Action) -> None:
        if self.frames:
            f = self.frames[-1]
            _ANSWER[f["k"]](self, f, a)
        else:
            self._answer_priority(d.player, a)

    def _log(self, text: str) -> None:
        self.log.append(text)

    def _end_game(self, losers: list[int], reason: str) -> None:
        if self.is_over:
            return
        self.is_over = True
        self.decision = None
        self.frames.clear()
        self.end_reason = reason
        if len(losers) >= 2:
            self.winner = None
            self._log(f"game over: draw ({reason})")
        else:
            self.winner = 1 - losers[0]
            self._log(f"game over: player {self.winner} wins ({reason})")

    # -- turn structure -----------------------------------------------------------------
    def _flow(self) -> None:
        if not self.step_begun:
            self.step_begun = True
            self._begin_step()
            return
        step = self.step
        if step == "untap":
            self._end_step()
            return
        if step == "cleanup" and not self.cleanup_prio:
            acted = self._sba_loop()
            if self.is_over:
                return
            if acted or self.pending:
                self.cleanup_prio = True  # 2012 514.3a: priority, then another cleanup step
            else:
                self._end_step()
                return
        if self.prio < 0:
            self.prio = self.active
            self.passes = 0
        # 2007 CR 420.3: SBEs until none, then triggers, then priority.
        if self._quiet:
            self._quiet = False
        else:
            self._sba_loop()
            if self.is_over:
                return
        if self.pending:
            self._push_triggers()
            return
        self._ask_priority(self.prio)

    def _begin_step(self) -> None:
        step = self.step
        ap = self.active
        if step == "untap":
            self._log(f"--- turn {self.turn}: player {ap} ---")
            P = self.players[ap]
            P.lands_played = 0
            for p in self.players:
                p.life_lost_this_turn = 0
                p.damage_taken_this_turn = 0
            for perm in self.perms.values():
                perm.used_this_turn = {}
                if perm.controller == ap:
                    perm.sick = False
                    if perm.tapped and not self._doesnt_untap(perm):
                        perm.tapped = False
        elif step == "upkeep":
            self._event("upkeep", player=ap)
        elif step == "draw":
            if self.turn == 1:
                self._log(f"player {ap} skips the first draw (play/draw rule)")
            else:
                self._draw(ap, 1)
        elif step == "declare_attackers":
            self.any_attackers = False
            self.frames.append({"k": "attack", "pl": ap, "declared": []})
        elif step == "declare_blockers":
            self.frames.append({"k": "block", "pl": 1 - ap, "pairs": []})
        elif step == "combat_damage":
            self._begin_combat_damage()
        elif step == "end_of_turn":
            self._event("end_of_turn", player=ap)
        elif step == "cleanup":
            self.cleanup_prio = False
            self.frames.append({"k": "cleanup"})
            excess = len(self.players[ap].hand) - MAX_HAND_SIZE
            if excess > 0:
                self.frames.append(self._choose_frame(
                    ap, [("h", c.cid) for c in self.players[ap].hand], excess, excess,
                    "discard", f"discard {excess} card(s) down to {MAX_HAND_SIZE}"))

    def _end_step(self) -> None:
        step = self.step
        self.prio = -1
        self.passes = 0
        self.step_begun = False
        if step == "cleanup" and self.cleanup_prio:
            return  # 2012 514.3a: after priority in a cleanup step, another cleanup step follows
        if step in PHASE_END_STEPS:
            self._empty_pools()
        if step == "end_of_combat":
            self._end_combat()
        if step == "cleanup":
            self._next_turn()
            return
        if step == "combat_damage" and self.fs_step:
            self.fs_step = False  # 2007 CR 310.5: a second combat damage step follows
            return
        if step == "declare_attackers" and not self.any_attackers:
            self.step = "end_of_combat"  # 2012 508.8: skip blockers and damage
            return
        self.step = STEPS[STEP_INDEX[step] + 1]

    def _next_turn(self) -> None:
        if self.max_turns is not None and self.turn >= self.max_turns:
            self._log(f"turn limit {self.max_turns} reached")
            self._end_game([0, 1], "turn limit")
            return
        self.turn += 1
        self.active = 1 - self.active
        self.step = "untap"

    def _empty_pools(self) -> None:
        """2007 CR 300.3: pools empty at the end of each phase; each player loses 1 life per
        unspent mana (mana burn: life loss, not damage)."""
        self._fresh()
        if self.no_mana_empty:
            return
        for P in self.players:
            n = sum(P.mana_pool)
            if n:
                P.mana_pool = [0, 0, 0, 0, 0, 0]
                self._lose_life(P.index, n)
                self._log(f"player {P.index} burns for {n} (unspent mana)")

    def _doesnt_untap(self, perm: Permanent) -> bool:
        return "doesnt_untap" in perm.keywords

    # -- priority -----------------------------------------------------------------------
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
            ability = self.perms[pid].card.cdef.activated[ab]
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
        for card in P.hand:
            cdef = card.cdef
            if cdef.is_land:
                if sorcery_ok and P.lands_played < 1:
                    opts.append(_play_action(card))
                continue
            if not (sorcery_ok or cdef.instant_speed):
                continue
            if sources is None:
                sources = self._mana_sources(pl)
                avail = sum(P.mana_pool) + len(sources)
            if cdef.cost.cmc > avail:
                continue
            if self._can_cast(pl, card, sources):
                opts.append(_play_action(card))
        for perm in self.perms.values():
            if perm.controller != pl:
                continue
            acts = perm.card.cdef.activated
            if not acts:
                continue
            n_nonmana = -1
            for ab in acts:
                if ab.tap_only:  # the common case (lands): {T} is the whole cost
                    if perm.tapped or (perm.sick and "Creature" in perm.types
                                       and "haste" not in perm.keywords):
                        continue
                elif not self._can_pay_nonmana(pl, perm, ab):
                    continue
                if ab.mana is not None:
                    for color in ab.mana:
                        opts.append(_mana_action(perm, ab, color))
                    continue
                if n_nonmana < 0:
                    n_nonmana = sum(1 for a in acts if a.mana is None)
                if ab.sorcery_speed and not sorcery_ok:
                    continue
                if ab.max_per_turn and perm.used_this_turn.get(ab.index, 0) >= ab.max_per_turn:
                    continue
                if sources is None:
                    sources = self._mana_sources(pl)
                if not self._can_afford(pl, ab.cost.mana, sources,
                                        exclude=perm.id if ab.cost.tap else None):
                    continue
                if not self._targets_available(pl, ab.targets, source=perm):
                    continue
                opts.append(_activate_action(perm, ab, n_nonmana > 1))
        return opts

    def _can_cast(self, pl: int, card: Card, sources: list) -> bool:
        cdef = card.cdef
        if not cdef.implemented:
            return False
        cost = cdef.cost
        if not self._can_afford(pl, cost, sources):
            return False
        if cdef.x_color and not self.x_color_ok(pl, cdef, sources):
            return False
        if cdef.additional_cost is not None and not self._can_pay_additional(pl, cdef.additional_cost):
            return False
        if cdef.enchant is not None:
            return self._targets_available(pl, (cdef.enchant,), spell_card=card)
        if cdef.modes:
            return any(self._targets_available(pl, _mode_targets(m), spell_card=card)
                       for m in cdef.modes)
        return self._targets_available(pl, cdef.spell_targets, spell_card=card)

    # -- mana ---------------------------------------------------------------------------
    def _mana_sources(self, pl: int, exclude: int | None = None) -> list:
        """Untapped mana abilities with only a tap cost that ``pl`` could activate now."""
        out = []
        for perm in self.perms.values():
            if perm.controller != pl or perm.tapped or perm.id == exclude:
                continue
            ab = tap_mana_ability(perm)
            if ab is not None:
                out.append((perm.id, ab.index, "".join(ab.mana)))
        return out

    def _color_value(self, pl: int) -> list[float]:
        val = [0.0] * 6
        for card in self.players[pl].hand:
            for i, n in enumerate(card.cdef.cost.colored):
                val[i] += n
        return val

    def _can_afford(self, pl: int, cost: ManaCost, sources: list,
                    exclude: int | None = None) -> bool:
        if cost.free:
            return True
        P = self.players[pl]
        if self.manual_mana:
            return plan_payment(P.mana_pool, cost.colored, cost.generic, ()) is not None
        if exclude is not None:
            sources = [s for s in sources if s[0] != exclude]
        pool = P.mana_pool
        if cost.cmc > sum(pool) + len(sources):
            return False
        # Fast path: with only one-color sources, per-color counts decide it exactly.
        counts = list(pool[:5])
        for s in sources:
            c = s[2]
            if len(c) != 1:
                return plan_payment(pool, cost.colored, cost.generic, sources) is not None
            if c != "C":
                counts["WUBRG".index(c)] += 1
        return all(need <= have for need, have in zip(cost.colored, counts))

    def _max_x(self, pl: int, cost: ManaCost, exclude: int | None = None,
               x_color: str | None = None) -> int:
        P = self.players[pl]
        sources = [] if self.manual_mana else self._mana_sources(pl, exclude)
        if plan_payment(P.mana_pool, cost.colored, cost.generic, sources) is None:
            return -1
        top = (sum(P.mana_pool) + len(sources) - cost.cmc) // max(cost.x, 1)
        if x_color:
            # "Spend only [color] mana on X": X is paid as extra colored symbols.
            while top > 0 and plan_payment(P.mana_pool, _add_colored(cost.colored, x_color, top * cost.x),
                                           cost.generic, sources) is None:
                top -= 1
        return top

    def x_color_ok(self, pl: int, cdef: CardDef, sources: list) -> bool:
        return self._max_x(pl, cdef.cost, None, cdef.x_color) >= 0

    def _pay_mana(self, pl: int, cost: ManaCost, exclude: int | None = None) -> None:
        if cost.is_free():
            return
        P = self.players[pl]
        sources = [] if self.manual_mana else self._mana_sources(pl, exclude)
        plan = plan_payment(P.mana_pool, cost.colored, cost.generic, sources,
                            self._color_value(pl))
        if plan is None:  # guarded by the option generators; reaching here is an engine bug
            raise MtgError(f"engine error: cannot pay {cost.text} for player {pl}")
        spend, taps = plan
        for si, color in taps:
            pid, ab, _ = sources[si]
            self._activate_mana(pid, ab, color)
        spent = [0] * 6
        for i in range(6):
            spent[i] = spend[i]
        # The mana just made goes to the remaining symbols.
        pool = P.mana_pool
        for i in range(6):
            pool[i] -= spend[i]
        made = [0] * 6
        for _, color in taps:
            made["WUBRGC".index(color)] += 1
        for i in range(6):
            pool[i] -= made[i]
        if min(pool) < 0:
            raise MtgError("engine error: mana pool went negative")

    def _activate_mana(self, pid: int, ab_index: int, color: str) -> None:
        """Play a mana ability (2007 CR 411): no stack, resolves at once."""
        perm = self.perms[pid]
        ab = perm.cdef.activated[ab_index]
        c = ab.cost
        if c.tap:
            perm.tapped = True
        if c.mana.cmc:
            self._pay_mana(perm.controller, c.mana)
        if c.pay_life:
            self._lose_life(perm.controller, c.pay_life)
        self.players[perm.controller].mana_pool["WUBRGC".index(color)] += ab.mana_amount
        for spec in ab.effects:  # side effects such as painlands' damage
            item = StackItem(0, "activated", perm.controller, source=pid,
                             source_name=perm.card.label, ability=ab_index,
                             data={"card": perm.cdef.name})
            fx.OPS[spec["op"]](self, item, spec)
        if c.sacrifice_self:
            self._leave_play(perm, "graveyard", sacrifice=True)

    # -- playing lands, spells and abilities -------------------------------------------
    def _play_land(self, pl: int, card: Card) -> None:
        # 2007 CR 212.6: one land per turn, main phase, empty stack; doesn't use the stack.
        P = self.players[pl]
        P.hand.remove(card)
        P.lands_played += 1
        self._log(f"player {pl} plays {card.label}")
        self._put_into_play(card, pl)

    def _begin_cast(self, pl: int, card: Card) -> None:
        P = self.players[pl]
        P.hand.remove(card)
        item = StackItem(self._id(), "spell", pl, card=card, label=card.label,
                         data={"card": card.cdef.name})
        self.stack.append(item)  # 2007 CR 409.1a: the card moves to the stack on announcement
        self.frames.append({"k": "cast", "pl": pl, "sid": item.id, "st": 0})

    def _begin_activate(self, pl: int, pid: int, ab_index: int) -> None:
        perm = self.perms[pid]
        item = StackItem(self._id(), "activated", pl, source=pid, source_name=perm.card.label,
                         ability=ab_index, label=perm.card.label,
                         data={"card": perm.cdef.name, "src_colors": "".join(sorted(perm.colors))})
        self.stack.append(item)
        self.frames.append({"k": "cast", "pl": pl, "sid": item.id, "st": 0})

    def _item(self, sid: int) -> StackItem | None:
        for s in reversed(self.stack):
            if s.id == sid:
                return s
        return None

    def item_def(self, item: StackItem) -> tuple[tuple[TargetSpec, ...], tuple[dict, ...], Any]:
        """(target specs, effects, ability object or card def) of a stack item."""
        if item.kind == "spell":
            cdef = item.card.cdef
            if cdef.enchant is not None:
                return (cdef.enchant,), (), cdef
            if cdef.modes:
                if item.mode < 0:
                    return (), (), cdef
                m = cdef.modes[item.mode]
                return _mode_targets(m), tuple(m.get("effects", ())), cdef
            return cdef.spell_targets, cdef.spell_effects, cdef
        if item.kind == "combat_damage":
            return (), (), None
        if item.kind == "triggered" and "effects" in item.data:
            # A rules trigger (lifelink, 2007 CR 502.68) carries its effects and names no card.
            return (), tuple(item.data["effects"]), None
        cdef = get_card(item.data["card"])
        if item.kind == "activated":
            ab = cdef.activated[item.ability]
            return ab.targets, ab.effects, ab
        ab = cdef.triggered[item.ability]
        return ab.targets, ab.effects, ab

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
                        if self._targets_available(pl, _mode_targets(m), spell_card=item.card)]
                self._ask(pl, K.MODE, opts, f"choose a mode for {item.label}",
                          {"stack_id": item.id})
                return
        if st == 1:  # X (2007 CR 409.1c)
            f["st"] = 2
            x_cost = None
            x_color = None
            exclude = None
            if item.kind == "spell" and item.card.cdef.x_spell:
                x_cost = item.card.cdef.cost
                x_color = item.card.cdef.x_color
            elif item.kind == "activated" and obj.x:
                x_cost = obj.cost.mana
                exclude = item.source if obj.cost.tap else None
            if x_cost is not None:
                top = self._max_x(pl, x_cost, exclude, x_color)
                opts = [Action("x", f"X={n}", (n,)) for n in range(max(top, 0) + 1)]
                self._ask(pl, K.X_VALUE, opts, f"choose X for {item.label}", {"stack_id": item.id})
                return
        if st == 2:  # targets (2007 CR 409.1d), one decision per target
            ti = len(item.targets)
            if ti < len(specs):
                spec = specs[ti]
                cands = self._legal_targets(pl, spec, item=item, source=self.perms.get(item.source))
                if not cands:
                    # Only reachable for triggers (spells/abilities are offered only with targets).
                    self._log(f"{item.label}: no legal target, removed")
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
                self._log(f"{item.label} ability triggers" + f["tt"])
                return
            if item.kind == "spell":
                cdef = item.card.cdef
                cost = cdef.cost.with_x(item.x) if cdef.x_spell else cdef.cost
                if cdef.x_color and item.x:
                    cost = ManaCost(cdef.cost.generic, _add_colored(cdef.cost.colored, cdef.x_color,
                                                                    item.x * cdef.cost.x))
                add = cdef.additional_cost
                if add is not None and (add.sacrifice or add.discard):
                    self._push_cost_choices(pl, add, item)
                    f["mana"] = [cost.generic, list(cost.colored)]
                    return
                self._pay_mana(pl, cost)
            else:
                ab = obj
                perm = self.perms[item.source]
                cost = ab.cost.mana.with_x(item.x) if ab.x else ab.cost.mana
                if ab.cost.tap:
                    perm.tapped = True
                self._pay_mana(pl, cost, exclude=perm.id if ab.cost.tap else None)
                if ab.cost.pay_life:
                    self._lose_life(pl, ab.cost.pay_life)
                perm.used_this_turn[ab.index] = perm.used_this_turn.get(ab.index, 0) + 1
                if ab.cost.sacrifice or ab.cost.discard:
                    self._push_cost_choices(pl, ab.cost, item)
                    if ab.cost.sacrifice_self:
                        f["sac_self"] = True
                    return
                if ab.cost.sacrifice_self:
                    self._leave_play(perm, "graveyard", sacrifice=True)
        if f["st"] == 4:
            if "mana" in f:
                gen, col = f.pop("mana")
                self._pay_mana(pl, ManaCost(gen, tuple(col)))
            if f.pop("sac_self", False) and item.source in self.perms:
                self._leave_play(self.perms[item.source], "graveyard", sacrifice=True)
            self.frames.pop()
            self._finish_cast(item, f.get("tt", ""))

    def _answer_cast(self, f: dict, a: Action) -> None:
        item = self._item(f["sid"])
        if a.verb == "mode":
            item.mode = a.args[0]
        elif a.verb == "x":
            item.x = a.args[0]
        elif a.verb == "target":
            item.targets.append(a.args[0])

    def _push_cost_choices(self, pl: int, cost, item: StackItem) -> None:
        if cost.sacrifice:
            cands = [("o", p.id) for p in self.perms.values()
                     if p.controller == pl and self._matches(p, cost.sacrifice, pl)]
            self.frames.append(self._choose_frame(pl, cands, 1, 1, "sacrifice",
                                                  f"sacrifice to pay for {item.label}"))
        if cost.discard:
            cands = [("h", c.cid) for c in self.players[pl].hand]
            self.frames.append(self._choose_frame(pl, cands, cost.discard, cost.discard, "discard",
                                                  f"discard to pay for {item.label}"))

    def _finish_cast(self, item: StackItem, targets_text: str) -> None:
        pl = item.controller
        if item.kind == "spell":
            self._log(f"player {pl} plays {item.label}" + targets_text)
            cdef = item.card.cdef
            self._event("cast", player=pl, colors="".join(sorted(cdef.colors)), sid=item.id)
        else:
            self._log(f"player {pl} activates {item.label}" + targets_text)
        self.prio = pl
        self.passes = 0

    def _targets_text(self, item: StackItem) -> str:
        if not item.targets:
            return ""
        return " targeting " + ", ".join(self._ref_text(r) for r in item.targets)

    def _ref_text(self, ref: tuple) -> str:
        kind, v = ref
        if kind == "p":
            return f"player {v}"
        if kind == "o":
            p = self.perms.get(v)
            return p.card.label if p else f"object {v}"
        if kind == "s":
            s = self._item(v)
            return s.label if s else f"stack object {v}"
        card = self.cards.get(v)
        return card.label if card else f"card {v}"

    def _can_pay_nonmana(self, pl: int, perm: Permanent, ab) -> bool:
        c = ab.cost
        if c.tap:
            if perm.tapped:
                return False
            if perm.is_creature and perm.sick and "haste" not in perm.keywords:
                return False  # 2007 CR 212.3d
        if c.pay_life and self.players[pl].life < c.pay_life:
            return False
        if c.sacrifice and not any(p.controller == pl and self._matches(p, c.sacrifice, pl)
                                   for p in self.perms.values()):
            return False
        if c.discard and len(self.players[pl].hand) < c.discard:
            return False
        return not (ab.condition and not fx.check_condition(self, ab.condition, pl, perm))

    def _can_pay_additional(self, pl: int, cost) -> bool:
        if cost.pay_life and self.players[pl].life < cost.pay_life:
            return False
        if cost.sacrifice and not any(p.controller == pl and self._matches(p, cost.sacrifice, pl)
                                      for p in self.perms.values()):
            return False
        return not (cost.discard and len(self.players[pl].hand) - 1 < cost.discard)

    # -- targets ------------------------------------------------------------------------
    def _targets_available(self, pl: int, specs, spell_card: Card | None = None,
                           source: Permanent | None = None) -> bool:
        for spec in specs:
            if not self._legal_targets(pl, spec, source=source, first_only=True,
                                       spell_card=spell_card):
                return False
        return True

    def _legal_targets(self, pl: int, spec: TargetSpec, item: StackItem | None = None,
                       source: Permanent | None = None, first_only: bool = False,
                       spell_card: Card | None = None) -> list[tuple]:
        kind = spec.kind
        flt = spec.filters
        out: list[tuple] = []
        if kind in ("player", "creature_or_player"):
            for i in (0, 1):
                if self._player_ok(i, flt, pl):
                    out.append(("p", i))
                    if first_only:
                        return out
        if kind in ("creature", "creature_or_player", "permanent", "artifact", "enchantment",
                    "land", "artifact_or_enchantment", "nonland_permanent",
                    "artifact_creature_or_land"):
            src_colors = (spell_card.cdef.colors if spell_card is not None
                          else self._source_colors(item, source))
            for p in self.perms.values():
                if not _kind_ok(p, kind):
                    continue
                if "shroud" in p.keywords:
                    continue
                if src_colors and protected_from(p, src_colors):
                    continue
                if flt and not self._matches(p, flt, pl):
                    continue
                if source is not None and flt.get("other") and p.id == source.id:
                    continue
                out.append(("o", p.id))
                if first_only:
                    return out
        if kind == "spell":
            for s in self.stack:
                if s.kind != "spell" or (item is not None and s.id == item.id):
                    continue
                if flt and not _spell_matches(s, flt):
                    continue
                out.append(("s", s.id))
                if first_only:
                    return out
        if kind == "card_in_graveyard":
            owners = (pl,) if flt.get("controller", "you") == "you" else (0, 1)
            for o in owners:
                for c in self.players[o].graveyard:
                    if _card_matches(c.cdef, flt):
                        out.append(("c", c.cid))
                        if first_only:
                            return out
        return out

    def _source_colors(self, item: StackItem | None, source: Permanent | None) -> frozenset:
        if source is not None:
            return source.colors
        if item is not None and item.kind == "spell":
            return item.card.cdef.colors
        if item is not None:
            return frozenset(item.data.get("src_colors", ""))
        return frozenset()

    def _player_ok(self, i: int, flt: dict, pl: int) -> bool:
        who = flt.get("controller")
        if who == "you" and i != pl:
            return False
        return not (who == "opponent" and i == pl)

    def _matches(self, p: Permanent, flt: dict, pl: int) -> bool:
        return fx.perm_matches(self, p, flt, pl)

    def _target_legal(self, item: StackItem, ti: int, spec: TargetSpec) -> bool:
        """Is target ``ti`` of ``item`` still legal (2007 CR 413.2a)?"""
        ref = item.targets[ti]
        kind, v = ref
        pl = item.controller
        flt = spec.filters
        if kind == "p":
            return spec.kind in ("player", "creature_or_player") and self._player_ok(v, flt, pl)
        if kind == "o":
            p = self.perms.get(v)
            if p is None or not _kind_ok(p, spec.kind) or "shroud" in p.keywords:
                return False
            colors = (item.card.cdef.colors if item.kind == "spell"
                      else frozenset(item.data.get("src_colors", "")))
            if colors and protected_from(p, colors):
                return False
            return not flt or self._matches(p, flt, pl)
        if kind == "s":
            s = self._item(v)
            return s is not None and s.kind == "spell" and (not flt or _spell_matches(s, flt))
        for o in (0, 1):
            for c in self.players[o].graveyard:
                if c.cid == v:
                    return _card_matches(c.cdef, flt)
        return False

    # -- resolving ----------------------------------------------------------------------
    def _run_resolve(self, f: dict) -> None:
        item = self._item(f["sid"])
        if item is None:  # removed by an effect during resolution
            self.frames.pop()
            return
        if f["st"] == 0:
            f["st"] = 1
            if item.kind == "combat_damage":
                self._resolve_combat_damage(item)
                self._finish_resolve(f, item)
                return
            specs, _, obj = self.item_def(item)
            if specs:
                legal = [self._target_legal(item, i, s) for i, s in enumerate(specs)]
                f["legal"] = legal
                if not any(legal):
                    # 2007 CR 413.2a: all targets illegal -> countered on resolution.
                    self._log(f"{item.label} is countered: no legal targets")
                    self._counter(item)
                    self.frames.pop()
                    return
            if item.kind == "spell" and item.card.cdef.is_permanent_card:
                self._resolve_permanent_spell(item)
                self._finish_resolve(f, item, to_play=True)
                return
            if item.kind == "triggered" and obj is not None and obj.optional:
                controller = item.controller
                self.frames.append({"k": "yesno", "pl": controller, "key": "may", "sid": item.id,
                                    "prompt": f"{item.label}: {obj.text}"})
                return
        if f["st"] == 1:
            if item.data.get("may") is False:
                self._finish_resolve(f, item)
                return
            _, effects, obj = self.item_def(item)
            if obj is not None and getattr(obj, "custom", None) and f["i"] == 0:
                f["i"] = len(effects) + 1
                fx.run_custom(self, item, obj.custom)
                return
            if item.kind == "spell" and item.card.cdef.spell_custom and f["i"] == 0:
                f["i"] = len(effects) + 1
                fx.run_custom(self, item, item.card.cdef.spell_custom)
                return
            while f["i"] < len(effects):
                spec = effects[f["i"]]
                f["i"] += 1
                fx.OPS[spec["op"]](self, item, spec)
                if self.frames[-1] is not f or self.is_over:
                    return  # an effect asked a player something; continue afterwards
            self._finish_resolve(f, item)

    def _finish_resolve(self, f: dict, item: StackItem, to_play: bool = False) -> None:
        if self.frames and self.frames[-1] is f:
            self.frames.pop()
        if item in self.stack:
            self.stack.remove(item)
            if item.kind == "spell" and not to_play:
                dest = item.data.get("dest", "graveyard")
                if dest == "library_shuffle":
                    self._to_zone(item.card, "library_top")
                    self.rng.shuffle(self.players[item.card.owner].library)
                    self._log(f"{item.label} is shuffled into its owner's library")
                else:
                    self._to_zone(item.card, dest)
        self._flush_damage_triggers()
        self.prio = self.active
        self.passes = 0

    def _counter(self, item: StackItem) -> None:
        if item in self.stack:
            self.stack.remove(item)
            if item.kind == "spell":
                self._to_zone(item.card, "graveyard")

    def _resolve_permanent_spell(self, item: StackItem) -> None:
        cdef = item.card.cdef
        attach = None
        if cdef.enchant is not None:
            attach = item.targets[0][1]
        self._log(f"{item.label} resolves")
        self.stack.remove(item)
        self._put_into_play(item.card, item.controller, attach_to=attach)

    # -- zones --------------------------------------------------------------------------
    def _id(self) -> int:
        self.next_id += 1
        return self.next_id - 1

    def _put_into_play(self, card: Card, controller: int, attach_to: int | None = None,
                       tapped: bool = False) -> Permanent:
        perm = Permanent(self._id(), card, controller, self._timestamp())
        perm.tapped = tapped
        perm.attached_to = attach_to
        self.perms[perm.id] = perm
        self.dirty = True
        self._event("etb", perm=perm.id)
        return perm

    def _timestamp(self) -> int:
        self.ts += 1
        return self.ts

    def _leave_play(self, perm: Permanent, zone: str, sacrifice: bool = False,
                    destroyed: bool = False) -> None:
        """Move a permanent out of play (to graveyard, hand, library top/bottom, removed)."""
        if perm.id not in self.perms:
            return
        self._fresh()
        self._event("leaves_play", perm=perm.id, zone=zone, snapshot=perm)
        del self.perms[perm.id]
        self.dirty = True
        if perm.attacking or perm.blocking:
            self._remove_from_combat(perm)
        for other in self.perms.values():
            if other.attached_to == perm.id and "Equipment" in other.subtypes:
                other.attached_to = None  # 2007 CR 420.5k happens as an SBE; unattach now
        if self.effects:
            self.effects = [e for e in self.effects if e.get("pid") != perm.id]
        self._log(f"{perm.card.label} {_ZONE_VERB[zone]}")
        if perm.card.is_token:
            return  # 2007 CR 216.x: tokens leaving play cease to exist (SBE f)
        self._to_zone(perm.card, zone)

    def _to_zone(self, card: Card, zone: str) -> None:
        P = self.players[card.owner]  # 217.1a: cards go to their owner's zones
        if card.is_token:
            return
        if zone == "graveyard":
            P.graveyard.append(card)
            # Mortivore's characteristic-setting ability counts graveyard cards (2007 CR 418.5, 6a).
            self.dirty = True
        elif zone == "hand":
            P.hand.append(card)
        elif zone == "library_top":
            P.library.insert(0, card)
        elif zone == "library_bottom":
            P.library.append(card)
        elif zone == "removed":
            P.removed.append(card)
        else:
            raise MtgError(f"engine error: unknown zone {zone}")

    def _draw(self, pl: int, n: int) -> None:
        P = self.players[pl]
        for _ in range(n):
            if not P.library:
                P.drew_from_empty = True  # 2007 CR 420.5g: loses at the next SBE check
                self._log(f"player {pl} draws from an empty library")
                return
            P.hand.append(P.library.pop(0))
        if n:
            self._event("draw", player=pl, n=n)

    def _lose_life(self, pl: int, n: int) -> None:
        if n <= 0:
            return
        P = self.players[pl]
        P.life -= n
        P.life_lost_this_turn += n

    def _gain_life(self, pl: int, n: int) -> None:
        if n > 0:
            self.players[pl].life += n

    # -- damage -------------------------------------------------------------------------
    def deal_damage(self, src: dict, target: tuple, amount: int, combat: bool = False,
                    no_regen: bool = False) -> int:
        """Deal damage from a source (``{'pid', 'label', 'colors', 'controller'}``) to a player
        or creature. Returns the damage actually dealt after prevention."""
        if amount <= 0:
            return 0
        target = fx.redirect(self, target)
        kind, v = target
        amount = fx.apply_prevention(self, src, target, amount, combat)
        if amount <= 0:
            return 0
        if kind == "p":
            P = self.players[v]
            P.life -= amount
            P.life_lost_this_turn += amount
            P.damage_taken_this_turn += amount
        else:
            p = self.perms.get(v)
            if p is None or not p.is_creature:
                return 0
            p.damage += amount
            if no_regen:
                p.cant_regen = True
        self._log(f"{src['label']} deals {amount} damage to {self._ref_text(target)}")
        self._event("damage", src=src.get("pid"), target=list(target), amount=amount,
                    combat=combat, src_controller=src.get("controller"))
        pid = src.get("pid")
        if pid is not None and self._ll.get(pid):
            self._ll_acc[pid] = self._ll_acc.get(pid, 0) + amount
        return amount

    def _flush_damage_triggers(self) -> None:
        """2007 CR 502.68: lifelink triggers once per instance for the damage of one event."""
        acc = self._ll_acc
        if not acc:
            return
        self._ll_acc = {}
        self._fresh()
        for pid, amount in acc.items():
            perm = self.perms.get(pid)
            if perm is None:
                continue
            for _ in range(self._ll.get(pid, 0)):
                self.pending.append({"special": "gain_life", "ctrl": perm.controller,
                                     "amount": amount, "src": pid, "name": perm.card.label,
                                     "text": f"lifelink: gain {amount} life"})

    def src_of(self, item: StackItem) -> dict:
        """Damage-source info for a stack item (last known information if it left play)."""
        if item.kind == "spell":
            return {"pid": None, "label": item.label, "controller": item.controller,
                    "colors": "".join(sorted(item.card.cdef.colors))}
        perm = self.perms.get(item.source) if item.source is not None else None
        if perm is not None:
            return {"pid": perm.id, "label": perm.card.label, "controller": perm.controller,
                    "colors": "".join(sorted(perm.colors))}
        return {"pid": None, "label": item.source_name, "controller": item.controller,
                "colors": item.data.get("src_colors", "")}

    def destroy(self, perm: Permanent, no_regen: bool = False) -> bool:
        """Destroy (2007 CR 419.6b regeneration applies). Returns True if it left play."""
        if perm.regen_shields > 0 and not perm.cant_regen and not no_regen:
            perm.regen_shields -= 1
            perm.tapped = True
            perm.damage = 0
            if perm.attacking or perm.blocking:
                self._remove_from_combat(perm)
            self._log(f"{perm.card.label} regenerates")
            return False
        self._leave_play(perm, "graveyard", destroyed=True)
        return True

    # -- state-based effects (2007 CR 420.5) --------------------------------------------
    def _sba_loop(self) -> bool:
        acted = False
        while self._sba():
            acted = True
            if self.is_over:
                break
        return acted

    def _sba(self) -> bool:
        self._fresh()
        losers = [P.index for P in self.players
                  if P.life <= 0 or P.drew_from_empty or P.poison >= 10]
        if losers:
            reasons = []
            for i in losers:
                P = self.players[i]
                reasons.append("life" if P.life <= 0 else "empty library" if P.drew_from_empty
                               else "poison")
            self._end_game(losers, ", ".join(sorted(set(reasons))))
            return True
        to_grave: list[Permanent] = []
        to_destroy: list[Permanent] = []
        unattach: list[Permanent] = []
        legends: dict[str, list[Permanent]] = {}
        for p in self.perms.values():
            if "Creature" in p.types:
                if p.toughness <= 0:
                    to_grave.append(p)  # 420.5b: no regeneration
                    continue
                if p.damage >= p.toughness:
                    to_destroy.append(p)  # 420.5c
            if p.attached_to is not None or "Aura" in p.subtypes:
                host = self.perms.get(p.attached_to) if p.attached_to is not None else None
                if "Aura" in p.subtypes:
                    if host is None or not self._aura_legal(p, host):
                        to_grave.append(p)  # 420.5d
                elif "Equipment" in p.subtypes and (host is None or not host.is_creature
                                                    or protected_from(host, p.colors)):
                    unattach.append(p)  # 420.5k
            if "Legendary" in p.supertypes:
                legends.setdefault(p.name, []).append(p)
        for group in legends.values():
            if len(group) > 1:
                to_grave.extend(group)  # 420.5e: all of them, regardless of controller
        if not (to_grave or to_destroy or unattach):
            return False
        for p in unattach:
            p.attached_to = None
            self.dirty = True
        seen = set()
        for p in to_grave:
            if p.id not in seen:
                seen.add(p.id)
                self._leave_play(p, "graveyard")
        for p in to_destroy:
            if p.id not in seen and p.id in self.perms:
                seen.add(p.id)
                self.destroy(p)
        return True

    def _aura_legal(self, aura: Permanent, host: Permanent) -> bool:
        spec = aura.cdef.enchant
        if spec is None:
            return True
        if not _kind_ok(host, spec.kind) or protected_from(host, aura.colors):
            return False
        return not spec.filters or self._matches(host, spec.filters, aura.controller)

    # -- continuous effects (2007 CR 418.5) ---------------------------------------------
    def _fresh(self) -> None:
        if self.dirty:
            fx.refresh(self)

    def add_effect(self, effect: dict) -> None:
        effect["ts"] = self._timestamp()
        self.effects.append(effect)
        self.dirty = True

    # -- triggers (2007 CR 410) ---------------------------------------------------------
    def _event(self, name: str, **ev: Any) -> None:
        fx.collect_triggers(self, name, ev)

    def _push_triggers(self) -> None:
        pending = self.pending
        self.pending = []
        ap = self.active
        queue = {str(ap): [t for t in pending if t["ctrl"] == ap],
                 str(1 - ap): [t for t in pending if t["ctrl"] != ap]}
        self.frames.append({"k": "put", "order": [ap, 1 - ap], "q": queue})

    def _run_put(self, f: dict) -> None:
        for pl in f["order"]:
            q = f["q"][str(pl)]
            if not q:
                continue
            texts = {_trigger_text(t) for t in q}
            if len(texts) > 1:
                opts = []
                seen = set()
                for i, t in enumerate(q):
                    txt = _trigger_text(t)
                    if txt in seen:
                        continue
                    seen.add(txt)
                    opts.append(Action("order", "put " + txt, (i,)))
                self._ask(pl, K.ORDER_TRIGGERS, opts,
                          f"player {pl}: choose the next trigger to put on the stack "
                          "(the first one resolves last)",
                          {"triggers": [{"source": t.get("src"), "name": t["name"],
                                         "text": t.get("text", "")} for t in q]})
                return
            self._place_trigger(q.pop(0))
            return
        self.frames.pop()

    def _answer_put(self, f: dict, a: Action) -> None:
        pl = self.decision_player_for_put(f)
        q = f["q"][str(pl)]
        t = q.pop(a.args[0])
        self._place_trigger(t)

    def decision_player_for_put(self, f: dict) -> int:
        for pl in f["order"]:
            if f["q"][str(pl)]:
                return pl
        return self.active

    def _place_trigger(self, t: dict) -> None:
        data = {"card": t.get("card", ""), "ev": t.get("ev", {})}
        if t.get("special") == "gain_life":
            data["effects"] = [{"op": "gain_life", "amount": t["amount"], "who": "controller"}]
        item = StackItem(self._id(), "triggered", t["ctrl"], source=t.get("src"),
                         source_name=t["name"], ability=t.get("ab", -1), label=t["name"],
                         data=data)
        if "src_colors" in t:
            item.data["src_colors"] = t["src_colors"]
        self.stack.append(item)
        self.frames.append({"k": "cast", "pl": t["ctrl"], "sid": item.id, "st": 2,
                            "trigger": True})

    # -- combat (2007 CR 308-311) -------------------------------------------------------
    def can_attack(self, p: Permanent) -> bool:
        if not p.is_creature or p.tapped or p.controller != self.active:
            return False
        if p.sick and "haste" not in p.keywords:
            return False
        return not ({"defender", "cant_attack"} & p.keywords)

    def _run_attack(self, f: dict) -> None:
        self._fresh()
        declared = f["declared"]
        if not f.get("forced"):
            f["forced"] = True  # "attacks each turn if able" (2012 508.1d): declared for the player
            declared.extend(p.id for p in self.perms.values()
                            if "must_attack" in p.keywords and self.can_attack(p))
        cands = [p for p in self.perms.values() if p.id not in declared and self.can_attack(p)]
        if not cands:
            self._finish_attack(f)
            return
        opts = [Action("attack", "attack with " + p.card.label, (p.id,)) for p in cands]
        opts.append(DONE)
        self._ask(f["pl"], K.DECLARE_ATTACKERS, opts,
                  f"player {f['pl']}: declare attackers ({len(declared)} so far)",
                  {"declared": list(declared)})

    def _answer_attack(self, f: dict, a: Action) -> None:
        if a.verb == "done":
            self._finish_attack(f)
        else:
            f["declared"].append(a.args[0])

    def _finish_attack(self, f: dict) -> None:
        self.frames.pop()
        for pid in f["declared"]:
            p = self.perms[pid]
            p.attacking = True
            if "vigilance" not in p.keywords:
                p.tapped = True
            self._log(f"{p.card.label} attacks")
        self.any_attackers = bool(f["declared"])
        for pid in f["declared"]:
            self._event("attacks", perm=pid)

    def can_block(self, blocker: Permanent, attacker: Permanent) -> bool:
        if blocker.blocking and "block_any_number" not in blocker.keywords:
            return False
        return block_allowed(blocker, attacker, self.perms.values())

    def _run_block(self, f: dict) -> None:
        self._fresh()
        pl = f["pl"]
        perms = self.perms.values()
        attackers = [p for p in perms if p.attacking]
        pairs = {tuple(x) for x in f["pairs"]}
        used = {b for b, _ in pairs}
        opts = []
        for b in self.perms.values():
            if b.controller != pl or not b.is_creature:
                continue
            if b.id in used and "block_any_number" not in b.keywords:
                continue
            for a in attackers:
                # Blocks become real only when declared as a whole; ``used`` covers "already
                # blocking" for creatures without block_any_number.
                if (b.id, a.id) in pairs or not block_allowed(b, a, perms):
                    continue
                opts.append(Action("block", f"block {a.card.label} with {b.card.label}", (b.id, a.id)))
        if not opts:
            self._finish_block(f)
            return
        opts.append(DONE)
        self._ask(pl, K.DECLARE_BLOCKERS, opts, f"player {pl}: declare blockers",
                  {"pairs": [list(p) for p in f["pairs"]]})

    def _answer_block(self, f: dict, a: Action) -> None:
        if a.verb == "done":
            self._finish_block(f)
        else:
            f["pairs"].append(list(a.args))

    def _finish_block(self, f: dict) -> None:
        self.frames.pop()
        for b_id, a_id in f["pairs"]:
            b, a = self.perms[b_id], self.perms[a_id]
            b.blocking.append(a_id)
            a.blocked = True
            a.blockers.append(b_id)
            self._log(f"{b.card.label} blocks {a.card.label}")
        for b_id, a_id in f["pairs"]:
            self._event("blocks", perm=b_id, attacker=a_id)
        for a in [p for p in self.perms.values() if p.attacking and p.blocked]:
            self._event("becomes_blocked", perm=a.id)

    def _remove_from_combat(self, perm: Permanent) -> None:
        perm.attacking = False
        for aid in perm.blocking:
            a = self.perms.get(aid)
            if a is not None and perm.id in a.blockers:
                a.blockers.remove(perm.id)  # the attacker stays blocked (2012 506.4)
        perm.blocking = []
        for bid in perm.blockers:
            b = self.perms.get(bid)
            if b is not None and perm.id in b.blocking:
                b.blocking.remove(perm.id)
        perm.blockers = []

    def _end_combat(self) -> None:
        for p in self.perms.values():
            p.attacking = False
            p.blocking = []
            p.blocked = False
            p.blockers = []
            p.struck_first = False
        self.fs_checked = False
        self.fs_step = False
        self.any_attackers = False

    def _begin_combat_damage(self) -> None:
        self._fresh()
        combatants = [p for p in self.perms.values() if p.attacking or p.blocking]
        if not self.fs_checked:
            self.fs_checked = True
            self.fs_step = any({"first_strike", "double_strike"} & p.keywords for p in combatants)
        fs = self.fs_step
        queue = []
        for p in combatants:
            kw = p.keywords
            if fs:
                ok = "first_strike" in kw or "double_strike" in kw
            else:
                ok = not p.struck_first or "double_strike" in kw
            if ok:
                queue.append(p.id)
        # Attackers first (AP), then blockers (DP): 2007 CR 310.1.
        queue.sort(key=lambda pid: 0 if self.perms[pid].attacking else 1)
        self.frames.append({"k": "assign", "queue": queue, "qi": 0, "out": [], "cur": None,
                            "fs": fs})

    def _run_assign(self, f: dict) -> None:
        while True:
            cur = f["cur"]
            if cur is None:
                if f["qi"] >= len(f["queue"]):
                    self._finish_assign(f)
                    return
                pid = f["queue"][f["qi"]]
                f["qi"] += 1
                p = self.perms.get(pid)
                if p is None or p.power <= 0:
                    continue
                if f["fs"]:
                    p.struck_first = True
                recips = self._damage_recipients(p)
                if not recips:
                    continue
                cur = {"pid": pid, "rem": p.power, "recips": recips, "ri": 0, "got": []}
                f["cur"] = cur
            p = self.perms.get(cur["pid"])
            recips = cur["recips"]
            rem = cur["rem"]
            ri = cur["ri"]
            trample = p is not None and p.attacking and "trample" in p.keywords
            n_blockers = len(recips) - (1 if recips[-1][0] == "p" and len(recips) > 1 else 0)
            if recips[0][0] == "p" and len(recips) == 1:
                self._assign_out(f, p, recips[0], rem)
                f["cur"] = None
                continue
            if rem == 0 or (ri >= len(recips) - 1 and not (trample and ri == n_blockers - 1)):
                if rem and ri < len(recips):
                    self._assign_out(f, p, recips[ri], rem)
                f["cur"] = None
                continue
            lo, hi = 0, rem
            if trample and ri == n_blockers - 1:
                all_lethal = all(got >= self._lethal(f, recips[i], p)
                                 for i, got in enumerate(cur["got"]))
                if all_lethal and recips[-1][0] == "p":
                    lo = min(self._lethal(f, recips[ri], p), rem)
                else:
                    lo = rem
            if lo == hi:
                self._assign_amount(f, cur, lo)
                continue
            target = recips[ri]
            name = self._ref_text(target)
            opts = [Action("assign", f"assign {n} damage to {name}", (n,)) for n in range(lo, hi + 1)]
            self._ask(p.controller, K.COMBAT_DAMAGE, opts,
                      f"{p.card.label} assigns combat damage ({rem} left)",
                      {"source": p.id, "remaining": rem, "recipient": list(target),
                       "assigned": [e[:4] for e in f["out"]]})
            return

    def _answer_assign(self, f: dict, a: Action) -> None:
        self._assign_amount(f, f["cur"], a.args[0])

    def _assign_amount(self, f: dict, cur: dict, n: int) -> None:
        p = self.perms[cur["pid"]]
        target = cur["recips"][cur["ri"]]
        if n:
            self._assign_out(f, p, target, n)
        cur["got"].append(n)
        cur["rem"] -= n
        cur["ri"] += 1
        if cur["rem"] and cur["ri"] == len(cur["recips"]) - 1:
            self._assign_out(f, p, cur["recips"][cur["ri"]], cur["rem"])
            cur["rem"] = 0
        if cur["rem"] == 0 or cur["ri"] >= len(cur["recips"]):
            f["cur"] = None

    def _lethal(self, f: dict, target: tuple, src: Permanent) -> int:
        if target[0] != "o":
            return 0
        b = self.perms.get(target[1])
        if b is None:
            return 0
        # 2007 CR 502.9: count damage already on it and damage *other* creatures assign to it in
        # this step, not what this source has just assigned to it.
        already = sum(e[3] for e in f["out"]
                      if e[1] == "o" and e[2] == target[1] and e[0] != src.id)
        return max(b.toughness - b.damage - already, 0)

    def _assign_out(self, f: dict, p: Permanent, target: tuple, n: int) -> None:
        if n > 0:
            f["out"].append([p.id, target[0], target[1], n, p.card.label,
                             "".join(sorted(p.colors)), p.controller])

    def _damage_recipients(self, p: Permanent) -> list[tuple]:
        if p.attacking:
            dp = ("p", 1 - p.controller)
            if not p.blocked:
                return [dp]
            blockers = [("o", b) for b in p.blockers if b in self.perms and self.perms[b].is_creature]
            if "trample" in p.keywords:
                return [*blockers, dp]
            return blockers
        return [("o", a) for a in p.blocking if a in self.perms and self.perms[a].is_creature]

    def _finish_assign(self, f: dict) -> None:
        self.frames.pop()
        if not f["out"]:
            return
        item = StackItem(self._id(), "combat_damage", self.active, label="combat damage",
                         data={"assign": f["out"], "first_strike": f["fs"]})
        self.stack.append(item)  # 2007 CR 310.2: one stack object for all of it
        parts = [f"{e[4]}: {e[3]} to {self._ref_text((e[1], e[2]))}" for e in f["out"]]
        self._log("combat damage on the stack: " + "; ".join(parts))

    def _resolve_combat_damage(self, item: StackItem) -> None:
        # 2007 CR 310.4: dealt as assigned, even if sources left play or changed.
        for pid, kind, tid, n, label, colors, ctrl in item.data["assign"]:
            src = {"pid": pid if pid in self.perms else None, "label": label,
                   "colors": colors, "controller": ctrl}
            if kind == "o":
                t = self.perms.get(tid)
                if t is None or not t.is_creature:
                    continue
            self.deal_damage(src, (kind, tid), n, combat=True)

    # -- generic choice frames ----------------------------------------------------------
    def _choose_frame(self, pl: int, cands: list, n_min: int, n_max: int, verb: str,
                      prompt: str, then: dict | None = None, sid: int | None = None) -> dict:
        return {"k": "choose", "pl": pl, "cands": [list(c) for c in cands], "min": n_min,
                "max": n_max, "verb": verb, "prompt": prompt, "chosen": [], "then": then,
                "sid": sid}

    def _run_choose(self, f: dict) -> None:
        chosen = f["chosen"]
        cands = [c for c in f["cands"] if c not in chosen and self._choice_exists(c)]
        need_min = min(f["min"], len(chosen) + len(cands))
        if len(chosen) >= f["max"] or not cands:
            self._finish_choose(f)
            return
        opts = []
        for c in cands:
            opts.append(Action("choose", f"{f['verb']} {self._choice_text(c)}", (tuple(c),)))
        if len(chosen) >= need_min:
            opts.append(DONE)
        self._ask(f["pl"], K.CHOOSE_CARDS, opts, f["prompt"],
                  {"verb": f["verb"], "chosen": [list(c) for c in chosen], "stack_id": f.get("sid"),
                   "min": f["min"], "max": f["max"]})

    def _answer_choose(self, f: dict, a: Action) -> None:
        if a.verb == "done":
            self._finish_choose(f)
        else:
            f["chosen"].append(list(a.args[0]))

    def _choice_exists(self, c: list) -> bool:
        zone, v = c
        if zone == "o":
            return v in self.perms
        if zone == "h":
            return any(x.cid == v for P in self.players for x in P.hand)
        if zone == "c":
            card = self.cards[v]
            P = self.players[card.owner]
            return card in P.library or card in P.graveyard
        return True

    def _choice_text(self, c: list) -> str:
        zone, v = c
        if zone == "o":
            return self.perms[v].card.label
        if zone == "p":
            return f"player {v}"
        return self.cards[v].label

    def _finish_choose(self, f: dict) -> None:
        self.frames.pop()
        fx.apply_choice(self, f)

    def _run_shuffle(self, f: dict) -> None:
        self.frames.pop()
        self.rng.shuffle(self.players[f["pl"]].library)
        self._log(f"player {f['pl']} shuffles their library")

    def dirty_combat(self, perm: Permanent) -> None:
        """A permanent whose controller changed leaves combat (2012 506.4)."""
        if perm.attacking or perm.blocking:
            self._remove_from_combat(perm)

    def _run_yesno(self, f: dict) -> None:
        self._ask(f["pl"], K.YES_NO, [YES, NO], f["prompt"], {"stack_id": f.get("sid")})

    def _answer_yesno(self, f: dict, a: Action) -> None:
        self.frames.pop()
        item = self._item(f["sid"]) if f.get("sid") is not None else None
        if item is not None:
            item.data[f["key"]] = a.verb == "yes"

    def _run_cleanup(self, f: dict) -> None:
        # 2012 514.2: damage wears off and "until end of turn" effects end, simultaneously.
        self.frames.pop()
        for p in self.perms.values():
            p.damage = 0
            p.regen_shields = 0
            p.cant_regen = False
        if self.effects:
            self.effects = [e for e in self.effects if e.get("until") != "eot"]
            self.dirty = True

    def _run_mulligan(self, f: dict) -> None:
        pl = f["pl"]
        P = self.players[pl]
        opts = [KEEP, MULLIGAN] if P.hand else [KEEP]
        self._ask(pl, K.MULLIGAN, opts,
                  f"player {pl}: keep {len(P.hand)} cards or mulligan to {max(len(P.hand) - 1, 0)}",
                  {"hand_size": len(P.hand), "mulligans": P.mulligans})

    def _answer_mulligan(self, f: dict, a: Action) -> None:
        pl = f["pl"]
        P = self.players[pl]
        if a.verb == "mulligan":
            # 2007 CR 101.4: shuffle the hand in, draw one fewer.
            n = len(P.hand) - 1
            P.library.extend(P.hand)
            P.hand = []
            self.rng.shuffle(P.library)
            P.mulligans += 1
            self._log(f"player {pl} mulligans to {n}")
            self._draw(pl, n)
            self.pending = []
            return
        self._log(f"player {pl} keeps {len(P.hand)}")
        if f["second"]:
            self.frames.pop()
            self.pending = []
            self._log("the game begins")
        else:
            f["pl"] = 1 - pl
            f["second"] = True


def _add_colored(colored: tuple, color: str, n: int) -> tuple:
    out = list(colored)
    out[COLORS.index(color)] += n
    return tuple(out)


def _mode_targets(mode: dict) -> tuple:
    return tuple(mode.get("targets", ()))


def _kind_ok(p: Permanent, kind: str) -> bool:
    t = p.types
    if kind in ("creature", "creature_or_player"):
        return "Creature" in t
    if kind == "permanent":
        return True
    if kind == "artifact":
        return "Artifact" in t
    if kind == "enchantment":
        return "Enchantment" in t
    if kind == "land":
        return "Land" in t
    if kind == "artifact_or_enchantment":
        return "Artifact" in t or "Enchantment" in t
    if kind == "nonland_permanent":
        return "Land" not in t
    if kind == "artifact_creature_or_land":
        return "Artifact" in t or "Creature" in t or "Land" in t
    return False


def _spell_matches(s: StackItem, flt: dict) -> bool:
    return _card_matches(s.card.cdef, flt)


def _card_matches(cdef: CardDef, flt: dict) -> bool:
    t = flt.get("type")
    if t and t not in cdef.types:
        return False
    nt = flt.get("not_type")
    if nt and nt in cdef.types:
        return False
    c = flt.get("color")
    return not (c and c not in cdef.colors)


def _trigger_text(t: dict) -> str:
    return f"{t['name']}: {t.get('text', 'ability')}"


def _copy_frame(f: dict) -> dict:
    out = {}
    for k, v in f.items():
        if isinstance(v, list):
            out[k] = [list(x) if isinstance(x, list) else (dict(x) if isinstance(x, dict) else x)
                      for x in v]
        elif isinstance(v, dict):
            out[k] = _copy_frame(v)
        else:
            out[k] = v
    return out


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


def _activate_action(perm: Permanent, ab, numbered: bool) -> Action:
    label = perm.card.label
    return _cached(("activate", perm.id, label, ab.index, numbered), "activate",
                   lambda: f"activate {label}" + (f" ability {ab.index + 1}" if numbered else ""),
                   (perm.id, ab.index))


def _mana_action(perm: Permanent, ab, color: str) -> Action:
    label = perm.card.label
    return _cached(("mana", perm.id, label, ab.index, color), "mana",
                   lambda: f"{'tap' if ab.cost.tap else 'activate'} {label} for "
                           f"{color * ab.mana_amount}",
                   (perm.id, ab.index, color))


_PASS_ONLY: dict[int, Decision] = {}


def _pass_only_decision(pl: int) -> Decision:
    """One shared, immutable decision object for the common pass-only priority."""
    d = _PASS_ONLY.get(pl)
    if d is None:
        d = Decision(pl, K.PRIORITY, [PASS], f"player {pl}: priority (nothing to do but pass)")
        _PASS_ONLY[pl] = d
    return d


_ZONE_VERB = {
    "graveyard": "is put into its owner's graveyard",
    "hand": "is returned to its owner's hand",
    "library_top": "is put on top of its owner's library",
    "library_bottom": "is put on the bottom of its owner's library",
    "removed": "is removed from the game",
}

_RUN = {
    "cast": Game._run_cast,
    "resolve": Game._run_resolve,
    "put": Game._run_put,
    "attack": Game._run_attack,
    "block": Game._run_block,
    "assign": Game._run_assign,
    "choose": Game._run_choose,
    "yesno": Game._run_yesno,
    "cleanup": Game._run_cleanup,
    "shuffle": Game._run_shuffle,
    "mulligan": Game._run_mulligan,
}
_ANSWER = {
    "cast": Game._answer_cast,
    "put": Game._answer_put,
    "attack": Game._answer_attack,
    "block": Game._answer_block,
    "assign": Game._answer_assign,
    "choose": Game._answer_choose,
    "yesno": Game._answer_yesno,
    "mulligan": Game._answer_mulligan,
}

__all__ = ["Game", "STEPS", "COLORS"]
