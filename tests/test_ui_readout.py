"""The node readout on nodes the GPU cannot place: it says so, and huge numbers stay readable.

The warning goes to stderr once; the readout is where a user looking at that node sees it.
"""
from __future__ import annotations

import warnings

import numpy as np
import pytest

from app_harness import Driver
from gltf_builder import GltfBuilder
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
