"""The check :meth:`Game.from_json` runs on a stored game state before building a game from it.

:func:`check_state` runs each stored field's checker (the schema :mod:`mtg_env.engine.state`
declares with the fields, :mod:`mtg_env.engine.loaded_state_schema`), then the checks that relate
objects to each other: every card in exactly one zone, its owner's; ids handed out and unique;
the rest of the turn a possible one; frames sitting where their procedure puts them; a
finished game with nothing pending, an unfinished one with a decision its innermost procedure
asks. The first problem raises :class:`StateError` naming its path.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from .enter_choices import CHOICE_KINDS
from .frame_kinds import frame_from_json
from .frames import Frame, PayFrame, ResolveFrame, ResolveStep, RetargetFrame
from .frames_choice import ChooseFrame
from .frames_effects import DrawsFrame, EnterChoiceFrame
from .loaded_state_checkers import ID, OBJ, Check, Ctx, fail, show
from .loaded_state_schema import PLAYER_ZONES
from .seating import MAX_PLAYERS

if TYPE_CHECKING:
    from .state import Field

# -- the whole state ---------------------------------------------------------------------------
# Which decisions each procedure asks (the top frame answers the pending decision; with no frame
# it is a priority decision).
_FRAME_DECISIONS: dict[str | None, frozenset[str]] = {
    None: frozenset({"priority"}),
    "cast": frozenset({"target", "mode", "x_value", "pay_mana", "choose_color", "choose_player",
                       "choose_cards", "yes_no", "divide"}),
    "put": frozenset({"order_triggers"}),
    "attack": frozenset({"declare_attackers"}),
    "block": frozenset({"declare_blockers"}),
    "assign": frozenset({"combat_damage"}),
    "choose": frozenset({"choose_cards"}),
    "yesno": frozenset({"yes_no"}),
    "mulligan": frozenset({"mulligan"}),
    "order_repl": frozenset({"order_replacements"}),
    "pay": frozenset({"yes_no"}),
    "enter_choice": frozenset(d.value for d, _ in CHOICE_KINDS.values()),
    "draws": frozenset({"mode"}),
    "text_change": frozenset({"mode", "choose_color"}),
    "enter_together": frozenset({"choose_cards"}),
    "retarget": frozenset({"target"}),
}


# The rest of a turn, one letter a step (turn_structure.py): the current step and the steps still
# to come must be the end of some turn "untap upkeep draw precombat_main (combat phase,
# postcombat_main)+ end_of_turn cleanup" (2012 500.8: added combat and main phases).
_STEP_LETTER = {"untap": "U", "upkeep": "u", "draw": "d", "precombat_main": "M",
                "beginning_of_combat": "b", "declare_attackers": "a", "declare_blockers": "k",
                "combat_damage": "x", "end_of_combat": "e", "postcombat_main": "P",
                "end_of_turn": "E", "cleanup": "L"}
_TURN_REST = re.compile(r"(?:(?:(?:U?u)?d)?M(?:bakxeP)+|(?:(?:(?:(?:b?a)?k)?x)?e)?P(?:bakxeP)*)?EL"
                        r"|L")


def _check_turn(step: str, queue: list[str]) -> None:
    rest = "".join(_STEP_LETTER[s] for s in (step, *queue))
    if not _TURN_REST.fullmatch(rest):
        fail("step_queue", f"{queue!r:.80} can't follow the {step} step")


def _check_frames(frames: list[Frame]) -> None:
    """What a frame's field types can't say: how its fields relate, and which frame it sits on
    (a resolving spell's "as it comes into play" choices and a payment asked on resolution sit
    on the resolution that asks them; a draw waiting for the optional replacement's choice has
    its event)."""
    for j, f in enumerate(frames):
        path = f"frames[{j}]"
        below = frames[j - 1] if j else None
        if isinstance(f, ChooseFrame):
            if f.min_count > f.max_count:
                fail(path, f"cannot choose at least {f.min_count} and at most {f.max_count}")
            if (f.then or {}).get("op") == "prevent_source":  # a source: a permanent or a spell
                for key, refs in (("cands", f.candidates), ("chosen", f.chosen)):
                    for i, r in enumerate(refs):
                        if r[0] not in ("o", "s"):
                            fail(f"{path}.{key}[{i}]", f"a source is a permanent or a spell, not "
                                                       f"{show(r)}")
        elif isinstance(f, RetargetFrame):
            if f.index >= len(f.old):
                fail(f"{path}.i", f"target {f.index} of {len(f.old)} is past the last")
        elif isinstance(f, EnterChoiceFrame):
            kinds, chosen = f.kinds, list(f.chosen)
            if chosen != kinds[:len(chosen)] or len(chosen) >= len(kinds):
                fail(f"{path}.chosen", f"{show(chosen)} are not the first choices of {kinds}")
            if (f.item_id is None) == (f.perm_id is None):
                fail(path, "the choices are made for a resolving spell (sid) or a permanent (pid)")
            if (f.perm_id is None) != (f.etb is None):
                fail(f"{path}.etb", "a permanent's comes-into-play event waits with its choices, "
                                    "and only then")
            if f.item_id is not None and not (
                    isinstance(below, ResolveFrame) and below.item_id == f.item_id
                    and below.step == ResolveStep.ENTER_CHOICES):
                fail(path, "a spell's choices must sit on its resolution")
        elif isinstance(f, PayFrame) and not (isinstance(below, ResolveFrame)
                                              and below.item_id == f.item_id
                                              and below.effect_index == f.effect_index + 1):
            fail(path, "a payment must sit on the resolution of its effect")
    top = frames[-1] if frames else None
    if isinstance(top, DrawsFrame) and top.event is None:
        fail(f"frames[{len(frames) - 1}].ev", "a draw waiting for a choice needs its event")


def _check_zone_sources(d: dict[str, Any]) -> None:
    """A triggered ability working from a graveyard (``src_card``, on the stack or waiting) is
    one of that card's, controlled by its owner (2012 603.3a)."""
    cards = None
    for where, items, ctrl, abl in (("stack", d["stack"], "controller", "ability_def"),
                                    ("pending", d["pending"], "ctrl", "abl")):
        for i, x in enumerate(items):
            data = x.get("data", x) if where == "stack" else x
            cid = data.get("src_card") if type(data) is dict else None
            if cid is None:
                continue
            if cards is None:
                cards = {c[0]: c for c in d["cards"]}
            ref = (x.get(abl) or {}).get("$ability") if type(x.get(abl)) is dict else None
            _, name, owner, _ = cards[cid]
            if not ref or ref[0] != name:
                fail(f"{where}[{i}]", f"card {cid} ({name}) is not the source of its ability")
            if x[ctrl] != owner:
                fail(f"{where}[{i}].{ctrl}", f"an ability of card {cid} in a graveyard is "
                                             f"controlled by its owner, player {owner}")


