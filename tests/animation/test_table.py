"""``ChannelTable`` builds the regions of many channels of one kind in one batch; the table must be the
same, bit for bit, as built one channel at a time (``GROUP_CHANNELS = 1``), in every mode, on every shared
model and on a rig mixing kinds (rotations, vectors, weights, single keys, CUBICSPLINE tangents)."""

from __future__ import annotations

import numpy as np
import pytest

from tests.conftest import khronos_model, khronos_model_names
from tests.gltf_builder import minimal_animated
from viewer.animation import table
from viewer.animation.modes import MODES
from viewer.scene.scene import load


def _tables(curves, mode, monkeypatch, group):
    monkeypatch.setattr(table, "GROUP_CHANNELS", group)
    return table.ChannelTable(curves, mode)


def _assert_same(curves, monkeypatch):
    for mode in MODES:
        one = _tables(curves, mode, monkeypatch, 1)
        many = _tables(curves, mode, monkeypatch, 4096)
        np.testing.assert_array_equal(one.coefs, many.coefs)
        np.testing.assert_array_equal(one.seg, many.seg)
        np.testing.assert_array_equal(one.norm, many.norm)


@pytest.mark.parametrize("name", khronos_model_names())
def test_batches_build_the_table_channel_by_channel_builds(name, monkeypatch):
    for clip in load(khronos_model(name)).clips:
        _assert_same([c.curve for c in clip.channels], monkeypatch)


def test_a_rig_of_every_kind(tmp_path, monkeypatch):
    b = minimal_animated()
    b.add_animation(
        [
            dict(node=2, path="translation", times=[0.5], values=[[1, 2, 3]]),
            dict(node=3, path="rotation", times=[0, 1, 2], values=[[0, 0, 0, 1], [0, 0, 1, 0], [0, 0, -1, 0]]),
            dict(node=0, path="scale", interpolation="STEP", times=[0, 1, 3], values=[[1, 1, 1], [2, 2, 2], [1, 1, 1]]),
        ],
        name="More",
    )
    scene = load(b.write_gltf(tmp_path))
    curves = [c.curve for clip in scene.clips for c in clip.channels]
    _assert_same(curves, monkeypatch)
    monkeypatch.setattr(table, "GROUP_CHANNELS", 2)  # kinds split over several batches
    split = table.ChannelTable(curves, "catmull-rom")
    np.testing.assert_array_equal(split.coefs, _tables(curves, "catmull-rom", monkeypatch, 1).coefs)
