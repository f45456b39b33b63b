"""Mana costs (2007 CR 203): the generic amount, the colored symbols and the X of a cost, as
printed (``{2}{R}{R}``) and as paid."""

from __future__ import annotations

import re

_COLORED = "WUBRG"  # the colored symbols, in the order of ManaCost.colored
_SYMBOL = re.compile(r"\{([^}]+)\}")


class ManaCost:
    """A mana cost: generic amount, colored symbols (W U B R G counts) and the number of X."""

    __slots__ = ("cmc", "colored", "free", "generic", "text", "x")

    def __init__(self, generic: int = 0, colored: tuple[int, ...] = (0, 0, 0, 0, 0), x: int = 0,
                 text: str = "") -> None:
        self.generic = generic
        self.colored = tuple(colored)
        self.x = x
        self.text = text
        self.cmc = generic + sum(self.colored)  # X counts as 0 (2007 CR 203.3b)
        self.free = self.cmc == 0 and x == 0

    @classmethod
    def parse(cls, text: str | None) -> ManaCost:
        if not text:
            return cls(text="")
        generic, x = 0, 0
        colored = [0, 0, 0, 0, 0]
        pos = 0
        for m in _SYMBOL.finditer(text):
            if m.start() != pos:
                raise ValueError(f"bad mana cost {text!r}")
            pos = m.end()
            sym = m.group(1)
            if sym.isdigit():
                generic += int(sym)
            elif sym == "X":
                x += 1
            elif sym in _COLORED:
                colored[_COLORED.index(sym)] += 1
            else:
                raise ValueError(f"unsupported mana symbol {{{sym}}} in {text!r}")
        if pos != len(text):
            raise ValueError(f"bad mana cost {text!r}")
        return cls(generic, tuple(colored), x, text)

    def with_x(self, x: int) -> ManaCost:
        """The cost with X replaced by a number (CR 409.1f)."""
        return ManaCost(self.generic + self.x * x, self.colored, 0, self.text)

    def plus(self, generic: int) -> ManaCost:
        return ManaCost(self.generic + generic, self.colored, self.x, self.text)

    def is_free(self) -> bool:
        return self.free

    def __repr__(self) -> str:
        return f"ManaCost({self.text!r})"
