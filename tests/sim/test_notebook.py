"""notebooks/quickstart.ipynb runs end to end (with small settings)."""

from __future__ import annotations

from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat", reason="running the notebook needs the [dev] extra")
NotebookClient = pytest.importorskip("nbclient", reason="running the notebook needs the [dev] extra").NotebookClient

NOTEBOOK = Path(__file__).resolve().parents[2] / "notebooks" / "quickstart.ipynb"


def test_quickstart_notebook_executes(tmp_path) -> None:
    nb = nbformat.read(NOTEBOOK, as_version=4)
    params = next(i for i, c in enumerate(nb.cells) if "parameters" in c.metadata.get("tags", []))
    nb.cells.insert(params + 1, nbformat.v4.new_code_cell(
        f"GAMES = 2\nWORKERS = 2\nMATRIX_DECKS = 3\nOUT = {str(tmp_path / 'out')!r}"))
    NotebookClient(nb, timeout=300, kernel_name="python3",
                   resources={"metadata": {"path": str(tmp_path)}}).execute()
    outputs = "".join(o.get("text", "") for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", []))
    assert "winner:" in outputs and "heuristic says:" in outputs
    assert (tmp_path / "out" / "matrix.png").exists()
    assert any("image/png" in o.get("data", {}) for o in nb.cells[-1].outputs)
