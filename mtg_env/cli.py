"""The ``mtg-env`` command line: play a game (agents or a human at the terminal), replay a saved
game, list card coverage, simulate matchups, matrices and tournaments.

Bad input (an unknown deck, card or agent, an unreadable deck or config file, a config key or
value of the wrong type, zero games or turns, an output path that can't be written) gives a
one-line ``error: ...`` on stderr and exit code 2, never a traceback (a mistake in the card data
that shows two texts side by side adds them on indented lines). Every option is checked
before the first game starts, so no work is lost to a typo.
"""

from __future__ import annotations

import functools
import inspect
import math
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import typer
import yaml
from rich.console import Console
from rich.table import Table

from . import Game, MtgError
from .cards.loader import yaml_problem
from .engine.deck import decode_utf8, expand_deck_groups
from .sim.decks import default_deck_names
from .sim.decks import load_deck as _load_deck

# Plain (Click) help, not Typer's rich panels: flags show as flags ("-h, --help", "--progress /
# --no-progress"; the rich panels print "--help <bool>"), "[default: 100]" in an option's help is
# text (rich markup took it for a style tag), paragraphs reflow. -h is --help.
app = typer.Typer(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
                  rich_markup_mode=None,
                  context_settings={"help_option_names": ["-h", "--help"]},
                  help="mtg_env: a Magic: The Gathering (Tenth Edition, 2007 rules) engine for RL.")


def _version() -> str:
    try:
        from importlib.metadata import version

        return version("mtg_env")
    except Exception:  # not installed as a distribution (a source tree on the path)
        from . import __version__

        return __version__


def _print_version(value: bool) -> None:
    if value:
        typer.echo(f"mtg-env {_version()}")
        raise typer.Exit()


@app.callback()
def _root(version: bool = typer.Option(False, "--version", is_eager=True, callback=_print_version,
                                       help="print the version and exit")) -> None:
    """mtg_env: a Magic: The Gathering (Tenth Edition, 2007 rules) engine for RL."""

F = TypeVar("F", bound=Callable[..., Any])
BACKEND_HELP = "local (processes) or ray"
WORKERS_HELP = "worker processes (default: all cores); results are identical for any number"


def load_deck(spec: str):
    """A built-in deck name or a path to a deck file."""
    return _load_deck(spec)


def fail(msg: str) -> None:
    typer.echo(f"error: {msg}", err=True)
    raise typer.Exit(2)


def error_text(exc: MtgError) -> str:
    """An input error's whole message: a multi-line one keeps its later lines (a card's ``text``
    against the printed text shows both), indented under the first."""
    lines = [line.rstrip() for line in str(exc).splitlines() if line.strip()]
    if not lines:
        return type(exc).__name__
    return "\n".join(lines[:1] + [line if line[:1].isspace() else f"  {line}" for line in lines[1:]])


