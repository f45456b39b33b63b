"""Deck lists: ``N Card Name`` per line, ``#`` comments, an optional ``Sideboard`` section."""

from __future__ import annotations

import difflib
import functools
import re
from collections import Counter
from pathlib import Path

from .errors import DeckError, MtgError, UnimplementedCardError, UnknownCardError
from .registry import get_card, is_unimplemented

BUILTIN_DIR = Path(__file__).resolve().parent.parent / "decks"
MIN_DECK_SIZE = 40
MAX_COPIES = 4
MAX_LINE_COUNT = 250  # copies on one line: more is a typo, not a deck
MAX_TOTAL_CARDS = 1000  # cards in a deck list, sideboard included
MAX_NAME_LENGTH = 200  # the longest card name has 141 characters
MAX_FILE_BYTES = 1_000_000
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
    def from_text(cls, text: str | bytes, name: str = "", min_size: int = MIN_DECK_SIZE) -> Deck:
        """Parse and validate a deck list (``bytes`` are read as UTF-8; a byte-order mark is
        ignored).

        Raises :class:`UnknownCardError` for a name not in the registry (main deck or
        sideboard), :class:`UnimplementedCardError` for a real card the engine can't play yet,
        and :class:`DeckError` for text that isn't UTF-8, a malformed line, a count over
        ``MAX_LINE_COUNT`` (or more than ``MAX_TOTAL_CARDS`` cards in all), fewer than
        ``min_size`` cards or more than four copies of a nonbasic card across the deck and its
        sideboard, unless the card says "a deck can have any number of cards named ..." (pass
        ``min_size=0`` to relax the size rule, e.g. in tests).
        """
        label = name or "deck"
        text = _decode(text, label)
        entries: list[tuple[int, str, int]] = []
        side: list[tuple[int, str, int]] = []
        target = entries
        total = 0
        for lineno, raw in enumerate(text.splitlines(), 1):
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            if line.rstrip(":").lower() == "sideboard":
                target = side
                continue
            m = _LINE.match(line)
            if not m:
                raise DeckError(f"{label} line {lineno}: expected 'N Card Name', "
                                f"got {_short(raw.strip())!r}")
            digits, card = m.group(1).lstrip("0") or "0", m.group(2)
            # Checked on the digits first: int() of a huge number is slow or refused.
            if len(digits) > len(str(MAX_LINE_COUNT)) or int(digits) > MAX_LINE_COUNT:
                raise DeckError(f"{label} line {lineno}: {_short(digits)} copies is too many "
                                f"(at most {MAX_LINE_COUNT} on a line)")
            count = int(digits)
            if count <= 0:
                raise DeckError(f"{label} line {lineno}: card count must be positive")
            if len(card) > MAX_NAME_LENGTH:
                raise DeckError(f"{label} line {lineno}: card name too long "
                                f"({len(card)} characters): {_short(card)!r}")
            total += count
            if total > MAX_TOTAL_CARDS:
                raise DeckError(f"{label} line {lineno}: more than {MAX_TOTAL_CARDS} cards in all")
            target.append((count, card, lineno))
        canon = _canonical(entries, label)
        side_canon = _canonical(side, label)
        size = sum(c for c, _ in canon)
        if size < min_size:
            raise DeckError(f"{label} has {size} cards; a deck needs at least {min_size}")
        counts: Counter[str] = Counter()
        for c, n in canon + side_canon:
            counts[n] += c
        for card, c in counts.items():
            cdef = get_card(card)
            if c > MAX_COPIES and "Basic" not in cdef.supertypes and not any(
                    s.kind == "any_number_in_deck" for s in cdef.static):  # Relentless Rats
                where = " (deck and sideboard)" if any(n == card for _, n in side_canon) else ""
                raise DeckError(f"{label} has {c} copies of {card}{where}; at most {MAX_COPIES} "
                                "copies of a card other than a basic land are allowed")
        return cls(canon, name, side_canon)

    @classmethod
    def from_file(cls, path: str | Path, min_size: int = MIN_DECK_SIZE) -> Deck:
        """Read and validate a deck file (UTF-8, a byte-order mark allowed); see :meth:`from_text`.

        An unreadable file or one that isn't UTF-8 text raises :class:`DeckError` naming it.
        """
        if not isinstance(path, str | Path):
            raise DeckError(f"a deck file path must be a string or Path, got {type(path).__name__}")
        p = Path(path)
        text = read_text_file(p, f"deck file {str(p)!r}", MAX_FILE_BYTES, error=DeckError,
                              show_byte=True)
        return cls.from_text(text, name=p.stem, min_size=min_size)

    @classmethod
    def builtin(cls, name: str) -> Deck:
        """A deck that ships with the package, e.g. ``Deck.builtin("molimos_might")`` (any
        case: ``"Molimos_Might"``)."""
        found = builtin_name(name)
        if found is None:
            raise DeckError(unknown_builtin_message(name))
        return cls.from_file(BUILTIN_DIR / f"{found}.txt")

    def card_names(self) -> list[str]:
        """Every card of the main deck, one name per copy, in list order."""
        return [n for c, n in self.entries for _ in range(c)]

    def __len__(self) -> int:
        return sum(c for c, _ in self.entries)

    def __repr__(self) -> str:
        return f"<Deck {self.name or '?'} ({len(self)} cards)>"


