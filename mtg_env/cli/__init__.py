"""The ``mtg-env`` command line: play a game (agents or a human at the terminal), replay a saved
game, list card coverage, simulate matchups, matrices and tournaments.

Bad input (an unknown deck, card or agent, an unreadable deck or config file, a config key or
value of the wrong type, zero games or turns, an output path that can't be written) gives a
one-line ``error: ...`` on stderr and exit code 2, never a traceback (a mistake in the card data
that shows two texts side by side adds them on indented lines). Every option is checked
before the first game starts, so no work is lost to a typo.

The package, one module per group of commands (``__init__`` registers them on ``app`` in the
order ``mtg-env --help`` lists them):

- ``games``: ``play``, ``replay``
- ``goldfish``: ``goldfish`` (how fast a deck kills an opponent that does nothing)
- ``info``: ``cards``, ``decks``
- ``simulate``: ``matchup``, ``matrix``, ``tournament``, ``pod``, ``pod-tournament``
- ``analysis``: ``gauntlet``, ``card-stats``
- ``limited``: ``sealed``, ``draft``, ``draft-ratings``
- ``tuning``: ``tune``
- ``_common``: what they share (error handling, option and config checks, help texts), re-exported
  here.
- ``_options``: the options several commands take, each defined once.

The hooks the tests replace (``_before_games``, ``_load_deck`` behind ``load_deck``, ``Game``) live
here, and the command modules call them through this package (``_cli._before_games()``), so
replacing ``mtg_env.cli.X`` reaches every command.
"""

from __future__ import annotations

import inspect
import sys

import typer

from .. import Game, MtgError
from ..sim.decks import load_deck as _load_deck
from ._common import (
    _NAMES,
    _SIM_KEYS,
    _TYPE_NAMES,
    BACKEND_HELP,
    LOSSES_HELP,
    SAVE_HELP,
    WORKERS_HELP,
    F,
    _agent_pair,
    _bad_input_exits,
    _cell,
    _config_relative_checkpoint,
    _console,
    _deck_names,
    _int,
    _load_config,
    _names,
    _one_agent,
    _paired,
    _pct,
    _pick,
    _save_dir,
    _saved,
    _sim_outputs,
    _writable_dir,
    _writable_file,
    _wrote,
    error_text,
    fail,
)
from .analysis import card_stats, gauntlet
from .games import _play_human, _step_through, play, replay
from .goldfish import goldfish
from .info import cards, decks
from .limited import BO1_HELP, _limited_checks, _limited_report, draft, draft_ratings, sealed
from .simulate import matchup, matrix, pod, pod_tournament, tournament
from .tuning import tune

# Everything the one-file cli.py had, for `from mtg_env.cli import ...` and for the tests that
# replace these names.
__all__ = [
    "app", "main", "load_deck", "_load_deck", "_before_games", "_version", "Game", "MtgError",
    "_NAMES", "_SIM_KEYS", "_TYPE_NAMES", "BACKEND_HELP", "LOSSES_HELP", "SAVE_HELP",
    "WORKERS_HELP", "F", "_agent_pair", "_bad_input_exits", "_cell", "_config_relative_checkpoint",
    "_console", "_deck_names", "_int", "_load_config", "_names", "_one_agent", "_paired", "_pct",
    "_pick", "_save_dir", "_saved", "_sim_outputs", "_writable_dir", "_writable_file", "_wrote",
    "error_text", "fail", "card_stats", "gauntlet", "_play_human", "_step_through", "play",
    "replay", "goldfish", "cards", "decks", "BO1_HELP", "_limited_checks", "_limited_report", "draft",
    "draft_ratings", "sealed", "matchup", "matrix", "pod", "pod_tournament", "tournament", "tune",
]

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
        from .. import __version__

        return __version__


def _print_version(value: bool) -> None:
    if value:
        typer.echo(f"mtg-env {_version()}")
        raise typer.Exit()


@app.callback()
def _root(version: bool = typer.Option(False, "--version", is_eager=True, callback=_print_version,
                                       help="print the version and exit")) -> None:
    """mtg_env: a Magic: The Gathering (Tenth Edition, 2007 rules) engine for RL."""


def load_deck(spec: str):
    """A built-in deck name or a path to a deck file."""
    return _load_deck(spec)



def _before_games() -> None:
    """Called once every option has been checked, right before the first game starts (the tests
    replace it to check validation without playing)."""


# The commands, in the order `mtg-env --help` lists them.
app.command()(play)
app.command()(replay)
app.command()(goldfish)
app.command()(cards)
app.command()(decks)
app.command()(matchup)
app.command()(matrix)
app.command()(tournament)
app.command()(pod)
app.command("pod-tournament")(pod_tournament)
app.command()(gauntlet)
app.command("card-stats")(card_stats)
app.command()(sealed)
app.command()(draft)
app.command("draft-ratings")(draft_ratings)
app.command()(tune)

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


