"""The board as a person sees it: a plain-data snapshot of a :class:`PlayerView` and its ``rich``
rendering, shared by the terminal human seat, ``mtg-env replay --step`` and the HTML viewer.

A snapshot holds only what the view holds (the opponent's hand is a count) unless the caller
passes ``hands`` (a replay shows both hands: it is a spectator's view of a finished game).

>>> from mtg_env import Deck, Game
>>> g = Game.new([Deck.builtin("starter_green"), Deck.builtin("starter_red")], seed=1)
>>> b = board_snapshot(g.view(g.decision.player))
>>> b["players"][1 - b["viewer"]]["hand"] is None, b["players"][0]["life"]
(True, 20)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ..engine.view import PermanentView, PlayerView

__all__ = ["SEP", "board_snapshot", "card_ref", "mana_text", "permanent_text", "render_board",
           "render_options"]

COLORS = "WUBRGC"


def mana_text(pool: Sequence[int]) -> str:
    """A mana pool ``(W, U, B, R, G, C)`` as symbols, ``-`` when empty.

    >>> mana_text((0, 0, 0, 2, 1, 0))
    'RRG'
    """
    return "".join(s * n for s, n in zip(COLORS, pool, strict=True)) or "-"


def _ref_text(view: PlayerView, ref: tuple) -> str:
    kind, v = ref[0], ref[1]
    if kind == "p":
        return "player " + str(v)
    if kind == "o":
        p = view.perm(v)
        return p.label if p is not None else "a permanent that left play"
    if kind == "s":
        s = view.stack_object(v)
        return s.label if s is not None else "a stack object that left the stack"
    for P in view.players:
        for zone in (P.graveyard, P.removed, P.hand or ()):
            for c in zone:
                if c.cid == v:
                    return c.label
    return "a card"


def _sickness_matters(view: PlayerView, p: PermanentView) -> bool:
    """Summoning sickness (2007 CR 212.3d) keeps a creature without haste from attacking (on its
    controller's turn) and from playing its {T} abilities (on any turn); otherwise it changes
    nothing, and the board doesn't mention it."""
    if not (p.sick and p.is_creature) or "haste" in p.keywords:
        return False
    return p.controller == view.active or any(a.cost.tap for a in p.activated)


def _perm_dict(view: PlayerView, p: PermanentView) -> dict[str, Any]:
    def labels(ids: Sequence[int]) -> list[str]:
        return [q.label for q in (view.perm(i) for i in ids) if q is not None]

    host = view.perm(p.attached_to) if p.attached_to is not None else None
    return {
        "id": p.id, "label": p.label, "name": p.name, "controller": p.controller, "owner": p.owner,
        "kind": "land" if p.is_land else "creature" if p.is_creature else "other",
        "pt": f"{p.power}/{p.toughness}" if p.is_creature else None,
        "tapped": p.tapped, "sick": _sickness_matters(view, p), "damage": p.damage,
        "counters": {k: n for k, n in sorted(p.counters.items()) if n},
        "attached_to": host.label if host is not None else None,
        "attacking": p.attacking, "blocked": p.blocked, "blocking": labels(p.blocking),
        "blocked_by": labels(p.blockers),
    }


def board_snapshot(view: PlayerView, hands: Sequence[Sequence[str]] | None = None) -> dict[str, Any]:
    """The board of ``view`` as plain JSON-able data (cards by label).

    Keys: ``viewer``, ``turn``, ``step``, ``active``, ``priority``, ``deciding``, ``is_over``,
    ``winner``, ``end_reason``, ``players`` (life, poison, counts, mana pool, graveyard, removed
    cards, ``hand``: labels or ``None`` when hidden), ``permanents`` (label, P/T, tapped, sick,
    damage, counters, attachment, combat state) and ``stack`` (top first, with targets).
    ``hands`` (both players' hand labels, by seat) overrides the view's redaction: a spectator view.
    """
    players = []
    for P in view.players:
        if hands is not None:
            hand: list[str] | None = list(hands[P.index])
        else:
            hand = [c.label for c in P.hand] if P.hand is not None else None
        players.append({
            "index": P.index, "life": P.life, "poison": P.poison, "library": P.library_size,
            "hand_size": P.hand_size, "hand": hand, "graveyard": [c.label for c in P.graveyard],
            "removed": [c.label for c in P.removed], "mana_pool": mana_text(P.mana_pool),
            "lands_played": P.lands_played,
        })
    stack = []
    for s in reversed(view.stack):
        item: dict[str, Any] = {"label": s.label, "kind": s.kind.replace("_", " "),
                                "controller": s.controller,
                                "targets": [_ref_text(view, t) for t in s.targets]}
        if s.x:
            item["x"] = s.x
        if s.kind == "combat_damage":
            item["assignments"] = [
                f"{view.perm(src).label if view.perm(src) else 'a creature'} deals {n} to "
                f"{_ref_text(view, ref)}" for src, ref, n in s.assignments]
        stack.append(item)
    return {
        "viewer": None if hands is not None else view.viewer, "turn": view.turn, "step": view.step,
        "active": view.active, "priority": view.priority, "deciding": view.deciding,
        "is_over": view.is_over, "winner": view.winner, "end_reason": view.end_reason,
        "players": players, "permanents": [_perm_dict(view, p) for p in view.permanents],
        "stack": stack,
    }


SEP = " · "
"""Between the cards of a list: card names may contain commas ("Kamahl, Pit Fighter")."""


def card_ref(label: str) -> str:
    """A card label inside a comma-separated text, quoted when it contains a comma.

    >>> card_ref("Kamahl, Pit Fighter"), card_ref("Shock")
    ('"Kamahl, Pit Fighter"', 'Shock')
    """
    return f'"{label}"' if "," in label else label


def permanent_text(p: dict[str, Any]) -> str:
    """One permanent of a snapshot as text: ``Grizzly Bears 2/2 (tapped, attacking)``."""
    s = p["label"] + (f" {p['pt']}" if p["pt"] else "")
    flags = []
    for key, word in (("tapped", "tapped"), ("sick", "summoning sick")):
        if p[key]:
            flags.append(word)
    if p["damage"]:
        flags.append(f"{p['damage']} damage")
    flags += [f"{n} {k} counter{'s' if n > 1 else ''}" for k, n in p["counters"].items()]
    if p["attached_to"]:
        flags.append(f"on {card_ref(p['attached_to'])}")
    if p["attacking"]:
        flags.append("attacking" + (", blocked" if p["blocked"] and not p["blocked_by"] else ""))
    if p["blocked_by"]:
        flags.append("blocked by " + " and ".join(card_ref(x) for x in p["blocked_by"]))
    if p["blocking"]:
        flags.append("blocking " + " and ".join(card_ref(x) for x in p["blocking"]))
    if p["owner"] != p["controller"]:
        flags.append(f"owned by player {p['owner']}")
    return s + (f" ({', '.join(flags)})" if flags else "")


def _who(board: dict[str, Any], pl: int, names: Sequence[str] | None) -> str:
    tag = f"player {pl}"
    extra = []
    if board["viewer"] == pl:
        extra.append("you")
    if names is not None:
        extra.append(names[pl])
    return tag + (f" ({', '.join(extra)})" if extra else "")


def _player_block(board: dict[str, Any], pl: int, names: Sequence[str] | None) -> list[RenderableType]:
    P = board["players"][pl]
    head = Text()
    head.append(_who(board, pl, names), style="bold cyan" if board["viewer"] == pl else "bold magenta")
    head.append("  life ")
    head.append(str(P["life"]), style="bold green" if P["life"] > 5 else "bold red")
    if P["poison"]:
        head.append(f"  poison {P['poison']}", style="red")
    head.append(f"  library {P['library']}  hand {P['hand_size']}  graveyard {len(P['graveyard'])}")
    if P["removed"]:
        head.append(f"  removed {len(P['removed'])}")
    head.append("  mana pool ")
    head.append(P["mana_pool"], style="bold yellow" if P["mana_pool"] != "-" else "")
    zones = Table.grid(padding=(0, 1))
    zones.add_column(style="dim", no_wrap=True)
    zones.add_column()
    mine = [p for p in board["permanents"] if p["controller"] == pl]
    for kind, title in (("land", "lands"), ("creature", "creatures"), ("other", "other")):
        group = [p for p in mine if p["kind"] == kind]
        if not group:
            continue
        t = Text()
        for i, p in enumerate(group):
            if i:
                t.append(SEP)
            style = "dim" if p["tapped"] else ("bold red" if p["attacking"] else "")
            t.append(permanent_text(p), style=style)
        zones.add_row(f"  {title}:", t)
    if P["graveyard"]:
        zones.add_row("  graveyard:", Text(SEP.join(P["graveyard"]) + "  (top last)", style="dim"))
    if P["removed"]:
        zones.add_row("  removed:", Text(SEP.join(P["removed"]), style="dim"))
    if P["hand"] is not None:
        zones.add_row("  hand:", Text(SEP.join(P["hand"]) or "-", style="bold"))
    return [head, zones]


def stack_lines(board: dict[str, Any]) -> list[RenderableType]:
    """The stack of a snapshot, top first, a line per object (or "stack: empty")."""
    if not board["stack"]:
        return [Text("stack: empty", style="dim")]
    lines: list[RenderableType] = [Text("stack (top first):", style="bold yellow")]
    for s in board["stack"]:
        t = f"  {s['label']} ({s['kind']}, player {s['controller']})"
        if "x" in s:
            t += f" X={s['x']}"
        if s["targets"]:
            t += " targeting " + " and ".join(card_ref(x) for x in s["targets"])
        if s.get("assignments"):
            t += ": " + "; ".join(s["assignments"])
        lines.append(Text(t, style="yellow"))
    return lines


def render_board(board: dict[str, Any], names: Sequence[str] | None = None,
                 title: str | None = None) -> RenderableType:
    """A ``rich`` panel of a snapshot: the opponent on top, the viewer (or player 0) at the bottom."""
    me = board["viewer"] if board["viewer"] is not None else 0
    prio = board["priority"]
    who = "nobody" if prio is None else ("you" if prio == board["viewer"] else f"player {prio}")
    header = (f"Turn {board['turn']} · {board['step'].replace('_', ' ')} · active: player "
              f"{board['active']}{' (you)' if board['active'] == board['viewer'] else ''} · priority: {who}")
    lines: list[RenderableType] = _player_block(board, 1 - me, names)
    lines += stack_lines(board)
    lines += _player_block(board, me, names)
    if board["is_over"]:
        res = "a draw" if board["winner"] is None else f"player {board['winner']} wins"
        lines.append(Text(f"game over: {res} ({board['end_reason']})", style="bold"))
    return Panel(Group(*lines), title=title or header, title_align="left", expand=True)


def render_options(prompt: str, options: Sequence[str], chosen: int | None = None) -> RenderableType:
    """The numbered options of a decision (1-based); ``chosen`` (0-based) is highlighted."""
    lines = [Text(prompt, style="bold")]
    for i, text in enumerate(options):
        t = Text(f"{i + 1:>3}  ", style="cyan")
        t.append(text, style="reverse bold" if i == chosen else "")
        lines.append(t)
    return Group(*lines)
