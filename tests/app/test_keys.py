"""Shortcuts through the real app's event wiring (headless window): typed characters, one action per press, Esc.

Characters reach the app as a window sends them, through ``wnd.unicode_char_entered_func``; key events
through ``wnd.key_event_func``. The sequences copy what pyglet and glfw deliver under X for the same press
(recorded under Xvfb with xdotool): pyglet names Shift+"=" the key PLUS and Shift+"/" QUESTION, glfw
names them EQUAL and SLASH with shift; numpad +/- come as codes no moderngl-window ``Keys`` class names.
"""

from __future__ import annotations

import pytest

from tests.app.conftest import Driver, demo

PYGLET_PLUS, PYGLET_QUESTION, PYGLET_NUM_ADD, PYGLET_NUM_SUBTRACT = 43, 63, 65451, 65453


@pytest.fixture
def d():
    driver = Driver(demo("irregular.gltf"))
    yield driver
    driver.close()


def press(d: Driver, code, char: str | None, shift: bool = False) -> None:
    """One press as a window reports it: key down, its character (if it types one), key up, a frame."""
    keys = d.wnd.keys
    d.mods.shift = shift
    d.wnd.key_event_func(code, keys.ACTION_PRESS, d.mods)
    if char is not None:
        d.wnd.unicode_char_entered_func(char)
    d.wnd.key_event_func(code, keys.ACTION_RELEASE, d.mods)
    d.mods.shift = False
    d.frame(0.0)


def test_plus_and_question_typed_as_characters(d):
    d.type_text("+")
    assert d.clock.speed == 1.5
    d.wnd.unicode_char_entered_func("?")  # a character alone, as a window's auto-repeat sends it
    d.frame(0.0)
    assert d.app.state.display.help
    assert len(d.app.overlay.rects) == 3  # bar, panel column, and the help window


def test_pyglet_and_glfw_presses_act_once(d):
    press(d, PYGLET_PLUS, "+", shift=True)  # pyglet: key PLUS, then "+"
    assert d.clock.speed == 1.5
    press(d, "EQUAL", "+", shift=True)  # glfw: key EQUAL with shift, then "+": not twice
    assert d.clock.speed == 2.0
    press(d, "EQUAL", "=")
    assert d.clock.speed == 4.0  # the speed ladder: … 1, 1.5, 2, 4 …
    press(d, "MINUS", "-")
    assert d.clock.speed == 2.0
    press(d, PYGLET_NUM_SUBTRACT, "-")
    press(d, PYGLET_NUM_SUBTRACT, "-")
    assert d.clock.speed == 1.0
    press(d, PYGLET_NUM_ADD, "+")
    assert d.clock.speed == 1.5
    press(d, PYGLET_QUESTION, "?", shift=True)
    assert d.app.state.display.help
    press(d, "SLASH", "?", shift=True)
    assert not d.app.state.display.help
    press(d, "G", "g")  # a key bound by its code still acts once
    assert not d.app.state.display.grid


def test_keys_alone_still_work(d):
    d.key("EQUAL", shift=True)  # the headless window sends no characters
    assert d.clock.speed == 1.5
    d.key("MINUS")
    assert d.clock.speed == 1.0
    d.mods.shift = False
    d.wnd.key_event_func("SLASH", d.wnd.keys.ACTION_PRESS, d.mods)
    d.frame(0.0)  # no character and no release yet: the next frame runs the key's action
    assert d.app.state.display.help


def test_typing_in_the_time_field_runs_no_shortcut(d):
    x, y, w, h = d.app.overlay.widgets["time_field"]
    d.click(x + w / 2, y + h / 2)
    assert d.app.overlay.typing
    press(d, "EQUAL", "+", shift=True)
    press(d, "SLASH", "?", shift=True)
    assert d.clock.speed == 1.0 and not d.app.state.display.help
    d.key("ESCAPE")  # cancels the edit, nothing more
    d.frame()
    assert not d.app.overlay.typing and not d.app.quit_requested


def test_esc_closes_help_then_quits(d):
    d.type_text("?")
    assert d.app.state.display.help
    d.key("ESCAPE")
    assert not d.app.state.display.help and not d.app.quit_requested
    assert len(d.app.overlay.rects) == 2
    d.key("ESCAPE")
    assert d.app.quit_requested


def test_esc_closes_an_open_dropdown_before_it_quits(d):
    x, y, w, h = d.app.overlay.widgets["time_field"]
    d.click(x - 60, y + h / 2)  # the clip combo, left of the time field
    assert d.app.overlay.popup_open
    d.type_text("?")
    d.key("ESCAPE")  # help first
    assert not d.app.state.display.help and d.app.overlay.popup_open and not d.app.quit_requested
    d.key("ESCAPE")  # then the dropdown
    assert not d.app.overlay.popup_open and not d.app.quit_requested
    d.frame(0.0)
    assert not d.app.overlay.popup_open  # imgui closed it, it does not come back
    d.key("ESCAPE")
    assert d.app.quit_requested
