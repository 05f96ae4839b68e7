"""The view's mouse and keys (jupyter_rfb event dicts) mapped to the camera, the selection and the clock.

``Gestures`` is checked as arithmetic (the window's rates); the player is then fed the same dicts the browser
sends — through jupyter_rfb's own message handler — and its camera, selected node and clock are read back.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from tests.notebook.conftest import DEMO
from viewer.notebook.gestures import CLICK_SLOP_PX, ORBIT_RAD_PER_PX, ZOOM_PER_NOTCH, Gestures
from viewer.render.camera import OrbitCamera
from viewer.render.overlay_lines import to_window


def ev(kind, x=0.0, y=0.0, button=1, modifiers=(), **extra):
    return {"type": kind, "x": x, "y": y, "button": button, "buttons": (button,), "modifiers": modifiers, **extra}


def drag(g, camera, start, end, button=1, modifiers=()):
    take = lambda: camera  # noqa: E731
    g.handle(ev("pointer_down", *start, button, modifiers), take, 480)
    g.handle(ev("pointer_move", *end, button, modifiers), take, 480)
    return g.handle(ev("pointer_up", *end, button, modifiers), take, 480)


def test_left_drag_orbits_at_the_windows_rate():
    cam = OrbitCamera()
    yaw, pitch = cam.yaw, cam.pitch
    out = drag(Gestures(), cam, (100, 100), (150, 80))
    assert cam.yaw == pytest.approx(yaw - 50 * ORBIT_RAD_PER_PX)
    assert cam.pitch == pytest.approx(pitch - 20 * ORBIT_RAD_PER_PX)
    assert out.click is None


def test_a_flick_released_before_its_last_move_arrives_still_turns():
    """jupyter_rfb throttles moves and sends the release first: the release carries the motion."""
    cam, g = OrbitCamera(), Gestures()
    yaw = cam.yaw
    g.handle(ev("pointer_down", 100, 100), lambda: cam, 480)
    out = g.handle(ev("pointer_up", 160, 100), lambda: cam, 480)
    assert out.camera and out.click is None and cam.yaw == pytest.approx(yaw - 60 * ORBIT_RAD_PER_PX)
    assert not g.handle(ev("pointer_move", 170, 100), lambda: cam, 480).camera  # the late move: no drag now


def test_right_drag_and_shift_drag_pan_and_keep_the_angles():
    for button, mods in ((2, ()), (3, ()), (1, ("Shift",))):
        cam = OrbitCamera()
        before = cam.target.copy(), cam.yaw, cam.pitch
        drag(Gestures(), cam, (100, 100), (148, 100), button, mods)
        assert not np.allclose(cam.target, before[0]) and (cam.yaw, cam.pitch) == before[1:]


def test_wheel_zooms_by_notches_and_a_tremble_is_still_a_click():
    cam, g = OrbitCamera(), Gestures()
    d = cam.distance
    assert g.handle({"type": "wheel", "dx": 0, "dy": -200}, lambda: cam, 480).camera
    assert cam.distance == pytest.approx(d * ZOOM_PER_NOTCH**2)
    yaw = cam.yaw
    out = drag(g, cam, (10, 10), (10 + CLICK_SLOP_PX - 1, 10))
    assert out.click == (10 + CLICK_SLOP_PX - 1, 10) and cam.yaw == yaw


def test_keys_name_clock_moves():
    g = Gestures()
    key = lambda k, mods=(): g.handle({"type": "key_down", "key": k, "modifiers": mods}, None, 480).action  # noqa: E731
    assert (key(" "), key("ArrowRight"), key("ArrowLeft", ("Shift",)), key("End"), key("q")) == (
        "toggle",
        "next_frame",
        "prev_key",
        "end",
        None,
    )
    assert g.handle({"type": "double_click", "x": 1, "y": 1}, None, 480).action == "reset_camera"


def send(player, event):
    """An event as the browser sends it: through jupyter_rfb's message handler."""
    player.canvas._rfb_handle_msg(player.canvas, {"timestamp": 0.0, **event}, [])


def test_the_player_moves_its_camera_and_puts_it_back(player_factory):
    player = player_factory(DEMO)
    auto = player.frame()
    send(player, ev("pointer_down", 300, 200))
    send(player, ev("pointer_move", 360, 200))
    send(player, ev("pointer_up", 360, 200))
    assert player.camera is not None
    assert player.camera.yaw == pytest.approx(player.stage.auto_camera(player._shot(0.0, (640, 480))).yaw - 0.48)
    assert not np.array_equal(player.frame(), auto)
    send(player, {"type": "double_click", "x": 1, "y": 1, "buttons": (), "modifiers": ()})
    assert player.camera is None and np.array_equal(player.frame(), auto)


def test_a_click_selects_the_node_under_it_and_the_readout_shows_it(player_factory):
    player = player_factory(DEMO, size=(320, 240))
    player.time = 1.5
    player.frame()
    plain = player.stage.plain
    screen, _ = to_window(plain.pose.world[:, :3, 3], plain.view_projection(), plain.view.size)
    apart = np.linalg.norm(screen[:, None] - screen[None], axis=2) + np.eye(len(screen)) * 1e9
    node = int(np.argmax(apart.min(axis=1)))  # the node drawn farthest from any other: a click there is its
    x, y = screen[node]  # the view is 320 x 240 CSS pixels, and so is the frame
    send(player, ev("pointer_down", x, y))
    send(player, ev("pointer_up", x, y))
    assert player.selected == node
    values = player.readout()
    assert values["name"] == plain.scene.nodes.names[node]
    assert np.allclose(values["world_position"], plain.pose.world[node, :3, 3])
    assert plain.scene.nodes.names[node] in player.controls.readout.value
    send(player, ev("pointer_down", 2, 2))
    send(player, ev("pointer_up", 2, 2))
    assert player.selected is None


def test_keys_drive_the_clock(player_factory):
    player = player_factory(DEMO)
    key = lambda k, mods=(): send(player, {"type": "key_down", "key": k, "modifiers": mods})  # noqa: E731
    key(" ")
    assert player.playing and player.state.clock.playing
    key(" ")
    assert not player.playing
    key("ArrowRight")
    assert player.time == pytest.approx(1 / 30)
    key("End")
    assert player.time == player.duration
    key("ArrowLeft", ("Shift",))
    assert player.time < player.duration and player.time in player.state.clock.keys
    key("Home")
    assert player.time == 0.0 and math.isclose(player.controls.slider.value, 0.0)


def test_the_compare_buttons_set_panes_and_a_fifth_springs_back(player_factory):
    player = player_factory(DEMO, size=(240, 160))
    buttons = {b.description: b for b in player.controls.compare}
    for mode in ("step", "linear", "cubicspline", "catmull-rom"):
        buttons[mode].value = True
    assert player.compare == ("step", "linear", "cubicspline", "catmull-rom")
    buttons["cubic-zero"].value = True
    assert not buttons["cubic-zero"].value and len(player.compare) == 4
    player.compare = ("authored", "step")
    assert [b.description for b in player.controls.compare if b.value] == ["authored", "step"]
