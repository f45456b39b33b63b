"""The other decisions: targets, modes, X, chosen cards, colors, card names, players, yes/no, text
changes and the order of replacement effects.

A part of :class:`~agents.heuristic.HeuristicAgent` (mixed into it), reading the redacted
view and the rules data of the cards."""

from __future__ import annotations

from mtg_env.engine.actions import Action, Decision
from mtg_env.engine.model import LANDWALK, CardDef
from mtg_env.engine.replacement import SHIELD_VERB
from mtg_env.engine.view import PlayerView

from ..evaluation import (
    LETHAL,
    permanent_value,
    static_aura_value,
    threats,
)
from .common import (
    COLOR_LETTERS,
    COLOR_OF,
    HARMFUL_CHOICES,
    LAND_TYPES,
    ability_weight,
    card_from_text,
    find_option,
    focus_opponent,
    other_side,
)


class ChoicePlay:
    """Mixed into :class:`~agents.heuristic.HeuristicAgent`: the other decisions: targets,
    modes, X, chosen cards, colors, card names, players, yes/no, text changes and the order of
    replacement effects."""

    def _target(self, view: PlayerView, d: Decision) -> Action | None:
        item = self._stack_context(view, d)
        if item is None:
            return None
        me = view.viewer
        specs, effects, source, _ = self._item_info(view, item)
        ti = d.context.get("target_index", len(item.targets))
        fixed = [tuple(t) for t in item.targets[:ti]]
        in_combat = self._in_combat(view)
        # Changing a spell's targets (Shunt, a Twincast copy) also offers "keep target X"
        # (no args: the target it has now, ``current``); "done" ends an "up to N" choice.
        cur = tuple(d.context.get("current") or ())

        def ref_of(a: Action) -> tuple | None:
            if a.verb == "target" and a.args:
                return tuple(a.args[0])
            if a.verb == "keep" and cur:
                return cur
            return None

        def perm_of(a: Action):
            ref = ref_of(a)
            return view.perm(ref[1]) if ref is not None and ref[0] == "o" else None

        if item.kind == "spell" and item.card is not None and (
                item.card.cdef.spell_custom == "mind_bend"):
            best = {pid: v for v, pid, _, _ in reversed(self._text_plans(view))}

            def score_bend(a: Action) -> float:
                ref = ref_of(a)
                return best.get(ref[1], -LETHAL) if ref is not None and ref[0] == "o" else -LETHAL

            return max(d.options, key=score_bend)
        if item.kind == "spell" and item.card is not None and item.card.cdef.enchant is not None:
            cdef = item.card.cdef

            def score_aura(a: Action) -> float:
                host = perm_of(a)
                return static_aura_value(cdef, host, me) if host is not None else 0.0

            return max(d.options, key=score_aura)
        if "Equipment" in (view.perm(source).subtypes if source and view.perm(source) else ()):
            src = view.perm(source)

            def score_equip(a: Action) -> float:
                host = perm_of(a)
                if host is None:
                    return -LETHAL
                return static_aura_value(src.cdef, host, me) + (1.0 if not host.sick else 0.0)

            return max(d.options, key=score_equip)

        if specs and specs[-1].divided:  # damage divided among targets: follow the kill plan
            _, plan = self._divided_plan(view, me, specs[-1], item.x, self._item_info(view, item)[3])
            chosen = {tuple(t) for t in item.targets}
            for ref, _n in plan:
                if ref not in chosen:
                    a = next((o for o in d.options if o.verb == "target"
                              and tuple(o.args[0]) == ref), None)
                    if a is not None:
                        return a
            done = find_option(d, "done")
            if done is not None:
                return done
        counted = bool(specs) and getattr(specs[-1], "count", None) is not None
        if counted:  # "up to N" / "X targets": each target valued alone in its spec's place
            fixed = [tuple(t) for t in item.targets[:len(specs) - 1]]

        def score_ref(ref: tuple) -> float:
            targets = [*fixed, ref]
            return self._effects_value(view, me, specs, effects, targets, item.x, source, in_combat)

        def score(a: Action) -> float:
            return score_ref(tuple(a.args[0]))

        opts = [a for a in d.options if a.verb == "target"]
        keep = next((a for a in d.options if a.verb == "keep"), None)
        # new targets for a copy (Twincast): keep the current one?
        if keep is not None and (not opts or (cur and score_ref(cur) >= max(map(score, opts)))):
            return keep
        best = max(opts, key=score)
        done = find_option(d, "done") if counted else None
        if done is not None and score(best) <= 0:
            return done  # no more targets worth choosing
        return best

    def _mode(self, view: PlayerView, d: Decision) -> Action | None:
        if d.context.get("choice") == "text_change":
            return self._text_change_choice(view, d)
        if d.context.get("choice") == "land_or_nonland":
            # Abundance: instead of a random draw, reveal until the kind of card it needs: a
            # land while it has fewer than five lands in play and in hand, else a nonland.
            lands = sum(1 for p in view.controlled_by(view.viewer) if p.is_land)
            lands += sum(1 for c in view.me.hand or () if c.cdef.is_land)
            return d.options[0] if lands < 5 else d.options[1]
        item = self._stack_context(view, d)
        if item is None or item.card is None:
            return None
        cdef = item.card.cdef
        me = view.viewer

        def score(a: Action) -> float:
            m = cdef.modes[a.args[0]]
            return self._best_targets(view, me, tuple(m.get("targets", ())), tuple(m.get("effects", ())),
                                      item.x, None, cdef.colors, self._in_combat(view))[0]

        return max(d.options, key=score)

    def _x_value(self, view: PlayerView, d: Decision) -> Action | None:
        item = self._stack_context(view, d)
        if item is None:
            return None
        me = view.viewer
        specs, effects, source, colors = self._item_info(view, item)
        if not effects:
            return d.options[-1]
        if specs and specs[-1].divided:
            return max(d.options, key=lambda a: self._divided_plan(
                view, me, specs[-1], a.args[0], colors)[0] - 0.01 * a.args[0])

        def score(a: Action) -> float:
            x = a.args[0]
            return self._best_targets(view, me, specs, effects, x, source, colors,
                                      self._in_combat(view))[0] - 0.01 * x

        return max(d.options, key=score)

    # -- whole-board spells -------------------------------------------------------------------
    def _text_plans(self, view: PlayerView, pid: int | None = None
                    ) -> list[tuple[float, int, str, str]]:
        """Mind Bend: ``(value for me, permanent, from, to)`` of text changes, best first, read
        from the permanents' keywords and static abilities: a landwalk that starts or stops
        working against its defender (worth its power), an opponent's protection from a color
        of my creatures and cards moved to a color I don't use, and a color-filtered P/T static
        ability (Ascendant Evincar's "Nonblack creatures get -1/-1") pointed at the other side."""
        me = view.viewer
        lands: dict[int, set[str]] = {P.index: set() for P in view.players}
        mine_colors = {c: 0 for c in COLOR_LETTERS}
        for q in view.permanents:
            if q.is_land:
                lands[q.controller].update(t for t in q.subtypes if t in LAND_TYPES)
            if q.controller == me and q.is_creature:
                for c in q.colors:
                    mine_colors[c] += 1
        for c in view.me.hand or ():
            for col in c.cdef.colors:
                mine_colors[col] += 1
        creatures = [q for q in view.permanents if q.is_creature]
        out = []
        for p in ([view.perm(pid)] if pid is not None else view.permanents):
            if p is None:
                continue
            sign = 1.0 if p.controller == me else -1.0
            defender = lands[other_side(view, p.controller)]
            power = max(p.power, 0) if p.is_creature else 0
            for kw in p.keywords:
                if kw in LANDWALK and power:
                    t = LANDWALK[kw]
                    for to in LAND_TYPES:
                        if to != t:
                            out.append((sign * power * ((to in defender) - (t in defender)),
                                        p.id, t, to))
                elif kw.startswith("protection_from_") and p.controller != me:
                    c = COLOR_OF.get(kw[16:])
                    if c is not None:
                        for to in COLOR_LETTERS:
                            if to != c:
                                out.append((0.5 * (mine_colors[c] - mine_colors[to]) * (
                                    1 + power), p.id, c, to))
            for st in p.static or ():
                if st.kind != "modify_pt":
                    continue
                c = st.params.get("color") or st.params.get("not_color")
                if c is None:
                    continue
                neg = "not_color" in st.params
                dpt = st.params.get("p", 0) + st.params.get("t", 0)
                for to in COLOR_LETTERS:
                    if to == c:
                        continue
                    v = 0.0
                    for q in creatures:
                        if q is p and "other" in str(st.affects):
                            continue
                        now = (c in q.colors) != neg
                        after = (to in q.colors) != neg
                        v += (after - now) * dpt * (1.0 if q.controller == me else -1.0)
                    out.append((v, p.id, c, to))
        out.sort(key=lambda t: -t[0])
        return out

    def _text_change_choice(self, view: PlayerView, d: Decision) -> Action:
        """Mind Bend's choices on resolution: the best plan for the target permanent that fits
        what is chosen so far (a color word or a land type, then the word)."""
        ctx = d.context
        what, frm = ctx.get("what"), ctx.get("from")
        for _, _, f, to in self._text_plans(view, ctx.get("pid")):
            kind = "color" if f in COLOR_LETTERS else "land"
            if (what is not None and kind != what) or (frm is not None and f != frm):
                continue
            if what is None:
                return d.options[0 if kind == "color" else 1]
            word = f if frm is None else to
            for a in d.options:
                if (a.args[0] == word) if kind == "color" else (LAND_TYPES[a.args[0]] == word):
                    return a
        return d.options[0]

    # -- other decisions ----------------------------------------------------------------------
    def _choose_color(self, view: PlayerView, d: Decision) -> Action:
        """"Choose a color" (protection from it, prevention from its sources): the color most
        common among the opponent's permanents, spells and graveyard cards (creatures count
        double); without any, the color of the opponent's lands' mana."""
        if d.context.get("choice") == "text_change":
            return self._text_change_choice(view, d)
        opp = focus_opponent(view)
        count = {c: 0.0 for c in "WUBRG"}
        for p in view.controlled_by(opp):
            for c in p.colors:
                count[c] += 2.0 if p.is_creature else 1.0
            if p.is_land:
                for ab in p.activated:
                    for c in ab.mana or ():
                        if c in count:
                            count[c] += 0.1
        for s in view.stack:
            if s.controller == opp and s.card is not None:
                for c in s.card.cdef.colors:
                    count[c] += 2.0
        for c in view.players[opp].graveyard:
            for col in c.cdef.colors:
                count[col] += 0.5
        best = max("WUBRG", key=lambda c: count[c])
        return next((a for a in d.options if a.args and a.args[0] == best), d.options[0])

    def _name_card(self, view: PlayerView, d: Decision) -> Action:
        """"Name a card" (Pithing Needle: its sources' non-mana activated abilities can't be
        played): the opponent's card with the most valuable non-mana activated ability among
        those seen (in play, on the stack, in the graveyard, removed, known in hand) and not
        named already, more copies breaking ties; the view shows no deck list, so without one
        any name."""
        best = self._best_name_to_stop(view)[0]
        return next((a for a in d.options if a.verb == "name" and a.args[0] == best),
                    d.options[0])

    def _best_name_to_stop(self, view: PlayerView) -> tuple[str | None, float]:
        """(name, worth) of the opponent's card seen with the most valuable non-mana activated
        ability (more copies seen breaking ties); (None, 0) if none."""
        opp = focus_opponent(view)
        seen: dict[str, tuple[CardDef, int]] = {}

        def see(cdef: CardDef) -> None:
            if not cdef.is_token:
                seen[cdef.name] = (cdef, seen.get(cdef.name, (cdef, 0))[1] + 1)

        for p in view.permanents:
            if p.controller == opp or p.owner == opp:
                see(p.cdef)
        for s in view.stack:
            if s.controller == opp and s.card is not None:
                see(s.card.cdef)
        P = view.players[opp]
        for c in (*P.graveyard, *P.removed, *(getattr(P, "known_hand", ()) or ())):
            see(c.cdef)
        named = {p.chosen.get("name") for p in view.permanents if p.chosen}  # already stopped
        best, best_key = None, (0.0, 0)
        for name, (cdef, n) in seen.items():
            if name in named:
                continue
            val = max((ability_weight(ab) for ab in cdef.activated if ab.mana is None),
                      default=0.0)
            if val > 0 and (val, n) > best_key:
                best, best_key = name, (val, n)
        return best, best_key[0]

    def _choose_source(self, view: PlayerView, d: Decision) -> Action | None:
        """Story Circle's "source of your choice": the opponent's spell on the stack (the most
        recent first), else the opponent's creature most likely to deal damage (attacking,
        then the most power, a damage ability counting as 2)."""
        opp = focus_opponent(view)
        best, best_s = None, -1e9
        for i, a in enumerate(d.options):
            if a.verb != "choose":
                continue
            zone, v = a.args[0]
            score = -100.0
            if zone == "s":
                item = next((s for s in view.stack if s.id == v), None)
                if item is not None and item.controller == opp:
                    score = 100.0 + i
            else:
                p = view.perm(v)
                if p is not None and p.controller == opp:
                    score = (50.0 if p.attacking else 0.0) + max(p.power, 0)
                    if any(e.get("op") == "deal_damage" for ab in p.activated for e in ab.effects):
                        score += 2.0
            if score > best_s:
                best, best_s = a, score
        return best

    def _choose_shield_damage(self, view: PlayerView, d: Decision) -> Action:
        """Which source's damage a "prevent the next N damage" shield prevents (2012 615.7;
        ``done``: a source that has left play). The shield prevents as much in total whatever
        the choice; what differs is whose damage it is: prevent the damage that would do more
        than its amount (life a Spirit Link or lifelink would give the opponent, a "whenever
        this deals damage" trigger of the opponent's that is stopped only if all of that
        source's damage is prevented), else the largest damage."""
        me = view.viewer
        left = d.context.get("shield", {}).get("amount", 0)
        damage = [(pid, n) for pid, n in d.context.get("damage", ())]

        def prevented(first: int | None) -> dict:
            out, rest = {}, left
            for pid, n in sorted(damage, key=lambda x: x[0] != first):  # the chosen one first
                used = min(rest, n)
                out[pid] = out.get(pid, 0) + used
                rest -= used
            return out

        def score(a: Action) -> tuple:
            pid = a.args[0][1] if a.verb == "choose" else None
            prev = prevented(pid)
            val = 0.0
            for src, n in damage:
                if src is not None:
                    val += _damage_swing(view, src, me, prev.get(src, 0), n)
            size = next((n for src, n in damage if src == pid), 0)
            return (val, size)

        return max(d.options, key=score)

    def _choose(self, view: PlayerView, d: Decision) -> Action:
        me = view.viewer
        verb = d.context.get("verb", "")
        if verb == "source":
            return self._choose_source(view, d) or d.options[0]
        if verb == SHIELD_VERB:
            return self._choose_shield_damage(view, d)
        if verb == "attach" and "card" in d.context:  # an Aura put into play (Warp World)
            card = self._known_cards(view).get(d.context["card"])
            if card is not None:
                def host_value(a: Action) -> float:
                    host = view.perm(a.args[0][1]) if a.args else None
                    return static_aura_value(card.cdef, host, me) if host is not None else 0.0
                return max(d.options, key=host_value)
        chosen = d.context.get("chosen", [])
        maximum = d.context.get("max", 1)
        known = self._known_cards(view)
        doomed = threats(view, me)
        scored = []
        for a in d.options:
            if a.verb != "choose":
                continue
            zone, v = a.args[0]
            if zone == "o":
                p = view.perm(v)
                if p is None:
                    continue
                mine = p.controller == me
                # Something the stack is about to kill anyway is the cheapest to give up.
                val = 0.0 if mine and v in doomed else permanent_value(p, view)
            else:
                card = known.get(v)
                cdef = card.cdef if card is not None else card_from_text(a.text)
                val = self._card_keep_value(view, cdef) if cdef is not None else 1.0
                # A card the decision shows that I can't otherwise see is the opponent's.
                mine = card.owner == me if card is not None else False
            harmful = verb in HARMFUL_CHOICES
            # Good for me: the best of mine for a helpful choice, the worst for a harmful one,
            # the best of the opponent's for a harmful one.
            s = (-val if mine else val) if harmful else (val if mine else -val)
            if verb == "copy":  # Clone: the best creature in play, whoever controls it
                s = val
            scored.append((s, a))
        done = find_option(d, "done")
        if not scored:
            return done or d.options[0]
        best_s, best = max(scored, key=lambda t: t[0])
        if done is not None and (best_s < 0 or len(chosen) >= maximum):
            return done
        return best

    def _yes_no(self, view: PlayerView, d: Decision) -> Action:
        item = self._stack_context(view, d)
        yes, no = find_option(d, "yes"), find_option(d, "no")
        if item is None or yes is None or no is None:
            return yes or d.options[0]
        specs, effects, source, _ = self._item_info(view, item)
        val = self._effects_value(view, view.viewer, specs, effects, [tuple(t) for t in item.targets],
                                  item.x, source)
        return yes if val >= 0 else no

    def _choose_player(self, view: PlayerView, d: Decision) -> Action:
        prompt = d.prompt.lower()
        helpful = any(w in prompt for w in ("gain", "draw", "untap"))
        want = view.viewer if helpful else focus_opponent(view)
        for a in d.options:
            if a.args and a.args[0] in (want, ("p", want)):
                return a
        return d.options[0]

    def _order_replacements(self, view: PlayerView, d: Decision) -> Action:
        """2012 616.1: pick the effect to apply first whose best reachable result is best for
        this player: least damage to itself or its creatures, most to the opponent's."""
        me = view.viewer

        def harm(out: list) -> int:
            zone, v, n = out
            if zone == "p":
                mine = v == me
            else:
                p = view.perm(v) if v is not None else None
                mine = p is not None and p.controller == me
            return n if mine else -n

        effects = d.context.get("effects", ())
        best, best_score = d.options[0], None
        for a in d.options:
            outs = effects[a.args[0]]["outcomes"] if a.args[0] < len(effects) else ()
            score = min((harm(o) for o in outs), default=0)
            if best_score is None or score < best_score:
                best, best_score = a, score
        return best


def _damage_swing(view: PlayerView, pid: int, me: int, prevented: int, dealt: int) -> float:
    """Worth to ``me`` of preventing ``prevented`` of the ``dealt`` damage source ``pid`` would
    deal, beyond the damage itself: life its lifelink or a Spirit Link would give (one life a
    point), a "whenever ... deals damage" trigger stopped by preventing all of it (2)."""
    src = view.perm(pid)
    if src is None or prevented <= 0:
        return 0.0
    val = 0.0
    if "lifelink" in src.keywords:
        val += prevented if src.controller != me else -prevented
    for p in view.permanents:
        if p.id != pid and p.attached_to != pid:
            continue
        for t in p.triggered:
            if t.event != "deals_damage":
                continue
            what = (t.filters or {}).get("what", "self")
            if (what == "enchanted") != (p.id != pid):
                continue
            sign = 1.0 if p.controller != me else -1.0
            if any(e.get("op") == "gain_life" for e in t.effects):
                val += sign * prevented
            elif prevented >= dealt:
                val += sign * 2.0
    return val


# Rough worth of what an activated ability's effects do, for naming it with Pithing Needle.