def _ids(items: Any, path: str, seen: set[int]) -> set[int]:
    """The ``id`` of each object of a stored list, checked unique (types are checked later)."""
    out: set[int] = set()
    if type(items) is not list:
        return out
    for i, x in enumerate(items):
        v = x.get("id") if type(x) is dict else None
        if type(v) is int:
            if v in seen or v in out:
                fail(f"{path}[{i}].id", f"id {v} is used twice")
            out.add(v)
    return out


def check_state(d: dict[str, Any], fields: tuple[Field, ...], extra_keys: frozenset[str]) -> None:
    """Check a stored game state (the dict ``serialize.game_to_dict`` makes; a field ``_x`` is
    stored as ``x``) against ``fields``' checkers and the references between its objects; raise
    :class:`StateError` naming the path of the first problem."""
    hit = _STORED.get(id(fields))
    if hit is None or hit[0] is not fields:
        stored = [(f.name.lstrip("_"), f.check) for f in fields if f.json != "derived"]
        hit = _STORED[id(fields)] = (fields, stored, {k for k, _ in stored})
    _, stored, names = hit
    for k in d:
        if k not in names and k not in extra_keys:
            fail(show(k), "unknown key of a game state")
    for k, _ in stored:
        if k not in d:
            fail(k, "missing")
    ctx = Ctx()
    players = d["players"]
    if type(players) is list and 2 <= len(players) <= MAX_PLAYERS:
        ctx.n_players = len(players)  # else the players' own check says what is wrong
    ID(d["next_id"], "next_id", ctx)
    ctx.next_id = d["next_id"]
    first = ("next_id", "cards")  # the ids every other check refers to
    for k, check in stored:
        if k in first:
            check(d[k], k, ctx)
    ctx.perms = _ids(d["perms"], "perms", set())
    ctx.stack = _ids(d["stack"], "stack", ctx.perms)
    for k, check in stored:
        if k not in first:
            check(d[k], k, ctx)
    if not _zones_ok(d, ctx):
        _check_zones(d, ctx)
    _check_turn(d["step"], d["step_queue"])
    _check_frames([frame_from_json(f) for f in d["frames"]])
    _check_zone_sources(d)
    _check_variant(d)
    # The game's progress: a finished game has no decision and nothing in progress; an unfinished
    # one has a decision of the kind its innermost procedure asks.
    dec = d["decision"]
    if d["is_over"]:
        if dec is not None or d["frames"]:
            fail("decision", "a finished game has no pending decision or procedure")
        return
    if d["winner"] is not None:
        fail("winner", "an unfinished game has no winner")
    if dec is None:
        fail("decision", "no decision pending in an unfinished game")
    top = d["frames"][-1]["k"] if d["frames"] else None
    if top not in _FRAME_DECISIONS or dec["kind"] not in _FRAME_DECISIONS[top]:
        fail("decision.kind", f"a {dec['kind']} decision does not answer "
                              f"{'the ' + top + ' procedure' if top else 'priority'}")


