"""A person drafting at the terminal: each pick shows the pack (number, name, mana cost, type
line, power/toughness, rarity and rules text) and reads the card to take:

- its number in the pack (``3``), or its name, case-insensitive, where a unique prefix is
  enough (``serra`` for Serra Angel);
- ``?`` or ``help``: the help; ``pool`` (or ``picks``): the cards picked so far.

Anything else re-prompts with a one-line hint. End of input (Ctrl-D) or Ctrl-C end the draft
with :class:`DraftQuit` (``exit_code`` 1 and 130). Input and output are injectable (``input``
is any object with ``readline`` or an iterable of lines, ``console`` a ``rich`` Console), so
tests drive a whole draft from a script.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import TextIO

from rich.console import Console
from rich.markup import escape
from rich.padding import Padding
from rich.text import Text

from ...engine.registry import get_card
from ..interactive import LineSource
from .boosters import rarity_of
from .draft import PickInfo

__all__ = ["HELP", "DraftQuit", "HumanDrafter", "card_summary", "match_card"]

HELP = """\
Take a card by its number in the pack, or by its name (case-insensitive;
a unique prefix is enough: 'serra' for Serra Angel). Commands:
  ?, help       this help
  pool, picks   the cards you have picked so far
Ctrl-D or Ctrl-C end the draft."""


class DraftQuit(Exception):
    """The person left the draft (end of input or Ctrl-C); the program should end with
    ``exit_code`` (1 for end of input, 130 for Ctrl-C)."""

    def __init__(self, exit_code: int, message: str) -> None:
        super().__init__(message)
        self.exit_code = exit_code


def card_summary(name: str) -> tuple[str, str]:
    """A card's header (name, mana cost, type line, power/toughness, rarity) and rules text."""
    c = get_card(name)
    types = " ".join([*sorted(c.supertypes), *sorted(c.types)])
    if c.subtypes:
        types += " — " + " ".join(c.subtypes)
    pt = f" {c.power}/{c.toughness}" if "Creature" in c.types else ""
    cost = f"  {c.cost.text}" if c.cost.text else ""
    return f"{name}{cost}  ·  {types}{pt}  ·  {rarity_of(name)}", " ".join(c.text.split())


def match_card(answer: str, pack: Sequence[str]) -> tuple[int | None, str]:
    """The index in ``pack`` an answer picks, or ``None`` and a one-line hint.

    >>> pack = ["Shock", "Serra Angel", "Scalpelexis"]
    >>> match_card("2", pack)
    (1, '')
    >>> match_card("serra", pack)
    (1, '')
    >>> match_card("s", pack)[1]
    "'s' matches 3 cards (Shock, Serra Angel, Scalpelexis): type more of it, or a number"
    >>> match_card("9", pack)[1]
    'there is no card 9 in this pack: type a number from 1 to 3, or ? for help'
    """
    a = " ".join(answer.strip().split())
    n = len(pack)
    if a.isdigit():
        k = int(a)
        if 1 <= k <= n:
            return k - 1, ""
        return None, f"there is no card {k} in this pack: type a number from 1 to {n}, or ? for help"
    low = a.lower()
    for i, c in enumerate(pack):
        if c.lower() == low:
            return i, ""
    hits = [i for i, c in enumerate(pack) if c.lower().startswith(low)]
    if len({pack[i] for i in hits}) == 1:
        return hits[0], ""
    if hits:
        shown = ", ".join(pack[i] for i in hits[:4]) + (", ..." if len(hits) > 4 else "")
        return None, f"{a!r} matches {len(hits)} cards ({shown}): type more of it, or a number"
    return None, (f"no card in this pack starts with {a!r}: type a number from 1 to {n}, a card's "
                  "name, or ? for help")


class HumanDrafter:
    """A person at the terminal (see the module docstring); a :class:`~.draft.Drafter`."""

    def __init__(self, input: TextIO | Iterable[str] | None = None, console: Console | None = None) -> None:
        self._input = LineSource(input)
        self.console = console if console is not None else Console(highlight=False)

    def _readline(self, prompt: str) -> str:
        try:
            line = self._input.read(self.console, prompt)
        except KeyboardInterrupt:
            raise DraftQuit(130, "Ctrl-C: the draft is abandoned") from None
        if line is None:
            raise DraftQuit(1, "end of input: the draft is abandoned")
        return line

    def show_pack(self, pack: Sequence[str], picked: Sequence[str], info: PickInfo) -> None:
        """Print the pick's header and the numbered cards of the pack."""
        con = self.console
        con.print()
        con.print(f"[bold]Pack {info.round + 1} of {info.rounds}, pick {info.pick + 1}[/bold] "
                  f"(passing {info.direction}) · {len(picked)} card(s) picked so far"
                  + (f": {_colors_line(picked)}" if picked else ""))
        for i, name in enumerate(pack, 1):
            head, text = card_summary(name)
            con.print(f"{i:>3}. [bold]{escape(head)}[/bold]")
            if text:
                con.print(Padding(Text(text, style="dim"), (0, 0, 0, 5)))

    def pick(self, pack: Sequence[str], picked: Sequence[str], info: PickInfo) -> int:
        """Show the pack and read a pick (re-prompting on anything that is not one)."""
        self.show_pack(pack, picked, info)
        while True:
            answer = self._readline("pick> ").strip()
            low = answer.lower()
            if not answer:
                continue
            if low in ("?", "help"):
                self.console.print(HELP, markup=False)
                continue
            if low in ("pool", "picks"):
                self.console.print(_pool_text(picked), markup=False)
                continue
            i, hint = match_card(answer, pack)
            if i is not None:
                self.console.print(f"you take {pack[i]}", style="bold", markup=False)
                return i
            self.console.print(hint, markup=False, style="yellow")


def _colors_line(picked: Sequence[str]) -> str:
    counts = Counter(c for name in picked for c in sorted(get_card(name).colors))
    colorless = sum(not get_card(n).colors for n in picked)
    parts = [f"{c} {counts[c]}" for c in "WUBRG" if counts[c]]
    if colorless:
        parts.append(f"colorless {colorless}")
    return ", ".join(parts)


def _pool_text(picked: Sequence[str]) -> str:
    if not picked:
        return "no picks yet"
    counts = Counter(picked)
    return f"your picks ({len(picked)}): " + ", ".join(
        f"{n}x {c}" if n > 1 else c for c, n in sorted(counts.items()))
