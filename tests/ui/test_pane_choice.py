"""The one source model of the panes (``PaneChoice``): what a pane after the first shows, in the state and in
``Against``'s measurements — without a window."""

from __future__ import annotations

import numpy as np
import pytest

from tests.conftest import khronos_model
from viewer.compare import against as ag
from viewer.compare.diff import diff_scenes
from viewer.scene.scene import load
from viewer.ui.curve_view import same_channel
from viewer.ui.state import ViewerState


@pytest.fixture(scope="module")
def fox():
    return load(khronos_model("Fox"))


def test_a_choice_is_measured_as_diff_measures_that_pair_and_kept(fox):
    survey, walk, run = fox.clips
    pair = ag.Against(fox, fox)
    assert pair.source_b(walk, "linear") == (walk, "linear")  # unchosen: the match, A's mode
    choice = ag.PaneChoice(run.index, "step")
    assert pair.source_b(walk, "linear", choice) == (run, "step")
    div = pair.divergence(walk, "linear", choice)
    report = diff_scenes(fox, fox, only=walk, mode="linear", mode_b="step", clip_b=run)
    assert (div.clip_a, div.clip_b, div.mode, div.mode_b) == ("Walk", "Run", "linear", "step")
    assert div.max_distance == report["max_distance"] > 0
    assert pair.divergence(walk, "linear", choice) is div  # once per (clips, modes)
    assert pair.divergence(walk, "linear", ag.PaneChoice(mode="step")).clip_b == "Walk"
    err_a, _ = pair.errors_at(walk, 0.3, "linear", choice)
    assert np.nanmax(err_a) > 0 and pair.pose_b.scene is fox
    assert ag.chosen_clip(fox, 7) is None and ag.chosen_clip(fox, None) is None


def test_labels_name_what_a_pane_shows_beyond_the_first(fox):
    survey, walk, run = fox.clips
    a, b = ag.file_sources(fox, walk, fox, run, "authored", "step")
    assert (a.label, b.label, a.mode, b.mode) == ("Fox.glb · Walk", "Fox.glb · Run · step", "authored", "step")
    labels = [s.label for s in ag.mode_sources(fox, walk, ("step", "linear", "cubic-zero"), [None, run, walk])]
    assert labels == ["step", "linear · Run", "cubic-zero"]


def test_state_sets_each_pane_and_keeps_the_first_the_windows(fox):
    state = ViewerState(fox, clip_index=1, compare=("step", "linear"))
    assert state.set_pane_clip(1, 2) and state.pane_clip(1) is fox.clips[2]
    assert not state.set_pane_clip(1, 3) and not state.set_pane_clip(2, 0) and not state.set_pane(1, None)
    assert state.set_pane_clip(0, 0) and state.clip is fox.clips[0]  # the first pane's clip is the window's
    state.set_scene(fox, keep=False)  # another file: its panes follow its clip
    assert state.compare_clips == [None, None]
    state.set_against(fox)
    assert state.set_pane(1, "step") and state.set_pane_clip(1, 2) and state.set_pane(0, "linear")
    assert state.mode == "linear" and state.choice_b == ag.PaneChoice(2, "step")
    assert [(s.clip.name, s.mode) for s in state.pane_sources()] == [("Survey", "linear"), ("Run", "step")]
    assert not state.set_pane(1, "smooth") and not state.set_pane(2, "step")
    state.set_scene(fox, keep=True)  # a reload of A: B and its choice stay
    assert state.choice_b == ag.PaneChoice(2, "step")
    state.set_against(load(khronos_model("Fox")))  # another B: it follows A again
    assert state.choice_b == ag.PaneChoice()


def test_a_pane_on_another_clip_plots_the_same_property(fox):
    survey, walk, run = fox.clips
    ch = walk.channels[5]
    c = same_channel(run, ch.key)
    assert c is not None and run.channels[c].key == ch.key
    assert same_channel(None, ch.key) is None and same_channel(run, ("light", 9, "intensity", None)) is None


def test_b_as_an_engine_plays_it_is_measured_posed_and_labelled_as_that_engine(fox):
    """``--mode-b godot`` / the mode combo's engines: pane B is B as Godot imports and plays it — the strip is
    ``diff --engine godot``'s, the readout's pose is at Godot's player time, the label names the engine."""
    from viewer.engines import get

    survey, walk, run = fox.clips
    pair = ag.Against(fox, fox)
    div = pair.divergence(walk, "authored", ag.PaneChoice(mode="godot"))
    report = diff_scenes(fox, fox, only=walk, engines=(None, get("godot")))
    assert div.max_distance == report["max_distance"] > 0 and div.mode_b == "godot"
    assert pair.divergence(walk, "authored", ag.PaneChoice(mode="spec")).scale == 0  # the spec's player: no change
    err_a, _ = pair.errors_at(walk, 0.4583, "authored", ag.PaneChoice(mode="godot"))
    godot = get("godot").clip(walk, fox)
    assert np.array_equal(pair.pose_b.rotation[:], _posed(fox, godot, 0.4583).rotation) and np.nanmax(err_a) > 0
    a, b = ag.file_sources(fox, walk, fox, walk, "authored", "godot")
    assert b.label == "Fox.glb · Walk · Godot 4" and b.engine.name == "godot" and b.clip is not walk
    assert np.array_equal(b.keys, walk.key_times) and b.mode == "authored"
    state = ViewerState(fox, clip_index=1)
    state.set_against(fox)
    assert state.set_pane(1, "three") and state.pane_sources()[1].engine.name == "three"
    assert not state.set_pane(0, "three")  # A is the window's own playback: a mode


def _posed(scene, clip, t):
    from viewer.pose.pose import Pose

    pose = Pose(scene)
    pose.set_time(clip, t)
    return pose
