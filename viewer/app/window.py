"""The viewer window: moderngl-window's ``WindowConfig`` wiring the clock, the pose, the renderer and the overlay.

One frame (``on_render``): the clock advances by the frame's real time, the pose is set for that time,
the overlay builds its UI (which may seek, switch clip or mode — the pose is then set again so the
picture never lags the playhead), the renderer draws the pose, the skeleton / bounds lines and the overlay
go on top; in compare view (C, ``--compare``) the 3D view is split into one pane per mode on the same
clock and camera (``render.compare_view``). Input: the overlay sees every event; keys and typed
characters run shortcuts (``keys.Shortcuts``: one action per press) unless an imgui text field is
typing; mouse buttons drive the camera (left orbit, right / middle pan, wheel zoom, click picks a node)
unless the pointer is on the overlay. The same object runs under a real window and moderngl-window's headless
one (tests call ``on_render`` and the ``on_*`` events with synthetic values).
"""
from __future__ import annotations

import logging
import math
import sys
import time as walltime
from dataclasses import dataclass, field
from pathlib import Path

import moderngl
import moderngl_window as mglw
import numpy as np

from viewer import fast
from viewer.playback.clock import Clock
from viewer.compare.views import pane_rects
from viewer.base.errors import GltfError
from viewer.export.view_frames import ViewFrames
from viewer.export.writers import free_path, save_png, write_clip
from viewer.pose.bounds import clip_bounds
from viewer.pose.pose import Pose
from viewer.render.camera import OrbitCamera, gltf_camera
from viewer.render.compare_view import CompareView
from viewer.render.scene_view import SceneView, draw_scene_view
from viewer.render.overlay_lines import OverlayLines, pick
from viewer.render.renderer import Look, Renderer, RenderOptions
from viewer.render.shaders import ProgramCache
from viewer.render.view_canvas import ViewCanvas
from viewer.scene.scene import Scene, load
from viewer.ui import keys
from viewer.ui.overlay import Overlay, imgui_keymap
from viewer.ui.state import ViewerState

MAX_FRAME_DT = 0.25  # seconds: after a stall (loading, a dragged window) play on, don't jump
ORBIT_RAD_PER_PX = 0.008
CLICK_SLOP_PX = 4  # a press and release closer than this is a click (pick), not a drag


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


