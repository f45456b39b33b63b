"""The board of a table of any size as a person reads it: a board snapshot with who sits where
(:func:`table_snapshot`), the seats in the order a player reads them (:func:`seat_order`) and
the ``rich`` rendering the terminal seat and ``mtg-env replay --step`` print (:func:`render_table`).

Every seat is shown: the opponents on top in turn order after the viewer, then the stack, then
the viewer's teammates (Two-Headed Giant) and the viewer's own seat at the bottom, next to the
prompt. A player who has left the game (lost or conceded, 2012 800.4a) is one dimmed line; in
Two-Headed Giant each team's shared life heads its seats. A two-player board reads as
:func:`mtg_env.env.board.render_board`'s: the opponent on top, the viewer at the bottom.

>>> from mtg_env import Game
>>> g = Game.new(["starter_green", "starter_red", "starter_green", "starter_red"], seed=1,
...              variant="two_headed_giant")
>>> b = table_snapshot(g.view(2))
>>> b["teams"], seat_order(b), b["players"][3]["team"], b["players"][0]["lost"]
([[0, 1], [2, 3]], [2, 3, 0, 1], 1, False)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.text import Text

from ..engine.seating import team_of, teams
from ..engine.view import PlayerView
from ..env.board import _player_block, board_snapshot, stack_lines

__all__ = ["render_table", "seat_order", "table_snapshot", "winners_text", "with_seating"]


def table_snapshot(view: PlayerView, hands: Sequence[Sequence[str]] | None = None) -> dict[str, Any]:
    """:func:`~mtg_env.env.board.board_snapshot` of ``view`` plus who sits where: ``variant``
    (``two_player``, ``free_for_all`` or ``two_headed_giant``), ``teams`` (the seats of each
    team: one seat each outside Two-Headed Giant) and, for each player, ``lost`` (left the
    game) and ``team``. ``hands`` gives every seat's hand (a spectator's view)."""
    return with_seating(board_snapshot(view, hands), view)


def with_seating(board: dict[str, Any], view: PlayerView) -> dict[str, Any]:
    """Add who sits where (``variant``, ``teams``, each player's ``lost`` and ``team``) to a
    board snapshot of ``view``, in place; returns it."""
    board["variant"] = view.variant
    board["teams"] = [list(t) for t in teams(view)]
    for P, info in zip(board["players"], view.players, strict=True):
        P["lost"] = info.lost
        P["team"] = team_of(view, info.index)
    return board


def _giant(board: dict[str, Any]) -> bool:
    return board.get("variant") == "two_headed_giant"


def _team(board: dict[str, Any], pl: int) -> int:
    return pl // 2 if _giant(board) else pl


def seat_order(board: dict[str, Any]) -> list[int]:
    """The seats as the viewer reads them: their own, their teammates, then the opponents by
    seat distance (the next in turn order first). A spectator's board (``viewer`` ``None``)
    reads from seat 0."""
    n = len(board["players"])
    me = board["viewer"] if board["viewer"] is not None else 0
    around = [(me + k) % n for k in range(n)]
    return ([q for q in around if _team(board, q) == _team(board, me)]
            + [q for q in around if _team(board, q) != _team(board, me)])


def winners_text(board: dict[str, Any]) -> str:
    """The result of a finished board: ``player 2 wins``, ``players 0 and 1 win`` (a
    Two-Headed Giant team) or ``a draw``."""
    w = board["winner"]
    if w is None:
        return "a draw"
    if _giant(board):
        a, b = sorted((w, w ^ 1))
        return f"players {a} and {b} win"
    return f"player {w} wins"


def _who(board: dict[str, Any], pl: int, names: Sequence[str] | None) -> str:
    extra = []
    if board["viewer"] == pl:
        extra.append("you")
    elif board["viewer"] is not None and _team(board, pl) == _team(board, board["viewer"]) and _giant(board):
        extra.append("teammate")
    if names is not None:
        extra.append(names[pl])
    return f"player {pl}" + (f" ({', '.join(extra)})" if extra else "")


def _seat_block(board: dict[str, Any], pl: int, names: Sequence[str] | None) -> list[RenderableType]:
    P = board["players"][pl]
    if P.get("lost"):
        return [Text(f"{_who(board, pl, names)}  left the game (life {P['life']})", style="dim strike")]
    _, zones = _player_block(board, pl, names)
    head = Text()
    mine = board["viewer"] is not None and _team(board, pl) == _team(board, board["viewer"])
    head.append(_who(board, pl, names), style="bold cyan" if mine else "bold magenta")
    if board["active"] == pl or (_giant(board) and _team(board, board["active"]) == _team(board, pl)):
        head.append("  (active)", style="bold")
    head.append("  team life " if _giant(board) else "  life ")
    head.append(str(P["life"]), style="bold green" if P["life"] > 5 else "bold red")
    if P["poison"]:
        head.append(f"  poison {P['poison']}", style="red")
    head.append(f"  library {P['library']}  hand {P['hand_size']}  graveyard {len(P['graveyard'])}")
    if P["removed"]:
        head.append(f"  removed {len(P['removed'])}")
    head.append("  mana pool ")
    head.append(P["mana_pool"], style="bold yellow" if P["mana_pool"] != "-" else "")
    return [head, zones]


def _team_line(board: dict[str, Any], team: Sequence[int], ours: bool) -> Text:
    life = board["players"][team[0]]["life"]
    who = "team" if board["viewer"] is None else "your team" if ours else "the opposing team"
    return Text(f"{who} (players {team[0]} and {team[1]}): life {life}", style="bold")


def render_table(board: dict[str, Any], names: Sequence[str] | None = None,
                 title: str | None = None) -> RenderableType:
    """A ``rich`` panel of a snapshot (:func:`table_snapshot`, or a plain
    :func:`~mtg_env.env.board.board_snapshot`) showing every seat: the opponents on top in turn
    order after the viewer, the stack, then the viewer's teammates and the viewer (or, for a
    spectator, seat 0's side) at the bottom. ``names`` labels the seats."""
    me = board["viewer"] if board["viewer"] is not None else 0
    order = seat_order(board)
    ours = [q for q in order if _team(board, q) == _team(board, me)]
    theirs = [q for q in order if q not in ours]
    prio = board["priority"]
    who = "nobody" if prio is None else ("you" if prio == board["viewer"] else f"player {prio}")
    header = (f"Turn {board['turn']} · {board['step'].replace('_', ' ')} · active: player "
              f"{board['active']}{' (you)' if board['active'] == board['viewer'] else ''} · priority: {who}")
    lines: list[RenderableType] = []
    giant = _giant(board)
    if giant:
        lines.append(_team_line(board, sorted(theirs), False))
    for q in theirs:
        lines += _seat_block(board, q, names)
    lines += stack_lines(board)
    if giant:
        lines.append(_team_line(board, sorted(ours), True))
    for q in reversed(ours):  # the viewer last, next to the prompt
        lines += _seat_block(board, q, names)
    if board["is_over"]:
        lines.append(Text(f"game over: {winners_text(board)} ({board['end_reason']})", style="bold"))
    return Panel(Group(*lines), title=title or header, title_align="left", expand=True)
