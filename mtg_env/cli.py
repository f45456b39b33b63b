"""The ``mtg-env`` command line."""

from __future__ import annotations

import random
import sys

import typer

from . import Deck, Game, MtgError, builtin_names

app = typer.Typer(add_completion=False, no_args_is_help=True,
                  help="mtg_env: a Magic: The Gathering (Tenth Edition, 2007 rules) engine for RL.")


def load_deck(spec: str) -> Deck:
    """A built-in deck name or a path to a deck file."""
    if spec in builtin_names():
        return Deck.builtin(spec)
    if spec.endswith(".txt") or "/" in spec:
        return Deck.from_file(spec)
    raise MtgError(f"unknown deck {spec!r}: give a built-in deck ({', '.join(builtin_names())}) "
                   "or a path to a deck file")


def fail(msg: str) -> None:
    typer.echo(f"error: {msg}", err=True)
    raise typer.Exit(2)


@app.command()
def play(deck_a: str = typer.Argument("starter_green", help="deck of player 0"),
         deck_b: str = typer.Argument("starter_red", help="deck of player 1"),
         seed: int = typer.Option(0, help="game seed (shuffles, coin flip, random players)"),
         max_turns: int = typer.Option(100, help="turn cap; a capped game is a draw")) -> None:
    """Play one seeded game between two decks with uniformly random players; print the log."""
    try:
        decks = [load_deck(deck_a), load_deck(deck_b)]
    except MtgError as exc:
        fail(str(exc))
    game = Game.new(decks, seed=seed, max_turns=max_turns)
    rng = random.Random(seed)
    while not game.is_over:
        game.apply(rng.choice(game.decision.options))
    for line in game.log:
        typer.echo(line)
    result = "draw" if game.winner is None else f"player {game.winner} wins"
    typer.echo(f"\n{result} after {game.turn} turns, {game.decisions_made} decisions ({game.end_reason})")


@app.command()
def cards(color: str = typer.Option(None, help="only this color: W, U, B, R, G, colorless, multicolor"),
          missing: bool = typer.Option(False, help="list only cards not implemented yet")) -> None:
    """List every Tenth Edition card with its implementation status, grouped by color."""
    from .cards.coverage import coverage_report

    typer.echo(coverage_report(color=color, only_missing=missing))


def main() -> None:
    try:
        app()
    except MtgError as exc:  # a one-line error for bad input, no traceback
        typer.echo(f"error: {exc}", err=True)
        sys.exit(2)


if __name__ == "__main__":
    main()
