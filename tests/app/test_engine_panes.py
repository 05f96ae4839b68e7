"""A compare pane switched to an engine in the Compare panel's combo, driven through the real app: the pane
plays the clip as that engine will (its rewritten clip on its player's clock), beside the spec's."""

from __future__ import annotations

import numpy as np

from tests.app.conftest import Driver, demo
from tests.app.test_pane_choice import TALL, pick
from viewer.engines import get
from viewer.pose.pose import Pose


def test_a_pane_switched_to_filament_plays_filaments_values():
    d = Driver(demo("interpolation.gltf"), TALL, compare=("spec", "linear"))
    try:
        state = d.app.state
        pick(d, "mode 1", "filament")
        d.clock.seek(1.0)  # the STEP cube's key: the spec shows the new key, Filament still the old
        d.frame(0.0)
        spec, filament = d.app.compare_view.sources
        assert state.compare_modes == ["spec", "filament"]
        assert (spec.label, filament.label) == ("glTF 2.0 specification", "Filament gltfio")
        engine, clip = get("filament"), state.clip
        values = engine.sample(clip, state.scene, np.array([1.0]))[0]
        expected = Pose(state.scene)
        expected.apply(clip, values)
        np.testing.assert_allclose(d.app.compare_view.poses[1].world, expected.world, atol=1e-9)
        step = state.scene.nodes.names.index("STEP")
        shown = [p.world[step] for p in d.app.compare_view.poses]
        assert not np.allclose(shown[0], shown[1])  # the two panes part on the STEP cube
    finally:
        d.close()


def test_an_engine_pane_wraps_at_the_loop_end_and_reads_out_its_values():
    d = Driver(demo("interpolation.gltf"), TALL, compare=("spec", "three"))
    try:
        state = d.app.state
        d.clock.seek(state.clip.duration)
        d.frame(0.0)
        spec, three = d.app.compare_view.sources
        assert three.time(state.clip.duration) == 0.0 and spec.time(state.clip.duration) == state.clip.duration
        first = Pose(state.scene)
        first.set_time(state.clip, 0.0)
        np.testing.assert_allclose(d.app.compare_view.poses[1].world, first.world, atol=1e-9)
        assert state.set_pane(0, "godot") and state.compare_modes == ["godot", "three"]
        assert not state.set_pane(0, "unity")
    finally:
        d.close()
