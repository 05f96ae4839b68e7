"""Choosing what a pane shows (``ui/pane_choice``), driven through the real app: B's clip and mode against
another file — here the same file, so any difference is the choice's —, a compare pane's clip, and the
divergence strip and error colours measured again for what the panes show."""

from __future__ import annotations

import numpy as np
import pytest

from tests.app.conftest import Driver, demo
from tests.conftest import khronos_model
from viewer.cli import main
from viewer.compare.against import SCALE_STOPS
from viewer.pose.pose import Pose
from viewer.ui import pane_choice

TALL = (1280, 1000)  # tall enough that the Compare panel's source rows show under the View section


@pytest.fixture
def fox():
    d = Driver(khronos_model("Fox"), TALL, against=khronos_model("Fox"), animation=1)  # Walk against Walk
    yield d
    d.close()


def pick(d: Driver, combo: str, entry: str) -> None:
    """Open the Compare panel's ``combo`` with a click and click its ``entry``, as a person does."""
    x, y, w, h = pane_choice.RECTS[combo]
    d.click(x + w / 2, y + h / 2)
    d.frame(0.0)  # an opened list is placed on its second frame
    x, y, w, h = pane_choice.RECTS[f"{combo}: {entry}"]
    d.click(x + w / 2, y + h / 2)


def strip_row(d: Driver) -> np.ndarray:
    """The divergence strip's pixels along its middle row, inside the ruler (past the playhead at 0)."""
    lay = d.layout
    y = int(lay.strip_y + lay.strip_h / 2)
    return d.pixels()[y, int(lay.ruler.x0) + 6 : int(lay.ruler.x1) - 2].astype(int)


def posed(scene, clip, t: float, mode: str) -> np.ndarray:
    pose = Pose(scene)
    pose.set_time(clip, t, mode)
    return pose.world


def test_b_in_step_turns_the_strip_from_green_to_the_error_scale(fox):
    d, state = fox, fox.app.state
    same = state.divergence()
    assert same.scale == 0.0 and (same.mode, same.mode_b) == ("authored", "authored")
    green = np.round(255 * SCALE_STOPS[0])
    assert np.abs(strip_row(d) - green).max() <= 2  # the file against itself: green all along
    pick(d, "mode 1", "step")
    div = state.divergence()
    assert state.choice_b.mode == "step" and not d.app.overlay.popup_open
    assert (div.clip_a, div.clip_b, div.mode, div.mode_b) == ("Walk", "Walk", "authored", "step") and div.scale > 0
    d.frame(0.0)
    row = strip_row(d)
    assert (row[:, 0] - row[:, 1] > 60).any() and (np.abs(row - green).max(axis=1) <= 2).any()  # red and green
    a, b = d.app.compare_view.sources
    assert (a.label, b.label, b.mode) == ("Fox.glb · Walk", "Fox.glb · Walk · step", "step")
    d.clock.seek(div.worst_t)
    d.frame(0.0)
    assert np.nanmax(d.app.compare_view.errors[0]) > 0  # the joints are coloured by the step pose's distance
    pick(d, "mode 1", "as A")
    assert state.choice_b.mode is None and state.divergence() is same  # kept per (clips, modes)


def test_b_plays_another_clip_until_it_follows_again(fox):
    d, state = fox, fox.app.state
    pick(d, "clip 1", "2: Run")
    d.clock.seek(0.3)
    d.frame(0.0)
    b = d.app.compare_view.sources[1]
    assert state.choice_b.clip == 2 and b.clip.name == "Run" and b.label == "Fox.glb · Run"
    np.testing.assert_allclose(d.app.compare_view.poses[1].world, posed(b.scene, b.clip, 0.3, "authored"))
    div = state.divergence()
    assert (div.clip_a, div.clip_b) == ("Walk", "Run") and div.scale > 0
    state.select_clip(0)  # A plays Survey: B keeps the chosen Run, the strip measures the new pair
    d.frame(0.0)
    assert d.app.compare_view.sources[1].clip.name == "Run"
    assert (state.divergence().clip_a, state.divergence().clip_b) == ("Survey", "Run")
    pick(d, "clip 1", "follow")
    d.frame(0.0)
    assert state.choice_b.clip is None and d.app.compare_view.sources[1].clip.name == "Survey"
    assert state.divergence().scale == 0.0


def test_the_choice_stays_through_a_reload_and_goes_with_another_b(fox):
    d, state = fox, fox.app.state
    assert state.set_pane_clip(1, 2) and state.set_pane(1, "linear")
    d.app.run_command("reload")
    d.frame(0.0)
    assert (state.choice_b.clip, state.choice_b.mode) == (2, "linear")
    assert d.app.compare_view.sources[1].label == "Fox.glb · Run · linear"
    x, y, w, h = d.app.compare_view.rects[1]
    d.app.on_files_dropped_event(x + w // 2, y + h // 2, [str(demo("irregular.gltf"))])
    d.frame(0.0)
    assert state.choice_b.clip is None and state.choice_b.mode is None


def test_the_window_opens_with_b_chosen():
    fox = khronos_model("Fox")
    d = Driver(fox, against=fox, animation=1, against_clip=2, against_mode="step")
    try:
        b = d.app.compare_view.sources[1]
        assert (b.clip.name, b.mode, d.app.state.divergence().mode_b) == ("Run", "step", "step")
    finally:
        d.close()
    argv = [str(fox), "--against", str(fox), "--animation-b", "Run", "--mode-b", "step"]
    assert main([*argv, "--window", "headless", "--backend", "egl", "--frames", "2"]) == 0


def test_a_compare_pane_plays_another_clip():
    d = Driver(khronos_model("Fox"), TALL, compare=("step", "linear"), animation=1)
    try:
        state = d.app.state
        pick(d, "clip 1", "2: Run")
        d.clock.seek(0.3)
        d.frame(0.0)
        a, b = d.app.compare_view.sources
        assert (a.label, b.label) == ("step", "linear · Run") and state.compare_clips == [None, 2]
        np.testing.assert_allclose(d.app.compare_view.poses[1].world, posed(b.scene, b.clip, 0.3, "linear"))
        assert not state.set_pane_clip(0, None) and not state.set_pane_clip(1, 9)  # pane 1 is the window's
        assert state.add_pane() and state.compare_clips == [None, 2, None]
        assert state.remove_pane(0)  # the Run pane comes first: the first pane plays the window's clip
        d.frame(0.0)
        assert [s.label for s in state.pane_sources()][:2] == ["linear", "authored"] and state.compare_clips[0] is None
        assert d.app.ctx.error == "GL_NO_ERROR"
    finally:
        d.close()
