from __future__ import annotations

import pytest

from mtg_env.testing import Scenario


@pytest.fixture
def scenario():
    """Build a Scenario from a position (dict or YAML text)."""
    return Scenario


@pytest.fixture
def mind_bend_unimplemented(monkeypatch):
    """The card registry as if Mind Bend were not implemented yet, with a reason in ``PENDING``:
    the set is complete, so tests of how a missing card is reported make their own."""
    from mtg_env.cards import pending
    from mtg_env.engine import registry

    registry.all_cards()  # load first, so a later lazy load can't undo the removal
    monkeypatch.delitem(registry._CARDS, "Mind Bend")
    monkeypatch.setattr(registry, "_KNOWN_UNIMPLEMENTED", registry._KNOWN_UNIMPLEMENTED | {"Mind Bend"})
    monkeypatch.setitem(pending.PENDING, "Mind Bend", "text-changing effects (layer 3)")
    return "Mind Bend"
