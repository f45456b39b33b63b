"""Rules-aware evaluation used by the heuristic agent: what a card or creature is worth, who can
block whom, how a fight ends, and what an effect from card data would do to a target.

Everything reads the redacted :class:`~mtg_env.engine.view.PlayerView` and the card definitions'
rules data (effect ops, targets, keywords, costs); nothing here is tuned to a card name, so cards
the agent has never seen get a sensible generic value.
"""

from __future__ import annotations

from collections.abc import Iterable

from mtg_env.cards.keyword_values import keyword_bonus
from mtg_env.engine.abilities import TargetSpec
from mtg_env.engine.effects import matches_filter
from mtg_env.engine.errors import MtgError
from mtg_env.engine.filters import cached_filter
from mtg_env.engine.model import LANDWALK, CardDef
from mtg_env.engine.rules import block_allowed, protected_from
from mtg_env.engine.view import PermanentView, PlayerView

EVASION = ("flying", "fear", "unblockable", *LANDWALK)
# Keywords that make the creature they are granted to worse for its controller.
HARMFUL_KEYWORDS = frozenset({"cant_attack", "cant_block", "defender", "doesnt_untap"})
# Effect ops that are bad for the object or player they apply to, and ones that are good.
HARMFUL_OPS = frozenset({"deal_damage", "destroy", "bounce", "tap", "counter_spell", "lose_life",
                         "gain_control", "discard", "sacrifice", "exile", "remove",
                         "remove_from_game", "put_on_library", "mill", "hand_to_library",
                         "steal_draws"})
HELPFUL_OPS = frozenset({"pump", "grant", "regenerate", "untap", "gain_life", "draw", "attach",
                         "prevent_damage", "add_counters", "put_counters", "double_life",
                         "create_token", "reanimate", "put_from_hand"})
LETHAL = 1000.0


# -- values -------------------------------------------------------------------------------------
def ability_bonus(cdef: CardDef) -> float:
    """Extra worth of a card's activated, triggered and static abilities."""
    b = 0.0
    for ab in cdef.activated:
        if ab.mana is not None:
            b += 0.5 if "Land" not in cdef.types else 0.0
        elif any(e.get("op") == "regenerate" for e in ab.effects):
            b += 1.5
        elif any(e.get("op") == "deal_damage" for e in ab.effects):
            b += 2.0
        else:
            b += 1.0
    return b + 0.5 * len(cdef.triggered) + 0.7 * len(cdef.static)


def creature_value(p: PermanentView) -> float:
    """What a creature in play is worth to its controller (roughly: a 2/2 vanilla is 5)."""
    power = max(p.power, 0)
    tough = max(p.toughness - p.damage, 0)
    v = 1.0 + 1.5 * power + 1.0 * tough + keyword_bonus(power, tough, p.keywords)
    v += ability_bonus(p.cdef)
    return max(v, 0.5)


def permanent_value(p: PermanentView, view: PlayerView | None = None) -> float:
    """What any permanent is worth to its controller."""
    if p.is_creature:
        v = creature_value(p)
    elif p.is_land:
        v = 1.5
    else:
        v = 1.0 + p.cdef.cost.cmc + ability_bonus(p.cdef)
    if p.card.is_token:
        v *= 0.8
    return v


def card_value(cdef: CardDef) -> float:
    """What a card in hand (or in a library or graveyard) is worth, before it is played."""
    if "Land" in cdef.types:
        return 1.5
    if "Creature" in cdef.types:
        power = cdef.power if isinstance(cdef.power, int) else 2
        tough = cdef.toughness if isinstance(cdef.toughness, int) else 2
        return (1.0 + 1.5 * power + tough + keyword_bonus(power, tough, cdef.keywords)
                + ability_bonus(cdef))
    return 1.5 + 0.8 * cdef.cost.cmc + ability_bonus(cdef)


# -- combat ---------------------------------------------------------------------------------------
def can_block(view: PlayerView, blocker: PermanentView, attacker: PermanentView) -> bool:
    """Could ``blocker`` legally block ``attacker`` (the engine's own evasion rules), ignoring
    whether the blocker is already blocking."""
    return block_allowed(blocker, attacker, view.permanents)


