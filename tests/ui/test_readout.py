"""The node readout on nodes the GPU cannot place: it says so, and huge numbers stay readable.

The warning goes to stderr once; the readout is where a user looking at that node sees it.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from tests.app.conftest import Driver
from tests.conftest import KHRONOS_DIR
from tests.gltf_builder import GltfBuilder
from viewer.ui.panels import _vec

NOT_DRAWN_RGB = (255, 140, 89)  # the readout's "not drawn" line colour, (1.0, 0.55, 0.35)


def test_huge_numbers_are_in_e_notation_small_ones_fixed():
    assert _vec(np.array([1e39, -2.5e6, 0.5])) == "1.000e+39 -2.500e+06   0.5000"
    assert len(_vec(np.array([1e300, 1e300, 1e300]))) < 40


@pytest.fixture
def far_file(tmp_path):
    b = GltfBuilder()
    mesh = b.add_mesh(positions=[[0, 0, 0], [1, 0, 0], [0, 1, 0]], indices=[0, 1, 2])
    b.add_node(mesh=mesh, name="near")
    b.add_node(mesh=mesh, name="far", translation=[1e39, 0, 0])
    b.add_animation([dict(node=0, path="translation", times=[0, 1], values=[[0, 0, 0], [1, 0, 0]])])
    b.add_scene([0, 1])
    return b.write_gltf(tmp_path, "far.gltf")


def _orange_pixels(rgb: np.ndarray) -> int:
    return int((np.abs(rgb.astype(int) - NOT_DRAWN_RGB).max(axis=2) < 40).sum())


def test_readout_says_a_node_is_not_drawn(far_file):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        d = Driver(far_file)
    try:
        d.app.state.selected_node = 0
        d.frames(2, 0.0)
        near = _orange_pixels(d.pixels())
        d.app.state.selected_node = 1
        d.frames(2, 0.0)
        far = _orange_pixels(d.pixels())
    finally:
        d.close()
    assert near == 0 and far > 50, (near, far)


BAR_RGB = (230, 179, 0)  # imgui's progress-bar fill (PlotHistogram colour of the dark style)


def _bar_rows(rgb: np.ndarray, x0: int) -> int:
    """Horizontal bands of bar-coloured pixels right of ``x0``: one per filled weight bar."""
    hit = (np.abs(rgb[:, x0:].astype(int) - BAR_RGB).max(axis=2) < 40).sum(axis=1) > 20
    return int(np.count_nonzero(hit[1:] & ~hit[:-1]) + hit[0])


def test_every_morph_weight_is_a_bar_with_its_target_name(tmp_path):
    rng = np.random.default_rng(1)
    b = GltfBuilder()
    mesh = b.add_mesh(
        positions=[[0, 0, 0], [1, 0, 0], [0, 1, 0]],
        indices=[0, 1, 2],
        targets=[rng.normal(size=(3, 3)) * 0.1 for _ in range(8)],
        weights=[0.0] * 8,
    )
    names = ["smile", "blink_l", "blink_r", "jaw", "brow_up", "brow_dn", "puff", "squint"]
    b.doc["meshes"][mesh]["extras"] = {"targetNames": names}
    b.add_node(mesh=mesh)
    at_one = [1.0, 0.5, 0.25, 0.0, 1.2, -0.3, 0.75, 0.9]  # six of eight fill their bar
    b.add_animation([dict(node=0, path="weights", times=[0, 1], values=np.array([[0.0] * 8, at_one]).reshape(-1, 1))])
    b.add_scene([0])
    d = Driver(b.write_gltf(tmp_path, "eight.gltf"), size=(1280, 720))
    try:
        assert d.app.scene.meshes[0].target_names == tuple(names)
        d.app.state.clock.seek(1.0)
        d.app.state.selected_node = 0
        d.frames(3, 0.0)
        rgb = d.pixels()
    finally:
        d.close()
    assert _bar_rows(rgb, 1000) == 6


def test_all_eight_morph_stress_test_weights_are_readable():
    path = KHRONOS_DIR / "MorphStressTest" / "MorphStressTest.gltf"
    if not path.exists():
        pytest.skip(f"shared model missing: {path}")
    d = Driver(path, size=(1280, 720), animation=2)  # "Pulse": every weight at 1 near t = 2.872 s
    try:
        d.app.state.clock.seek(2.872)
        d.app.state.selected_node = 0
        d.frames(3, 0.0)
        weights = d.app.pose.node_weights(0)
        rgb = d.pixels()
    finally:
        d.close()
    assert len(weights) == 8 and (weights > 0.95).all()
    assert _bar_rows(rgb, 1000) == 8  # eight full bars, none scrolled away
