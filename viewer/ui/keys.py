"""Keyboard shortcuts: a table from keys to named actions, and what each action does to ``ViewerState``.

Pure and window-independent: a binding names a key by its moderngl-window ``Keys`` attribute ("SPACE",
"LEFT", "NUMBER_1", …), and ``resolve_keymap`` turns the names into the codes of whichever window class
is running. moderngl-window's ``headless`` window defines no key codes (every attribute is "undefined"),
so there a key's code is its name: tests send ``"SPACE"``, ``"RIGHT"``…

Actions that only change playback or display state are applied here; the ones that need the window or
the GPU (Esc's close-or-quit, reload, screenshot, frame the scene) come back to the app as a command string.

Some shortcuts are characters, not keys: "+" is Shift+"=" on a US layout, and pyglet then reports the key
``PLUS``, not ``EQUAL`` (its codes are the layout's keysyms; glfw's are the US key under the finger);
numpad +/- have codes moderngl-window's ``Keys`` classes do not name. So ``+ - = ? /`` also follow the
character typed (``CHAR_BINDINGS``), and ``Shortcuts`` makes sure one press runs one action although a
window reports it twice: a key event, then a character event.
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
    ("EQUAL", SHIFT_ANY, "faster"),  # for windows that send no characters; the character typed wins
    ("MINUS", SHIFT_ANY, "slower"),
    *((f"NUMBER_{n}", SHIFT_ANY, f"clip_{n}") for n in range(1, 10)),
    ("A", SHIFT_ANY, "toggle_all_clips"),
    ("I", False, "set_in"),
    ("O", False, "set_out"),
    ("I", True, "clear_range"),
    ("O", True, "clear_range"),
    ("M", SHIFT_ANY, "toggle_in_place"),
    ("T", SHIFT_ANY, "toggle_follow"),
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
    ("E", SHIFT_ANY, "export"),
    ("R", SHIFT_ANY, "reload"),
    ("SLASH", SHIFT_ANY, "help"),  # "?" is Shift+"/"
    ("ESCAPE", SHIFT_ANY, "back"),
)

CHAR_BINDINGS: dict[str, str] = {"+": "faster", "=": "faster", "-": "slower", "?": "help", "/": "help"}
"""Typed characters → actions (the main keys, the numpad's, and any layout's way of typing them)."""

CHAR_KEYS = ("EQUAL", "MINUS", "SLASH")
"""Keys whose binding waits for the character they type: that character decides (German "-" is glfw's SLASH)."""

HELP: tuple[tuple[str, str], ...] = (
    ("Space", "play / pause"),
    ("Left / Right", "previous / next keyframe"),
    ("Shift+Left / Right", "one frame back / forward"),
    ("Home / End", "start / end of the loop range, else of the clip"),
    ("+ / -", "faster / slower, 0.1x to 8x (also = and the numpad)"),
    ("1 ... 9", "play that clip alone"),
    ("A", "all clips together / back to one"),
    ("I / O", "loop range from / to the playhead (Shift: whole clip)"),
    ("L", "loop mode: loop, once, ping-pong"),
    ("K", "pause at every keyframe"),
    ("F", "frame the scene (pointer on the timeline: fit the clip)"),
    ("M", "motion in place: hold the root's horizontal travel"),
    ("T", "camera follows the moving root (or the selected node)"),
    ("G / J / W / B", "grid / skeleton / wireframe / bounds"),
    ("C", "compare view: one pane per interpolation mode"),
    ("H", "hide the overlay"),
    ("P", "save a screenshot (PNG)"),
    ("E", "export the loop range (or the clip) as a GIF of the 3D view"),
    ("R", "reload the file"),
    ("drag on the ruler", "scrub; click a key tick to go to it"),
    ("wheel / middle drag on it", "zoom / pan the timeline; right click: loop range"),
    ("left / right drag, wheel", "orbit / pan, zoom; click a joint to select it"),
    ("?", "this help"),
    ("Esc", "close help or a dropdown, else quit"),
)

COMMANDS = ("back", "reload", "screenshot", "frame", "export")
"""Actions the app carries out itself (they need the window, the file system or the GPU). "back" (Esc)
reaches the app only when no help shows; it closes an open imgui popup, else quits. "export" writes the
loop range as a GIF."""


def key_code(keys_cls: type, name: str) -> object:
    """The code of key ``name`` in a ``Keys`` class; the name itself where the class leaves it "undefined"."""
    code = getattr(keys_cls, name, "undefined")
    return name if code == "undefined" else code


def resolve_keymap(keys_cls: type) -> dict[tuple[object, bool], str]:
    """{(key code, shift): action} for a moderngl-window ``Keys`` class.

    A binding with ``SHIFT_ANY`` gets both shift states. Where the class leaves a key "undefined"
    (the headless window), the key's name stands for its code.
    """
    table: dict[tuple[object, bool], str] = {}
    for name, shift, action in BINDINGS:
        code = key_code(keys_cls, name)
        for s in (False, True) if shift is SHIFT_ANY else (shift,):
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
    "toggle_all_clips": lambda s: s.toggle_all(),
    "set_in": lambda s: s.clock.set_in(),
    "set_out": lambda s: s.clock.set_out(),
    "clear_range": lambda s: s.clock.clear_range(),
    "toggle_in_place": _toggle("in_place"),
    "toggle_follow": _toggle("follow"),
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
    if action == "back" and state.display.help and state.display.overlay:
        state.display.help = False  # Esc closes what is on screen before it quits
        return None
    if action in COMMANDS:
        return action
    ACTIONS[action](state)
    return None


class Shortcuts:
    """One window's key presses and typed characters → actions, one action per press.

    Windows report a press as a key event and then, for a printable key, a character event (pyglet, glfw
    and SDL all do, in that order, before the release). A key bound in ``BINDINGS`` acts at once and the
    character of the same press is ignored; a key in ``CHAR_KEYS`` waits for its character, which acts in
    its place (``flush`` runs the key's action when none came: the next key event or frame); a key bound to
    nothing leaves its character free to act. Characters with no key press before them (pyglet's
    auto-repeat, synthetic input) act too.

    Args:
        keys_cls: the window's moderngl-window ``Keys`` class.
    """

    def __init__(self, keys_cls: type) -> None:
        self.table = resolve_keymap(keys_cls)
        self._waiting_codes = {key_code(keys_cls, name) for name in CHAR_KEYS}
        self._pending: str | None = None  # a CHAR_KEYS press's action, until its character arrives
        self._char = "act"  # what the next character does: "act", "ignore" (its key acted), "replace"

    def press(self, code: object, shift: bool) -> list[str]:
        """Actions to run now for a key going down (or repeating)."""
        run = self.flush()
        action = self.table.get((code, bool(shift)))
        if action is None:
            self._char = "act"
        elif code in self._waiting_codes:
            self._pending, self._char = action, "replace"
        else:
            run.append(action)
            self._char = "ignore"
        return run

    def char(self, text: str) -> list[str]:
        """Actions to run now for a typed character."""
        mode, self._char = self._char, "act"
        if mode == "ignore":
            return []
        self._pending = None
        action = CHAR_BINDINGS.get(text)
        return [action] if action is not None else []

    def flush(self) -> list[str]:
        """The waiting key action, when its press typed no character (call on key release and every frame)."""
        run = [self._pending] if self._pending is not None else []
        self._pending = None
        return run