class ViewerApp(mglw.WindowConfig):
    gl_version = (3, 3)
    title = "animview"
    window_size = (1280, 720)
    aspect_ratio = None  # follow the window; moderngl-window's default letterboxes to 16:9
    resizable = True
    vsync = True
    samples = 0  # the 3D view is anti-aliased offscreen (render.view_canvas), the panels need none
    clear_color = None  # the renderer clears
    log_level = logging.WARNING

    def __init__(self, ctx: moderngl.Context, wnd, timer=None, options: ViewOptions | None = None,
                 scene: Scene | None = None, **kwargs) -> None:
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

    def _pose_now(self) -> None:
        """Set the pose for the state's clip, time and mode, unless it already shows exactly that."""
        s = self.state
        key = (id(s.scene), id(s.clip), s.clock.t, s.mode, s.display.in_place)
        if key != getattr(self, "_posed", None):
            self._pose_at(s.clock.t)
            self._posed = key
            self._follow()

    def _pose_at(self, t: float) -> None:
        """The window's rule for a pose: the state's clip and mode at ``t``, held in place when asked (M)."""
        s = self.state
        started = walltime.perf_counter()
        self.pose.set_time(s.clip, t, s.mode, s.display.in_place)
        s.note_pose(walltime.perf_counter() - started)

    def _scene_view(self) -> SceneView:
        s = self.state
        return SceneView(s.clip, s.clock.t, s.compare_modes, s.selected_node, s.display)

    def _follow(self) -> None:
        """With follow on (T), move the camera's target by how far the followed node moved since the last
        pose: the selected node, else the clip's motion root. Orbit and zoom stay the user's."""
        s = self.state
        node = s.selected_node if s.selected_node is not None else (
            self.pose.motion_root(s.clip) if s.clip is not None else None)
        now = None if node is None else self.pose.world[node, :3, 3].copy()
        last, self._followed = self._followed, (node, now)
        if s.display.follow and now is not None and last[0] == node and np.isfinite(now - last[1]).all():
            self.camera.target = self.camera.target + (now - last[1])

    def _draw_scene(self, fbo: moderngl.Framebuffer) -> None:
        """The 3D picture in the part of ``fbo`` above the timeline bar (``render.scene_view``, as exports do)."""
        w, h = self.wnd.size
        viewport = self.overlay.layout.scene_viewport() if self.state.display.overlay else (0, 0, w, h)
        target = self.canvas.target_for(self.scene, self.state.display.look.aa, viewport[2:])
        tw, th = target.size
        draw_scene_view(self.ctx, target.fbo, (0, 0, tw, th), th, self.renderer, self.compare_view, self.lines,
                        self.pose, self.view_camera(), self._scene_view())
        fbo.use()
        fbo.clear(*RenderOptions().background, 1.0)  # what the panels blend over, outside the view
        target.present(fbo, (viewport[0], viewport[1], tw, th))
        self.state.aa_label = self.canvas.label

    def _view_size(self) -> tuple[int, int]:
        """Pixels the 3D view gets: the whole window, less the bar and the panel column when they show."""
        if self.state.display.overlay:
            _, _, w, h = self.overlay.layout.scene_viewport()
            return w, h
        return self.wnd.size

    def _panes(self) -> int:
        """Panes the 3D view is split into now (1 outside compare view)."""
        return len(self.state.compare_modes) if self.state.display.compare else 1

    def _aspect(self) -> float:
        """Width / height of (the first pane of) the 3D view: the camera is fitted to it."""
        view_w, view_h = self._view_size()
        _, _, w, h = pane_rects(self._panes(), view_w, max(view_h, 1))[0]
        return w / max(h, 1)

    def view_camera(self):
        """The camera the 3D view looks through: the file's camera chosen in the View section (``--camera``),
        else the orbit camera the mouse moves."""
        index = self.state.view_camera
        if index is None:
            return self.camera
        if index not in self._gltf_cameras:
            self._gltf_cameras[index] = gltf_camera(self.scene, index)
        return self._gltf_cameras[index]

    def _take_orbit_camera(self) -> None:
        """Orbiting, panning or zooming leaves the file's camera for the orbit camera, from where it stood."""
        if self.state.view_camera is not None:
            self.state.view_camera = None
            self.state.message = "orbit camera (the file's cameras are in the View section)"

    def view_projection(self) -> np.ndarray:
        """(4, 4) projection × view of the 3D view now (math convention)."""
        view, proj = self.view_camera().matrices(self.pose, self._aspect())
        return proj @ view

    # --- files --------------------------------------------------------------------------------------
    def _make_gpu(self, scene) -> None:
        self.renderer = Renderer(self.ctx, scene, self.programs)
        self.lines = OverlayLines(self.ctx, self.programs, scene)
        self.compare_view = CompareView(self.ctx, self.programs, scene)
        self.pose = Pose(scene)
        self._posed = None
        self._followed = (None, None)  # a new file: nothing followed yet (no jump from the old one's node)

    def open(self, path: str | Path, keep_view: bool = False) -> bool:
        """Load ``path`` in place of the current file (``keep_view``: a reload — same clip, time, camera).

        A file that fails to load leaves the current one showing and puts the error in the bar.
        """
        try:
            scene = load(path, self.options.allow_outside_folder)
        except (GltfError, OSError) as exc:
            self.state.message = str(exc).replace("\n", " ")
            print(f"animview: {self.state.message}", file=sys.stderr)
            return False
        self.renderer.release()
        self.lines.release()
        self.compare_view.release()
        self.scene = scene
        self._gltf_cameras = {}
        self._make_gpu(scene)
        self.state.set_scene(scene, keep=keep_view)
        self.state.message = f"{'reloaded' if keep_view else 'opened'} {Path(path).name}"
        self._bounds_key = None
        if not keep_view:
            self.frame_scene()
        return True

    def frame_scene(self) -> None:
        """Fit the camera to the whole clip's bounds (F)."""
        lo, hi = self._fit_ground()
        self.camera.fit(lo, hi, self._aspect())

    def _fit_ground(self) -> tuple[np.ndarray, np.ndarray]:
        s = self.state
        lo, hi = clip_bounds(s.scene, s.clip, mode=s.mode)
        self.renderer.set_ground(lo, hi)
        self._bounds_key = (id(s.scene), id(s.clip), s.mode)
        return lo, hi

    def _save_screenshot(self) -> None:
        self._screenshot_pending = False
        fbo = self.wnd.fbo
        w, h = fbo.size
        rgb = np.frombuffer(fbo.read(viewport=(0, 0, w, h), components=3, alignment=1), np.uint8)
        path = free_path(self.options.screenshot_dir, f"animview-{self.scene.path.stem}-{self.state.clock.t:.3f}s",
                         ".png")
        save_png(path, rgb.reshape(h, w, 3)[::-1])
        self.screenshots.append(path)
        self.state.message = f"saved {path}"

    def export_range(self) -> Path | None:
        """Write the loop range (the whole clip when none is set) as a GIF of the 3D view, at the ruler's
        frame rate, next to the screenshots (E); the message line says where. Returns the file."""
        s = self.state
        if s.clip is None:
            s.message = "nothing to export: the file has no animation"
            return None
        lo, hi = s.clock.span
        path = free_path(self.options.screenshot_dir, f"animview-{self.scene.path.stem}-{lo:.3f}-{hi:.3f}s", ".gif")
        source = ViewFrames(self.ctx, self._view_size(), self.renderer, self.compare_view, self.lines, self.pose,
                            self.view_camera(), self._scene_view(), self._pose_at)
        try:
            count = write_clip(source, path, lo, hi, s.fps)
        except (OSError, ValueError) as exc:
            s.message = f"export failed: {exc}"
            return None
        finally:
            self._posed = None  # the pose went through the range: set it for the playhead again
            self.wnd.fbo.use()
        self.exports.append(path)
        s.message = f"saved {path} ({count} frames, {lo:.3f}-{hi:.3f} s)"
        return path

    # --- events -------------------------------------------------------------------------------------
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
            return self.compare_view.pick(x, y, self.state.compare_modes)
        size = self._view_size()
        return pick(self.pose.world, np.arange(len(self.scene.nodes)), self.view_projection(), size, x, y)

    def on_mouse_scroll_event(self, x_offset: float, y_offset: float) -> None:
        if self.state.display.overlay and self.overlay.captures_mouse(*self._pointer):
            self.overlay.scroll(x_offset, y_offset)
        else:
            self._take_orbit_camera()
            self.camera.zoom(0.9 ** y_offset)

    def on_files_dropped_event(self, x: int, y: int, paths: list) -> None:
        if paths:
            self.open(paths[0])

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

