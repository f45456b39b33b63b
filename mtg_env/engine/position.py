"""Positions: a small documented format to set up a game mid-play (like FEN, or Forge puzzles).

.. code-block:: yaml

    turn: 3                 # default 1
    active_player: 0        # default 0
    step: precombat_main    # any step with priority (not untap or cleanup)
    seed: 0                 # RNG seed for later shuffles (default 0)
    attack: left            # 3 to 6 players (a Free-for-All): left (default), right or
                            # multiple (then "attacking" names the player attacked: 2)
    range: 1                # 3 to 6 players: the limited range of influence option (2012 801)
    variant: two_headed_giant   # 4 players: seats 0 and 1 against 2 and 3 (default for 3
                            # to 6 players: free_for_all); teammates share their life (30)
    players:                # 2 to 6 entries, by seat
      - life: 20            # default 20
        poison: 0
        mana_pool: "GG"     # floating mana, symbols WUBRGC
        lands_played: 0
        hand: [Giant Growth]
        library: [Forest, Forest]    # top first
        graveyard: []                # bottom first
        removed: []
        in_play:
          - Forest                   # a card name, untapped, not summoning sick
          - {card: Rushwood Dryad, id: dryad, tapped: false, damage: 0,
             counters: {"+1/+1": 1}, summoning_sick: false}
          - {card: Holy Strength, attached_to: dryad}
          - {card: Hill Giant, attacking: true}            # combat steps only
          - {card: Grizzly Bears, blocking: [giant]}
      - {...}

The active player gets priority at the start of the given step with an empty stack (the step's
own game actions, such as the draw, have already happened). Anything that breaks the rules raises
:class:`PositionError` naming what and where.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml

from .combat import defender_of
from .errors import PositionError, UnimplementedCardError, UnknownCardError
from .game import STEPS, Game
from .ids import new_object_id, next_timestamp
from .layers import fresh, mark_dirty
from .model import CardDef, Permanent, Player
from .registry import get_card
from .rng import Rng
from .seating import (
    ATTACK_OPTIONS,
    EMPEROR_RANGES,
    MAX_PLAYERS,
    compute_influence,
    defending_player,
    is_active,
)
from .state_based import aura_legal
from .turn_structure import COMBAT_STEPS, choose_defender

_PLAYER_KEYS = {"life", "poison", "mana_pool", "lands_played", "hand", "library", "graveyard",
                "removed", "in_play"}
_PERM_KEYS = {"card", "id", "tapped", "damage", "counters", "summoning_sick", "attached_to",
              "attacking", "blocking", "controller", "chosen"}
_TOP_KEYS = {"turn", "active_player", "step", "players", "seed", "attack", "variant", "range"}
_MAX_INT = 1_000_000  # bound of every integer field (life, turn, damage, counters)


def _chosen(v: Any, cdef: Any, w: str) -> dict[str, str]:
    """An "as it comes into play" choice given in a position: ``{color: R}`` or ``{name: ...}``
    (2012 614.12; :mod:`mtg_env.engine.enter_choices`)."""
    from .enter_choices import choices_of, valid_choice

    kinds = choices_of(cdef)
    if not isinstance(v, dict) or set(v) - set(kinds) or not v:
        raise PositionError(f"{w}: {cdef.name} makes the choices {list(kinds)}, got {_show(v)}")
    for k, x in v.items():
        if not valid_choice(k, x):
            raise PositionError(f"{w}.{k}: not a valid choice: {_show(x)}")
    return {str(k): str(x) for k, x in v.items()}


def load_position(path: str | Path, **options: Any) -> Game:
    """Read a position from a ``.yaml``/``.yml`` or ``.json`` file (UTF-8, a byte-order mark
    allowed); anything unreadable raises :class:`PositionError` naming the file."""
    p = Path(path)
    try:
        raw = p.read_bytes()
    except OSError as exc:
        raise PositionError(f"cannot read position file {str(p)!r}: {exc.strerror}") from None
    except ValueError as exc:  # e.g. a NUL character in the path
        raise PositionError(f"cannot read position file {str(p)!r}: {exc}") from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise PositionError(f"position file {str(p)!r} is not UTF-8 text (byte {exc.start}); "
                            "save it as UTF-8") from None
    kind = "JSON" if p.suffix == ".json" else "YAML"
    try:
        data = json.loads(text) if p.suffix == ".json" else yaml.safe_load(text)
    except (json.JSONDecodeError, yaml.YAMLError) as exc:
        raise PositionError(f"{p.name}: not valid {kind}: {str(exc).splitlines()[0]}") from None
    except (ValueError, TypeError, RecursionError) as exc:  # a bad YAML timestamp, deep nesting
        raise PositionError(f"{p.name}: not valid {kind}: {exc}") from None
    return game_from_position(data, **options)


def game_from_position(data: Any, manual_mana: bool = False, skip_trivial: bool = False,
                       max_turns: int | None = None, goldfish: int | None = None) -> Game:
    if not isinstance(data, dict):
        raise PositionError("a position must be a mapping with 'players'")
    unknown = {str(k) for k in data} - _TOP_KEYS
    if unknown:
        raise PositionError(f"unknown top-level key(s) {sorted(unknown)}; allowed: {sorted(_TOP_KEYS)}")
    g = Game()
    g.manual_mana = manual_mana
    g.skip_trivial = skip_trivial
    g.max_turns = max_turns
    players = data.get("players")
    if not isinstance(players, list) or not 2 <= len(players) <= MAX_PLAYERS:
        raise PositionError(f"'players' must be a list of 2 to {MAX_PLAYERS} player entries")
    n = len(players)
    seats = "0 or 1" if n == 2 else f"0 to {n - 1}"
    variant = data.get("variant", "two_player" if n == 2 else "free_for_all")
    if variant == "two_headed_giant":
        # Two teams of two sharing their turns and their life (2012 810).
        if n != 4:
            raise PositionError(f"a two_headed_giant position has 4 players, got {n}")
        if "attack" in data:
            raise PositionError("'attack' is an option of Free-for-All positions (Two-Headed "
                                "Giant teams attack each other)")
        g.players = [Player(i) for i in range(n)]
        g.variant = variant
    elif variant == "emperor":
        # Two teams of three (2012 809): ranges, whom to attack and deploy are the variant's.
        if n != 6:
            raise PositionError(f"an emperor position has 6 players, got {n}")
        if "attack" in data or "range" in data:
            raise PositionError("Emperor fixes its attack and range options (2012 809.3)")
        g.players = [Player(i) for i in range(n)]
        g.variant = variant
        g.attack_option = "multiple"
        g.ranges = EMPEROR_RANGES
    elif variant != ("two_player" if n == 2 else "free_for_all"):
        raise PositionError(f"variant must be {'two_player' if n == 2 else 'free_for_all'}, "
                            f"(4 players) two_headed_giant or (6) emperor, got {_show(variant)}")
    elif n > 2:
        # A multiplayer Free-for-All (2012 806) with the attack option given (803).
        g.players = [Player(i) for i in range(n)]
        g.variant = "free_for_all"
        g.attack_option = data.get("attack", "left")
        if g.attack_option not in ATTACK_OPTIONS:
            raise PositionError(f"attack must be one of {', '.join(ATTACK_OPTIONS)}, "
                                f"got {_show(g.attack_option)}")
        if "range" in data:
            reach = data["range"]
            if isinstance(reach, bool) or not isinstance(reach, int) or not 1 <= reach <= n // 2:
                raise PositionError(f"range must be a number of seats from 1 to {n // 2}, "
                                    f"got {_show(reach)}")
            g.ranges = (reach,) * n
    elif "attack" in data or "range" in data:
        raise PositionError(f"'{'attack' if 'attack' in data else 'range'}' is an option of "
                            f"multiplayer Free-for-All positions (3 or more players)")
    if goldfish is not None and (isinstance(goldfish, bool) or goldfish not in range(n)):
        raise PositionError(f"goldfish must be a seat, {seats}, or None, got {_show(goldfish)}")
    g.goldfish = goldfish
    g.rng = Rng(_int(data.get("seed", 0), "seed", 0, 2**64 - 1))
    g.turn = _int(data.get("turn", 1), "turn", 1)
    g.active = data.get("active_player", 0)
    if isinstance(g.active, bool) or g.active not in range(n):
        raise PositionError(f"active_player must be {seats}, got {_show(g.active)}")
    # Who played first, as though every turn so far went round the table once.
    if g.variant == "two_headed_giant":
        # Team turns alternate; the starting player of record is a team's first seat.
        first_seat = g.active - g.active % 2
        g.starting_player = first_seat if g.turn % 2 else first_seat ^ 2
    else:
        g.starting_player = (g.active - (g.turn - 1)) % n
    step = data.get("step", "precombat_main")
    if not isinstance(step, str) or step not in STEPS or step in ("untap", "cleanup"):
        raise PositionError(f"step {_show(step)} is not a step with priority; use one of "
                            + ", ".join(s for s in STEPS if s not in ("untap", "cleanup")))
    g.step = step
    g.step_queue = STEPS[STEPS.index(step) + 1:]
    if g.ranges:
        g.influence = compute_influence(g)  # as the turn began (2012 801.2c)
    if g.variant == "free_for_all" and step in COMBAT_STEPS and step != "end_of_combat":
        choose_defender(g)  # chosen as combat began (2012 506.2a)
    ids: dict[str, int] = {}
    attach: list[tuple[Permanent, Any, str]] = []
    blocks: list[tuple[Permanent, Any, str]] = []
    for i, pd in enumerate(players):
        where = f"players[{i}]"
        if not isinstance(pd, dict):
            raise PositionError(f"{where}: must be a mapping")
        bad = {str(k) for k in pd} - _PLAYER_KEYS
        if bad:
            raise PositionError(f"{where}: unknown key(s) {sorted(bad)}; allowed: {sorted(_PLAYER_KEYS)}")
        P = g.players[i]
        P.life = _int(pd.get("life", 30 if g.variant == "two_headed_giant" else 20),
                      f"{where}.life", None)
        if g.variant == "two_headed_giant" and i % 2 and P.life != g.players[i - 1].life:
            raise PositionError(f"{where}.life: a Two-Headed Giant team shares one life total "
                                f"(players {i - 1} and {i}: {g.players[i - 1].life} and {P.life})")
        P.poison = _int(pd.get("poison", 0), f"{where}.poison", 0)
        P.lands_played = _int(pd.get("lands_played", 0), f"{where}.lands_played", 0)
        pool = pd.get("mana_pool", "")
        if pool is None:
            pool = ""
        if not isinstance(pool, str):
            raise PositionError(f"{where}.mana_pool: expected a string of mana symbols (WUBRGC), "
                                f"got {_show(pool)}")
        for ch in pool:
            if ch not in "WUBRGC":
                raise PositionError(f"{where}.mana_pool: {ch!r} is not a mana symbol (WUBRGC)")
            P.mana_pool["WUBRGC".index(ch)] += 1
        for zone in ("hand", "library", "graveyard", "removed"):
            names = _list(pd.get(zone), f"{where}.{zone}", "card names")
            for j, name in enumerate(names):
                cdef = _card(name, f"{where}.{zone}[{j}]")
                if cdef.is_token:  # 2007 CR 216: a token exists only in play
                    raise PositionError(f"{where}.{zone}[{j}]: {cdef.name} is a token; tokens "
                                        "exist only in play")
                getattr(P, zone).append(g.new_card(cdef, i))
        in_play = _list(pd.get("in_play"), f"{where}.in_play", "card names or permanent mappings")
        for j, entry in enumerate(in_play):
            w = f"{where}.in_play[{j}]"
            if isinstance(entry, str):
                entry = {"card": entry}
            if not isinstance(entry, dict) or "card" not in entry:
                raise PositionError(f"{w}: must be a card name or a mapping with 'card', "
                                    f"got {_show(entry)}")
            bad = {str(k) for k in entry} - _PERM_KEYS
            if bad:
                raise PositionError(f"{w}: unknown key(s) {sorted(bad)}; allowed: {sorted(_PERM_KEYS)}")
            cdef = _card(entry["card"], w)
            if not cdef.is_permanent_card:
                raise PositionError(f"{w}: {cdef.name} is an instant or sorcery and can't be in play")
            controller = entry.get("controller", i)
            if controller not in range(n) or isinstance(controller, bool):
                raise PositionError(f"{w}.controller: must be {seats}, got {controller!r}")
            perm = Permanent(new_object_id(g), g.new_card(cdef, i), controller, next_timestamp(g))
            perm.tapped = _bool(entry.get("tapped", False), f"{w}.tapped")
            perm.damage = _int(entry.get("damage", 0), f"{w}.damage", 0)
            perm.sick = _bool(entry.get("summoning_sick", False), f"{w}.summoning_sick")
            counters = entry.get("counters")
            if counters is None:
                counters = {}
            if not isinstance(counters, dict) or any(
                    not isinstance(k, str) or not k or isinstance(v, bool) or not isinstance(v, int)
                    or not 0 <= v <= _MAX_INT for k, v in counters.items()):
                raise PositionError(f"{w}.counters: must map counter names to non-negative integers, "
                                    f"got {_show(counters)}")
            perm.counters = {k: v for k, v in counters.items() if v}
            if entry.get("chosen") is not None:
                perm.chosen = _chosen(entry["chosen"], cdef, f"{w}.chosen")
            if "id" in entry:
                key = _ref(entry["id"], f"{w}.id")
                if key in ids:
                    raise PositionError(f"{w}: duplicate id {key!r}")
                ids[key] = perm.id
            if "attached_to" in entry and entry["attached_to"] is not None:
                attach.append((perm, _ref(entry["attached_to"], f"{w}.attached_to"), w))
            attacking = entry.get("attacking", False)
            if g.attack_option == "multiple" and attacking is not False:
                # 2012 802.3: the player it attacks
                if (isinstance(attacking, bool) or attacking not in range(n)
                        or attacking == controller):
                    raise PositionError(f"{w}.attacking: with attack: multiple, the player it "
                                        f"attacks (an opponent's seat), got {_show(attacking)}")
                g.attack_whom = (*g.attack_whom, (perm.id, attacking))
                attacking = True
            if _bool(attacking, f"{w}.attacking"):
                if step not in ("declare_attackers", "declare_blockers", "combat_damage"):
                    raise PositionError(f"{w}: 'attacking' needs a combat step after attackers are declared")
                if not is_active(g, controller) or not cdef.types & {"Creature"}:
                    raise PositionError(f"{w}: only the active player's creatures can attack")
                perm.attacking = True
                g.any_attackers = True
                g.attacked_this_turn = (*g.attacked_this_turn, perm.id)
            blocking = entry.get("blocking")
            if blocking is not None and blocking != []:
                refs = blocking if isinstance(blocking, list) else [blocking]
                blocks.append((perm, [_ref(r, f"{w}.blocking") for r in refs], w))
            g.perms[perm.id] = perm
    for perm, ref, w in attach:
        host = ids.get(ref)
        if host is None:
            raise PositionError(f"{w}.attached_to: no permanent has id {ref!r}")
        perm.attached_to = host
    for perm, refs, w in blocks:
        if step not in ("declare_blockers", "combat_damage"):
            raise PositionError(f"{w}: 'blocking' needs the declare_blockers or combat_damage step")
        if g.attack_option == "multiple":  # 2012 802.4a: only creatures attacking them
            not_defender = any(defender_of(g, ids[r]) != perm.controller for r in refs if r in ids)
        elif g.variant == "two_headed_giant":  # 2012 810.7d: the defending team blocks
            not_defender = is_active(g, perm.controller)
        else:
            not_defender = perm.controller != defending_player(g)
        if not_defender or "Creature" not in perm.cdef.types:
            raise PositionError(f"{w}: only the defending player's creatures can block")
        for ref in refs:
            aid = ids.get(ref)
            if aid is None or not g.perms[aid].attacking or aid in perm.blocking:
                raise PositionError(f"{w}.blocking: {ref!r} is not the id of an attacking creature")
            perm.blocking.append(aid)
            g.perms[aid].blocked = True
            g.perms[aid].blockers.append(perm.id)
    sick = {pid: perm.sick for pid, perm in g.perms.items()}
    mark_dirty(g, "loaded")
    fresh(g)
    for pid, flag in sick.items():
        # The position's summoning_sick wins: a control change the first refresh computes
        # (Persuasion) is part of the position, not an event that just happened (2007 CR 212.3d).
        g.perms[pid].sick = flag
    for perm in g.perms.values():
        sub = perm.subtypes
        if "Aura" in sub:
            aura_host = g.perms.get(perm.attached_to) if perm.attached_to is not None else None
            if aura_host is None or not aura_legal(g, perm, aura_host):
                raise PositionError(f"{perm.card.label}: an Aura must be attached to a permanent it "
                                    "can enchant (set attached_to)")
        elif perm.attached_to is not None and "Equipment" not in sub:
            raise PositionError(f"{perm.card.label}: only Auras and Equipment can be attached")
        elif perm.attached_to is not None and not g.perms[perm.attached_to].is_creature:
            raise PositionError(f"{perm.card.label}: Equipment can be attached only to a creature")
    g.step_begun = True
    g.prio = g.active
    g.passes = 0
    g.write_log(f"position loaded: turn {g.turn}, {step}, player {g.active} active")
    g.run_to_decision()
    return g


def _show(v: Any, limit: int = 60) -> str:
    """A short repr of a bad value for an error message."""
    r = repr(v)
    return r if len(r) <= limit else r[:limit] + "..."


def _list(v: Any, where: str, what: str) -> list[Any]:
    """A list field: absent or null is empty; anything else that isn't a list is an error (a
    string is not read as a list of characters)."""
    if v is None:
        return []
    if not isinstance(v, list):
        raise PositionError(f"{where}: must be a list of {what}, got {_show(v)}")
    return v


def _bool(v: Any, where: str) -> bool:
    if not isinstance(v, bool):
        raise PositionError(f"{where}: expected true or false, got {_show(v)}")
    return v


def _ref(v: Any, where: str) -> str:
    """An ``id`` a permanent is referred to by: a string or an integer."""
    if isinstance(v, bool) or not isinstance(v, str | int):
        raise PositionError(f"{where}: expected an id (a string or an integer), got {_show(v)}")
    return str(v)


def _card(name: Any, where: str) -> CardDef:
    if not isinstance(name, str):
        raise PositionError(f"{where}: expected a card name, got {_show(name)}")
    try:
        return get_card(name)
    except (UnknownCardError, UnimplementedCardError) as exc:
        raise PositionError(f"{where}: {exc}") from None


def _int(v: Any, where: str, lo: int | None = 0, hi: int = _MAX_INT) -> int:
    if not isinstance(v, int) or isinstance(v, bool):
        raise PositionError(f"{where}: expected an integer, got {_show(v)}")
    if lo is not None and v < lo:
        raise PositionError(f"{where}: must be at least {lo}, got {v}")
    if abs(v) > hi:
        raise PositionError(f"{where}: must be at most {hi} in size, got {_show(v)}")
    return v
