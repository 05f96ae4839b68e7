"""The viewer window: moderngl-window's ``WindowConfig`` wiring the clock, the pose, the renderer and the overlay.

It is a list of parts, each in its own module, so the window itself only says what is made and in what order a
frame runs: ``input`` (keys, characters, mouse, wheel and dropped files, which only change state), ``frame``
(the pose at a time, the followed camera, the 3D view drawn, the camera it is seen through) and ``files``
(opening and reloading a file, framing it, screenshots and the loop range as a GIF). This module keeps what
ties them together: construction, the order of one frame, and releasing the GL objects.

One frame (``on_render``): the clock advances by the frame's real time, the pose is set for that time,
the overlay builds its UI (which may seek, switch clip or mode — the pose is then set again so the
picture never lags the playhead), the renderer draws the pose, the skeleton / bounds lines and the overlay
go on top; in compare view (C, ``--compare``) the 3D view is split into one pane per mode on the same
clock and camera (``render.compare_view``). The same object runs under a real window and moderngl-window's
headless one (tests call ``on_render`` and the ``on_*`` events with synthetic values).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from pathlib import Path

import moderngl
import moderngl_window as mglw
import numpy as np

from viewer import fast
from viewer.app.files import FilesMixin
from viewer.app.frame import FrameMixin
from viewer.app.input import InputMixin
from viewer.playback.clock import Clock
from viewer.render.camera import OrbitCamera
from viewer.render.renderer import Look
from viewer.render.shaders import ProgramCache
from viewer.render.view_canvas import ViewCanvas
from viewer.scene.scene import Scene, load
from viewer.ui import keys
from viewer.ui.overlay import Overlay, imgui_keymap
from viewer.ui.state import ViewerState

MAX_FRAME_DT = 0.25  # seconds: after a stall (loading, a dragged window) play on, don't jump


@dataclass
class ViewOptions:
    """How the viewer starts (the command line's choices).

    Attributes:
        path: the .gltf / .glb to open.
        animation: clip index.
        speed: signed playback speed (× real time).
        paused: start paused rather than playing.
        time: start time in seconds.
        mode: interpolation mode.
        fps: frame rate of frame stepping and the ruler's frame numbers.
        screenshot_dir: where P saves PNGs and E saves GIFs.
        compare: modes of the compare panes (2–4); given, the viewer starts in compare view (C toggles).
        allow_outside_folder: files opened may name buffers and images outside their folder tree.
        camera: look through this glTF camera (index; a node must carry it) instead of the orbit camera.
        look: the View section's look to start with (``Look`` field → value; the command line's flags).
        variant: the KHR_materials_variants variant to start with (None: the file's own materials).
        against: a second file (B) held against this one: panes A | B and the divergence strip.
        against_clip, against_mode: B's clip (an index into B's clips) and mode, when not the clip matched with
            A's and A's mode (the Compare panel changes them).
    """

    path: Path
    animation: int = 0
    speed: float = 1.0
    paused: bool = False
    time: float = 0.0
    mode: str = "authored"
    fps: float = 30.0
    screenshot_dir: Path = Path(".")
    compare: tuple[str, ...] | None = None
    allow_outside_folder: bool = False
    camera: int | None = None
    look: dict = field(default_factory=dict)
    variant: int | None = None
    against: Path | None = None
    against_clip: int | None = None
    against_mode: str | None = None


class ViewerApp(InputMixin, FrameMixin, FilesMixin, mglw.WindowConfig):
    """The viewer on one window. Its parts: ``InputMixin`` (``on_*_event``, ``run_command``), ``FrameMixin``
    (the pose, drawing the 3D view, ``view_camera``, ``view_projection``), ``FilesMixin`` (``open``,
    ``frame_scene``, screenshots, ``export_range``); this class makes what they share and runs them in order."""

    gl_version = (3, 3)
    title = "animview"
    window_size = (1280, 720)
    aspect_ratio = None  # follow the window; moderngl-window's default letterboxes to 16:9
    resizable = True
    vsync = True
    samples = 0  # the 3D view is anti-aliased offscreen (render.view_canvas), the panels need none
    clear_color = None  # the renderer clears
    log_level = logging.WARNING

    def __init__(
        self,
        ctx: moderngl.Context,
        wnd,
        timer=None,
        options: ViewOptions | None = None,
        scene: Scene | None = None,
        against: Scene | None = None,
        **kwargs,
    ) -> None:
        super().__init__(ctx=ctx, wnd=wnd, timer=timer, **kwargs)
        if options is None:
            raise ValueError("ViewerApp needs ViewOptions (at least the file to open)")
        self.options = options
        self.quit_requested = False
        self.screenshots: list[Path] = []
        self.exports: list[Path] = []
        self.programs = ProgramCache(ctx)
        self.canvas = ViewCanvas(ctx, self.programs)
        self.shortcuts = keys.Shortcuts(wnd.keys)
        self.imgui_keys = imgui_keymap(wnd.keys)
        wnd.exit_key = None  # Esc is a shortcut here, so it can cancel an imgui text edit instead
        self.overlay = Overlay(ctx, wnd.size)
        self._drag: dict | None = None
        self._pointer = (0, 0)  # last pointer position, window pixels
        self._screenshot_pending = False
        self._released = False
        self.scene = scene if scene is not None else load(options.path, options.allow_outside_folder)
        fast.start()  # the compiled frame takes over from numpy when loaded; the window plays meanwhile
        self._make_gpu(self.scene)
        clock = Clock(speed=options.speed)
        self.state = ViewerState(self.scene, clock, options.animation, options.mode, options.fps, options.compare)
        self.state.display.look = Look(**options.look)
        self.state.display.variant = options.variant
        if against is None and options.against is not None:
            against = load(options.against, options.allow_outside_folder)
        self.state.set_against(against)
        if against is not None:
            self.state.set_pane_clip(1, options.against_clip)
            self.state.set_pane(1, options.against_mode)
        clock.seek(options.time)
        if not options.paused:
            clock.play()
        self.camera = OrbitCamera()
        self._gltf_cameras: dict[int, object] = {}
        self.state.view_camera = options.camera
        self._followed: tuple[int | None, np.ndarray | None] = (None, None)
        self._bounds_key = None
        self.frame_scene()
        self._panes_key = self._panes()

    # --- the frame ---------------------------------------------------------------------------------
    def on_render(self, time: float, frame_time: float) -> None:
        state = self.state
        self._run(self.shortcuts.flush())  # a "=" / "-" / "/" press that typed no character acts now
        state.clock.tick(min(max(frame_time, 0.0), MAX_FRAME_DT))
        state.note_frame(frame_time)
        self._pose_now()
        if state.display.overlay:
            self.overlay.frame(state, self.pose, frame_time)
            self._pose_now()  # the overlay may have seeked or changed clip or mode
        else:
            self.overlay.hide()
        if (id(state.scene), id(state.clip), state.mode) != self._bounds_key:
            self._fit_ground()  # a new clip or mode sweeps other bounds: the grid follows
        if self._panes() != self._panes_key:  # compare view on / off, or a pane more or less: refit
            self._panes_key = self._panes()
            self.frame_scene()
        self._draw_scene(self.wnd.fbo)
        if state.display.overlay:
            self.overlay.render()
        if self._screenshot_pending:
            self._save_screenshot()
        if state.requested:  # a button in the overlay asked for something only the window can do
            command, state.requested = state.requested, None
            self.run_command(command)
        title = state.title()
        if self.wnd.title != title:
            self.wnd.title = title

    # --- the window's life ---------------------------------------------------------------------------
    def on_resize(self, width: int, height: int) -> None:
        self.overlay.resize(*self.wnd.size)

    def on_close(self) -> None:
        self.release()

    def release(self) -> None:
        """Free every GL object the viewer made (idempotent; call while the context is current)."""
        if self._released:
            return
        self._released = True
        self.overlay.release()
        self.lines.release()
        self.compare_view.release()
        self.renderer.release()
        self.canvas.release()
        self.programs.release()
