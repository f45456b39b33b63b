"""notebooks/environment.ipynb runs end to end (with small settings): the spaces, a masked random
episode, the Gymnasium wrapper, the shipped agent against the heuristic and a short PPO run."""

from __future__ import annotations

from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat", reason="running the notebook needs the [dev] extra")
NotebookClient = pytest.importorskip("nbclient", reason="running the notebook needs the [dev] extra").NotebookClient
pytest.importorskip("sb3_contrib", reason="the notebook's agent and training cells need the [rl] extra")

NOTEBOOK = Path(__file__).resolve().parents[2] / "notebooks" / "environment.ipynb"


def test_environment_notebook_executes(tmp_path) -> None:
    nb = nbformat.read(NOTEBOOK, as_version=4)
    params = next(i for i, c in enumerate(nb.cells) if "parameters" in c.metadata.get("tags", []))
    nb.cells.insert(params + 1, nbformat.v4.new_code_cell(
        f"MATCH_GAMES = 2\nWORKERS = 2\nTRAIN_STEPS = 1024\nOUT = {str(tmp_path / 'out')!r}"))
    NotebookClient(nb, timeout=300, kernel_name="python3",
                   resources={"metadata": {"path": str(tmp_path)}}).execute()
    code = [c for c in nb.cells if c.cell_type == "code"]
    outputs = "".join(o.get("text", "") for c in code for o in c.get("outputs", []))
    assert "flattened (flatten=True): " in outputs and "legal actions out of" in outputs
    assert outputs.count("winner: player") == 3  # the random episode, the wrapper's, the trained agent's
    assert "mirror, trained vs heuristic: " in outputs
    assert "trained 1024 steps" in outputs and "run_matchup, the checkpoint vs heuristic" in outputs
    assert (tmp_path / "out" / "ppo" / "final.zip").exists()
    assert any("image/png" in o.get("data", {}) for c in code for o in c.get("outputs", []))


def test_the_saved_notebook_has_its_outputs() -> None:
    """The file in the repo was executed with its own settings, so a reader sees the results."""
    nb = nbformat.read(NOTEBOOK, as_version=4)
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert all(c.get("execution_count") for c in code)
    assert all(c.outputs for c in code if "parameters" not in c.metadata.get("tags", []))
