"""Fixtures shared by the agents' tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest


@pytest.fixture
def one_torch_thread() -> Iterator[None]:
    """Torch limited to one thread for the test (as the agents run in worker processes), then
    restored. Torch is imported here, so only tests of the [rl] extra ask for it."""
    import torch

    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(threads)