def _bad_input_exits(fn: F) -> F:
    """Turn the package's input errors into an ``error: ...`` message and exit code 2."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except MtgError as exc:
            fail(error_text(exc))

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
    _int(max_turns, "max_turns", 1)
    if save is not None:
        _writable_file(Path(save), "--save")
    if "human" in names:
        _play_human(decks, names, seed, max_turns, save)
        return
    _before_games()
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
    """Re-run a saved game, check it reproduces exactly; print, step through or view it.

    Prints its log, steps through it decision by decision (--step) or writes a self-contained
    HTML viewer (--html). A game that does not reproduce gives a one-line error naming the first
    divergence and exit code 1; an unreadable file exit code 2."""
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
@_bad_input_exits
def cards(color: str = typer.Option(None, help="only this color: W, U, B, R, G, colorless, multicolor"),
          missing: bool = typer.Option(False, help="list only cards not implemented yet")) -> None:
    """List every Tenth Edition card with its implementation status, grouped by color."""
    from .cards.coverage import GROUPS, coverage_report

    keys = [k for k, _ in GROUPS]
    if color is not None and color.lower() not in {k.lower() for k in keys}:
        raise MtgError(f"unknown color {color!r}; choose from {', '.join(keys)}")

    typer.echo(coverage_report(color=color, only_missing=missing))


@app.command()
@_bad_input_exits
def decks() -> None:
    """List the built-in decks by group, with their size and a one-line description.

    Group names (theme, starter, constructed, all) can be given wherever decks are named, e.g.
    `mtg-env matrix --decks constructed`."""
    from .engine.deck import DECK_GROUPS, Deck, builtin_description, builtin_names

    grouped = {n for names in DECK_GROUPS.values() for n in names}
    groups = [*DECK_GROUPS.items(), ("other", tuple(n for n in builtin_names() if n not in grouped))]
    for group, names in groups:
        if not names:
            continue
        typer.echo(f"{group}:")
        for name in names:
            typer.echo(f"  {name:<24} {len(Deck.builtin(name)):>3}  {builtin_description(name)}")


# -- simulation ---------------------------------------------------------------------------------
def _before_games() -> None:
    """Called once every option has been checked, right before the first game starts (the tests
    replace it to check validation without playing)."""


def _names(value: Any, what: str) -> list[str]:
    """Names from a comma-separated string or a list of strings; an empty name is an error."""
    if isinstance(value, str):
        parts = [v.strip() for v in value.split(",")]
    elif isinstance(value, list) and all(isinstance(v, str) for v in value):
        parts = [v.strip() for v in value]
    else:
        raise MtgError(f"{what}: expected a comma-separated string or a list of names, got {value!r}")
    if any(not p for p in parts):
        raise MtgError(f"{what}: empty name in {value!r}")
    return parts


def _agent_pair(spec: Any, what: str = "--agent") -> tuple[str, str]:
    from agents import make_agent
    from agents.requirements import extra_error

    parts = _names(spec, what)
    if len(parts) not in (1, 2):
        raise MtgError(f"{what} takes one agent or two (AGENT_A,AGENT_B), got {spec!r}")
    for p in parts:
        missing = extra_error(p)  # a network without torch: one line, before any game
        if missing is not None:
            raise MtgError(missing)
        try:  # a name with parameters (mcts:ms=200) is checked by building the agent
            make_agent(p)
        except ValueError as exc:
            raise MtgError(f"{what}: {exc}") from None
    return (parts[0], parts[-1])


def _load_config(path: str | None, types: dict[str, tuple[type, ...]]) -> dict[str, Any]:
    """A YAML config file as a dict of option values: UTF-8 (a byte-order mark allowed), a
    mapping, only the keys in ``types``, each value of one of its types (``None`` for any)."""
    if path is None:
        return {}
    try:
        with open(path, "rb") as f:
            raw = f.read(1_000_001)
    except OSError as exc:
        raise MtgError(f"cannot read config file {path!r}: {exc.strerror}") from None
    except ValueError as exc:
        raise MtgError(f"cannot read config file {path!r}: {exc}") from None
    if len(raw) > 1_000_000:
        raise MtgError(f"config file {path!r} is too large (at most 1000000 bytes)")
    try:
        text = decode_utf8(raw)
    except UnicodeDecodeError as exc:
        raise MtgError(f"config file {path!r} is not UTF-8 text (byte {exc.start}); "
                       "save it as UTF-8") from None
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise MtgError(f"config file {path!r} is not valid YAML: {yaml_problem(exc)}") from None
    except (ValueError, TypeError, RecursionError) as exc:  # e.g. a bad timestamp or a deep nest
        raise MtgError(f"config file {path!r} is not valid YAML: {exc}") from None
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise MtgError(f"config file {path!r} must be a mapping of option names to values")
    data = {str(k).replace("-", "_"): v for k, v in data.items()}
    unknown = set(data) - set(types)
    if unknown:
        hint = " (the key is 'agents')" if "agent" in unknown and "agents" in types else ""
        raise MtgError(f"config file {path!r}: unknown key(s) {', '.join(sorted(unknown))}{hint}; "
                       f"allowed: {', '.join(sorted(types))}")
    for key, value in data.items():
        ok = types[key]
        if value is not None and (not isinstance(value, ok) or (isinstance(value, bool) and bool not in ok)):
            kinds = " or ".join(_TYPE_NAMES[t] for t in ok)
            raise MtgError(f"config file {path!r}: {key} must be {kinds}, got {value!r}")
    if data.get("agents") is not None:
        data["agents"] = [_config_relative_checkpoint(a, path)
                          for a in _names(data["agents"], f"config file {path!r}: agents")]
    return data


def _config_relative_checkpoint(spec: str, config_path: str) -> str:
    """A ``ppo:PATH`` agent (or ``mcts:...:net=PATH``) in a config file names its checkpoint
    relative to the config file (as a shipped config must, to work from any directory); other
    specs are unchanged."""
    if spec.startswith("mcts:"):
        parts = spec.split(":")
        for i, part in enumerate(parts):
            key, _, value = part.partition("=")
            if key == "net" and value and value != "trained" and not Path(value).is_absolute():
                parts[i] = "net=" + str(Path(config_path).resolve().parent / value)
        return ":".join(parts)
    if not spec.startswith("ppo:"):
        return spec
    from agents.policy_agent import parse_ppo_spec

    rest = spec[len("ppo:"):]
    try:
        ckpt = parse_ppo_spec(rest)["path"]
    except ValueError:
        return spec  # reported with the other agent errors
    if Path(ckpt).is_absolute():
        return spec
    head = "path=" if rest.startswith("path=") else ""
    tail = rest[len(head) + len(ckpt):]
    return "ppo:" + str(Path(config_path).resolve().parent / ckpt) + tail


_TYPE_NAMES = {int: "an integer", str: "a string", list: "a list", bool: "true or false"}


def _pick(cli: Any, config: dict[str, Any], key: str, default: Any) -> Any:
    """An option given on the command line wins over the config file, which wins over the default."""
    if cli is not None:
        return cli
    value = config.get(key)
    return default if value is None else value


def _paired(n: int, what: str = "games") -> int:
    """Games are played in seat-swapped pairs (same seed, seats swapped): an odd count is
    rounded up to the next pair, with a note on stderr."""
    if n % 2:
        typer.echo(f"note: games are played in seat-swapped pairs: playing {n + 1} {what}, "
                   f"not {n}", err=True)
        return n + 1
    return n


def _int(value: Any, name: str, minimum: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise MtgError(f"{name} must be an integer, got {value!r}")
    if minimum is not None and value < minimum:
        raise MtgError(f"{name} must be at least {minimum}, got {value}")
    return value


def _writable_file(path: str | Path, option: str) -> Path:
    """Check that ``path`` can be written (by opening it for appending) and return it; a file
    that did not exist is removed again."""
    p = Path(path)
    existed = p.exists()
    try:
        with open(p, "a"):
            pass
    except OSError as exc:
        raise MtgError(f"{option}: cannot write {str(p)!r}: {exc.strerror}") from None
    except ValueError as exc:
        raise MtgError(f"{option}: cannot write {str(p)!r}: {exc}") from None
    if not existed:
        p.unlink(missing_ok=True)
    return p


def _writable_dir(path: str, option: str, files: tuple[str, ...]) -> Path:
    """Create the output folder ``path`` if needed and check its ``files`` can be written."""
    p = Path(path)
    try:
        p.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise MtgError(f"{option}: cannot create the folder {str(p)!r}: "
                       f"{exc.strerror or exc}") from None
    except ValueError as exc:
        raise MtgError(f"{option}: cannot create the folder {str(p)!r}: {exc}") from None
    if not os.access(p, os.W_OK):
        raise MtgError(f"{option}: the folder {str(p)!r} is not writable")
    for name in files:
        _writable_file(p / name, option)
    return p


def _deck_names(cli: str | None, config: dict[str, Any]) -> list[str]:
    value = _pick(cli, config, "decks", None)
    return default_deck_names() if value is None else expand_deck_groups(_names(value, "decks"))


def _pct(rate: float, lo: float, hi: float) -> str:
    if math.isnan(rate):
        return "—"
    return f"{rate:6.1%}  [{lo:.1%}, {hi:.1%}]"


def _cell(rate: float, lo: float, hi: float) -> str:
    """A matrix cell: win rate and 95% Wilson interval in percent, e.g. ``56% [49-63]``."""
    if math.isnan(rate):
        return "—"
    return f"{rate:.0%} [{100 * lo:.0f}-{100 * hi:.0f}]"


def _console() -> Console:
    # Piped output (a file, a CI log) gets room for the deck names instead of 80 columns.
    return Console(highlight=False, width=None if sys.stdout.isatty() else 160)


_NAMES = (str, list)
_SIM_KEYS: dict[str, tuple[type, ...]] = {
    "games": (int,), "seed": (int,), "workers": (int,), "backend": (str,), "address": (str,),
    "max_turns": (int,), "out": (str,), "agents": _NAMES, "decks": _NAMES,
    "save_games": (str,), "only_losses_of": (str,)}
SAVE_HELP = "write every game's replay (JSON) into this folder"
LOSSES_HELP = "with --save-games: save only the games this agent lost"


def _saved(con: Console, paths: list[Path], folder: Any) -> None:
    if folder is not None:
        con.print(f"wrote {len(paths)} replay file(s) to {folder}")


def _save_dir(folder: Any) -> str | None:
    """Check the --save-games folder before any game runs (the simulator checks
    --only-losses-of against the run's agents, also before any game)."""
    if folder is None:
        return None
    path = Path(str(folder))
    if path.exists() and not path.is_dir():
        raise MtgError(f"--save-games: {str(path)!r} is a file, not a folder")
    existing = path
    while not existing.exists():  # created when the first game is saved, not before
        existing = existing.parent
    if not existing.is_dir() or not os.access(existing, os.W_OK):
        raise MtgError(f"--save-games: cannot create or write the folder {str(path)!r}")
    return str(path)


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
    from .sim.parallel import check_backend

    decks = [load_deck(deck_a), load_deck(deck_b)]
    games = _int(games, "games", 1)
    pair = _agent_pair(agent)
    _int(max_turns, "max_turns", 1)
    check_backend(workers, backend)
    if json_out is not None:
        _writable_file(json_out, "--json")
    if csv_out is not None:
        _writable_file(csv_out, "--csv")
    save_dir = _save_dir(save_games)
    games = _paired(games)
    _before_games()
    m = run_matchup(decks[0], decks[1], games, pair, seed, workers, backend, address, max_turns, progress,
                    save_dir, only_losses_of)
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
def matrix(decks: str = typer.Option(None, help="comma-separated decks or groups: theme, starter, "
                                     "constructed, all (default: the theme decks)"),
           games: int = typer.Option(None, "--games", "-n", help="games per pairing [default: 100]"),
           agents: str = typer.Option(None, "--agents", "--agent",
                                      help="the agent of every deck [default: heuristic]"),
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
    from .sim.parallel import check_backend

    con = _console()
    cfg = _load_config(config, _SIM_KEYS | {"mirrors": (bool,)})
    deck_list = [load_deck(d) for d in _deck_names(decks, cfg)]
    n = _int(_pick(games, cfg, "games", 100), "games", 1)
    agent_names = set(_names(_pick(agents, cfg, "agents", "heuristic"), "agents"))
    if len(agent_names) != 1:
        raise MtgError(f"a matrix uses one agent for every deck, got {', '.join(sorted(agent_names))}")
    agent = _agent_pair(agent_names.pop(), "agents")[0]
    seed_v = _int(_pick(seed, cfg, "seed", 0), "seed")
    workers_v = _pick(workers, cfg, "workers", None)
    backend_v = _pick(backend, cfg, "backend", "local")
    check_backend(workers_v, backend_v)
    turns = _int(_pick(max_turns, cfg, "max_turns", 100), "max_turns", 1)
    out_dir = _writable_dir(_pick(out, cfg, "out", "results"), "--out", ("matrix.csv", "matrix.png"))
    losses_of = _pick(only_losses_of, cfg, "only_losses_of", None)
    save_dir = _save_dir(_pick(save_games, cfg, "save_games", None))
    n = _paired(n, "games per pairing")
    _before_games()
    res = run_matrix(deck_list, n, agent, seed_v, workers_v, backend_v, _pick(address, cfg, "address", None),
                     turns, bool(_pick(mirrors, cfg, "mirrors", False)), progress, save_dir, losses_of)
    cells = res.table().set_index(["deck", "opponent"])
    con.print(f"win rate of row deck vs column deck ({agent} agents, {n} games per pairing; "
              "95% Wilson interval)")
    t = Table()
    t.add_column("deck", style="bold")
    for d in res.decks:
        t.add_column(d, justify="right")
    for a in res.decks:
        row = []
        for b in res.decks:
            if (a, b) not in cells.index:
                row.append("—")
                continue
            c = cells.loc[(a, b)]
            if c.ndim > 1:  # a mirror appears once
                c = c.iloc[0]
            row.append(_cell(c["win_rate"], c["ci_low"], c["ci_high"]))
        t.add_row(a, *row)
    con.print(t)
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
    from .sim.parallel import check_backend
    from .sim.tournament import run_tournament

    cfg = _load_config(config, _SIM_KEYS | {"resamples": (int,)})
    agent_list = _names(_pick(agents, cfg, "agents", "random,heuristic"), "agents")
    for a in agent_list:
        _agent_pair(a, "agents")
    deck_list = [load_deck(d) for d in _deck_names(decks, cfg)]
    n = _int(_pick(games, cfg, "games", 100), "games", 1)
    seed_v = _int(_pick(seed, cfg, "seed", 0), "seed")
    workers_v = _pick(workers, cfg, "workers", None)
    backend_v = _pick(backend, cfg, "backend", "local")
    check_backend(workers_v, backend_v)
    turns = _int(_pick(max_turns, cfg, "max_turns", 100), "max_turns", 1)
    n_resamples = _int(_pick(resamples, cfg, "resamples", 200), "resamples", 0)
    out_dir = _writable_dir(_pick(out, cfg, "out", "results"), "--out",
                            ("tournament.csv", "tournament.png"))
    losses_of = _pick(only_losses_of, cfg, "only_losses_of", None)
    save_dir = _save_dir(_pick(save_games, cfg, "save_games", None))
    n = _paired(n, "games per pairing")
    _before_games()
    res = run_tournament(agent_list, deck_list, n, seed_v, workers_v, backend_v,
                         _pick(address, cfg, "address", None), turns, n_resamples, progress,
                         save_dir, losses_of)
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
    res.write_csv(out_dir / "tournament.csv")
    res.chart(out_dir / "tournament.png")
    con.print(f"{len(res.results)} games in {res.seconds:.1f}s; wrote {out_dir / 'tournament.csv'} "
              f"and {out_dir / 'tournament.png'}")
    _saved(con, res.saved, _pick(save_games, cfg, "save_games", None))


# -- gauntlet and card statistics (mtg_env/sim/gauntlet.py, mtg_env/sim/card_stats.py) -----------
def _one_agent(spec: str, what: str) -> str:
    """One agent spec, checked (``--agent``/``--opponent-agent`` take one agent each)."""
    if len(_names(spec, what)) != 1:
        raise MtgError(f"{what} takes one agent, got {spec!r} (the other side's is --opponent-agent)")
    return _agent_pair(spec, what)[0]


def _sim_outputs(json_out: str | None, csv_out: str | None, out: str, png: str) -> Path:
    """Check the --out folder (for ``png``; created first, so --json may write into it) and the
    --json/--csv files before any game."""
    out_dir = _writable_dir(out, "--out", (png,))
    if json_out is not None:
        _writable_file(json_out, "--json")
    if csv_out is not None:
        _writable_file(csv_out, "--csv")
    return out_dir


def _wrote(con: Console, res: Any, n: int, files: list[Any]) -> None:
    con.print(f"{n} games in {res.seconds:.1f}s ({n / max(res.seconds, 1e-9):.1f} games/s); "
              f"wrote {', '.join(str(f) for f in files if f is not None)}")


@app.command()
@_bad_input_exits
def gauntlet(deck: str = typer.Argument(..., help="the deck: a built-in deck name or a deck file"),
             field: str = typer.Option(..., "--field", help="YAML file of the field: decks (names, "
                                       "files or groups) and weights, e.g. decks: {red_burn: 2, theme: 1}"),
             games: int = typer.Option(100, "--games", "-n", help="games per opponent (seat-swapped pairs)"),
             agent: str = typer.Option("heuristic", help="the deck's agent"),
             opponent_agent: str = typer.Option(None, help="the field's agent [default: --agent]"),
             seed: int = typer.Option(0, help="base seed; every game's seed is derived from it"),
             workers: int = typer.Option(None, help=WORKERS_HELP),
             backend: str = typer.Option("local", help=BACKEND_HELP),
             address: str = typer.Option(None, help="Ray cluster address (ray backend)"),
             max_turns: int = typer.Option(100, help="turn cap; a capped game is a draw"),
             json_out: str = typer.Option(None, "--json",
                                          help="write the summary, the rows and every game as JSON"),
             csv_out: str = typer.Option(None, "--csv", help="write one CSV row per opponent"),
             out: str = typer.Option("results", help="output folder for gauntlet.png"),
             save_games: str = typer.Option(None, help=SAVE_HELP),
             only_losses_of: str = typer.Option(None, help=LOSSES_HELP),
             progress: bool = typer.Option(True, help="show a progress bar")) -> None:
    """A deck against a weighted field: its expected win rate with a 95% interval, per opponent and
    on the play/draw, and a bar chart PNG."""
    from .sim.gauntlet import load_field, print_gauntlet, run_gauntlet
    from .sim.parallel import check_backend

    me = load_deck(deck)
    fld = load_field(field)
    n = _int(games, "games", 1)
    pair = (_one_agent(agent, "--agent"), _one_agent(opponent_agent or agent, "--opponent-agent"))
    _int(max_turns, "max_turns", 1)
    check_backend(workers, backend)
    out_dir = _sim_outputs(json_out, csv_out, out, "gauntlet.png")
    save_dir = _save_dir(save_games)
    n = _paired(n, "games per opponent")
    _before_games()
    res = run_gauntlet(me, fld, n, pair, seed, workers, backend, address, max_turns, progress,
                       save_dir, only_losses_of)
    con = _console()
    print_gauntlet(res, con)
    res.chart(out_dir / "gauntlet.png")
    for path, write in ((json_out, res.write_json), (csv_out, res.write_csv)):
        if path is not None:
            write(path)
    _wrote(con, res, len(res.results), [out_dir / "gauntlet.png", json_out, csv_out])
    _saved(con, res.saved, save_games)


@app.command("card-stats")
@_bad_input_exits
def card_stats(decks: list[str] = typer.Argument(  # noqa: B008 (typer reads it, never mutated)
                   ..., help="the deck(s) to analyse: names, files or groups"),
               vs: str = typer.Option(..., "--vs", help="opponent deck(s): a deck, a group or "
                                      "comma-separated decks; the statistics pool them"),
               games: int = typer.Option(100, "--games", "-n",
                                         help="games per deck and opponent (seat-swapped pairs)"),
               agent: str = typer.Option("heuristic", help="the analysed decks' agent"),
               opponent_agent: str = typer.Option(None, help="the opponents' agent [default: --agent]"),
               seed: int = typer.Option(0, help="base seed; every game's seed is derived from it"),
               workers: int = typer.Option(None, help=WORKERS_HELP),
               backend: str = typer.Option("local", help=BACKEND_HELP),
               address: str = typer.Option(None, help="Ray cluster address (ray backend)"),
               max_turns: int = typer.Option(100, help="turn cap; a capped game is a draw"),
               json_out: str = typer.Option(None, "--json", help="write the tables and every game's "
                                            "cards as JSON"),
               csv_out: str = typer.Option(None, "--csv", help="write one CSV row per deck and card"),
               out: str = typer.Option("results", help="output folder for card_stats.png"),
               save_games: str = typer.Option(None, help=SAVE_HELP),
               only_losses_of: str = typer.Option(None, help=LOSSES_HELP),
               progress: bool = typer.Option(True, help="show a progress bar")) -> None:
    """Per-card statistics of a deck (17lands style): games drawn, in the opening hand and cast,
    win rate when drawn and not drawn, mulligan rates; a bar chart PNG."""
    from .sim.card_stats import print_card_stats, run_card_stats
    from .sim.parallel import check_backend

    mine = [load_deck(d) for d in expand_deck_groups(_names(decks, "decks"))]
    opps = [load_deck(d) for d in expand_deck_groups(_names(vs, "--vs"))]
    n = _int(games, "games", 1)
    pair = (_one_agent(agent, "--agent"), _one_agent(opponent_agent or agent, "--opponent-agent"))
    _int(max_turns, "max_turns", 1)
    check_backend(workers, backend)
    out_dir = _sim_outputs(json_out, csv_out, out, "card_stats.png")
    save_dir = _save_dir(save_games)
    n = _paired(n, "games per deck and opponent")
    _before_games()
    res = run_card_stats(mine, opps, n, pair, seed, workers, backend, address, max_turns, progress,
                         save_dir, only_losses_of)
    con = _console()
    print_card_stats(res, con)
    res.chart(out_dir / "card_stats.png")
    for path, write in ((json_out, res.write_json), (csv_out, res.write_csv)):
        if path is not None:
            write(path)
    total = sum(len(rs) for rs in res.results.values())
    _wrote(con, res, total, [out_dir / "card_stats.png", json_out, csv_out])
    _saved(con, res.saved, save_games)


# -- sealed and draft (mtg_env/sim/limited) -------------------------------------------------------
BO1_HELP = "best-of-one matches instead of best of three"


def _limited_checks(players: int, rounds: int | None, agent: str, ratings: str | None, workers: int | None,
                    max_turns: int, json_out: str | None) -> tuple[str, Any]:
    """Check the options of an event before any pack is opened: the agent spec and the ratings."""
    from .sim.limited import default_ratings, load_ratings
    from .sim.limited.event import check_agent
    from .sim.parallel import check_backend

    _int(players, "players", 2)
    if players > 64:
        raise MtgError(f"players must be at most 64, got {players}")
    if rounds is not None:
        _int(rounds, "rounds", 1)
    name = _names(agent, "--agent")
    if len(name) != 1:
        raise MtgError(f"an event uses one agent for every player, got {agent!r}")
    _agent_pair(name[0])
    check_agent(name[0])
    check_backend(workers, "local")
    _int(max_turns, "max_turns", 1)
    if json_out is not None:
        _writable_file(json_out, "--json")
    return name[0], load_ratings(ratings) if ratings is not None else default_ratings()


def _limited_report(res: Any, decks: bool, json_out: str | None, you: int | None = None) -> None:
    from .sim.limited.report import print_event

    con = _console()
    print_event(con, res, decks=decks)
    if you is not None:
        s = next(s for s in res.standings if s.player == you)
        con.print(f"[bold]you finished {s.rank} of {len(res.entrants)}[/bold] with {s.points} points "
                  f"({'-'.join(map(str, s.match_record))} in matches)")
    if json_out is not None:
        res.write_json(json_out)
        con.print(f"wrote {json_out}")


@app.command()
@_bad_input_exits
def sealed(players: int = typer.Option(8, help="players, each with six boosters"),
           seed: int = typer.Option(0, help="seed of the pools, pairings and games"),
           rounds: int = typer.Option(None, help="Swiss rounds [default: ceil(log2(players)), 3 for 8]"),
           bo1: bool = typer.Option(False, "--bo1", "--best-of-one", help=BO1_HELP),
           agent: str = typer.Option("heuristic", help="the agent playing every deck (any agent spec)"),
           ratings: str = typer.Option(None, help="card ratings file for the deck builder "
                                                  "(mtg-env draft-ratings writes one)"),
           workers: int = typer.Option(None, help=WORKERS_HELP),
           max_turns: int = typer.Option(100, help="turn cap; a capped game is a draw"),
           decks: bool = typer.Option(False, "--decks", help="print every player's deck list"),
           json_out: str = typer.Option(None, "--json", help="write the event (decks, pools, matches, "
                                                             "standings) as JSON"),
           progress: bool = typer.Option(True, help="show a progress bar")) -> None:
    """A Tenth Edition sealed event: six boosters each, decks built automatically, Swiss rounds.

    Every player opens six seeded boosters; the deck builder makes a 40-card deck of each pool
    (the best two colors by card rating, a curve, 16-18 basic lands); the decks play Swiss rounds
    of best-of-three matches (--bo1: one game) by simulation. Prints each round's results and
    the standings (match points, then opponents' match-win %, game-win %, opponents' game-win %).
    """
    from .sim.limited import run_sealed_event

    spec, table = _limited_checks(players, rounds, agent, ratings, workers, max_turns, json_out)
    _before_games()
    res = run_sealed_event(players, seed, table, spec, rounds=rounds, best_of=1 if bo1 else 3,
                           max_turns=max_turns, workers=workers, progress=progress)
    _limited_report(res, decks, json_out)


@app.command()
@_bad_input_exits
def draft(seed: int = typer.Option(0, help="seed of the boosters, pairings and games"),
          players: int = typer.Option(8, help="seats at the draft table"),
          human: bool = typer.Option(False, "--human", help="you draft seat 1 at this terminal"),
          play: bool = typer.Option(False, "--play", help="with --human: you also play your matches at "
                                                          "this terminal (as in mtg-env play)"),
          rounds: int = typer.Option(None, help="Swiss rounds [default: ceil(log2(players)), 3 for 8]"),
          bo1: bool = typer.Option(False, "--bo1", "--best-of-one", help=BO1_HELP),
          agent: str = typer.Option("heuristic", help="the agent playing every deck (any agent spec)"),
          ratings: str = typer.Option(None, help="card ratings file for the bots and the deck builder "
                                                 "(mtg-env draft-ratings writes one)"),
          workers: int = typer.Option(None, help=WORKERS_HELP),
          max_turns: int = typer.Option(100, help="turn cap; a capped game is a draw"),
          decks: bool = typer.Option(False, "--decks", help="print every player's deck list"),
          json_out: str = typer.Option(None, "--json", help="write the event (draft picks, decks, "
                                                            "matches, standings) as JSON"),
          progress: bool = typer.Option(True, help="show a progress bar")) -> None:
    """A Tenth Edition booster draft: 8 seats, three boosters each, then a Swiss event.

    Bots draft by card rating and commit to two colors after a few picks; packs pass left,
    right, left. With --human you take seat 1: each pick shows the pack (names, mana costs,
    rules text) and you answer with a number or a card name ('?' for help). Every pool becomes
    a 40-card deck by the automatic builder (yours too; it is printed), and the decks play Swiss
    rounds of best-of-three matches (--bo1: one game) by simulation; with --play you play your
    own matches at the terminal (the other matches are simulated). End of input abandons the
    draft or the event (exit code 1), Ctrl-C too (130).
    """
    from .sim.interactive import HumanQuit
    from .sim.limited import run_draft_event
    from .sim.limited.human import DraftQuit, HumanDrafter
    from .sim.limited.report import print_deck

    spec, table = _limited_checks(players, rounds, agent, ratings, workers, max_turns, json_out)
    if play and not human:
        raise MtgError("--play needs --human (you play the deck you draft)")
    _before_games()
    con = Console(highlight=False)
    person = HumanDrafter(console=con) if human else None
    if person is not None:
        con.print(f"[bold]Booster draft[/bold], {players} seats: you are seat 1; '?' for help")
    here: dict[int, Any] = {}
    if play:
        from agents.human import HumanAgent

        here[0] = lambda names: HumanAgent(console=con, names=list(names))

    def built(res: Any) -> None:  # the draft is over: show the person their deck
        if person is not None:
            con.print()
            con.print("[bold]Your deck[/bold] (built automatically from your 45 picks):")
            print_deck(con, res, 0)

    try:
        res = run_draft_event(seed, table, spec, seats=players, human=person, rounds=rounds,
                              best_of=1 if bo1 else 3, max_turns=max_turns, workers=workers,
                              progress=progress and not play, at_terminal=here or None,
                              say=lambda text: con.print(text, style="bold", markup=False),
                              on_decks=built)
    except (DraftQuit, HumanQuit) as exc:
        con.print(str(exc), style="bold")
        code = exc.exit_code if isinstance(exc, DraftQuit) else 130 if exc.exit_code == 130 else 1
        if isinstance(exc, HumanQuit):
            con.print("the event is abandoned", style="bold")
        raise typer.Exit(code) from None
    _limited_report(res, decks, json_out, you=0 if human else None)


@app.command("draft-ratings")
@_bad_input_exits
def draft_ratings(events: int = typer.Option(50, help="sealed events per pass"),
                  players: int = typer.Option(8, help="players per event"),
                  seed: int = typer.Option(0, help="base seed"),
                  iterations: int = typer.Option(1, help="passes, each with the ratings of the last"),
                  step: float = typer.Option(0.1, help="rating change per point of GIH win rate "
                                                       "above the average"),
                  prior: float = typer.Option(20.0, help="pseudo-games at the average win rate "
                                                         "(shrinks small samples)"),
                  agent: str = typer.Option("heuristic", help="the agent playing every deck"),
                  ratings: str = typer.Option(None, help="ratings file to start from [default: the "
                                                         "ratings computed from card data]"),
                  out: str = typer.Option("card_ratings.json", help="the ratings file to write"),
                  workers: int = typer.Option(None, help=WORKERS_HELP),
                  max_turns: int = typer.Option(100, help="turn cap; a capped game is a draw"),
                  progress: bool = typer.Option(True, help="show a progress bar")) -> None:
    """Improve the card ratings from simulated sealed events (games-in-hand win rates).

    Plays sealed events (best of one) with decks built by the current ratings; a card's rating
    moves by its games-in-hand win rate against the average, shrunk toward the average for cards
    seen in few games. Writes a ratings file for `mtg-env draft --ratings` and `sealed --ratings`.
    """
    from .sim.limited.event import progress_bar
    from .sim.limited.report import print_tuning
    from .sim.limited.tuning import improve_ratings

    _int(events, "events", 1)
    _int(iterations, "iterations", 1)
    for v, what in ((step, "step"), (prior, "prior")):
        if not math.isfinite(v) or v < 0:
            raise MtgError(f"{what} must be a number of at least 0, got {v}")
    spec, table = _limited_checks(players, None, agent, ratings, workers, max_turns, out)
    _before_games()
    with progress_bar(events * iterations, progress, "events", "sealed events") as advance:
        res = improve_ratings(table, events, players, seed, spec, iterations, step, prior,
                              max_turns=max_turns, workers=workers,
                              on_event=lambda done, total: advance(1, "sealed events"))
    con = _console()
    print_tuning(con, res)
    res.ratings.save(out, note=res.ratings.source)
    con.print(f"{res.games} games in {res.seconds:.1f}s; wrote {out}")


@app.command()
@_bad_input_exits
def tune(deck: str = typer.Argument(..., help="the deck: a built-in deck name or a deck file"),
         field: str = typer.Option(..., "--field", help="YAML file of the field (as for gauntlet)"),
         pool: str = typer.Option("tenth_edition", help="cards to swap in: tenth_edition, or a file "
                                  "of card names ('N Card Name' limits the copies)"),
         budget: int = typer.Option(6000, help="the most games to play"),
         agent: str = typer.Option("heuristic", help="the deck's agent"),
         opponent_agent: str = typer.Option(None, help="the field's agent [default: --agent]"),
         seed: int = typer.Option(0, help="base seed; every game's seed is derived from it"),
         workers: int = typer.Option(None, help=WORKERS_HELP),
         backend: str = typer.Option("local", help=BACKEND_HELP),
         address: str = typer.Option(None, help="Ray cluster address (ray backend)"),
         max_turns: int = typer.Option(100, help="turn cap; a capped game is a draw"),
         json_out: str = typer.Option(None, "--json", help="write the swaps, tries and progress as JSON"),
         out: str = typer.Option("results", help="output folder for tune.png and the tuned deck list"),
         progress: bool = typer.Option(True, help="show a progress bar")) -> None:
    """Tune a deck against a field: a local search over card swaps with paired, raced and
    sequentially confirmed comparisons; the accepted swaps with their 95% intervals and a PNG."""
    from .sim.gauntlet import load_field
    from .sim.parallel import check_backend
    from .sim.tuner import deck_text, load_pool, print_tune, run_tune

    me = load_deck(deck)
    fld = load_field(field)
    pl = load_pool(pool)
    pair = (_one_agent(agent, "--agent"), _one_agent(opponent_agent or agent, "--opponent-agent"))
    _int(budget, "budget", 1)
    _int(max_turns, "max_turns", 1)
    check_backend(workers, backend)
    out_dir = _sim_outputs(json_out, None, out, "tune.png")
    _before_games()
    res = run_tune(me, fld, pl, budget, seed, pair, workers, backend=backend, address=address,
                   max_turns=max_turns, progress=progress)
    con = _console()
    print_tune(res, con)
    deck_file = out_dir / f"{res.deck}_tuned.txt"
    deck_file.write_text(f"# {res.deck} tuned against {res.field.name or res.field.source} "
                         f"(mtg-env tune, seed {seed}, {res.games} games)\n" + deck_text(res.final))
    res.chart(out_dir / "tune.png")
    if json_out is not None:
        res.write_json(json_out)
    _wrote(con, res, res.games, [out_dir / "tune.png", deck_file, json_out])


# The command list shows each command's whole summary line (wrapped), not one cut at 45 columns.
for _info in app.registered_commands:
    if _info.short_help is None and _info.callback is not None and _info.callback.__doc__:
        _info.short_help = " ".join(inspect.cleandoc(_info.callback.__doc__).split("\n\n")[0].split())


def main() -> None:
    try:
        app()
    except MtgError as exc:  # an error message for bad input, no traceback
        typer.echo(f"error: {error_text(exc)}", err=True)
        sys.exit(2)


if __name__ == "__main__":
    main()
