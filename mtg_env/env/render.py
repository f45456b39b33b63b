"""Text rendering of a game for ``render_mode="ansi"`` / ``"human"``: the board, the stack, the
deciding player's hand and their legal actions with the env's action indices."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from mtg_env.engine.actions import Action
from mtg_env.engine.game import Game
from mtg_env.engine.model import Permanent


def _perm_text(p: Permanent, game: Game) -> str:
    s = p.card.label
    if "Creature" in p.types:
        s += f" {p.power}/{p.toughness}"
    flags = []
    if p.tapped:
        flags.append("tapped")
    if p.sick and "Creature" in p.types:
        flags.append("sick")
    if p.damage:
        flags.append(f"{p.damage} damage")
    if p.attacking:
        flags.append("attacking")
    if p.blocking:
        names = [game.perms[a].card.label for a in p.blocking if a in game.perms]
        flags.append("blocking " + ", ".join(names))
    if p.attached_to is not None and p.attached_to in game.perms:
        flags.append("on " + game.perms[p.attached_to].card.label)
    if p.counters:
        flags += [f"{n} {k}" for k, n in sorted(p.counters.items()) if n]
    if p.owner != p.controller:
        flags.append(f"owned by player {p.owner}")
    return s + (f" ({', '.join(flags)})" if flags else "")


def _ref(game: Game, ref: tuple) -> str:
    kind, v = ref[0], ref[1]
    if kind == "p":
        return f"player {v}"
    if kind == "o":
        p = game.perms.get(v)
        return p.card.label if p is not None else f"object {v}"
    if kind == "s":
        for s in game.stack:
            if s.id == v:
                return s.label
        return f"stack object {v}"
    card = game.cards.get(v)
    return card.label if card is not None else f"card {v}"


def render_text(game: Game, legal: Mapping[int, Action] | None = None,
                agent_names: Sequence[str] = ("player_0", "player_1")) -> str:
    """The board as text. ``legal`` maps env indices to the deciding player's options. The
    players are listed in turn order ending with the active player (two players: the
    non-active one first); one who has left the game is marked so."""
    lines = []
    prio = f"player {game.prio}" if game.prio >= 0 else "nobody"
    lines.append(f"Turn {game.turn}, {game.step.replace('_', ' ')}; active: player "
                 f"{game.active}; priority: {prio}")
    d = game.decision
    perms = game.permanents
    n = len(game.players)
    for pl in ((game.active + k) % n for k in range(1, n + 1)):
        P = game.players[pl]
        if P.lost:
            lines.append(f"{agent_names[pl]} (player {pl}): has left the game")
            continue
        pool = "".join(s * k for s, k in zip("WUBRGC", P.mana_pool, strict=True)) or "-"
        lines.append(f"{agent_names[pl]} (player {pl}): life {P.life}"
                     + (f", poison {P.poison}" if P.poison else "")
                     + f", library {len(P.library)}, hand {len(P.hand)}, graveyard "
                     f"{len(P.graveyard)}, removed {len(P.removed)}, mana pool {pool}")
        mine = [p for p in perms if p.controller == pl]
        lands = [_perm_text(p, game) for p in mine if "Land" in p.types]
        others = [_perm_text(p, game) for p in mine if "Land" not in p.types]
        lines.append("  lands: " + (", ".join(lands) or "-"))
        lines.append("  other permanents: " + (", ".join(others) or "-"))
        if P.graveyard:
            lines.append("  graveyard: " + ", ".join(c.label for c in P.graveyard))
        if P.removed:
            lines.append("  removed: " + ", ".join(c.label for c in P.removed))
        if d is not None and d.player == pl:
            lines.append("  hand: " + (", ".join(c.label for c in P.hand) or "-"))
    if game.stack:
        lines.append("stack (top first):")
        for s in reversed(game.stack):
            t = f"  {s.label} ({s.kind.replace('_', ' ')}, player {s.controller})"
            if s.targets:
                t += " targeting " + ", ".join(_ref(game, r) for r in s.targets)
            if s.kind == "combat_damage":
                t += ": " + "; ".join(f"{e[4]} deals {e[3]} to {_ref(game, (e[1], e[2]))}"
                                      for e in s.data.assign)
            lines.append(t)
    if game.is_over:
        who = "a draw" if game.winner is None else f"{agent_names[game.winner]} wins"
        lines.append(f"game over: {who} ({game.end_reason})")
    elif d is not None:
        lines.append(f"{agent_names[d.player]} decides ({d.kind.value}): {d.prompt}")
        if legal is not None:
            lines += [f"  [{i}] {a.text}" for i, a in sorted(legal.items())]
    return "\n".join(lines)


__all__ = ["render_text"]
