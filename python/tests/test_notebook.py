"""The balance study notebook runs top to bottom and draws its figures."""

from __future__ import annotations

import pathlib
import time

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")

NOTEBOOK = pathlib.Path(__file__).resolve().parents[1] / "notebooks" / "balance.ipynb"


@pytest.mark.slow
def test_balance_notebook_executes(tmp_path: pathlib.Path) -> None:
    nb = nbformat.read(NOTEBOOK, as_version=4)
    start = time.monotonic()
    client = nbclient.NotebookClient(
        nb, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}
    )
    client.execute()
    took = time.monotonic() - start
    outputs = [o for cell in nb.cells if cell.cell_type == "code" for o in cell.get("outputs", [])]
    assert not [o for o in outputs if o.get("output_type") == "error"]
    figures = [o for o in outputs if "image/png" in o.get("data", {})]
    assert len(figures) >= 4, f"{len(figures)} figures"
    html = [o for o in outputs if "text/html" in o.get("data", {})]
    assert any("skirmish sweep" in o["data"]["text/html"] for o in html)
    assert took < 60, f"the notebook took {took:.0f} s"