def load_deck(spec: str | Path | Deck) -> Deck:
    """The deck ``spec`` names: a :class:`Deck` as is, a built-in deck name in any case
    (``"Kamahls_Temper"``), or a deck file's path (a :class:`~pathlib.Path`, or a string ending in
    ``.txt`` or holding a ``/``). What the simulator, the command line and the env accept.

    Raises :class:`DeckError` (or :class:`UnknownCardError`) with a one-line message saying what
    to fix; a bare word that is no built-in deck gets the closest names and the list.
    """
    if isinstance(spec, Deck):
        return spec
    if isinstance(spec, Path):
        return Deck.from_file(spec)
    if not isinstance(spec, str):
        raise DeckError("a deck must be a Deck, a built-in deck name or a deck file path, "
                        f"got {_short(repr(spec))}")
    found = builtin_name(spec)
    if found is not None:
        return _builtin_deck(found)
    if spec.endswith(".txt") or "/" in spec or "\\" in spec:
        return Deck.from_file(spec)
    raise DeckError(unknown_builtin_message(spec, "unknown deck")
                    + "; `mtg-env decks` describes them; or give a path to a deck file")


@functools.cache
def _builtin_deck(name: str) -> Deck:
    """A built-in deck, read once (an env reads its decks at every reset)."""
    return Deck.builtin(name)


@functools.cache
def _builtin_files() -> tuple[tuple[str, ...], dict[str, str]]:
    """The built-in decks' names, sorted, and each by its lower case: the package's deck files,
    listed once (an env looks its decks up at every reset)."""
    names = tuple(sorted(p.stem for p in BUILTIN_DIR.glob("*.txt")))
    return names, {n.lower(): n for n in names}


def builtin_names() -> list[str]:
    """The names :meth:`Deck.builtin` accepts."""
    return list(_builtin_files()[0])


def builtin_name(name: object) -> str | None:
    """The built-in deck ``name`` names, in any case (``"Kamahls_Temper"`` ->
    ``"kamahls_temper"``), or None."""
    if not isinstance(name, str):
        return None
    return _builtin_files()[1].get(name.lower())


def builtin_suggestions(name: object) -> list[str]:
    """The built-in decks closest to a mistyped ``name`` (at most three)."""
    if not isinstance(name, str):
        return []
    return difflib.get_close_matches(name.lower(), builtin_names(), n=3, cutoff=0.6)


def unknown_builtin_message(name: object, what: str = "no built-in deck") -> str:
    """``no built-in deck 'kamahls_tempr'; did you mean 'kamahls_temper'? (available: ...)``,
    or without a close name ``no built-in deck 'xyz'; available: ...``."""
    close = builtin_suggestions(name)
    available = ", ".join(builtin_names())
    if close:
        return (f"{what} {name!r}; did you mean {', '.join(repr(c) for c in close)}? "
                f"(available: {available})")
    return f"{what} {name!r}; available: {available}"


THEME_DECKS = ("arcaniss_guile", "cho_mannos_resolve", "evincars_tyranny", "kamahls_temper",
               "molimos_might")
"""The five 40-card Tenth Edition theme decks, as published."""
STARTER_DECKS = ("starter_blue_black", "starter_green", "starter_red", "starter_white")
"""40-card decks of the engine-core cards (not published lists)."""
CONSTRUCTED_DECKS = ("artifact_control", "black_removal", "blue_black_control", "blue_fliers",
                     "green_ramp", "green_white_auras", "red_burn", "red_green_beats",
                     "white_black_lifedrain", "white_weenie")
