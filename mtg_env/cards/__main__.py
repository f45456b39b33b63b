"""``python -m mtg_env.cards``: the card coverage listing."""

from __future__ import annotations

import mtg_env  # noqa: F401  (loads the registry)

from .coverage import coverage_report

print(coverage_report())
