"""Key map and viewer state, pure: bindings → actions → clock / clip / display changes (no window, no GL).

The clock gets a synthetic time source; nothing reads the wall clock.
"""

from __future__ import annotations

import pytest
from moderngl_window.context.headless.keys import Keys as HeadlessKeys

from viewer.base.resources import asset_path
from viewer.playback.clock import Clock
from viewer.scene.scene import load
from viewer.ui import keys
from viewer.ui.state import ViewerState


class FakeTime:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def state() -> ViewerState:
    scene = load(asset_path("irregular.gltf"))  # keys 0, 0.3, 0.45, 1.5, 1.7, 3.0
    return ViewerState(scene, Clock(time_source=FakeTime()))


def press(state: ViewerState, name: str, shift: bool = False):
    table = keys.resolve_keymap(HeadlessKeys)
    return keys.apply(table[(name, shift)], state)


def test_every_binding_names_a_known_action():
    for _, _, action in keys.BINDINGS:
        assert action in keys.ACTIONS or action in keys.COMMANDS, action


def test_headless_keys_are_their_names_and_real_keys_their_codes():
    table = keys.resolve_keymap(HeadlessKeys)
    assert table[("SPACE", False)] == table[("SPACE", True)] == "toggle_play"
    assert table[("RIGHT", False)] == "next_key" and table[("RIGHT", True)] == "next_frame"
    glfw_keys = pytest.importorskip("moderngl_window.context.glfw.keys").Keys  # pyglet's needs a display
    real = keys.resolve_keymap(glfw_keys)
    assert real[(glfw_keys.SPACE, False)] == "toggle_play"
    assert real[(glfw_keys.SLASH, True)] == "help"
    assert len({code for code, _ in real}) == len({name for name, _, _ in keys.BINDINGS})  # no collisions


def test_space_right_left_home_end(state):
    clock = state.clock
    assert press(state, "SPACE") is None and clock.playing
    press(state, "SPACE")
    assert not clock.playing
    clock.seek(0.31)
    press(state, "RIGHT")
    assert clock.t == clock.keys[2]
    press(state, "LEFT")
    assert clock.t == clock.keys[1]
    press(state, "RIGHT", shift=True)
    assert clock.t == pytest.approx(clock.keys[1] + 1 / 30)
    press(state, "END")
    assert clock.t == 3.0
    press(state, "HOME")
    assert clock.t == 0.0


def test_speed_loop_and_pause_at_keys(state):
    clock = state.clock
    press(state, "EQUAL", shift=True)
    press(state, "EQUAL")
    assert clock.speed == 2.0
    press(state, "MINUS")
    assert clock.speed == 1.5
    assert [press(state, "L") or clock.loop_mode for _ in range(3)] == ["once", "pingpong", "loop"]
    press(state, "K")
    assert clock.pause_at_keys
    press(state, "K")
    assert not clock.pause_at_keys


def test_display_toggles(state):
    d = state.display
    for name, attr in [("G", "grid"), ("H", "overlay"), ("J", "skeleton"), ("W", "wireframe"), ("B", "bounds")]:
        before = getattr(d, attr)
        press(state, name)
        assert getattr(d, attr) is not before
    press(state, "SLASH", shift=True)
    assert d.help


def test_commands_come_back_to_the_app(state):
    assert press(state, "ESCAPE") == "back"
    assert press(state, "R") == "reload"
    assert press(state, "P") == "screenshot"
    assert press(state, "F") == "frame"
    with pytest.raises(KeyError):
        keys.apply("no such action", state)


