"""``mtg-env play ... --web``: start a table, print the seats' addresses, open the browser, wait
for the game, report it and save its replay."""

from __future__ import annotations

import time
import webbrowser
from collections.abc import Callable, Sequence
from pathlib import Path

from ..engine.deck import Deck
from ..engine.errors import MtgError
from .server import TableServer, host_warning
from .table import WebTable

__all__ = ["play_web"]


def _wait(event_set: Callable[[], bool]) -> None:
    while not event_set():
        time.sleep(0.2)  # short sleeps keep Ctrl-C prompt


def play_web(decks: Sequence[str | Deck], agents: Sequence[str], seed: int = 0, max_turns: int = 100,
             save: str | Path | None = None, host: str = "127.0.0.1", port: int = 0,
             open_browser: bool = True, echo: Callable[[str], None] = print,
             warn: Callable[[str], None] = print) -> int:
    """Play one game at a web table; returns the exit code (0; 130 after Ctrl-C during the game,
    when the browser seat concedes; 1 when the game failed).

    Prints each browser seat's address (``port`` 0: a free port), opens it with ``webbrowser``
    unless ``open_browser`` is false, waits for the game, prints its result and writes the replay
    to ``save``. The server stays up after the game (the page shows the result and offers the
    replay) until the page leaves the table or Ctrl-C."""
    table = WebTable(decks, agents, seed=seed, max_turns=max_turns)
    warning = host_warning(host)
    if warning:
        warn(warning)
    try:
        server = TableServer(table, host, port)
    except OSError as exc:
        raise MtgError(f"cannot serve on {host}:{port}: {exc.strerror or exc}") from None
    server.start()
    for seat in sorted(table.seats):
        echo(f"player {seat} ({table.decks[seat].name or 'deck'}): {server.url(seat)}")
    echo("Ctrl-C stops the server (a game not over is conceded).")
    if open_browser:
        for seat in sorted(table.seats):
            webbrowser.open(server.url(seat), new=2)
    code = 0
    reported = False
    try:
        _wait(table.finished.is_set)
        code = _report(table, save, echo)
        reported = True
        echo("the table stays open for a last look: 'leave the table' in the page or Ctrl-C ends it")
        _wait(server.left.is_set)
    except KeyboardInterrupt:
        echo("")
        if not reported:
            code = 130
    finally:
        server.stop()
    if not reported:
        if table.conceded_by is not None:
            echo(f"player {table.conceded_by} pressed Ctrl-C and concedes")
        _report(table, save, echo)
    return code


def _report(table: WebTable, save: str | Path | None, echo: Callable[[str], None]) -> int:
    game = table.game
    for line in game.log[-8:]:
        echo(line)
    if table.failure is not None:
        echo(f"error: the game stopped: {table.failure}")
        return 1
    names = table.agent_names
    result = "a draw" if game.winner is None else f"player {game.winner} ({names[game.winner]}) wins"
    echo(f"game over: {result} ({game.end_reason}) after {game.turn} turns")
    if save is not None and table.replay is not None:
        echo(f"wrote {table.replay.save(save)}")
    return 0
