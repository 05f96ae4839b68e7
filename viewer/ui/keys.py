"""Keyboard shortcuts: a table from keys to named actions, and what each action does to ``ViewerState``.

Pure and window-independent: a binding names a key by its moderngl-window ``Keys`` attribute ("SPACE",
"LEFT", "NUMBER_1", …), and ``resolve_keymap`` turns the names into the codes of whichever window class
is running. moderngl-window's ``headless`` window defines no key codes (every attribute is "undefined"),
so there a key's code is its name: tests send ``"SPACE"``, ``"RIGHT"``…

Actions that only change playback or display state are applied here; the ones that need the window or
the GPU (quit, reload, screenshot, frame the scene) come back to the app as a command string.
"""
from __future__ import annotations

from typing import Callable

from viewer.ui.state import ViewerState

SHIFT_ANY = None

# (key name, shift: True / False / SHIFT_ANY, action)
BINDINGS: tuple[tuple[str, bool | None, str], ...] = (
    ("SPACE", SHIFT_ANY, "toggle_play"),
    ("LEFT", False, "prev_key"),
    ("RIGHT", False, "next_key"),
    ("LEFT", True, "prev_frame"),
    ("RIGHT", True, "next_frame"),
    ("HOME", SHIFT_ANY, "home"),
    ("END", SHIFT_ANY, "end"),
    ("EQUAL", SHIFT_ANY, "faster"),  # "+" is Shift+"=" on US layouts; "=" alone works too
    ("MINUS", SHIFT_ANY, "slower"),
    *((f"NUMBER_{n}", SHIFT_ANY, f"clip_{n}") for n in range(1, 10)),
    ("L", SHIFT_ANY, "cycle_loop"),
    ("K", SHIFT_ANY, "toggle_pause_at_keys"),
    ("F", SHIFT_ANY, "frame"),
    ("G", SHIFT_ANY, "toggle_grid"),
    ("H", SHIFT_ANY, "toggle_overlay"),
    ("J", SHIFT_ANY, "toggle_skeleton"),
    ("W", SHIFT_ANY, "toggle_wireframe"),
    ("B", SHIFT_ANY, "toggle_bounds"),
    ("C", SHIFT_ANY, "toggle_compare"),
    ("P", SHIFT_ANY, "screenshot"),
    ("R", SHIFT_ANY, "reload"),
    ("SLASH", SHIFT_ANY, "help"),  # "?" is Shift+"/"
    ("ESCAPE", SHIFT_ANY, "quit"),
)

HELP: tuple[tuple[str, str], ...] = (
    ("Space", "play / pause"),
    ("Left / Right", "previous / next keyframe"),
    ("Shift+Left / Right", "one frame back / forward"),
    ("Home / End", "start / end of the clip"),
    ("+ / -", "faster / slower"),
    ("1 ... 9", "choose clip"),
    ("L", "loop mode: loop, once, ping-pong"),
    ("K", "pause at every keyframe"),
    ("F", "frame the scene"),
    ("G / J / W / B", "grid / skeleton / wireframe / bounds"),
    ("C", "compare view: one pane per interpolation mode"),
    ("H", "hide the overlay"),
    ("P", "save a screenshot (PNG)"),
    ("R", "reload the file"),
    ("drag on the ruler", "scrub; click a key tick to go to it"),
    ("left / right drag, wheel", "orbit / pan, zoom; click a joint to select it"),
    ("?", "this help"),
    ("Esc", "quit"),
)

COMMANDS = ("quit", "reload", "screenshot", "frame")
"""Actions the app carries out itself (they need the window, the file system or the GPU)."""


def resolve_keymap(keys_cls: type) -> dict[tuple[object, bool], str]:
    """{(key code, shift): action} for a moderngl-window ``Keys`` class.

    A binding with ``SHIFT_ANY`` gets both shift states. Where the class leaves a key "undefined"
    (the headless window), the key's name stands for its code.
    """
    table: dict[tuple[object, bool], str] = {}
    for name, shift, action in BINDINGS:
        code = getattr(keys_cls, name, "undefined")
        if code == "undefined":
            code = name
        for s in ((False, True) if shift is SHIFT_ANY else (shift,)):
            table[(code, s)] = action
    return table


def _toggle(attr: str) -> Callable[[ViewerState], None]:
    def flip(state: ViewerState) -> None:
        setattr(state.display, attr, not getattr(state.display, attr))
    return flip


def _clip(n: int) -> Callable[[ViewerState], None]:
    return lambda state: state.select_clip(n - 1)


ACTIONS: dict[str, Callable[[ViewerState], object]] = {
    "toggle_play": lambda s: s.clock.toggle(),
    "prev_key": lambda s: s.clock.prev_key(),
    "next_key": lambda s: s.clock.next_key(),
    "prev_frame": lambda s: s.clock.step_frames(-1),
    "next_frame": lambda s: s.clock.step_frames(1),
    "home": lambda s: s.clock.home(),
    "end": lambda s: s.clock.end(),
    "faster": lambda s: s.clock.faster(),
    "slower": lambda s: s.clock.slower(),
    "cycle_loop": lambda s: s.clock.cycle_loop_mode(),
    "toggle_pause_at_keys": lambda s: setattr(s.clock, "pause_at_keys", not s.clock.pause_at_keys),
    "toggle_grid": _toggle("grid"),
    "toggle_overlay": _toggle("overlay"),
    "toggle_skeleton": _toggle("skeleton"),
    "toggle_wireframe": _toggle("wireframe"),
    "toggle_bounds": _toggle("bounds"),
    "toggle_compare": _toggle("compare"),
    "help": _toggle("help"),
    **{f"clip_{n}": _clip(n) for n in range(1, 10)},
}


def apply(action: str, state: ViewerState) -> str | None:
    """Carry out ``action`` on ``state``; return it when it is one of ``COMMANDS`` for the app to do.

    Raises:
        KeyError: an unknown action name.
    """
    if action in COMMANDS:
        return action
    ACTIONS[action](state)
    return None