"""60-card two-color decks of classic Tenth Edition archetypes (not published lists)."""
DECK_GROUPS = {"theme": THEME_DECKS, "starter": STARTER_DECKS, "constructed": CONSTRUCTED_DECKS}
"""Names that stand for several built-in decks wherever decks are named (``all``: every one)."""


def expand_deck_groups(names: list[str] | tuple[str, ...]) -> list[str]:
    """Deck names with the group names (``theme``, ``starter``, ``constructed``, ``all``)
    replaced by their decks, in order, each deck once per mention.

    >>> expand_deck_groups(["theme", "red_burn"])[-2:]
    ['molimos_might', 'red_burn']
    """
    out: list[str] = []
    for n in names:
        key = n.lower() if isinstance(n, str) else n
        if key == "all":
            out.extend(builtin_names())
        else:
            out.extend(DECK_GROUPS.get(key, (n,)))
    return out


def builtin_description(name: str) -> str:
    """The one-line description of a built-in deck (its first ``#`` comment line)."""
    found = builtin_name(name)
    if found is None:
        raise DeckError(unknown_builtin_message(name))
    first = (BUILTIN_DIR / f"{found}.txt").read_text(encoding="utf-8").splitlines()[0]
    return first.removeprefix("#").strip() if first.startswith("#") else ""


def decode_utf8(data: bytes) -> str:
    """UTF-8 text with a leading byte-order mark removed (raises ``UnicodeDecodeError``)."""
    return data.decode("utf-8-sig")


def read_text_file(path: str | Path, what: str, max_bytes: int, unreadable_hint: str = "", *,
                   error: type[MtgError] = MtgError, show_byte: bool = False) -> str:
    """The text of the small file at ``path`` (deck lists, fields, card pools, configs): UTF-8, a
    byte-order mark allowed, at most ``max_bytes`` bytes. A file that can't be read, is larger or
    is not UTF-8 raises ``error`` with a one-line message naming ``what`` (``"field file
    'f.yaml'"``); ``unreadable_hint`` follows the reason a file can't be read; ``show_byte``
    adds the first byte that isn't UTF-8 to that message."""
    try:
        with open(path, "rb") as fh:
            raw = fh.read(max_bytes + 1)
    except OSError as exc:
        raise error(f"cannot read {what}: {exc.strerror or exc}{unreadable_hint}") from None
    except ValueError as exc:  # e.g. a NUL byte in the path
        raise error(f"cannot read {what}: {exc}{unreadable_hint}") from None
    if len(raw) > max_bytes:
        raise error(f"{what} is too large (at most {max_bytes} bytes)")
    try:
        return decode_utf8(raw)
    except UnicodeDecodeError as exc:
        shown = f": {raw[exc.start:exc.start + 1]!r}" if show_byte else ""
        raise error(f"{what} is not UTF-8 text (byte {exc.start}{shown}); save it as UTF-8") from None


def _decode(text: str | bytes, label: str) -> str:
    if isinstance(text, bytes | bytearray):
        try:
            return decode_utf8(bytes(text))
        except UnicodeDecodeError as exc:
            raise DeckError(f"{label} is not UTF-8 text (byte {exc.start}); save it as UTF-8") from None
    if not isinstance(text, str):
        raise DeckError(f"a deck list must be text, got {type(text).__name__}")
    return text.removeprefix("\ufeff")


def _short(s: str, limit: int = 60) -> str:
    return s if len(s) <= limit else s[:limit] + "..."


def _canonical(entries: list[tuple[int, str, int]], label: str) -> list[tuple[int, str]]:
    """Registry names for ``(count, name, line)`` entries; unknown names raise at once, naming
    the deck and the line (``my_deck line 2: unknown card 'Grizzly Bear': ...``), unimplemented
    ones are collected into one error."""
    unimplemented = []
    canon: list[tuple[int, str]] = []
    for count, card, lineno in entries:
        if is_unimplemented(card):
            unimplemented.append(card)
            continue
        try:
            cdef = get_card(card)
        except UnknownCardError as exc:
            err = UnknownCardError(card, exc.suggestions)  # .name and .suggestions as usual
            err.args = (f"{label} line {lineno}: {err}",)
            raise err from None
        canon.append((count, cdef.name))
    if unimplemented:
        raise UnimplementedCardError(sorted(set(unimplemented)))
    return canon