def fight(att: PermanentView, blockers: list[PermanentView], att_pump: tuple[int, int] = (0, 0),
          blk_pump: dict[int, tuple[int, int]] | None = None) -> tuple[bool, set[int]]:
    """How one attacker and its blockers come out of combat damage: ``(attacker dies, ids of
    blockers that die)``. First and double strike, regeneration shields and protection are
    counted; the attacker kills the blockers it can in order of toughness (weakest first)."""
    blk_pump = blk_pump or {}
    a_pow, a_tough = att.power + att_pump[0], att.toughness + att_pump[1]
    a_dmg = att.damage
    bl = []
    for b in blockers:
        bp, bt = blk_pump.get(b.id, (0, 0))
        bl.append([b, b.power + bp, b.toughness + bt, b.damage])
    bl.sort(key=lambda x: x[2] - x[3])
    dead_blk: set[int] = set()
    att_dead = False

    def strikes(kw: frozenset, first: bool) -> bool:
        if first:
            return "first_strike" in kw or "double_strike" in kw
        return "first_strike" not in kw or "double_strike" in kw

    for first in (True, False):
        if att_dead and all(x[0].id in dead_blk for x in bl):
            break
        # attacker's damage
        if not att_dead and strikes(att.keywords, first):
            left = max(a_pow, 0)
            for x in bl:
                b = x[0]
                if b.id in dead_blk or left <= 0:
                    continue
                if protected_from(b, att.colors):
                    continue
                need = max(x[2] - x[3], 0)
                use = min(need, left)
                x[3] += use
                left -= use
        # blockers' damage
        for x in bl:
            b = x[0]
            if b.id in dead_blk or not strikes(b.keywords, first):
                continue
            if protected_from(att, b.colors):
                continue
            a_dmg += max(x[1], 0)
        if a_dmg >= a_tough and a_tough > 0 and not att_dead:
            att_dead = att.regen_shields == 0
        if a_tough <= 0:
            att_dead = True
        for x in bl:
            if x[0].id not in dead_blk and x[3] >= x[2] and x[0].regen_shields == 0:
                dead_blk.add(x[0].id)
    return att_dead, dead_blk


def trample_through(att: PermanentView, blockers: list[PermanentView]) -> int:
    """Combat damage a trampler assigns to the defending player past its blockers."""
    if "trample" not in att.keywords:
        return 0
    need = sum(max(b.toughness - b.damage, 0) for b in blockers)
    return max(att.power - need, 0)


# -- targets and effects --------------------------------------------------------------------------
def spec_matches(view: PlayerView, p: PermanentView, spec: TargetSpec, controller: int,
                 source_colors: Iterable[str] = ()) -> bool:
    """Could permanent ``p`` be a target of ``spec`` for ``controller`` (approximately)?"""
    kind = spec.kind
    t = p.types
    if kind in ("creature", "creature_or_player") and "Creature" not in t:
        return False
    if kind == "artifact" and "Artifact" not in t:
        return False
    if kind == "enchantment" and "Enchantment" not in t:
        return False
    if kind == "land" and "Land" not in t:
        return False
    if kind == "artifact_or_enchantment" and not ({"Artifact", "Enchantment"} & t):
        return False
    if kind == "nonland_permanent" and "Land" in t:
        return False
    if kind in ("player", "spell", "card_in_graveyard"):
        return False
    if "shroud" in p.keywords or protected_from(p, source_colors):
        return False
    return not spec.filters or _matches(p, spec.filters, controller)


def target_candidates(view: PlayerView, spec: TargetSpec, controller: int,
                      source_colors: Iterable[str] = ()) -> list[tuple]:
    """Likely legal targets of ``spec`` (the engine's options are authoritative)."""
    out: list[tuple] = []
    if spec.kind in ("player", "creature_or_player"):
        who = spec.filters.get("controller")
        for i in (0, 1):
            if (who == "you" and i != controller) or (who == "opponent" and i == controller):
                continue
            out.append(("p", i))
    for p in view.permanents:
        if spec_matches(view, p, spec, controller, source_colors):
            out.append(("o", p.id))
    if spec.kind == "spell":
        out.extend(("s", s.id) for s in view.stack if s.kind == "spell")
    if spec.kind == "card_in_graveyard" and spec.card is not None:
        # "target creature card in your graveyard" (Recover), or X of them (Midnight Ritual)
        for P in view.players:
            out.extend(("c", c.cid) for c in P.graveyard or () if spec.card.test(c, controller))
    return out