def _check_variant(d: dict[str, Any]) -> None:
    """The variant fits the number of players, and Two-Headed Giant teammates share one life
    total (2012 810.4)."""
    n, variant = len(d["players"]), d["variant"]
    need = {"two_player": n == 2, "free_for_all": n > 2, "two_headed_giant": n == 4,
            "emperor": n == 6}
    if not need[variant]:
        fail("variant", f"a {variant} game can't have {n} players")
    if d["ranges"] and (variant not in ("free_for_all", "emperor") or len(d["ranges"]) != n):
        fail("ranges", "the limited range of influence option is one range per player of a "
                       "free_for_all game")
    if bool(d["ranges"]) != bool(d["influence"]) or (d["influence"]
                                                     and len(d["influence"]) != n):
        fail("influence", "one range of influence per player, exactly when ranges are set")
    if variant == "two_headed_giant":
        for i in (1, 3):
            if d["players"][i]["life"] != d["players"][i - 1]["life"]:
                fail(f"players[{i}].life", f"teammates share one life total (players {i - 1} "
                                           f"and {i})")


# id(fields) -> (fields, [(stored name, check)], names)
_STORED: dict[int, tuple[tuple[Field, ...], list[tuple[str, Check]], set[str]]] = {}


def _zones_ok(d: dict[str, Any], ctx: Ctx) -> bool:
    """The quick test of :func:`_check_zones` (true when it would pass)."""
    cards = ctx.cards
    ids: list[int] = []
    for pl, P in enumerate(d["players"]):
        for zone in PLAYER_ZONES:
            z = P[zone]
            for c in z:
                if cards[c] != pl:
                    return False
            ids += z
    nid = ctx.next_id
    for p in d["perms"]:
        if not p["id"] < nid:
            return False
        ids.append(p["card"])
    for s in d["stack"]:
        if not s["id"] < nid:
            return False
        if s["kind"] == "spell":
            if s["card"] is None:
                return False
            ids.append(s["card"])
    seen = set(ids)
    return len(seen) == len(ids) and len(seen | ctx.tokens) == len(cards)


def _check_zones(d: dict[str, Any], ctx: Ctx) -> None:
    """Every card is in one zone (a token that left play is in none), its owner's; permanents
    and stack objects have ids handed out."""
    where: dict[int, tuple[str, int | None]] = {}  # card id -> (zone path, index); formatted only on failure
    cards = ctx.cards

    def put(cid: int, path: str, i: int | None) -> None:
        if cid in where:
            zone, j = where[cid]
            fail(f"{path}[{i}]" if i is not None else path,
                 f"card {cid} is also in {zone}[{j}]" if j is not None else
                 f"card {cid} is also in {zone}")
        where[cid] = (path, i)

    for pl, P in enumerate(d["players"]):
        for zone in PLAYER_ZONES:
            zpath = f"players[{pl}].{zone}"
            for i, cid in enumerate(P[zone]):
                if cards[cid] != pl:
                    fail(f"{zpath}[{i}]", f"card {cid} is owned by player {cards[cid]}")
                if cid in where:
                    put(cid, zpath, i)
                where[cid] = (zpath, i)
    for i, p in enumerate(d["perms"]):
        OBJ(p["id"], f"perms[{i}].id", ctx)
        put(p["card"], f"perms[{i}].card", None)
    for i, s in enumerate(d["stack"]):
        OBJ(s["id"], f"stack[{i}].id", ctx)
        if s["kind"] == "spell":
            if s["card"] is None:
                fail(f"stack[{i}].card", "a spell needs its card")
            put(s["card"], f"stack[{i}].card", None)
    for cid in ctx.cards:
        if cid not in where and cid not in ctx.tokens:
            fail("cards", f"card {cid} is in no zone")
