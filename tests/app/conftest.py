"""Drive the real viewer app headless: moderngl-window's ``headless`` window on EGL, synthetic time and input.

Events go through the window's own callbacks (``wnd.key_event_func`` …), exactly as moderngl-window calls
them, so the wiring of ``WindowConfig`` is tested too. Time is synthetic: every ``frame(dt)`` passes
``dt`` seconds to ``on_render``; nothing reads the wall clock. The headless window has no key codes, so
keys are their moderngl-window names ("SPACE", "RIGHT", "NUMBER_1" …).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from moderngl_window.context.base.keys import KeyModifiers

from viewer.app.window import ViewerApp, ViewOptions
from viewer.base.resources import asset_path
from viewer.cli.view import open_window

FRAME_DT = 1.0 / 60.0
SIZE = (960, 540)


def demo(name: str) -> Path:
    return asset_path(name)


class Driver:
    """One viewer on one headless window.

    Args:
        path: file to open.
        size: window size in pixels.
        ctx_hook: called with the fresh context before the app makes anything (to count GL objects).
        **options: ``ViewOptions`` fields; the viewer starts paused unless ``paused=False`` is given.
    """

    def __init__(self, path: Path, size: tuple[int, int] = SIZE, ctx_hook=None, **options) -> None:
        try:
            self.wnd = open_window("headless", size, "egl")
        except Exception as exc:  # no EGL on this machine
            pytest.skip(f"no headless EGL window: {exc}")
        if ctx_hook is not None:
            ctx_hook(self.wnd.ctx)
        options.setdefault("paused", True)
        self.app = ViewerApp(ctx=self.wnd.ctx, wnd=self.wnd, options=ViewOptions(path=Path(path), **options))
        self.wnd.config = self.app
        self.time = 0.0
        self.mods = KeyModifiers()
        self.frames(2, 0.0)  # imgui sizes auto-fitting panels on their first frame; the second is settled

    @property
    def clock(self):
        return self.app.state.clock

    @property
    def layout(self):
        return self.app.overlay.layout

    def frame(self, dt: float = FRAME_DT) -> None:
        """Render one frame that advances real time by ``dt`` seconds."""
        self.wnd.use()
        self.wnd.render(self.time, dt)
        self.wnd.swap_buffers()
        self.time += dt

    def frames(self, n: int, dt: float = FRAME_DT) -> None:
        for _ in range(n):
            self.frame(dt)

    def key(self, name: str, shift: bool = False, ctrl: bool = False, frame: bool = True) -> None:
        """Press and release a key (with modifiers), then render a frame unless ``frame`` is False."""
        keys = self.wnd.keys
        self.mods.shift, self.mods.ctrl = shift, ctrl
        self.wnd.key_event_func(name, keys.ACTION_PRESS, self.mods)
        self.wnd.key_event_func(name, keys.ACTION_RELEASE, self.mods)
        self.mods.shift = self.mods.ctrl = False
        if frame:
            self.frame(0.0)

    def type_text(self, text: str) -> None:
        """Characters as a window delivers typed text (the key events are sent as well)."""
        for c in text:
            name = {"-": "MINUS", ".": "PERIOD", " ": "SPACE"}.get(c, f"NUMBER_{c}" if c.isdigit() else c.upper())
            self.wnd.key_event_func(name, self.wnd.keys.ACTION_PRESS, self.mods)
            self.wnd.unicode_char_entered_func(c)
            self.wnd.key_event_func(name, self.wnd.keys.ACTION_RELEASE, self.mods)
            self.frame(0.0)

    def move(self, x: float, y: float) -> None:
        self.wnd.mouse_position_event_func(x, y, 0, 0)

    def press(self, x: float, y: float, button: int = 1) -> None:
        self.wnd._handle_mouse_button_state_change(button, True)
        self.wnd.mouse_press_event_func(x, y, button)

    def drag(self, x: float, y: float, dx: float = 0, dy: float = 0) -> None:
        self.wnd.mouse_drag_event_func(x, y, dx, dy)

    def release(self, x: float, y: float, button: int = 1) -> None:
        self.wnd._handle_mouse_button_state_change(button, False)
        self.wnd.mouse_release_event_func(x, y, button)

    def scroll(self, x: float, y: float, notches: float) -> None:
        """The wheel turned ``notches`` (positive: away from the user) with the pointer at (x, y)."""
        self.move(x, y)
        self.frame(0.0)
        self.wnd.mouse_scroll_event_func(0.0, float(notches))
        self.frame(0.0)

    def click(self, x: float, y: float, button: int = 1) -> None:
        """Move there, press, release, with a frame after each step (as a person's click arrives)."""
        self.move(x, y)
        self.frame(0.0)
        self.press(x, y, button)
        self.frame(0.0)
        self.release(x, y, button)
        self.frame(0.0)

    def pixels(self) -> np.ndarray:
        """The window's picture (height, width, 3) uint8, top row first."""
        fbo = self.wnd.fbo
        w, h = fbo.size
        data = fbo.read(viewport=(0, 0, w, h), components=3, alignment=1)
        return np.frombuffer(data, np.uint8).reshape(h, w, 3)[::-1].copy()

    def view_pixels(self) -> np.ndarray:
        """The 3D view only: above the bar, left of the panel column, anything drawn over it blacked out."""
        rgb = self.pixels()
        for x, y, w, h in self.app.overlay.rects:
            rgb[max(int(y), 0) : int(y + h) + 1, max(int(x), 0) : int(x + w) + 1] = 0
        _, _, view_w, view_h = self.layout.scene_viewport()
        return rgb[:view_h, :view_w]

    def close(self) -> None:
        self.app.release()
        self.wnd.destroy()
