"""Why each Tenth Edition card that the engine lacks is not implemented yet.

``PENDING`` maps a card name to the engine mechanism it waits for. ``mtg-env cards --missing``
prints it, and a test keeps it exact: every unimplemented card has a reason, and no implemented
card keeps one. Rule numbers are 2007 CR where known, else 2012 CR.
"""

from __future__ import annotations

PENDING: dict[str, str] = {
    # Dividing damage among a variable number of targets (the targets can be chosen now).
    "Hail of Arrows": "damage divided among any number of targets on announcement (2007 CR 409.1d)",
    # Copies, choices as it comes into play, the stack, text changes, Warp World.
    "Sculpting Steel": "copy of an artifact as it comes into play (layer 1, 2007 CR 503)",
    "Pithing Needle": "naming a card as it comes into play (a decision with hundreds of options)",
    "Shunt": "changing the target of a spell on the stack",
    "Twincast": "copying a spell on the stack (a copy that is not a card)",
}