def incoming(view: PlayerView, player: int) -> tuple[dict[int, int], dict[int, str]]:
    """What the stack is about to do to ``player``'s permanents: ``(damage by id, destroy by id)``
    where destroy is ``"destroy"`` or ``"destroy_noregen"``."""
    dmg: dict[int, int] = {}
    destroy: dict[int, str] = {}
    for s in view.stack:
        if s.kind == "combat_damage":
            for _, (kind, tid), n in s.assignments:
                if kind == "o":
                    dmg[tid] = dmg.get(tid, 0) + n
            continue
        if s.controller == player:
            continue
        for e in s.effects:
            ti = e.get("target")
            if not isinstance(ti, int) or ti >= len(s.targets):
                continue
            kind, tid = s.targets[ti]
            if kind != "o":
                continue
            op = e.get("op")
            if op == "destroy":
                destroy[tid] = "destroy_noregen" if e.get("no_regen") else "destroy"
            elif op == "deal_damage":
                amt = e.get("amount", 0)
                dmg[tid] = dmg.get(tid, 0) + (s.x if amt == "X" else amt if isinstance(amt, int) else 0)
            elif op == "pump":
                t = e.get("t", 0)
                if isinstance(t, int) and t < 0:
                    dmg[tid] = dmg.get(tid, 0) - t
    return dmg, destroy


def threats(view: PlayerView, player: int) -> dict[int, str]:
    """Creatures of ``player`` that the stack is about to kill: ``{id: "damage" | "destroy" |
    "destroy_noregen"}`` (opposing damage and destroy effects, and combat damage on the stack)."""
    dmg, out = incoming(view, player)
    for tid, n in dmg.items():
        p = view.perm(tid)
        if p is not None and p.controller == player and p.is_creature and n >= p.toughness - p.damage:
            out.setdefault(tid, "damage")
    return {k: v for k, v in out.items() if (p := view.perm(k)) is not None and p.controller == player}


def regeneration_on_the_way(view: PlayerView) -> set[int]:
    """Permanents that regeneration abilities at the top of the stack will shield before anything
    under them resolves: the ids a run of regeneration-only objects at the top names. A shield
    already on its way needs no second one (a player who activates again each time priority comes
    back spends all their mana and piles up the stack); a threat played on top of it breaks the
    run, so the creature is saved again from that."""
    out: set[int] = set()
    for s in reversed(view.stack):
        if not s.effects or any(e.get("op") != "regenerate" for e in s.effects):
            break
        for e in s.effects:
            t = e.get("target")
            pid = None
            if t == "self":
                pid = s.source
            elif t == "enchanted":
                src = view.perm(s.source) if s.source is not None else None
                pid = src.attached_to if src is not None else None
            elif isinstance(t, int) and t < len(s.targets) and s.targets[t][0] == "o":
                pid = s.targets[t][1]
            if pid is not None:
                out.add(pid)
    return out


def face_weight(life: int) -> float:
    """Value of one point of damage to a player at ``life``: grows as the player gets low."""
    return 0.35 + 3.0 / max(life, 1)


def effect_polarity(spec: dict) -> int:
    """+1 if an effect helps what it applies to, -1 if it hurts it, 0 if unknown."""
    op = spec.get("op", "")
    if op == "pump":
        p, t = spec.get("p", 0), spec.get("t", 0)
        if isinstance(p, int) and isinstance(t, int):
            return 1 if p + t >= 0 and t >= 0 else -1
        return 1
    if op == "grant":
        kws = set(spec.get("keywords", ()))
        return -1 if kws & HARMFUL_KEYWORDS else 1
    if op == "set_pt":
        p, t = spec.get("p", 0), spec.get("t", 0)
        return -1 if isinstance(p, int) and isinstance(t, int) and p + t <= 2 else 0
    if op in HARMFUL_OPS:
        return -1
    if op in HELPFUL_OPS:
        return 1
    return 0


def _matches(p: PermanentView, flt: dict, controller: int) -> bool:
    """``p`` matches the card-language filter ``flt`` (one the view can't decide: yes)."""
    try:
        return matches_filter(p, flt, controller)
    except (MtgError, AttributeError):
        return True


