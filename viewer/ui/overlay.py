"""The imgui overlay: its own imgui context, input forwarding, and one frame of timeline + panels.

Works on any moderngl context: the window's (``app/``) and an offscreen one (``export/overlay.py``,
for ``animview render --overlay``); it draws into whatever framebuffer is bound. It uses
moderngl-window's imgui-bundle renderer only to draw, and forwards input itself through imgui's event
queue (``add_mouse_pos_event`` / ``add_mouse_button_event``): moderngl-window's mixin writes
``io.mouse_down`` directly, which loses a click whose press and release arrive between two frames (as
xdotool's do), while the queue trickles them over successive frames.

The overlay only changes ``ViewerState``; it never touches the scene's GL resources.
"""

from __future__ import annotations

from imgui_bundle import imgui, implot
from moderngl_window.integrations.imgui_bundle import ModernGLRenderer

from viewer.compare.views import pane_rects
from viewer.pose.pose import Pose
from viewer.ui import compare_panel, dock, dope_sheet, panels
from viewer.ui import timeline as tl
from viewer.ui.panels import FloatRect
from viewer.ui.state import ViewerState

# moderngl-window key attribute names → imgui keys, for editing inside imgui text fields
_EDIT_KEYS = {
    "TAB": "tab",
    "LEFT": "left_arrow",
    "RIGHT": "right_arrow",
    "UP": "up_arrow",
    "DOWN": "down_arrow",
    "PAGE_UP": "page_up",
    "PAGE_DOWN": "page_down",
    "HOME": "home",
    "END": "end",
    "DELETE": "delete",
    "BACKSPACE": "backspace",
    "ENTER": "enter",
    "ESCAPE": "escape",
    "SPACE": "space",
    **{c: c.lower() for c in "ACVXYZ"},
}
MOUSE_BUTTONS = {1: 0, 2: 1, 3: 2}  # moderngl-window left / right / middle → imgui 0 / 1 / 2


def imgui_keymap(keys_cls: type) -> dict[object, int]:
    """{window key code: imgui key} (names stand for codes where the class leaves them "undefined")."""
    out = {}
    for name, key in _EDIT_KEYS.items():
        code = getattr(keys_cls, name, "undefined")
        out[name if code == "undefined" else code] = getattr(imgui.Key, key)
    return out


