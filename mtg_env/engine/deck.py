"""Deck lists: ``N Card Name`` per line, ``#`` comments, an optional ``Sideboard`` section."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

from .errors import DeckError, UnimplementedCardError, UnknownCardError
from .registry import get_card, is_unimplemented

BUILTIN_DIR = Path(__file__).resolve().parent.parent / "decks"
MIN_DECK_SIZE = 40
MAX_COPIES = 4
_LINE = re.compile(r"^(\d+)\s*x?\s+(.+?)\s*$", re.IGNORECASE)


class Deck:
    """A validated deck: ``entries`` is ``[(count, card name), ...]`` in list order.

    >>> d = Deck.from_text("20 Forest\\n20 Grizzly Bears")
    >>> len(d), d.entries[0]
    (40, (20, 'Forest'))
    """

    def __init__(self, entries: list[tuple[int, str]], name: str = "",
                 sideboard: list[tuple[int, str]] | None = None) -> None:
        self.entries = entries
        self.name = name
        self.sideboard = sideboard or []

    @classmethod
    def from_text(cls, text: str, name: str = "", min_size: int = MIN_DECK_SIZE) -> Deck:
        """Parse and validate a deck list.

        Raises :class:`UnknownCardError` for a name not in the registry,
        :class:`UnimplementedCardError` for a real card the engine can't play yet, and
        :class:`DeckError` for a malformed line, fewer than ``min_size`` cards or more than four
        copies of a nonbasic card (pass ``min_size=0`` to relax the size rule, e.g. in tests).
        """
        entries: list[tuple[int, str]] = []
        side: list[tuple[int, str]] = []
        target = entries
        for lineno, raw in enumerate(text.splitlines(), 1):
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            if line.rstrip(":").lower() == "sideboard":
                target = side
                continue
            m = _LINE.match(line)
            if not m:
                raise DeckError(f"{name or 'deck'} line {lineno}: expected 'N Card Name', "
                                f"got {raw.strip()!r}")
            count = int(m.group(1))
            if count <= 0:
                raise DeckError(f"{name or 'deck'} line {lineno}: card count must be positive")
            target.append((count, m.group(2)))
        unimplemented = []
        canon: list[tuple[int, str]] = []
        for count, card in entries:
            if is_unimplemented(card):
                unimplemented.append(card)
                continue
            try:
                cdef = get_card(card)
            except UnknownCardError as exc:
                raise UnknownCardError(card, exc.suggestions) from None
            canon.append((count, cdef.name))
        if unimplemented:
            raise UnimplementedCardError(sorted(set(unimplemented)))
        total = sum(c for c, _ in canon)
        if total < min_size:
            raise DeckError(f"{name or 'deck'} has {total} cards; a deck needs at least {min_size}")
        counts: Counter[str] = Counter()
        for c, n in canon:
            counts[n] += c
        for card, c in counts.items():
            if c > MAX_COPIES and "Basic" not in get_card(card).supertypes:
                raise DeckError(f"{name or 'deck'} has {c} copies of {card}; at most {MAX_COPIES} "
                                "copies of a card other than a basic land are allowed")
        return cls(canon, name, side)

    @classmethod
    def from_file(cls, path: str | Path, min_size: int = MIN_DECK_SIZE) -> Deck:
        p = Path(path)
        try:
            text = p.read_text()
        except OSError as exc:
            raise DeckError(f"cannot read deck file {str(p)!r}: {exc.strerror}") from None
        return cls.from_text(text, name=p.stem, min_size=min_size)

    @classmethod
    def builtin(cls, name: str) -> Deck:
        """A deck that ships with the package, e.g. ``Deck.builtin("molimos_might")``."""
        path = BUILTIN_DIR / f"{name}.txt"
        if not path.exists():
            raise DeckError(f"no built-in deck {name!r}; available: {', '.join(builtin_names())}")
        return cls.from_file(path)

    def card_names(self) -> list[str]:
        return [n for c, n in self.entries for _ in range(c)]

    def __len__(self) -> int:
        return sum(c for c, _ in self.entries)

    def __repr__(self) -> str:
        return f"<Deck {self.name or '?'} ({len(self)} cards)>"


def builtin_names() -> list[str]:
    return sorted(p.stem for p in BUILTIN_DIR.glob("*.txt"))
