from __future__ import annotations

import pytest

from mtg_env.testing import Scenario


@pytest.fixture
def scenario():
    """Build a Scenario from a position (dict or YAML text)."""
    return Scenario