class Overlay:
    """Timeline bar, panels and help for one GL context.

    Args:
        ctx: the moderngl context to draw with.
        size: (width, height) of the framebuffer in pixels (window coordinates, pixel ratio 1).
    """

    def __init__(self, ctx, size: tuple[int, int]) -> None:
        self._context = imgui.create_context()
        imgui.set_current_context(self._context)
        self._plot_context = implot.create_context()  # the curve window's plots
        io = imgui.get_io()
        io.set_ini_filename("")  # no imgui.ini next to the user's files
        io.config_input_text_cursor_blink = False  # a paused viewer draws identical frames
        imgui.style_colors_dark()
        style = imgui.get_style()
        style.window_rounding = 4.0
        style.set_color_(imgui.Col_.window_bg, imgui.ImVec4(0.09, 0.10, 0.12, 0.92))
        self.size = (int(size[0]), int(size[1]))
        self.renderer = ModernGLRenderer(ctx=ctx, display_size=self.size)
        self.layout = tl.layout(self.size[0], self.size[1], 0.0, 0, tl.side_width(self.size[0]))
        self._rects: list[FloatRect] = []
        self.widgets: dict[str, FloatRect] = {}
        """Named rectangles of last frame's widgets ("bar", "time_field"), window pixels."""
        self._popup_open = False
        self._close_popups = False
        self._released = False

    def _use(self) -> imgui.IO:
        imgui.set_current_context(self._context)
        implot.set_current_context(self._plot_context)
        return imgui.get_io()

    def resize(self, width: int, height: int) -> None:
        self.size = (int(width), int(height))
        self._use().display_size = imgui.ImVec2(*self.size)

    # --- input, in window coordinates -------------------------------------------------------------
    def mouse_pos(self, x: float, y: float) -> None:
        self._use().add_mouse_pos_event(float(x), float(y))

    def mouse_button(self, button: int, down: bool) -> None:
        """``button``: moderngl-window's number (1 left, 2 right, 3 middle)."""
        if button in MOUSE_BUTTONS:
            self._use().add_mouse_button_event(MOUSE_BUTTONS[button], down)

    def scroll(self, dx: float, dy: float) -> None:
        self._use().add_mouse_wheel_event(float(dx), float(dy))

    def modifiers(self, shift: bool, ctrl: bool, alt: bool) -> None:
        """The modifier state as of the latest key event (sent with every one, so none sticks)."""
        io = self._use()
        io.add_key_event(imgui.Key.mod_shift, bool(shift))
        io.add_key_event(imgui.Key.mod_ctrl, bool(ctrl))
        io.add_key_event(imgui.Key.mod_alt, bool(alt))

    def key(self, key: int, down: bool) -> None:
        """An imgui key (from ``imgui_keymap``) going down or up."""
        self._use().add_key_event(key, down)

    def char(self, text: str) -> None:
        io = self._use()
        for c in text:
            io.add_input_character(ord(c))

    @property
    def typing(self) -> bool:
        """True while an imgui text field has the keyboard: shortcuts must leave the keys to it."""
        return bool(self._use().want_text_input)

    @property
    def popup_open(self) -> bool:
        """True while last frame left an imgui popup open (a combo's list): Esc closes it before quitting."""
        return self._popup_open

    def close_popups(self) -> None:
        """Close open popups at the start of the next frame, before any window is built (not mid-frame).

        The viewer leaves imgui's keyboard navigation off (arrows and Space are shortcuts), so imgui's
        own Esc handling, which is part of it, never runs: Esc asks here instead.
        """
        self._close_popups = True
        self._popup_open = False

    @property
    def rects(self) -> list[FloatRect]:
        """(x, y, w, h) window rectangles of last frame's overlay windows."""
        return list(self._rects)

    def captures_mouse(self, x: float, y: float) -> bool:
        """True when window point (x, y) is on the overlay (last frame's windows, or an open popup)."""
        if self._popup_open:
            return True
        return any(rx <= x < rx + rw and ry <= y < ry + rh for rx, ry, rw, rh in self._rects)

    # --- a frame ------------------------------------------------------------------------------------
    def frame(self, state: ViewerState, pose: Pose, dt: float) -> tl.Layout:
        """Build this frame's UI from ``state`` and apply what the user did to it; returns the bar layout.

        Args:
            state: what the UI shows and changes.
            pose: the pose at the current time (read only, for the readouts).
            dt: seconds since the last frame (imgui's double-click and hover timing).
        """
        io = self._use()
        io.delta_time = max(float(dt), 1e-4)
        imgui.new_frame()
        if self._close_popups:
            self._close_popups = False
            imgui.internal.close_popups_except_modals()
        clip = state.clip
        expanded = clip is not None and state.display.channels
        rows = len(state.dope_rows()) if expanded else 0
        width, height = self.size
        side_w = int(min(state.side_w or tl.side_width(width), 0.6 * width))
        strip = state.against is not None
        self.layout = tl.layout(width, height, state.clock.duration, rows, side_w, state.view_range, expanded, strip)
        self.widgets = dope_sheet.draw_bar(state, self.layout)
        column, self.widgets["curve_plots"] = dock.draw_column(state, pose, self.layout)
        rects = [self.widgets["bar"], column]
        if state.display.compare:
            view_w = self.layout.scene_viewport()[2]
            sources = state.pane_sources()
            compare_panel.draw_pane_labels(pane_rects(len(sources), view_w, int(self.layout.top)), sources)
        help_rect = panels.draw_help(state, width, height)
        if help_rect is not None:
            rects.append(help_rect)
        self._rects = rects
        self._popup_open = imgui.is_popup_open("", imgui.PopupFlags_.any_popup_id | imgui.PopupFlags_.any_popup_level)
        imgui.render()
        return self.layout

    def hide(self) -> None:
        """The overlay is switched off: it takes no clicks until the next ``frame``."""
        self._rects = []
        self._popup_open = False

    def render(self) -> None:
        """Draw the last built frame into the bound framebuffer (blended over the 3D picture)."""
        self._use()
        self.renderer.render(imgui.get_draw_data())

    def release(self) -> None:
        """Free the imgui renderer's GL objects and the imgui context (safe to call twice)."""
        if self._released:
            return
        self._released = True
        self._use()
        self.renderer.shutdown()
        implot.destroy_context(self._plot_context)
        imgui.destroy_context(self._context)
