"""Reading the small text files that the simulator and the command line take (fields, card
pools, configs), with one-line errors for a file that can't be used."""

from __future__ import annotations

from pathlib import Path

from ..engine.deck import decode_utf8
from ..engine.errors import MtgError

__all__ = ["read_text_file"]


def read_text_file(path: str | Path, what: str, max_bytes: int, unreadable_hint: str = "") -> str:
    """The text of the file at ``path``: UTF-8 (a byte-order mark allowed), at most ``max_bytes``
    bytes. A file that can't be read, is larger or is not UTF-8 raises
    :class:`~mtg_env.MtgError` with a one-line message naming ``what`` (``"field file 'f.yaml'"``);
    ``unreadable_hint`` follows the reason a file can't be read."""
    try:
        with open(path, "rb") as fh:
            raw = fh.read(max_bytes + 1)
    except OSError as exc:
        raise MtgError(f"cannot read {what}: {exc.strerror or exc}{unreadable_hint}") from None
    except ValueError as exc:  # e.g. a NUL byte in the path
        raise MtgError(f"cannot read {what}: {exc}{unreadable_hint}") from None
    if len(raw) > max_bytes:
        raise MtgError(f"{what} is too large (at most {max_bytes} bytes)")
    try:
        return decode_utf8(raw)
    except UnicodeDecodeError as exc:
        raise MtgError(f"{what} is not UTF-8 text (byte {exc.start}); save it as UTF-8") from None
