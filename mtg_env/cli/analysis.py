"""One deck under study: ``gauntlet`` (against a weighted field) and ``card-stats``
(per-card statistics); mtg_env/sim/gauntlet.py, mtg_env/sim/card_stats.py."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import typer

from .. import cli as _cli
from ..engine.deck import expand_deck_groups
from . import _options as opt
from ._common import (
    _bad_input_exits,
    _console,
    _int,
    _names,
    _one_agent,
    _paired,
    _save_dir,
    _saved,
    _sim_outputs,
    _wrote,
)


def _study_checks(games: int, per: str, agent: str, opponent_agent: str | None, max_turns: int,
                  workers: int | None, backend: str, json_out: str | None, csv_out: str | None, out: str,
                  png: str, save_games: str | None) -> tuple[int, tuple[str, str], Path, str | None]:
    """The options a one-deck study (gauntlet, card-stats) checks before any game: the games
    (rounded up to seat-swapped pairs, ``per`` naming what they are counted by), the deck's and the
    opponents' agents, the turn cap, the backend, the output files and the replay folder."""
    from ..sim.parallel import check_backend

    n = _int(games, "games", 1)
    pair = (_one_agent(agent, "--agent"), _one_agent(opponent_agent or agent, "--opponent-agent"))
    _int(max_turns, "max_turns", 1)
    check_backend(workers, backend)
    out_dir = _sim_outputs(json_out, csv_out, out, png)
    save_dir = _save_dir(save_games)
    return _paired(n, per), pair, out_dir, save_dir


def _study_report(res: Any, print_result: Callable[[Any, Any], None], chart: Path, json_out: str | None,
                  csv_out: str | None, n_games: int, save_games: str | None) -> None:
    """Print a study's result, draw its chart, write its JSON and CSV files and say what was
    written."""
    con = _console()
    print_result(res, con)
    res.chart(chart)
    for path, write in ((json_out, res.write_json), (csv_out, res.write_csv)):
        if path is not None:
            write(path)
    _wrote(con, res, n_games, [chart, json_out, csv_out])
    _saved(con, res.saved, save_games)


@_bad_input_exits
def gauntlet(deck: str = typer.Argument(..., help="the deck: a built-in deck name or a deck file"),
             field: str = typer.Option(..., "--field", help="YAML file of the field: decks (names, "
                                       "files or groups) and weights, e.g. decks: {red_burn: 2, theme: 1}"),
             games: int = typer.Option(100, "--games", "-n", help="games per opponent (seat-swapped pairs)"),
             agent: str = opt.DECK_AGENT, opponent_agent: str = opt.FIELD_AGENT,
             seed: int = opt.SEED, workers: int = opt.WORKERS, backend: str = opt.BACKEND,
             address: str = opt.ADDRESS, max_turns: int = opt.MAX_TURNS,
             json_out: str = typer.Option(None, "--json",
                                          help="write the summary, the rows and every game as JSON"),
             csv_out: str = typer.Option(None, "--csv", help="write one CSV row per opponent"),
             out: str = typer.Option("results", help="output folder for gauntlet.png"),
             save_games: str = opt.SAVE_GAMES, only_losses_of: str = opt.ONLY_LOSSES_OF,
             progress: bool = opt.PROGRESS) -> None:
    """A deck against a weighted field: its expected win rate with a 95% interval, per opponent and
    on the play/draw, and a bar chart PNG."""
    from ..sim.gauntlet import load_field, print_gauntlet, run_gauntlet

    me = _cli.load_deck(deck)
    fld = load_field(field)
    n, pair, out_dir, save_dir = _study_checks(games, "games per opponent", agent, opponent_agent, max_turns,
                                               workers, backend, json_out, csv_out, out, "gauntlet.png",
                                               save_games)
    _cli._before_games()
    res = run_gauntlet(me, fld, n, pair, seed, workers, backend, address, max_turns, progress,
                       save_dir, only_losses_of)
    _study_report(res, print_gauntlet, out_dir / "gauntlet.png", json_out, csv_out, len(res.results),
                  save_games)


@_bad_input_exits
def card_stats(decks: list[str] = typer.Argument(  # noqa: B008 (typer reads it, never mutated)
                   ..., help="the deck(s) to analyse: names, files or groups"),
               vs: str = typer.Option(..., "--vs", help="opponent deck(s): a deck, a group or "
                                      "comma-separated decks; the statistics pool them"),
               games: int = typer.Option(100, "--games", "-n",
                                         help="games per deck and opponent (seat-swapped pairs)"),
               agent: str = typer.Option("heuristic", help="the analysed decks' agent"),
               opponent_agent: str = typer.Option(None, help="the opponents' agent [default: --agent]"),
               seed: int = opt.SEED, workers: int = opt.WORKERS, backend: str = opt.BACKEND,
               address: str = opt.ADDRESS, max_turns: int = opt.MAX_TURNS,
               json_out: str = typer.Option(None, "--json", help="write the tables and every game's "
                                            "cards as JSON"),
               csv_out: str = typer.Option(None, "--csv", help="write one CSV row per deck and card"),
               out: str = typer.Option("results", help="output folder for card_stats.png"),
               save_games: str = opt.SAVE_GAMES, only_losses_of: str = opt.ONLY_LOSSES_OF,
               progress: bool = opt.PROGRESS) -> None:
    """Per-card statistics of a deck (17lands style): games drawn, in the opening hand and cast,
    win rate when drawn and not drawn, mulligan rates; a bar chart PNG."""
    from ..sim.card_stats import print_card_stats, run_card_stats

    mine = [_cli.load_deck(d) for d in expand_deck_groups(_names(decks, "decks"))]
    opps = [_cli.load_deck(d) for d in expand_deck_groups(_names(vs, "--vs"))]
    n, pair, out_dir, save_dir = _study_checks(games, "games per deck and opponent", agent, opponent_agent,
                                               max_turns, workers, backend, json_out, csv_out, out,
                                               "card_stats.png", save_games)
    _cli._before_games()
    res = run_card_stats(mine, opps, n, pair, seed, workers, backend, address, max_turns, progress,
                         save_dir, only_losses_of)
    _study_report(res, print_card_stats, out_dir / "card_stats.png", json_out, csv_out,
                  sum(len(rs) for rs in res.results.values()), save_games)
