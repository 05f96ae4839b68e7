"""The window's input: keys, typed characters, mouse buttons, the wheel and dropped files.

Kept apart from the frame because input only ever changes state (the clock, the camera, the selection, a
pending command) and the next ``on_render`` shows the result; nothing here draws. The overlay sees every
event first; keys and typed characters run shortcuts (``keys.Shortcuts``: one action per press) unless an
imgui text field is typing; mouse buttons drive the camera (left orbit, right / middle pan, wheel zoom, a
click picks a node) unless the pointer is on the overlay; a file dropped on a pane opens there. Tests call
these ``on_*`` methods with synthetic values, as moderngl-window does.
"""

from __future__ import annotations

import math

import numpy as np

from viewer.render.overlay_lines import pick
from viewer.ui import keys

ORBIT_RAD_PER_PX = 0.008
CLICK_SLOP_PX = 4  # a press and release closer than this is a click (pick), not a drag


class InputMixin:
    """``ViewerApp``'s event handlers. They use the window's ``wnd``, ``state``, ``overlay``, ``shortcuts``,
    ``imgui_keys``, ``camera``, ``pose``, ``scene`` and ``compare_view``, its ``_drag`` / ``_pointer`` /
    ``_screenshot_pending`` fields, and the frame's and files' methods (``open``, ``frame_scene``,
    ``export_range``, ``view_projection``, ``_view_size``)."""

    def on_key_event(self, key, action, modifiers) -> None:
        down = action != self.wnd.keys.ACTION_RELEASE
        typing = self.state.display.overlay and self.overlay.typing
        self.overlay.modifiers(modifiers.shift, modifiers.ctrl, modifiers.alt)
        if key in self.imgui_keys and (typing or not down):  # releases always, so no key sticks down
            self.overlay.key(self.imgui_keys[key], down)
        if typing:
            return
        self._run(self.shortcuts.press(key, modifiers.shift) if down else self.shortcuts.flush())

    def on_unicode_char_entered(self, char: str) -> None:
        typing = self.state.display.overlay and self.overlay.typing
        self.overlay.char(char)
        if not typing:  # "+", "?", numpad "+" / "-": shortcuts by the character typed
            self._run(self.shortcuts.char(char))

    def _run(self, actions: list[str]) -> None:
        for name in actions:
            self.run_command(keys.apply(name, self.state))

    def run_command(self, command: str | None) -> None:
        """Carry out what ``keys.apply`` handed back: Esc's close-or-quit, reload, screenshot, frame."""
        if command == "back":  # help is closed by now (keys.apply); an open dropdown goes next
            if self.state.display.overlay and self.overlay.popup_open:
                self.overlay.close_popups()
            else:
                self.quit_requested = True
        elif command == "reload":
            self.open(self.scene.path, keep_view=True)
        elif command == "screenshot":
            self._screenshot_pending = True
        elif command == "export":
            self.export_range()
        elif command == "frame":  # F: on the timeline it fits the clip in the ruler, else frames the scene
            if self.state.display.overlay and self.overlay.layout.in_bar(*self._pointer):
                self.state.view_range = None
            else:
                self.frame_scene()

    def on_mouse_position_event(self, x: int, y: int, dx: int, dy: int) -> None:
        self._pointer = (x, y)
        self.overlay.mouse_pos(x, y)

    def on_mouse_press_event(self, x: int, y: int, button: int) -> None:
        self._pointer = (x, y)
        self.overlay.mouse_pos(x, y)
        self.overlay.mouse_button(button, True)
        on_overlay = self.state.display.overlay and self.overlay.captures_mouse(x, y)
        self._drag = None if on_overlay else {"button": button, "x": x, "y": y, "moved": False}

    def on_mouse_drag_event(self, x: int, y: int, dx: int, dy: int) -> None:
        self._pointer = (x, y)
        self.overlay.mouse_pos(x, y)
        drag = self._drag
        if drag is None:
            return
        drag["moved"] |= math.hypot(x - drag["x"], y - drag["y"]) > CLICK_SLOP_PX
        self._take_orbit_camera()
        if drag["button"] == self.wnd.mouse.left:
            self.camera.orbit(-dx * ORBIT_RAD_PER_PX, dy * ORBIT_RAD_PER_PX)
        else:
            self.camera.pan(dx / max(self.wnd.size[1], 1), dy / max(self.wnd.size[1], 1))

    def on_mouse_release_event(self, x: int, y: int, button: int) -> None:
        self.overlay.mouse_pos(x, y)
        self.overlay.mouse_button(button, False)
        drag, self._drag = self._drag, None
        if drag and not drag["moved"] and button == self.wnd.mouse.left:
            node = self._pick(x, y)
            if node is not None:
                self.state.select_node(node)

    def _pick(self, x: int, y: int) -> int | None:
        """The node shown nearest window point (x, y): in the 3D view, or in the compare pane clicked."""
        if self.state.display.compare:
            return self.compare_view.pick(x, y)
        size = self._view_size()
        return pick(self.pose.world, np.arange(len(self.scene.nodes)), self.view_projection(), size, x, y)

    def on_mouse_scroll_event(self, x_offset: float, y_offset: float) -> None:
        if self.state.display.overlay and self.overlay.captures_mouse(*self._pointer):
            self.overlay.scroll(x_offset, y_offset)
        else:
            self._take_orbit_camera()
            self.camera.zoom(0.9**y_offset)

    def _take_orbit_camera(self) -> None:
        """Orbiting, panning or zooming leaves the file's camera for the orbit camera, from where it stood."""
        if self.state.view_camera is not None:
            self.state.view_camera = None
            self.state.message = "orbit camera (the file's cameras are in the View section)"

    def on_files_dropped_event(self, x: int, y: int, paths: list) -> None:
        """A file dropped on the first pane (or the single view) opens as the file; on another pane it is
        held against the file there (B), so two versions are compared by dragging them in."""
        if not paths:
            return
        rects = self.compare_view.rects if self.state.display.compare else []
        pane = next((i for i, (px, py, pw, ph) in enumerate(rects) if px <= x < px + pw and py <= y < py + ph), 0)
        if pane > 0:
            self.open_against(paths[0])
        else:
            self.open(paths[0])
