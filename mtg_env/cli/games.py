"""Playing and replaying single games: ``play`` (agents or a human at the terminal) and
``replay``."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import typer
from rich.console import Console

from .. import cli as _cli
from . import _options as opt
from ._common import _agent_pair, _bad_input_exits, _int, _writable_file


@_bad_input_exits
def play(deck_a: str = typer.Argument("starter_green", help="deck of player 0"),
         deck_b: str = typer.Argument("starter_red", help="deck of player 1"),
         seed: int = typer.Option(0, help="game seed (shuffles, coin flip, random players)"),
         max_turns: int = opt.MAX_TURNS,
         agent: str = typer.Option("random", help="agent of both players, or two names: AGENT_A,AGENT_B; "
                                                  "'human' is you at this terminal"),
         save: str = typer.Option(None, help="write the game's replay to this JSON file"),
         web: bool = typer.Option(False, "--web", help="play the human seat(s) in the browser (the [web] "
                                                      "extra): a local table on 127.0.0.1"),
         host: str = typer.Option("127.0.0.1", help="with --web: the address to serve on (one other "
                                                     "than 127.0.0.1 may be reachable from other machines: "
                                                     "a warning says so)"),
         port: int = typer.Option(0, help="with --web: the port (0: a free one)"),
         no_browser: bool = typer.Option(False, "--no-browser", help="with --web: only print the "
                                                                    "address, don't open a browser")) -> None:
    """Play one seeded game between two decks and print its log (random players by default).

    With a human seat (--agent human,heuristic; human,human is hot-seat) you play in the terminal:
    answer with an option's number or text; '?' shows the commands. End of input (Ctrl-D)
    concedes and exits with code 0, Ctrl-C concedes and exits with code 130.

    With --web the human seats play in the browser instead (human,human: one tab per seat): the
    command prints each seat's address and opens it.
    """
    decks = [_cli.load_deck(deck_a), _cli.load_deck(deck_b)]
    names = _agent_pair(agent)
    _int(max_turns, "max_turns", 1)
    if save is not None:
        _writable_file(Path(save), "--save")
    if web:
        _play_web(decks, names, seed, max_turns, save, host, port, not no_browser)
        return
    if "human" in names:
        _play_human(decks, names, seed, max_turns, save)
        return
    _cli._before_games()
    if names == ("random", "random"):
        import random

        options: dict[str, Any] = {"max_turns": max_turns}
        game = _cli.Game.new(decks, seed=seed, **options)
        rng = random.Random(seed)
        actions: list[str] = []
        while not game.is_over:
            action = rng.choice(game.decision.options)
            actions.append(action.text)
            game.apply(action)
    else:
        from agents import make_agent

        from ..sim.runner import GAME_OPTIONS, play_game

        options = {**GAME_OPTIONS, "max_turns": max_turns}
        actions = []
        game = play_game(decks, [make_agent(n) for n in names], seed, max_turns, record=actions)
    from ..sim.replay import spectator_log

    for line in spectator_log(game):  # a spectator of both seats: the draws named
        typer.echo(line)
    result = "draw" if game.winner is None else f"player {game.winner} wins"
    typer.echo(f"\n{result} after {game.turn} turns, {game.decisions_made} decisions ({game.end_reason})")
    if save is not None:
        from ..sim.replay import replay_of

        path = replay_of(game, decks, seed, options, names, actions).save(save)
        typer.echo(f"wrote {path}")


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


def _play_human(decks: list, names: tuple[str, str], seed: int, max_turns: int, save: str | None) -> None:
    from agents import make_agent
    from agents.human import HotSeat, HumanAgent, HumanQuit

    from ..sim.replay import record_game

    con = Console(highlight=False)
    hotseat = HotSeat() if names == ("human", "human") else None
    labels = [f"{n}, {d.name}" if d.name else n for n, d in zip(names, decks, strict=True)]
    agents = [HumanAgent(console=con, names=labels, hotseat=hotseat) if n == "human" else make_agent(n)
              for n in names]
    code = 0
    try:
        game, replay = record_game(decks, agents, seed, max_turns)
    except HumanQuit as exc:
        con.print(str(exc), style="bold")
        game, replay, code = exc.game, exc.replay, exc.exit_code
    log = game.log
    tail = log[-8:]
    for line in tail:
        con.print(line, markup=False, style="dim")
    result = "a draw" if game.winner is None else f"player {game.winner} ({names[game.winner]}) wins"
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
    from ..sim.replay import Replay, ReplayDivergence, replay_steps, spectator_log

    rep = Replay.load(file)
    try:
        if step or html:
            steps, game = replay_steps(rep)
        else:
            steps, game = [], rep.run()
    except ReplayDivergence as exc:
        typer.echo(f"error: replay does not reproduce: {exc}", err=True)
        raise typer.Exit(1) from None
    log = spectator_log(game)  # the viewer shows both hands, so the draws are named too
    if step:
        _step_through(rep, steps, log)
    elif not quiet:
        for line in log:
            typer.echo(line)
    if html:
        from ..sim.viewer import write_html

        write_html(rep, html, steps=steps, log=log)
        typer.echo(f"wrote {html}")
    result = "a draw" if game.winner is None else f"player {game.winner} wins"
    typer.echo(f"replay reproduces: {result} ({game.end_reason}) after {len(rep.actions)} decisions, "
               f"{game.turn} turns")


def _step_through(rep: Any, steps: list[dict[str, Any]], log: list[str]) -> None:
    from ..env.board import render_board, render_options

    con = Console(highlight=False, width=None if sys.stdout.isatty() else 120)
    names = [f"{a}, {d.name}" for a, d in zip(rep.agents, rep.decks, strict=True)]
    shown = 0
    for s in steps:
        for line in log[shown:s["log_end"]]:
            con.print(line, markup=False, style="dim")
        shown = s["log_end"]
        con.print(render_board(s["board"], names, title=f"decision {s['n']} of {len(rep.actions)} · turn "
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
