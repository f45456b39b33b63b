"""Playing and replaying single games: ``play`` (agents or a human at the terminal) and
``replay``."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import typer
from rich.console import Console

from .. import cli as _cli
from . import _options as opt
from ._common import _agent_pair, _bad_input_exits, _int, _writable_file

DEFAULT_DECKS = ("starter_green", "starter_red")
_PLAY_DECKS = typer.Argument(None, help="the decks by seat, in turn order (default starter_green "
                                        "starter_red; one deck: against starter_red); 3 to 6 decks "
                                        "seat a multiplayer table")


@_bad_input_exits
def play(decks: list[str] = _PLAY_DECKS,
         seed: int = typer.Option(0, help="game seed (shuffles, coin flip, random players)"),
         max_turns: int = opt.MAX_TURNS,
         agent: str = typer.Option("random", help="agent of every seat, or one per seat: AGENT_A,AGENT_B "
                                                  "(at a table of more, random and heuristic play); "
                                                  "'human' is you at this terminal"),
         players: int = typer.Option(None, help="seats at the table, 2 to 6 (default: one per deck, four "
                                                "in Two-Headed Giant): the decks given repeat in order "
                                                "to fill them"),
         variant: str = typer.Option(None, help="a multiplayer table: free_for_all (the default for 3 "
                                                "or more players) or two_headed_giant (seats 0 and 1 "
                                                "against 2 and 3)"),
         attack: str = typer.Option(None, help="Free-for-All attack option: left (default), right or "
                                               "multiple (2012 802-803)"),
         save: str = typer.Option(None, help="write the game's replay to this JSON file"),
         web: bool = typer.Option(False, "--web", help="play the human seat(s) of a two-player game "
                                                      "in the browser (the [web] extra): a local table "
                                                      "on 127.0.0.1"),
         host: str = typer.Option("127.0.0.1", help="with --web: the address to serve on (one other "
                                                     "than 127.0.0.1 may be reachable from other machines: "
                                                     "a warning says so)"),
         port: int = typer.Option(0, help="with --web: the port (0: a free one)"),
         no_browser: bool = typer.Option(False, "--no-browser", help="with --web: only print the "
                                                                    "address, don't open a browser")) -> None:
    """Play one seeded game and print its log (random players by default): two decks, or a
    multiplayer table of 3 to 6 (Free-for-All) or Two-Headed Giant (--variant two_headed_giant).

    With a human seat (--agent human,heuristic; human,human is hot-seat) you play in the terminal:
    answer with an option's number or text; '?' shows the commands. End of input (Ctrl-D)
    concedes and exits with code 0, Ctrl-C concedes and exits with code 130.

    With --web the human seats play in the browser instead (human,human: one tab per seat): the
    command prints each seat's address and opens it.
    """
    loaded, table = _table(decks or [], players, variant, attack, seed)
    names = _agent_pair(agent) if len(loaded) == 2 else _table_agents(agent, len(loaded))
    _int(max_turns, "max_turns", 1)
    if save is not None:
        _writable_file(Path(save), "--save")
    if web:
        if len(loaded) > 2:
            raise _cli.MtgError("--web seats two players only: play a multiplayer table (--players, "
                                "--variant) at the terminal")
        _play_web(loaded, (names[0], names[1]), seed, max_turns, save, host, port, not no_browser)
        return
    if "human" in names:
        _play_human(loaded, names, seed, max_turns, save, table)
        return
    _cli._before_games()
    if names == ("random", "random"):
        import random

        options: dict[str, Any] = {"max_turns": max_turns}
        game = _cli.Game.new(loaded, seed=seed, **options)
        rng = random.Random(seed)
        actions: list[str] = []
        while not game.is_over:
            action = rng.choice(game.decision.options)
            actions.append(action.text)
            game.apply(action)
    else:
        from agents import make_agent

        from ..sim.replay import game_arguments
        from ..sim.runner import GAME_OPTIONS, play_game

        options = {**GAME_OPTIONS, "max_turns": max_turns}
        actions = []
        game = play_game(loaded, [make_agent(n) for n in names], seed, max_turns, record=actions,
                         game_args=game_arguments(table))
    from ..sim.replay import spectator_log

    for line in spectator_log(game):  # a spectator of every seat: the draws named
        typer.echo(line)
    result = "draw" if game.winner is None else _winners_text(game)
    typer.echo(f"\n{result} after {game.turn} turns, {game.decisions_made} decisions ({game.end_reason})")
    if save is not None:
        from ..sim.replay import replay_of

        path = replay_of(game, loaded, seed, options, names, actions).save(save)
        typer.echo(f"wrote {path}")


def _winners_text(game: Any, names: Sequence[str] | None = None) -> str:
    """``player 2 wins``, or a Two-Headed Giant team's ``players 0 and 1 win``; with ``names``
    (the agents by seat) ``player 2 (heuristic) wins``."""
    from ..engine.seating import winners

    seats = winners(game)
    who = f"player {seats[0]}" if len(seats) == 1 else f"players {seats[0]} and {seats[1]}"
    if names is not None:
        who += f" ({', '.join(names[q] for q in seats)})"
    return f"{who} {'wins' if len(seats) == 1 else 'win'}"


def _table(decks: list[str], players: int | None, variant: str | None, attack: str | None,
           seed: int) -> tuple[list[Any], dict[str, Any]]:
    """The loaded decks by seat and the table's engine options (``variant``, ``attack``: none
    for a two-player game) from ``play``'s arguments; a table the engine refuses (a card not
    ready for several opponents, an attack option in Two-Headed Giant) fails here, before any
    prompt."""
    from ..engine.seating import MAX_PLAYERS, VARIANTS

    if variant is not None and variant not in VARIANTS:
        raise _cli.MtgError(f"unknown --variant {variant!r}: " + ", ".join(VARIANTS))
    if attack is not None and attack not in ("left", "right", "multiple"):
        raise _cli.MtgError(f"unknown --attack {attack!r}: left, right or multiple")
    if players is not None:
        _int(players, "--players", 2)
        if players > MAX_PLAYERS:
            raise _cli.MtgError(f"--players must be at most {MAX_PLAYERS}, got {players}")
    giant = variant == "two_headed_giant"
    if giant and players not in (None, 4):
        raise _cli.MtgError(f"two_headed_giant seats four players (two teams of two), got --players "
                            f"{players}")
    names = list(decks) or list(DEFAULT_DECKS)
    n = players if players is not None else 4 if giant else max(len(names), 2)
    if len(names) > n:
        raise _cli.MtgError(f"{len(names)} decks for {n} seats: give at most one deck per seat")
    if len(names) == 1 and players is None:
        names.append(DEFAULT_DECKS[1])
    names = [names[i % len(names)] for i in range(n)]
    loaded = [_cli.load_deck(d) for d in names]
    table: dict[str, Any] = {}
    if n > 2 or variant not in (None, "two_player"):
        table["variant"] = variant or "free_for_all"
    if attack is not None:
        table["attack"] = attack
    if table:
        from ..engine.game import Game
        from ..sim.replay import game_arguments

        Game.new(loaded, seed=seed, **game_arguments(table))  # the engine's own checks, one line each
    return loaded, table


def _table_agents(spec: str, n: int) -> tuple[str, ...]:
    """The agents of a table of ``n`` seats: one name for every seat or one per seat; each
    plays multiplayer games (random, heuristic, mcts) or is ``human``."""
    from agents import make_agent
    from agents.requirements import extra_error

    from ._common import _names

    parts = _names(spec, "--agent")
    if len(parts) not in (1, n):
        raise _cli.MtgError(f"--agent takes one agent for every seat or one per seat ({n}), got {spec!r}")
    for p in dict.fromkeys(parts):
        missing = extra_error(p)
        if missing is not None:
            raise _cli.MtgError(missing)
        try:
            a = make_agent(p)
        except ValueError as exc:
            raise _cli.MtgError(f"--agent: {exc}") from None
        if p != "human" and not getattr(a, "multiplayer", False):
            raise _cli.MtgError(f"the {p} agent plays two-player games only (at a table of {n}: random, "
                                "heuristic or human)")
    return tuple(parts * n if len(parts) == 1 else parts)


def _play_web(decks: list, names: tuple[str, str], seed: int, max_turns: int, save: str | None,
              host: str, port: int, open_browser: bool) -> None:
    from ..web import extra_error

    if "human" not in names:
        raise _cli.MtgError("--web needs a human seat: --agent human,AGENT (or human,human)")
    if _int(port, "--port", 0) > 65535:
        raise _cli.MtgError(f"--port must be at most 65535, got {port}")
    missing = extra_error()
    if missing is not None:
        raise _cli.MtgError(missing)
    from ..web.play import play_web

    code = play_web(decks, names, seed, max_turns, save, host, port, open_browser,
                    echo=typer.echo, warn=lambda msg: typer.echo(msg, err=True))
    if code:
        raise typer.Exit(code)


def _play_human(decks: list, names: tuple[str, ...], seed: int, max_turns: int, save: str | None,
                table: dict[str, Any] | None = None) -> None:
    from agents import make_agent
    from agents.human import HotSeat, HumanAgent, HumanQuit

    from ..sim.replay import record_game
    from .table_seat import TableHumanAgent

    con = Console(highlight=False)
    hotseat = HotSeat() if names.count("human") > 1 else None
    labels = [f"{n}, {d.name}" if d.name else n for n, d in zip(names, decks, strict=True)]
    seat = TableHumanAgent if len(decks) > 2 else HumanAgent
    agents = [seat(console=con, names=labels, hotseat=hotseat) if n == "human" else make_agent(n)
              for n in names]
    code = 0
    try:
        game, replay = record_game(decks, agents, seed, max_turns, options=table)
    except HumanQuit as exc:
        con.print(str(exc), style="bold")
        game, replay, code = exc.game, exc.replay, exc.exit_code
    log = game.log
    tail = log[-8:]
    for line in tail:
        con.print(line, markup=False, style="dim")
    if not game.is_over:  # a multiplayer game the person quit: the others were still playing
        left = [P.index for P in game.players if not P.lost]
        con.print(f"game abandoned on turn {game.turn}: player{'s' if len(left) > 1 else ''} "
                  f"{', '.join(map(str, left))} still in it", style="bold")
    else:
        result = "a draw" if game.winner is None else _winners_text(game, names)
        con.print(f"game over: {result} ({game.end_reason}) after {game.turn} turns", style="bold")
    if save is not None:
        con.print(f"wrote {replay.save(save)}")
    if code:
        raise typer.Exit(code)


@_bad_input_exits
def replay(file: str = typer.Argument(..., help="a replay JSON file (play --save, --save-games)"),
           step: bool = typer.Option(False, "--step", help="step through the game decision by decision "
                                                           "(Enter: next, q: stop)"),
           html: str = typer.Option(None, help="write a self-contained HTML viewer of the game to this file"),
           quiet: bool = typer.Option(False, "--quiet", "-q", help="do not print the log")) -> None:
    """Re-run a saved game, check it reproduces exactly; print, step through or view it.

    Prints its log, steps through it decision by decision (--step) or writes a self-contained
    HTML viewer (--html). A game that does not reproduce gives a one-line error naming the first
    divergence and exit code 1; an unreadable file exit code 2."""
    from ..sim.replay import Replay, ReplayDivergence, replay_steps, result_text, spectator_log

    rep = Replay.load(file)
    try:
        if step or html:
            steps, game = replay_steps(rep)
        else:
            steps, game = [], rep.run()
    except ReplayDivergence as exc:
        typer.echo(f"error: replay does not reproduce: {exc}", err=True)
        raise typer.Exit(1) from None
    log = spectator_log(game)  # the viewer shows every hand, so the draws are named too
    if step:
        _step_through(rep, steps, log)
    elif not quiet:
        for line in log:
            typer.echo(line)
    if html:
        from ..sim.viewer import write_html

        write_html(rep, html, steps=steps, log=log)
        typer.echo(f"wrote {html}")
    typer.echo(f"replay reproduces: {result_text(game)} after {len(rep.actions)} decisions, "
               f"{game.turn} turns")


def _step_through(rep: Any, steps: list[dict[str, Any]], log: list[str]) -> None:
    from ..env.board import render_board, render_options
    from ..sim.table_board import render_table

    draw = render_table if len(rep.decks) > 2 else render_board
    con = Console(highlight=False, width=None if sys.stdout.isatty() else 120)
    names = [f"{a}, {d.name}" for a, d in zip(rep.agents, rep.decks, strict=True)]
    shown = 0
    for s in steps:
        for line in log[shown:s["log_end"]]:
            con.print(line, markup=False, style="dim")
        shown = s["log_end"]
        con.print(draw(s["board"], names, title=f"decision {s['n']} of {len(rep.actions)} · turn "
                               f"{s['board']['turn']} · {s['board']['step'].replace('_', ' ')}"))
        if s["player"] is None:
            con.print(s["prompt"], style="bold")
            break
        con.print(render_options(f"player {s['player']}, {s['kind']}: {s['prompt']}", s["options"],
                                 s["chosen"]))
        con.print(f"player {s['player']} chose: {s['options'][s['chosen']]}", style="bold", markup=False)
        answer = sys.stdin.readline()
        if answer == "" or answer.strip().lower() in ("q", "quit"):
            con.print("stopped")
            return
    for line in log[shown:]:
        con.print(line, markup=False, style="dim")
