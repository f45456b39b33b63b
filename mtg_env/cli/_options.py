"""The options several ``mtg-env`` commands take, each defined once.

A command names them as parameter defaults (``seed: int = opt.SEED``); typer copies an option's
settings into every command that uses it, so one object serves them all.
"""

from __future__ import annotations

import typer

from ._common import BACKEND_HELP, LOSSES_HELP, SAVE_HELP, WORKERS_HELP

SEED = typer.Option(0, help="base seed; every game's seed is derived from it")
WORKERS = typer.Option(None, help=WORKERS_HELP)
BACKEND = typer.Option("local", help=BACKEND_HELP)
ADDRESS = typer.Option(None, help="Ray cluster address (ray backend)")
MAX_TURNS = typer.Option(100, help="turn cap; a capped game is a draw")
SAVE_GAMES = typer.Option(None, help=SAVE_HELP)
ONLY_LOSSES_OF = typer.Option(None, help=LOSSES_HELP)
PROGRESS = typer.Option(True, help="show a progress bar")
DECK_AGENT = typer.Option("heuristic", help="the deck's agent")
FIELD_AGENT = typer.Option(None, help="the field's agent [default: --agent]")

# matrix and tournament also read their options from a --config file, so these have no default
# of their own (the help names the one used when neither the command line nor the file sets it).
CONFIG = typer.Option(None, help="YAML file with any of these options")
CONFIG_SEED = typer.Option(None, help="base seed [default: 0]")
CONFIG_BACKEND = typer.Option(None, help=BACKEND_HELP + " [default: local]")
CONFIG_MAX_TURNS = typer.Option(None, help="turn cap [default: 100]")
