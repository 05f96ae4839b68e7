"""ViewerState: how long a message stays in the bar, and the frame-time readout."""

from __future__ import annotations

import pytest

from viewer.base.resources import asset_path
from viewer.scene.scene import load
from viewer.ui.state import MESSAGE_SECONDS, ViewerState


@pytest.fixture(scope="module")
def scene():
    return load(asset_path("triangle.gltf"))


def test_a_message_shows_for_a_while_then_clears(scene):
    now = [100.0]
    state = ViewerState(scene)
    state.clock_source = lambda: now[0]
    assert state.message == ""
    state.message = "saved shot.png"
    now[0] += MESSAGE_SECONDS - 0.5
    assert state.message == "saved shot.png"
    now[0] += 1.0
    assert state.message == ""
    state.message = "opened other.gltf"  # a new message starts its own time
    assert state.message == "opened other.gltf"


def test_frame_time_is_a_smoothed_average(scene):
    state = ViewerState(scene)
    state.note_frame(1 / 30)
    assert state.frame_seconds == pytest.approx(1 / 30)
    for _ in range(200):
        state.note_frame(1 / 60)
    assert 1 / state.frame_seconds == pytest.approx(60, rel=1e-3)
    state.note_frame(0.0)  # a paused or first frame reports 0: ignored
    state.note_frame(float("nan"))
    assert 1 / state.frame_seconds == pytest.approx(60, rel=1e-3)
