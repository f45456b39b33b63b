"""Deck tuning against a field (mtg_env/sim/tuner.py): ``tune``."""

from __future__ import annotations

import typer

from .. import cli as _cli
from . import _options as opt
from ._common import (
    _bad_input_exits,
    _console,
    _int,
    _one_agent,
    _sim_outputs,
    _wrote,
)


@_bad_input_exits
def tune(deck: str = typer.Argument(..., help="the deck: a built-in deck name or a deck file"),
         field: str = typer.Option(..., "--field", help="YAML file of the field (as for gauntlet)"),
         pool: str = typer.Option("tenth_edition", help="cards to swap in: tenth_edition, or a file "
                                  "of card names ('N Card Name' limits the copies)"),
         budget: int = typer.Option(6000, help="the most games to play"),
         agent: str = opt.DECK_AGENT, opponent_agent: str = opt.FIELD_AGENT,
         seed: int = opt.SEED, workers: int = opt.WORKERS, backend: str = opt.BACKEND,
         address: str = opt.ADDRESS, max_turns: int = opt.MAX_TURNS,
         json_out: str = typer.Option(None, "--json", help="write the swaps, tries and progress as JSON"),
         out: str = typer.Option("results", help="output folder for tune.png and the tuned deck list"),
         progress: bool = opt.PROGRESS) -> None:
    """Tune a deck against a field: a local search over card swaps with paired, raced and
    sequentially confirmed comparisons; the accepted swaps with their 95% intervals and a PNG."""
    from ..sim.gauntlet import load_field
    from ..sim.parallel import check_backend
    from ..sim.tuner import deck_text, load_pool, print_tune, run_tune

    me = _cli.load_deck(deck)
    fld = load_field(field)
    pl = load_pool(pool)
    pair = (_one_agent(agent, "--agent"), _one_agent(opponent_agent or agent, "--opponent-agent"))
    _int(budget, "budget", 1)
    _int(max_turns, "max_turns", 1)
    check_backend(workers, backend)
    out_dir = _sim_outputs(json_out, None, out, "tune.png")
    _cli._before_games()
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
