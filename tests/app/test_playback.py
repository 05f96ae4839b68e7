"""The real viewer app, headless (moderngl-window ``headless`` window on EGL), driven by synthetic keys and time.

Each test opens a demo asset, sends key events through the window's callbacks and advances synthetic
frame time; it checks the clock (exact key times, exact frame steps) and, where it matters, the pixels.
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.app.conftest import FRAME_DT, Driver, demo


@pytest.fixture
def irregular():
    d = Driver(demo("irregular.gltf"))  # keys at 0, 0.3, 0.45, 1.5, 1.7, 3.0 s
    yield d
    d.close()


def test_space_toggles_play_and_time_follows_frames(irregular):
    d = irregular
    assert not d.clock.playing and d.clock.t == 0.0
    still = d.view_pixels()
    d.frames(5)
    assert d.clock.t == 0.0
    assert np.array_equal(d.view_pixels(), still), "paused frames differ"
    d.key("SPACE")
    assert d.clock.playing
    d.frames(12)
    assert d.clock.t == pytest.approx(12 * FRAME_DT, abs=1e-12)
    assert not np.array_equal(d.view_pixels(), still), "playing frames did not change the picture"
    d.key("SPACE")
    assert not d.clock.playing
    t, paused = d.clock.t, d.pixels()
    d.frames(5)
    assert d.clock.t == t
    assert np.array_equal(d.pixels(), paused), "paused frames differ (whole window, overlay included)"


def test_right_lands_exactly_on_next_key_and_left_goes_back(irregular):
    d = irregular
    keys = d.clock.keys
    d.clock.seek(0.31)
    d.key("RIGHT")
    assert d.clock.t == keys[2]  # exactly the file's float, not "close to"
    d.key("RIGHT")
    assert d.clock.t == keys[3]
    d.key("LEFT")
    assert d.clock.t == keys[2]
    d.key("END")
    d.key("RIGHT")
    assert d.clock.t == keys[-1]  # stays on the last key, no wrap
    d.key("HOME")
    assert d.clock.t == 0.0


def test_right_pauses_playback(irregular):
    d = irregular
    d.key("SPACE")
    d.frames(3)
    d.key("RIGHT")
    assert not d.clock.playing and d.clock.t == d.clock.keys[1]


def test_shift_arrows_step_one_frame(irregular):
    d = irregular
    d.clock.seek(1.0)
    d.key("RIGHT", shift=True)
    assert d.clock.t == pytest.approx(1.0 + 1 / 30, abs=1e-12)
    d.key("LEFT", shift=True)
    d.key("LEFT", shift=True)
    assert d.clock.t == pytest.approx(1.0 - 1 / 30, abs=1e-12)


def test_stepping_changes_the_pose(irregular):
    d = irregular
    before = d.view_pixels()
    d.key("RIGHT")
    assert not np.array_equal(d.view_pixels(), before)


def test_pause_at_keyframes_stops_on_each_key_in_order(irregular):
    d = irregular
    d.key("K")
    assert d.clock.pause_at_keys
    d.key("SPACE")
    stops = []
    for _ in range(2000):
        d.frame()
        if not d.clock.playing:
            stops.append(d.clock.t)
            if len(stops) == 7:
                break
            d.key("SPACE")
    keys = list(d.clock.keys)
    # from t = 0 (itself a key) on round the loop: the end and 0 are one instant, so 3.0 is not followed by 0
    assert stops == keys[1:] + keys[1:3]


def test_ping_pong_reverses_at_both_ends(irregular):
    d = irregular
    d.key("L")
    d.key("L")
    assert d.clock.loop_mode == "pingpong"
    d.key("SPACE")
    dt = 0.05
    times = [d.clock.t]
    for _ in range(150):  # 7.5 s of play: out, back, out again
        d.frame(dt)
        times.append(d.clock.t)
    steps = np.diff(times)
    turns = np.flatnonzero(np.sign(steps[1:]) != np.sign(steps[:-1]))
    assert len(turns) >= 2
    peak, trough = max(times), min(times[1:])
    assert peak <= d.clock.duration and peak == pytest.approx(d.clock.duration, abs=dt)
    assert trough >= 0.0 and trough == pytest.approx(0.0, abs=dt)
    assert np.all(np.abs(steps) <= dt + 1e-12)  # it reflects, it never jumps
    assert d.clock.playing


def test_speed_keys_and_loop_cycle(irregular):
    d = irregular
    d.key("EQUAL", shift=True)  # "+"
    assert d.clock.speed == 1.5
    d.key("MINUS")
    d.key("MINUS")
    assert d.clock.speed == 0.5
    d.key("SPACE")
    d.frames(6)
    assert d.clock.t == pytest.approx(6 * FRAME_DT * 0.5, abs=1e-12)
    assert [d.key("L") or d.clock.loop_mode for _ in range(3)] == ["once", "pingpong", "loop"]


def test_number_keys_choose_clips_and_title_follows():
    d = Driver(demo("interpolation.gltf"))
    try:
        title = d.wnd.title
        assert "interpolation.gltf" in title and d.app.state.clip.name in title
        d.key("NUMBER_2")  # the demo has one clip: nothing changes
        assert d.app.state.clip_index == 0
    finally:
        d.close()


def test_number_keys_switch_between_clips(khronos_dir):
    d = Driver(khronos_dir / "Fox" / "Fox.glb")
    try:
        names = [c.name for c in d.app.scene.clips]
        d.clock.seek(0.4)
        d.key("NUMBER_3")
        assert d.app.state.clip.name == names[2] and d.clock.t == 0.0
        assert d.clock.duration == d.app.scene.clips[2].duration
        assert names[2] in d.wnd.title
        d.key("NUMBER_9")  # no ninth clip: stays
        assert d.app.state.clip.name == names[2]
    finally:
        d.close()


def test_toggles_help_and_quit(irregular):
    d = irregular
    assert d.app.state.display.grid
    d.key("G")
    assert not d.app.state.display.grid
    d.key("SLASH", shift=True)
    assert d.app.state.display.help and len(d.app.overlay.rects) == 3  # bar, column, help
    d.key("H")
    assert not d.app.state.display.overlay
    assert tuple(d.app._view_size()) == tuple(d.wnd.size)  # the 3D view takes the whole window
    full = d.pixels()
    assert full[-5:].std() > 0  # bar gone: the bottom rows show the scene, not the flat bar
    d.key("ESCAPE")
    assert d.app.quit_requested
    assert d.wnd.ctx.error == "GL_NO_ERROR"