def _graveyard_card_value(view: PlayerView, me: int, op: str, cid: int) -> float:
    """Value for ``me`` of ``op`` applied to the graveyard card ``cid``: back to its owner's
    hand a known card drawn (Recover, Lord of the Undead), into play under my control a free
    permanent (Doomed Necromancer, Nomad Mythmaker); a card removed from the game (Midnight
    Ritual's cost of its tokens) a little loss to its owner."""
    owner, card = next(((i, c) for i, P in enumerate(view.players) for c in P.graveyard or ()
                        if c.cid == cid), (None, None))
    if card is None:
        return 0.0
    sign = 1.0 if owner == me else -1.0
    if op == "return_card":
        return sign * (1.5 + min(0.15 * card_value(card.cdef), 2.0))
    if op == "reanimate":
        return card_value(card.cdef) + (1.0 if "Creature" in card.cdef.types else 0.0)
    if op in ("remove_from_game", "exile", "remove"):
        return -sign * 0.5
    return 0.5 * effect_polarity({"op": op})


def amount_of(v, x: int) -> int:
    """A number from card data: an int, ``"X"``, ``"-X"``, or (anything else) 1 as a rough
    guess."""
    if isinstance(v, int):
        return v
    if v == "X":
        return x
    if v == "-X":
        return -x
    if isinstance(v, dict) and v.get("removed") == "this_way":
        return x  # "for each card removed this way" (Midnight Ritual: X targets, X removed)
    return 1


def effect_value(view: PlayerView, me: int, spec: dict, ref: tuple | None, x: int = 0,
                 in_combat: bool = False) -> float:
    """Estimated value for ``me`` of one effect applied to ``ref`` (a target or fixed object)."""
    op = spec.get("op", "")
    opp = 1 - me
    if ref is None:
        return 0.0
    kind, v = ref
    if kind == "p":
        life = view.players[v].life
        sign = 1.0 if v == opp else -1.0
        if op == "deal_damage" or op == "lose_life":
            n = amount_of(spec.get("amount", 0), x)
            if v == opp and n >= life:
                return LETHAL
            if v == me and n >= life:
                return -LETHAL
            return sign * n * face_weight(life)
        if op == "gain_life":
            return -sign * 0.25 * amount_of(spec.get("amount", 0), x)
        if op == "draw":
            n = amount_of(spec.get("amount", 1), x)
            lib = view.players[v].library_size
            if v == me and lib <= n + 1:
                return -LETHAL / 10
            return -sign * 1.5 * n
        if op == "discard":
            return sign * 1.5 * amount_of(spec.get("amount", 1), x)
        if op == "steal_draws":  # Plagiarize: worth about one of their draws this turn
            return sign * 1.5
        if op == "double_life":
            return -sign * 0.25 * max(life, 0)
        if op == "hand_to_library":  # like a discard the player draws again later
            return sign * 1.5 * amount_of(spec.get("amount", 1), x)
        if op == "mill":
            per = spec.get("per_player")
            n = (view.players[v].library_size // 2 if per == "half_library"
                 else view.players[v].hand_size if per == "hand_size"
                 else amount_of(spec.get("amount", 1), x))
            lib = view.players[v].library_size
            if v == opp and n >= lib:
                return 10.0  # they lose at their next draw
            return sign * 0.3 * min(n, lib)
        if op == "put_from_hand":  # the best card of that hand it may put into play, free
            flt = cached_filter(spec.get("filter") or {}, "card")
            hand = view.players[v].hand or ()
            best = max((card_value(c.cdef) for c in hand
                        if c.cdef.is_permanent_card and flt.test(c, v)), default=0.0)
            return -sign * best
        if op == "create_token":
            return -sign * 1.5 * amount_of(spec.get("amount", 1), x)
        if op == "extra_turns":  # each extra turn: a draw, a land, an attack
            return -sign * 4.0 * amount_of(spec.get("amount", 1), x)
        if op == "sacrifice":  # Cruel Edict: the player gives up the least of what matches
            flt = spec.get("filter") or {}
            values = [permanent_value(p, view) for p in view.controlled_by(v)
                      if _matches(p, flt, v)]
            return sign * min(values) if values else 0.0
        return sign * 0.5 * -effect_polarity(spec)
    if kind == "s":
        s = view.stack_object(v)
        if s is None:
            return 0.0
        sign = 1.0 if s.controller == opp else -1.0
        if op == "counter_spell":
            return sign * stack_object_value(view, s, me if s.controller == opp else opp)
        return 0.0
    if kind == "c":
        return _graveyard_card_value(view, me, op, v)
    p = view.perm(v)
    if p is None:
        return 0.0
    mine = p.controller == me
    sign = -1.0 if mine else 1.0
    val = permanent_value(p, view)
    if op == "deal_damage":
        if not p.is_creature:
            return 0.0
        n = amount_of(spec.get("amount", 0), x)
        left = p.toughness - p.damage
        if n >= left and (p.regen_shields == 0 or spec.get("no_regen")):
            return sign * val
        return sign * 0.1 * n
    if op == "destroy":
        if p.regen_shields and not spec.get("no_regen"):
            return sign * 0.2
        return sign * val
    if op in ("bounce", "put_on_library"):
        cmc_loss = 0.4 * p.cdef.cost.cmc + (1.5 if p.card.is_token else 0.0)
        return sign * (0.5 * val if p.card.is_token else min(val, 1.0 + cmc_loss))
    if op in ("exile", "remove", "remove_from_game", "gain_control"):
        return sign * val * (2.0 if op == "gain_control" else 1.1)
    if op == "tap":
        if p.tapped:
            return 0.0
        return sign * (0.25 * val if p.is_creature else 0.2)
    if op == "untap":
        return -sign * (0.3 if p.tapped else 0.0)
    if op == "tap_or_untap":  # the choice on resolution: untap mine, tap theirs
        if p.tapped:
            return 0.3 if mine else 0.0
        return 0.0 if mine else (0.25 * val if p.is_creature else 0.2)
    if op == "pump":
        pp, tt = amount_of(spec.get("p", 0), x), amount_of(spec.get("t", 0), x)
        if p.is_creature and p.toughness - p.damage + tt <= 0:
            return sign * val
        base = 0.5 * pp + 0.3 * tt
        if not in_combat and spec.get("until", "eot") == "eot":
            base *= 0.1
        return -sign * base
    if op == "grant":
        kws = list(spec.get("keywords", ()))
        delta = keyword_bonus(p.power, p.toughness, kws)
        if not in_combat and spec.get("until", "eot") == "eot":
            delta *= 0.1
        return -sign * delta
    if op == "set_pt":
        if not p.is_creature:
            return 0.0
        after = 1.5 * spec.get("p", 0) + spec.get("t", 0)
        before = 1.5 * p.power + p.toughness
        return -sign * 0.6 * (after - before)
    if op == "regenerate":
        return -sign * 0.1
    if op == "cant_block_this":  # Duct Crawler: worth a little against an untapped blocker
        return sign * 0.1 * val if p.is_creature and not p.tapped else 0.0
    if op == "attach":
        return 0.0  # valued by the caller (equipment)
    pol = effect_polarity(spec)
    return -sign * pol * 0.3 * val