def test_number_keys_choose_clips_from_their_start_and_keep_playing(khronos_dir):
    scene = load(khronos_dir / "Fox" / "Fox.glb")  # Survey, Walk, Run
    state = ViewerState(scene, Clock(time_source=FakeTime()))
    state.clock.play()
    state.clock.seek(1.0)
    press(state, "NUMBER_2")
    assert state.clip.name == "Walk" and state.clock.t == 0.0 and state.clock.playing
    assert state.clock.duration == scene.clips[1].duration
    assert state.clock.keys == tuple(scene.clips[1].key_times)
    state.clock.seek(0.5)
    press(state, "NUMBER_2")  # the clip already playing: nothing changes
    assert state.clock.t == 0.5
    press(state, "NUMBER_7")
    assert state.clip.name == "Walk"
    assert state.clip_label(2) == f"3. Run ({scene.clips[2].duration:.2f} s)"
    assert state.title() == "animview — Fox.glb — Walk (2/3)"


def test_set_scene_keeps_or_resets(state):
    state.clock.seek(2.5)
    state.select_node(1)
    other = load(asset_path("triangle.gltf"))  # one node, 1 s clip
    state.set_scene(other, keep=True)
    assert state.clock.t == 1.0 and state.selected_node is None  # clamped; node 1 does not exist there
    state.select_node(0)
    state.set_scene(load(asset_path("irregular.gltf")), keep=False)
    assert state.clock.t == 0.0 and state.selected_node is None and state.clip_index == 0


def test_a_file_without_animations(tmp_path):
    scene = load(asset_path("triangle.gltf"))
    bare = scene.__class__(**{**scene.__dict__, "clips": ()})
    state = ViewerState(bare, Clock(time_source=FakeTime()))
    assert state.clip is None and state.clock.duration == 0.0 and state.clock.keys == ()
    press(state, "SPACE")
    state.clock.tick(1.0)
    assert state.clock.t == 0.0
    assert state.title() == "animview — triangle.gltf — no animation"


def test_esc_closes_the_help_it_shows_before_it_reaches_the_app(state):
    state.display.help = True
    assert press(state, "ESCAPE") is None and not state.display.help
    assert press(state, "ESCAPE") == "back"  # nothing left to close: the app closes a popup or quits
    state.display.help, state.display.overlay = True, False  # help hidden with the overlay: not on screen
    assert press(state, "ESCAPE") == "back"


def test_one_action_per_press_whether_the_key_or_the_character_names_it():
    s = keys.Shortcuts(HeadlessKeys)
    # pyglet: Shift+"=" is the key PLUS (bound to nothing), then "+": the character acts
    assert s.press("PLUS", True) == [] and s.char("+") == ["faster"] and s.flush() == []
    # glfw: Shift+"=" is EQUAL with shift, then "+": one action, the character's
    assert s.press("EQUAL", True) == [] and s.char("+") == ["faster"] and s.flush() == []
    assert s.press("SLASH", True) == [] and s.char("?") == ["help"]
    # numpad: codes no Keys class names, then the character
    assert s.press(65451, False) == [] and s.char("+") == ["faster"]
    assert s.press(65453, False) == [] and s.char("-") == ["slower"]
    # a window that sends no characters (the headless tests): the key acts at the next key event or frame
    assert s.press("MINUS", False) == [] and s.flush() == ["slower"] and s.flush() == []
    assert s.press("EQUAL", False) == [] and s.press("RIGHT", False) == ["faster", "next_key"]
    # a key that acted keeps its character from acting again (glfw, German layout: Shift+7 types "/")
    assert s.char("/") == []
    assert s.press("NUMBER_7", True) == ["clip_7"] and s.char("/") == []
    # the character decides: a "-" typed on the key glfw calls SLASH is slower, not help
    assert s.press("SLASH", False) == [] and s.char("-") == ["slower"] and s.flush() == []
    assert s.press("MINUS", False) == [] and s.char("ß") == [] and s.flush() == []
    # characters with no key before them (pyglet's auto-repeat) act; others do nothing
    assert s.char("+") == ["faster"] and s.char("+") == ["faster"] and s.char("g") == []


def test_character_bindings_name_known_actions_and_the_help_lists_them():
    assert set(keys.CHAR_BINDINGS.values()) <= set(keys.ACTIONS)
    assert {"+", "-", "?"} <= set(keys.CHAR_BINDINGS)
    listed = " ".join(k for k, _ in keys.HELP)
    assert all(c in listed for c in "+-?")
