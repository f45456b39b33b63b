"""What the package holds: ``cards`` (implementation coverage) and ``decks`` (the built-in decks)."""

from __future__ import annotations

import typer

from .. import MtgError
from ._common import _bad_input_exits


@_bad_input_exits
def cards(color: str = typer.Option(None, help="only this color: W, U, B, R, G, colorless, multicolor"),
          missing: bool = typer.Option(False, help="list only cards not implemented yet")) -> None:
    """List every Tenth Edition card with its implementation status, grouped by color."""
    from ..cards.coverage import GROUPS, coverage_report

    keys = [k for k, _ in GROUPS]
    if color is not None and color.lower() not in {k.lower() for k in keys}:
        raise MtgError(f"unknown color {color!r}; choose from {', '.join(keys)}")

    typer.echo(coverage_report(color=color, only_missing=missing))


@_bad_input_exits
def decks() -> None:
    """List the built-in decks by group, with their size and a one-line description.

    Group names (theme, starter, constructed, all) can be given wherever decks are named, e.g.
    `mtg-env matrix --decks constructed`."""
    from ..engine.deck import DECK_GROUPS, Deck, builtin_description, builtin_names

    grouped = {n for names in DECK_GROUPS.values() for n in names}
    groups = [*DECK_GROUPS.items(), ("other", tuple(n for n in builtin_names() if n not in grouped))]
    for group, names in groups:
        if not names:
            continue
        typer.echo(f"{group}:")
        for name in names:
            typer.echo(f"  {name:<24} {len(Deck.builtin(name)):>3}  {builtin_description(name)}")
