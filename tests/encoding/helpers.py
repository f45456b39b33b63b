"""Checks shared by the encoding tests: the action mask is a bijection onto the engine's legal
options, and every legal index means what the layout says (checked independently of the
observer's own mapping, by reading the slot back from the observation)."""

from __future__ import annotations

from functools import cache

import numpy as np

from mtg_env import Deck, Game
from mtg_env.encoding import Observer
from mtg_env.encoding.vocab import card_index
from mtg_env.env.config import default_deck_names


@cache
def decks() -> dict[str, Deck]:
    """The env's default decks (the theme decks once they load)."""
    return {n: Deck.builtin(n) for n in default_deck_names()}


def _col(obs: Observer, section: str, name: str) -> int:
    return obs.obs_layout.col[section][name]


def check_decision(obs: Observer, game: Game) -> dict:
    """Observe the pending decision for its player and check mask, mapping and meaning.

    Returns ``{index: action}``.
    """
    d = game.decision
    me = d.player
    o, mask = obs.observe(game, me)
    for other in range(len(game.players)):
        if other != me:
            _other, other_mask = obs.observe(game, other)
            assert not other_mask.any(), "a player not deciding must get an all-zero mask"
    legal = obs.legal(game)
    assert mask.dtype == np.int8 and mask.shape == (obs.act_layout.size,)
    assert set(np.flatnonzero(mask)) == set(legal), "mask and decoded indices differ"
    assert len(legal) == len(d.options), (
        f"{len(d.options)} options but {len(legal)} indices: {d.options} -> {legal}")
    assert sorted(a.text for a in legal.values()) == sorted(a.text for a in d.options)
    if isinstance(o, np.ndarray):
        lay = obs.obs_layout
        o = {n: o[lay.offset[n]:lay.offset[n] + int(np.prod(s))].reshape(s)
             for n, s in lay.shapes.items()}
    rows = obs.view_rows(me)
    for i, a in legal.items():
        check_meaning(obs, game, me, o, rows, i, a)
    return legal


def check_meaning(obs: Observer, game: Game, me: int, o: dict, rows: dict, i: int, a) -> None:
    """Index ``i`` decodes to option ``a``: the band fits the verb and the slot holds the object
    the option names (and the observation shows that object in that slot)."""
    lay = obs.act_layout
    caps = obs.caps
    band, slot = lay.locate(i)
    verb, args = a.verb, a.args
    P, H, A = caps.max_permanents, caps.max_hand, caps.max_ability_slots
    seats = rows["seats"]  # absolute seat of each relative seat
    N = len(seats)
    assert seats[0] == me and sorted(seats) == list(range(len(game.players)))
    msg = f"index {i} ({lay.describe(i)}) decoded to {a.text!r} ({verb} {args})"
    if band == "decline":
        assert verb in ("pass", "done", "no", "mulligan"), msg
        return
    if band == "accept":
        assert verb in ("keep", "yes"), msg
        return
    if band in ("x", "assign", "mode", "order"):
        assert verb == band and args[0] == slot, msg
        if band == "order":
            assert o["triggers"][slot, _col(obs, "triggers", "present")] == 1, msg
        return
    if band == "color":
        assert verb == "color" and args[0] == "WUBRG"[slot], msg
        return
    if band == "card_name":
        from mtg_env.encoding.vocab import vocabulary

        assert verb == "name" and vocabulary().name(slot) == args[0], msg
        return
    if band == "player":
        who = seats[slot]
        assert (verb == "player" and args[0] == who) or (
            verb in ("target", "choose") and tuple(args[0]) == ("p", who)), msg
        return
    if band == "hand":
        cid = rows["hand"][slot]
        assert (verb == "play" and args[0] == cid) or (
            verb in ("choose", "target") and tuple(args[0]) in (("h", cid), ("c", cid))), msg
        card = game.cards[cid]
        assert o["hand"][slot, _col(obs, "hand", "present")] == 1, msg
        assert o["hand"][slot, _col(obs, "hand", "card_id")] == card_index(card.cdef), msg
        assert card in game.players[seats[slot // H]].hand, msg
        return
    if band == "permanent":
        p = rows["permanents"][slot]
        assert (verb == "attack" and args[0] == p.id) or (
            verb in ("target", "choose") and tuple(args[0]) == ("o", p.id)), msg
        _check_perm_row(obs, o, slot, p, seats, msg)
        return
    if band == "attack_player":
        r, s = divmod(slot, N - 1)
        p = rows["permanents"][r]
        assert verb == "attack" and args == (p.id, seats[s + 1]), msg
        _check_perm_row(obs, o, r, p, seats, msg)
        return
    if band == "ability":
        r, s = divmod(slot, A)
        p = rows["permanents"][r]
        assert r < P and p.controller == me, msg
        assert verb in ("mana", "activate") and args[0] == p.id, msg
        # Its abilities now, by position (printed first, then granted: Emperor's deploy).
        slots = [(i, c) for i, ab in enumerate(p.activated)
                 for c in (ab.mana if ab.mana is not None else (None,))]
        want = (args[1], args[2] if verb == "mana" else None)
        assert slots.index(want) == s, msg
        _check_perm_row(obs, o, r, p, seats, msg)
        return
    if band == "block":
        b, att = divmod(slot, (N - 1) * P)
        pb, pa = rows["permanents"][b], rows["permanents"][P + att]
        assert verb == "block" and args == (pb.id, pa.id), msg
        return
    if band == "stack":
        sid = rows["stack"][slot]
        assert verb in ("target", "choose") and tuple(args[0]) == ("s", sid), msg
        assert game.stack[-1 - slot].id == sid, msg
        assert o["stack"][slot, _col(obs, "stack", "present")] == 1, msg
        return
    if band in ("graveyard", "removed", "revealed"):
        section = {"graveyard": "graveyards", "removed": "removed", "revealed": "revealed"}[band]
        cid = rows[section][slot]
        # A land played from the own graveyard (Crucible of Worlds) takes its graveyard row.
        assert (verb in ("target", "choose") and tuple(args[0]) == ("c", cid)) or (
            verb == "play" and band == "graveyard" and slot < caps.max_graveyard
            and args[0] == cid), msg
        card = game.cards[cid]
        assert o[section][slot, _col(obs, section, "present")] == 1, msg
        assert o[section][slot, _col(obs, section, "card_id")] == card_index(card.cdef), msg
        if band == "graveyard":
            G = caps.max_graveyard
            owner = seats[slot // G]
            assert game.players[owner].graveyard[slot % G] is card, msg
        return
    raise AssertionError(f"unexpected band {band}: {msg}")


def _check_perm_row(obs: Observer, o: dict, row: int, p, seats: tuple, msg: str) -> None:
    t = o["permanents"][row]
    c = obs.obs_layout.col["permanents"]
    assert t[c["present"]] == 1, msg
    assert t[c["card_id"]] == card_index(p.cdef), msg
    assert p.controller == seats[row // obs.caps.max_permanents], msg
    assert t[c["tapped"]] == p.tapped and t[c["power"]] == p.power, msg
    assert t[c["toughness"]] == p.toughness and t[c["damage"]] == p.damage, msg
