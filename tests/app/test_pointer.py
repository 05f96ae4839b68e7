"""The real viewer app, headless, driven by synthetic mouse events: scrubbing, ticks, dope sheet, picking.

Pointer positions come from the pure layout (``viewer.ui.timeline``), the same numbers the overlay
draws with, so "a drag to x2 seeks to t_of(x2)" is checked exactly.
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.app.conftest import Driver, demo
from viewer.pose.pose import Pose
from viewer.render.overlay_lines import to_window


@pytest.fixture
def irregular():
    d = Driver(demo("irregular.gltf"))
    yield d
    d.close()


def expected_translation(d: Driver, t: float) -> np.ndarray:
    pose = Pose(d.app.scene)
    pose.set_time(d.app.state.clip, t)
    return pose.translation.copy()


def test_drag_on_ruler_seeks_live_and_resumes_playback(irregular):
    d = irregular
    d.key("SPACE")
    d.frames(3)
    ruler = d.layout.ruler
    (x1, y), (xm, _), (x2, _) = d.layout.ruler_point(0.5), d.layout.ruler_point(1.2), d.layout.ruler_point(2.2)
    d.move(x1, y)
    d.frame()
    d.press(x1, y)
    d.frame()
    assert d.clock.scrubbing and not d.clock.playing
    assert d.clock.t == ruler.t_of(x1)
    d.drag(xm, y)
    d.frame()
    assert d.clock.t == ruler.t_of(xm)
    # the pose shown this frame is the pose at the pointer's time, not a frame behind
    np.testing.assert_allclose(d.app.pose.translation, expected_translation(d, ruler.t_of(xm)), atol=1e-12)
    before = d.view_pixels()
    d.drag(x2, y)
    d.frame()
    assert not np.array_equal(d.view_pixels(), before), "dragging did not change the picture"
    d.frames(3)  # holding still while pressed: time stays under the pointer
    assert d.clock.t == ruler.t_of(x2)
    d.release(x2, y)
    d.frame(0.0)
    assert not d.clock.scrubbing and d.clock.playing and d.clock.t == ruler.t_of(x2)
    d.frame(0.1)
    assert d.clock.t == pytest.approx(ruler.t_of(x2) + 0.1, abs=1e-12)


def test_fast_drag_between_two_frames_lands_on_release_point(irregular):
    d = irregular
    ruler = d.layout.ruler
    (x1, y), (x2, _) = d.layout.ruler_point(2.5), d.layout.ruler_point(0.7)
    d.move(x1, y)
    d.press(x1, y)
    d.drag(x2, y)
    d.release(x2, y)  # all before the next frame, as xdotool delivers a quick drag
    d.frames(3)
    assert d.clock.t == ruler.t_of(x2)
    assert not d.clock.scrubbing and not d.clock.playing


def test_drag_past_the_ends_pins_the_playhead(irregular):
    d = irregular
    x, y = d.layout.ruler_point(1.0)
    d.move(x, y)
    d.frame()
    d.press(x, y)
    d.frame()
    d.drag(d.wnd.size[0] - 1, y)
    d.frame()
    assert d.clock.t == d.clock.duration
    d.drag(2, y)
    d.frame()
    assert d.clock.t == 0.0
    d.release(2, y)
    d.frame()


def test_click_on_a_key_tick_goes_exactly_to_it(irregular):
    d = irregular
    key = d.clock.keys[4]
    x = round(d.layout.ruler.x_of(key)) + 2  # a little off the tick still picks it
    d.key("SPACE")
    d.click(x, d.layout.summary_y + 9)
    assert d.clock.t == key and not d.clock.playing


def test_dope_sheet_expands_into_channel_rows_and_their_ticks_seek():
    d = Driver(demo("interpolation.gltf"))
    try:
        clip = d.app.state.clip
        assert d.layout.rows_h == 0
        d.click(40, d.layout.summary_y + 9)
        d.frame()
        assert d.app.state.display.channels
        shown = d.layout.rows_h // 18
        assert shown == min(len(clip.channels), 5)  # 960×540: the bar keeps to 40 % of the height
        row = 3  # within the rows shown
        key = float(clip.channels[row].curve.times[2])
        d.click(round(d.layout.ruler.x_of(key)), d.layout.rows_y + row * 18 + 9)
        assert d.clock.t == key
        d.click(40, d.layout.rows_y + row * 18 + 9)  # the row's label selects its node
        assert d.app.state.selected_node == clip.channels[row].node
    finally:
        d.close()


def test_click_on_a_joint_selects_it_and_orbit_drag_leaves_time_alone():
    d = Driver(demo("skinned_arm.gltf"))
    try:
        d.key("J")
        names = d.app.scene.nodes.names
        elbow = names.index("elbow")
        vp = d.app.overlay.layout.scene_viewport()
        ((x, y),) = to_window(d.app.pose.world[[elbow], :3, 3], d.app.view_projection(), (vp[2], vp[3]))[0]
        d.click(round(x), round(y))
        assert d.app.state.selected_node == elbow
        t, yaw = d.clock.t, d.app.camera.yaw
        d.move(300, 200)
        d.press(300, 200)
        d.drag(360, 200, 60, 0)
        d.release(360, 200)
        d.frame()
        assert d.app.camera.yaw != yaw and d.clock.t == t
        assert d.app.state.selected_node == elbow  # a drag is not a click
    finally:
        d.close()


def test_scroll_zooms_over_the_view_not_over_the_bar(irregular):
    d = irregular
    distance = d.app.camera.distance
    d.move(400, 150)
    d.wnd.mouse_scroll_event_func(0, 1)
    assert d.app.camera.distance < distance
    distance = d.app.camera.distance
    d.move(400, d.layout.ruler_y + 5)
    d.wnd.mouse_scroll_event_func(0, 1)
    assert d.app.camera.distance == distance


def test_keys_work_after_clicking_the_bar_and_with_the_pointer_over_the_view(irregular):
    d = irregular
    d.click(*d.layout.ruler_point(1.0))  # imgui now has a focused window
    d.key("SPACE")
    assert d.clock.playing
    d.move(400, 150)
    d.frame()
    d.key("SPACE")
    assert not d.clock.playing
    d.key("RIGHT")
    assert d.clock.t == d.clock.keys[3]


def test_typing_in_the_time_field_does_not_fire_shortcuts(irregular):
    d = irregular
    x, y, w, h = d.app.overlay.widgets["time_field"]
    d.click(x + w / 2, y + h / 2)
    d.frame()
    assert d.app.overlay.typing
    d.key("A", ctrl=True)  # select all, as imgui's text field understands it
    d.type_text("2.5")
    d.key("SPACE")
    d.key("MINUS")
    d.key("L")
    assert d.clock.t == 2.5  # the field seeks as it is typed
    assert not d.clock.playing and d.clock.speed == 1.0 and d.clock.loop_mode == "loop"
    d.key("ENTER")
    d.frame()
    assert not d.app.overlay.typing
    d.key("SPACE")
    assert d.clock.playing