def stack_object_value(view: PlayerView, s, owner_view_player: int) -> float:
    """How much a spell or ability on the stack would do for its controller (for counters)."""
    if s.kind == "spell" and s.card is not None:
        cdef = s.card.cdef
        if "Creature" in cdef.types:
            return card_value(cdef)
        v = 0.5 + 0.6 * cdef.cost.cmc
        for e in s.effects:
            ti = e.get("target")
            if isinstance(ti, int) and ti < len(s.targets):
                v += max(effect_value(view, s.controller, e, tuple(s.targets[ti]), s.x), 0.0)
        return min(v, 50.0)
    return 1.0


def static_aura_value(cdef: CardDef, host: PermanentView, me: int) -> float:
    """Value for ``me`` of putting aura/equipment ``cdef`` on ``host``."""
    v = 0.0
    for s in cdef.static:
        if s.affects not in ("enchanted", "equipped"):
            continue
        if s.kind == "modify_pt":
            p, t = s.params.get("p", 0), s.params.get("t", 0)
            v += 1.5 * p + 1.0 * t
            if host.is_creature and host.toughness - host.damage + t <= 0:
                v -= LETHAL / 100  # kills it
        elif s.kind == "grant":
            v += keyword_bonus(host.power, host.toughness, s.params.get("keywords", ()))
        elif s.kind == "set_pt":
            v += 1.5 * (s.params.get("p", 0) - host.power) + (s.params.get("t", 0) - host.toughness)
        elif s.kind == "control":  # Persuasion: worth the creature taken, nothing on my own
            v -= 2.0 * creature_value(host) if host.is_creature else 1.0
        else:
            v += 0.5
    for ab in cdef.triggered:
        if ab.filters.get("what") in ("enchanted", "equipped"):
            v += 0.5
    if not cdef.static and not cdef.triggered:
        v += 0.5
    if host.controller != me:
        v = -v
    if host.is_creature and host.controller == me:
        v *= 1.0 if not host.keywords & {"defender", "cant_attack"} else 0.5
    return v
