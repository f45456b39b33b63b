"""Why each Tenth Edition card that the engine lacks is not implemented yet.

``PENDING`` maps a card name to the engine mechanism it waits for. ``mtg-env cards --missing``
prints it, and a test keeps it exact: every unimplemented card has a reason, and no implemented
card keeps one. Rule numbers are 2007 CR where known, else 2012 CR.
"""

from __future__ import annotations

PENDING: dict[str, str] = {}  # every Tenth Edition card is implemented
