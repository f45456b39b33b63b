"""``python -m mtg_env.cards``: the card coverage listing.

``python -m mtg_env.cards where "Card Name"``: the data file and line of the card's entry (and
the Python function of an escape hatch it names). ``python -m mtg_env.cards index``: rewrite
``mtg_env/cards/data/INDEX.md``, every card and its file."""

from __future__ import annotations

import argparse
import sys


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m mtg_env.cards",
                                     description="The card coverage listing (no command), or:")
    sub = parser.add_subparsers(dest="command")
    w = sub.add_parser("where", help="the data file and line of a card's entry")
    w.add_argument("name", help='the card\'s name, e.g. "Mirri, Cat Warrior"')
    sub.add_parser("index", help="rewrite mtg_env/cards/data/INDEX.md")
    args = parser.parse_args(argv)
    if args.command is None:
        import mtg_env  # noqa: F401  (loads the registry)

        from .coverage import coverage_report

        print(coverage_report())
        return 0
    from . import index

    if args.command == "where":
        try:
            print("\n".join(index.where(args.name)))
        except LookupError as exc:
            print(f"error: {exc.args[0]}", file=sys.stderr)
            return 2
        return 0
    path = index.write_index()
    print(f"wrote {index.shown(path)} ({len(index.locations())} cards)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
