"""The ``mtg-env`` command line: play a game (agents or a human at the terminal), replay a saved
game, list card coverage, simulate matchups, matrices and tournaments.

Bad input (an unknown deck, card or agent, an unreadable deck or config file, zero games) gives a
one-line ``error: ...`` on stderr and exit code 2, never a traceback.
"""

from __future__ import annotations

import functools
import math
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import typer
import yaml
from rich.console import Console
from rich.table import Table

from . import Game, MtgError
from .sim.decks import default_deck_names
from .sim.decks import load_deck as _load_deck

app = typer.Typer(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
                  help="mtg_env: a Magic: The Gathering (Tenth Edition, 2007 rules) engine for RL.")

F = TypeVar("F", bound=Callable[..., Any])
BACKEND_HELP = "local (processes) or ray"
WORKERS_HELP = "worker processes (default: all cores); results are identical for any number"


def load_deck(spec: str):
    """A built-in deck name or a path to a deck file."""
    return _load_deck(spec)


def fail(msg: str) -> None:
    typer.echo(f"error: {msg}", err=True)
    raise typer.Exit(2)


def _bad_input_exits(fn: F) -> F:
    """Turn the package's input errors into a one-line message and exit code 2."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except MtgError as exc:
            fail(str(exc).splitlines()[0] if str(exc) else type(exc).__name__)

    return wrapper  # type: ignore[return-value]


@app.command()
@_bad_input_exits
def play(deck_a: str = typer.Argument("starter_green", help="deck of player 0"),
         deck_b: str = typer.Argument("starter_red", help="deck of player 1"),
         seed: int = typer.Option(0, help="game seed (shuffles, coin flip, random players)"),
         max_turns: int = typer.Option(100, help="turn cap; a capped game is a draw"),
         agent: str = typer.Option("random", help="agent of both players, or two names: AGENT_A,AGENT_B; "
                                                  "'human' is you at this terminal"),
         save: str = typer.Option(None, help="write the game's replay to this JSON file")) -> None:
    """Play one seeded game between two decks and print its log (random players by default).

    With a human seat (--agent human,heuristic; human,human is hot-seat) you play in the terminal:
    answer with an option's number or text; '?' shows the commands. End of input (Ctrl-D)
    concedes and exits with code 0, Ctrl-C concedes and exits with code 130.
    """
    decks = [load_deck(deck_a), load_deck(deck_b)]
    names = _agent_pair(agent)
    if "human" in names:
        _play_human(decks, names, seed, max_turns, save)
        return
    if names == ("random", "random"):
        import random

        options: dict[str, Any] = {"max_turns": max_turns}
        game = Game.new(decks, seed=seed, **options)
        rng = random.Random(seed)
        actions: list[str] = []
        while not game.is_over:
            action = rng.choice(game.decision.options)
            actions.append(action.text)
            game.apply(action)
    else:
        from agents import make_agent

        from .sim.runner import GAME_OPTIONS, play_game

        options = {**GAME_OPTIONS, "max_turns": max_turns}
        actions = []
        game = play_game(decks, [make_agent(n) for n in names], seed, max_turns, record=actions)
    for line in game.log:
        typer.echo(line)
    result = "draw" if game.winner is None else f"player {game.winner} wins"
    typer.echo(f"\n{result} after {game.turn} turns, {game.decisions_made} decisions ({game.end_reason})")
    if save is not None:
        from .sim.replay import replay_of

        path = replay_of(game, decks, seed, options, names, actions).save(save)
        typer.echo(f"wrote {path}")


def _play_human(decks: list, names: tuple[str, str], seed: int, max_turns: int, save: str | None) -> None:
    from agents import make_agent
    from agents.human import HotSeat, HumanAgent, HumanQuit

    from .sim.replay import record_game

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


@app.command()
@_bad_input_exits
def replay(file: str = typer.Argument(..., help="a replay JSON file (play --save, --save-games)"),
           step: bool = typer.Option(False, "--step", help="step through the game decision by decision "
                                                           "(Enter: next, q: stop)"),
           html: str = typer.Option(None, help="write a self-contained HTML viewer of the game to this file"),
           quiet: bool = typer.Option(False, "--quiet", "-q", help="do not print the log")) -> None:
    """Re-run a saved game and check that it reproduces exactly; print its log, step through it,
    or write an HTML viewer. A game that does not reproduce gives a one-line error naming the
    first divergence and exit code 1; an unreadable file exit code 2."""
    from .sim.replay import Replay, ReplayDivergence, replay_steps

    rep = Replay.load(file)
    try:
        if step or html:
            steps, game = replay_steps(rep)
        else:
            steps, game = [], rep.run()
    except ReplayDivergence as exc:
        typer.echo(f"error: replay does not reproduce: {exc}", err=True)
        raise typer.Exit(1) from None
    if step:
        _step_through(rep, steps, game.log)
    elif not quiet:
        for line in game.log:
            typer.echo(line)
    if html:
        from .sim.viewer import write_html

        write_html(rep, html, steps=steps, log=game.log)
        typer.echo(f"wrote {html}")
    result = "a draw" if game.winner is None else f"player {game.winner} wins"
    typer.echo(f"replay reproduces: {result} ({game.end_reason}) after {len(rep.actions)} decisions, "
               f"{game.turn} turns")


def _step_through(rep: Any, steps: list[dict[str, Any]], log: list[str]) -> None:
    from .env.board import render_board, render_options

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


@app.command()
def cards(color: str = typer.Option(None, help="only this color: W, U, B, R, G, colorless, multicolor"),
          missing: bool = typer.Option(False, help="list only cards not implemented yet")) -> None:
    """List every Tenth Edition card with its implementation status, grouped by color."""
    from .cards.coverage import coverage_report

    typer.echo(coverage_report(color=color, only_missing=missing))


# -- simulation ---------------------------------------------------------------------------------
def _agent_pair(spec: str) -> tuple[str, str]:
    from agents import agent_names

    parts = [p.strip() for p in spec.split(",") if p.strip()]
    if len(parts) not in (1, 2):
        raise MtgError(f"--agent takes one agent or two (AGENT_A,AGENT_B), got {spec!r}")
    for p in parts:
        if p not in agent_names():
            raise MtgError(f"unknown agent {p!r}; choose from {', '.join(agent_names())}")
    return (parts[0], parts[-1])


def _split(value: Any) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [v.strip() for v in value.split(",") if v.strip()]
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return list(value)
    raise MtgError(f"expected a comma-separated string or a list of names, got {value!r}")


def _load_config(path: str | None, allowed: set[str]) -> dict[str, Any]:
    if path is None:
        return {}
    try:
        data = yaml.safe_load(Path(path).read_text())
    except OSError as exc:
        raise MtgError(f"cannot read config file {path!r}: {exc.strerror}") from None
    except yaml.YAMLError as exc:
        raise MtgError(f"config file {path!r} is not valid YAML: {str(exc).splitlines()[0]}") from None
    if not isinstance(data, dict):
        raise MtgError(f"config file {path!r} must be a mapping of option names to values")
    data = {str(k).replace("-", "_"): v for k, v in data.items()}
    unknown = set(data) - allowed
    if unknown:
        raise MtgError(f"config file {path!r}: unknown key(s) {', '.join(sorted(unknown))}; "
                       f"allowed: {', '.join(sorted(allowed))}")
    return data


def _pick(cli: Any, config: dict[str, Any], key: str, default: Any) -> Any:
    """An option given on the command line wins over the config file, which wins over the default."""
    if cli is not None:
        return cli
    return config.get(key, default)


def _int(value: Any, name: str, minimum: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise MtgError(f"{name} must be an integer, got {value!r}")
    if minimum is not None and value < minimum:
        what = "games" if name == "games" else name
        raise MtgError(f"{what} must be at least {minimum}, got {value}")
    return value


def _pct(rate: float, lo: float, hi: float) -> str:
    if math.isnan(rate):
        return "—"
    return f"{rate:6.1%}  [{lo:.1%}, {hi:.1%}]"


def _console() -> Console:
    # Piped output (a file, a CI log) gets room for the deck names instead of 80 columns.
    return Console(highlight=False, width=None if sys.stdout.isatty() else 160)


_SIM_KEYS = {"games", "seed", "workers", "backend", "address", "max_turns", "out", "agent", "decks",
             "save_games", "only_losses_of"}
SAVE_HELP = "write every game's replay (JSON) into this folder"
LOSSES_HELP = "with --save-games: save only the games this agent lost"


def _saved(con: Console, paths: list[Path], folder: Any) -> None:
    if folder is not None:
        con.print(f"wrote {len(paths)} replay file(s) to {folder}")


@app.command()
@_bad_input_exits
def matchup(deck_a: str = typer.Argument(..., help="deck A: a built-in deck name or a deck file"),
            deck_b: str = typer.Argument(..., help="deck B: a built-in deck name or a deck file"),
            games: int = typer.Option(100, "--games", "-n", help="games (played in seat-swapped pairs)"),
            agent: str = typer.Option("heuristic", help="agent of both decks, or AGENT_A,AGENT_B"),
            seed: int = typer.Option(0, help="base seed; every game's seed is derived from it"),
            workers: int = typer.Option(None, help=WORKERS_HELP),
            backend: str = typer.Option("local", help=BACKEND_HELP),
            address: str = typer.Option(None, help="Ray cluster address (ray backend)"),
            max_turns: int = typer.Option(100, help="turn cap; a capped game is a draw"),
            json_out: str = typer.Option(None, "--json", help="write the summary and every game as JSON"),
            csv_out: str = typer.Option(None, "--csv", help="write one CSV row per game"),
            save_games: str = typer.Option(None, help=SAVE_HELP),
            only_losses_of: str = typer.Option(None, help=LOSSES_HELP),
            progress: bool = typer.Option(True, help="show a progress bar")) -> None:
    """Deck A against deck B: win rate with a 95% Wilson interval, play/draw split, speed."""
    from .sim.matchup import run_matchup

    _int(games, "games", 1)
    pair = _agent_pair(agent)
    m = run_matchup(deck_a, deck_b, games, pair, seed, workers, backend, address, max_turns, progress,
                    save_games, only_losses_of)
    s = m.summary
    con = _console()
    con.print(f"[bold]{m.deck_a} (A) vs {m.deck_b} (B)[/bold]: {pair[0]} vs {pair[1]} agents, "
              f"{len(m.results)} games, seed {seed}")
    t = Table(show_header=False)
    t.add_column(style="bold")
    t.add_column()
    wr = s["win_rate_a"]
    t.add_row("A win rate (95% Wilson)", _pct(wr["rate"], wr["ci_low"], wr["ci_high"]))
    t.add_row("record A-B-draws", f"{s['wins_a']}-{s['wins_b']}-{s['draws']}"
              + (f"  ({s['errors']} engine errors left out)" if s["errors"] else ""))
    for key, label in (("win_rate_a_on_the_play", "A on the play"),
                       ("win_rate_a_on_the_draw", "A on the draw"),
                       ("on_the_play_win_rate", "player on the play wins")):
        r = s[key]
        t.add_row(label, _pct(r["rate"], r["ci_low"], r["ci_high"]))
    t.add_row("average turns", f"{s['avg_turns']:.1f}")
    t.add_row("average decisions", f"{s['avg_decisions']:.0f}")
    ms = 1000 * sum(r.seconds for r in m.results) / max(len(m.results), 1)
    t.add_row("average game time", f"{ms:.0f} ms (one core)")
    t.add_row("speed", f"{m.games_per_second:.1f} games/s ({m.workers} workers, {backend})")
    con.print(t)
    if json_out is not None:
        m.write_json(json_out)
        con.print(f"wrote {json_out}")
    if csv_out is not None:
        m.write_csv(csv_out)
        con.print(f"wrote {csv_out}")
    _saved(con, m.saved, save_games)


@app.command()
@_bad_input_exits
def matrix(decks: str = typer.Option(None, help="comma-separated decks (default: the theme decks)"),
           games: int = typer.Option(None, "--games", "-n", help="games per pairing [default: 100]"),
           agent: str = typer.Option(None, help="agent of every deck [default: heuristic]"),
           seed: int = typer.Option(None, help="base seed [default: 0]"),
           workers: int = typer.Option(None, help=WORKERS_HELP),
           backend: str = typer.Option(None, help=BACKEND_HELP + " [default: local]"),
           address: str = typer.Option(None, help="Ray cluster address (ray backend)"),
           max_turns: int = typer.Option(None, help="turn cap [default: 100]"),
           mirrors: bool = typer.Option(None, "--mirrors/--no-mirrors",
                                        help="also play each deck against itself"),
           out: str = typer.Option(None, help="output folder for matrix.csv and matrix.png "
                                              "[default: results]"),
           config: str = typer.Option(None, help="YAML file with any of these options"),
           save_games: str = typer.Option(None, help=SAVE_HELP),
           only_losses_of: str = typer.Option(None, help=LOSSES_HELP),
           progress: bool = typer.Option(True, help="show a progress bar")) -> None:
    """Every pairing of the decks: a win-rate table, a CSV and a heatmap PNG with 95% intervals."""
    from .sim.matrix import run_matrix

    con = _console()
    cfg = _load_config(config, _SIM_KEYS | {"mirrors"})
    deck_list = _split(_pick(decks, cfg, "decks", None)) or default_deck_names()
    n = _int(_pick(games, cfg, "games", 100), "games", 1)
    pair = _agent_pair(str(_pick(agent, cfg, "agent", "heuristic")))
    if pair[0] != pair[1]:
        raise MtgError("a matrix uses one agent for every deck")
    out_dir = Path(_pick(out, cfg, "out", "results"))
    res = run_matrix(deck_list, n, pair[0], _int(_pick(seed, cfg, "seed", 0), "seed"),
                     _pick(workers, cfg, "workers", None), _pick(backend, cfg, "backend", "local"),
                     _pick(address, cfg, "address", None),
                     _int(_pick(max_turns, cfg, "max_turns", 100), "max_turns", 1),
                     bool(_pick(mirrors, cfg, "mirrors", False)), progress,
                     _pick(save_games, cfg, "save_games", None),
                     _pick(only_losses_of, cfg, "only_losses_of", None))
    wr = res.win_rates()
    con.print(f"win rate of row deck vs column deck ({pair[0]} agents, {n} games per pairing)")
    t = Table()
    t.add_column("deck", style="bold")
    for d in res.decks:
        t.add_column(d, justify="right")
    for a in res.decks:
        t.add_row(a, *["—" if math.isnan(wr.loc[a, b]) else f"{wr.loc[a, b]:.0%}" for b in res.decks])
    con.print(t)
    out_dir.mkdir(parents=True, exist_ok=True)
    res.write_csv(out_dir / "matrix.csv")
    res.heatmap(out_dir / "matrix.png")
    total = sum(len(m.results) for m in res.matchups)
    con.print(f"{total} games in {res.seconds:.1f}s ({total / res.seconds:.1f} games/s); "
              f"wrote {out_dir / 'matrix.csv'} and {out_dir / 'matrix.png'}")
    _saved(con, res.saved, _pick(save_games, cfg, "save_games", None))


@app.command()
@_bad_input_exits
def tournament(agents: str = typer.Option(None, help="comma-separated agents [default: random,heuristic]"),
               decks: str = typer.Option(None, help="comma-separated decks (default: the theme decks)"),
               games: int = typer.Option(None, "--games", "-n",
                                         help="games per pairing of entrants [default: 100]"),
               seed: int = typer.Option(None, help="base seed [default: 0]"),
               workers: int = typer.Option(None, help=WORKERS_HELP),
               backend: str = typer.Option(None, help=BACKEND_HELP + " [default: local]"),
               address: str = typer.Option(None, help="Ray cluster address (ray backend)"),
               max_turns: int = typer.Option(None, help="turn cap [default: 100]"),
               resamples: int = typer.Option(None, help="bootstrap resamples for the intervals "
                                                        "[default: 200]"),
               out: str = typer.Option(None, help="output folder for tournament.csv and tournament.png "
                                                  "[default: results]"),
               config: str = typer.Option(None, help="YAML file with any of these options"),
               save_games: str = typer.Option(None, help=SAVE_HELP),
               only_losses_of: str = typer.Option(None, help=LOSSES_HELP),
               progress: bool = typer.Option(True, help="show a progress bar")) -> None:
    """Round robin of agents (over the decks) or, with one agent, of decks; Bradley-Terry ratings."""
    from .sim.tournament import run_tournament

    cfg = _load_config(config, (_SIM_KEYS - {"agent"}) | {"agents", "resamples"})
    agent_list = _split(_pick(agents, cfg, "agents", "random,heuristic"))
    for a in agent_list:
        _agent_pair(a)
    deck_list = _split(_pick(decks, cfg, "decks", None)) or default_deck_names()
    n = _int(_pick(games, cfg, "games", 100), "games", 1)
    out_dir = Path(_pick(out, cfg, "out", "results"))
    res = run_tournament(agent_list, deck_list, n, _int(_pick(seed, cfg, "seed", 0), "seed"),
                         _pick(workers, cfg, "workers", None), _pick(backend, cfg, "backend", "local"),
                         _pick(address, cfg, "address", None),
                         _int(_pick(max_turns, cfg, "max_turns", 100), "max_turns", 1),
                         _int(_pick(resamples, cfg, "resamples", 200), "resamples", 0), progress,
                         _pick(save_games, cfg, "save_games", None),
                         _pick(only_losses_of, cfg, "only_losses_of", None))
    con = _console()
    con.print(f"{res.kind} tournament: {len(res.results)} games, Bradley-Terry ratings (Elo scale) "
              "with 95% bootstrap intervals")
    t = Table()
    for col, just in (("#", "right"), ("entrant", "left"), ("rating", "right"),
                      ("95% interval", "right"), ("games", "right"), ("wins", "right"),
                      ("draws", "right"), ("score", "right")):
        t.add_column(col, justify=just)  # type: ignore[arg-type]
    for k, row in res.table().iterrows():
        interval = ("—" if math.isnan(row["ci_low"]) else f"[{row['ci_low']:.0f}, {row['ci_high']:.0f}]")
        t.add_row(str(k + 1), row["entrant"], f"{row['rating']:.0f}", interval, str(row["games"]),
                  str(row["wins"]), str(row["draws"]), f"{row['score']:.1%}")
    con.print(t)
    out_dir.mkdir(parents=True, exist_ok=True)
    res.write_csv(out_dir / "tournament.csv")
    res.chart(out_dir / "tournament.png")
    con.print(f"{len(res.results)} games in {res.seconds:.1f}s; wrote {out_dir / 'tournament.csv'} "
              f"and {out_dir / 'tournament.png'}")
    _saved(con, res.saved, _pick(save_games, cfg, "save_games", None))


def main() -> None:
    try:
        app()
    except MtgError as exc:  # a one-line error for bad input, no traceback
        typer.echo(f"error: {exc}", err=True)
        sys.exit(2)


if __name__ == "__main__":
    main()
