"""``examples/animview_in_jupyter.ipynb`` runs headless from top to bottom (nbclient, a real kernel), its frames are
``animview render``'s pixels for the same time and mode, and its nbconvert HTML holds each player's static copy.

The notebook opens the Khronos Fox (skips without the shared models), so this is the notebook a user runs: a
player, frames read from Python, compare panes, a joint's curve in matplotlib and a reduced copy diffed and shown
against the original. Each frame cell is tagged; its PNG output is compared with the PNG ``animview render`` writes.
"""

from __future__ import annotations

import base64
import io
import subprocess
import sys

import numpy as np
import pytest
from PIL import Image

from tests.conftest import REPO_ROOT, khronos_model
from tests.notebook.conftest import need_notebook_extra
from viewer.notebook import fallback

NOTEBOOK = REPO_ROOT / "examples" / "animview_in_jupyter.ipynb"
CELL_TIMEOUT_S = 120
# tag of a frame cell → the render command line that draws the same picture
FRAMES = {
    "frame-fox-linear": ["--animation", "Walk", "--time", "0.5", "--mode", "linear", "--frame", "clip"],
    "frame-compare": ["--animation", "Walk", "--time", "0.3", "--compare", "step,linear,catmull-rom"],
}
PLAYERS = ("player-fox", "player-compare", "player-against")


@pytest.fixture(scope="module")
def executed():
    need_notebook_extra()
    for name in ("nbclient", "nbformat", "ipykernel"):
        pytest.importorskip(name)
    khronos_model("Fox")
    import nbformat
    from nbclient import NotebookClient

    nb = nbformat.read(NOTEBOOK, as_version=4)
    client = NotebookClient(
        nb,
        timeout=CELL_TIMEOUT_S,
        kernel_name="python3",
        resources={"metadata": {"path": str(NOTEBOOK.parent)}},
        store_widget_state=False,  # as JupyterLab saves by default: the static copies are what an export shows
    )
    client.execute()
    return nb


def tagged(nb, tag: str) -> dict:
    """The data of the tagged cell's last rich output."""
    cell = next(c for c in nb.cells if tag in c.metadata.get("tags", []))
    outputs = [o for o in cell.outputs if o.output_type in ("execute_result", "display_data")]
    assert outputs, f"cell {tag} has no output"
    return outputs[-1]["data"]


def png(data: str) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(base64.b64decode(data))).convert("RGB"))


@pytest.mark.parametrize("tag", sorted(FRAMES))
def test_the_notebooks_frames_are_renders_pixels(executed, tag, tmp_path):
    out = tmp_path / "render.png"
    fox = khronos_model("Fox")
    cmd = [sys.executable, "-m", "viewer", "render", str(fox), *FRAMES[tag], "--size", "640x480", "-o", str(out)]
    subprocess.run(cmd + ["--quiet"], check=True, timeout=120, cwd=REPO_ROOT)
    got = png(tagged(executed, tag)["image/png"])
    want = np.asarray(Image.open(out).convert("RGB"))
    assert got.shape == want.shape == (480, 640, 3)
    assert np.array_equal(got, want), f"{tag}: {int((got != want).any(axis=2).sum())} pixels differ from render's"


def test_every_player_leaves_a_static_copy_and_a_poster(executed):
    for tag in PLAYERS:
        data = tagged(executed, tag)
        assert "application/vnd.jupyter.widget-view+json" in data, tag
        assert "animview-fallback" in data["text/html"] and len(data["text/html"].encode()) <= fallback.CAP_BYTES
        assert Image.open(io.BytesIO(base64.b64decode(data["image/jpeg"]))).size == (640, 480)


def test_the_nbconvert_export_shows_the_static_copies(executed, tmp_path):
    import nbformat
    from nbconvert import HTMLExporter

    errors = [o for c in executed.cells for o in c.get("outputs", []) if o.output_type == "error"]
    assert not errors, errors
    html, _ = HTMLExporter().from_notebook_node(nbformat.from_dict(executed))
    assert html.count('class="animview-fallback"') + html.count("class='animview-fallback'") == len(PLAYERS)
