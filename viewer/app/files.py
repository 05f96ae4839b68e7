"""The window's files: opening and reloading one (R, a dropped file), holding another against it (B), framing
what it holds (F), and writing screenshots (P) and the loop range as a GIF (E).

Kept apart from the frame because this is where the window meets the disk, and the disk's failures (a broken
file, a full folder, a bad path) must never stop the viewer: a file that fails to load leaves the current one
showing, a write that fails leaves the view as it was, and either says so in the bar. A new file is framed by
the same rule as F, so it opens fitted to its clip. A screenshot is read after the frame is drawn, so it holds
exactly what the window shows, panels included; the GIF is only the 3D view, drawn by the frame's own rules
(``ViewFrames`` with the window's pose rule, drawing objects, camera and view), so it matches the window
without its panels.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

from viewer.base.errors import GltfError
from viewer.export.offscreen import frame_times
from viewer.export.view_frames import ViewFrames
from viewer.export.writers import free_path, save_png, write_clip
from viewer.pose.bounds import clip_bounds
from viewer.pose.pose import Pose
from viewer.render.compare_view import CompareView
from viewer.render.overlay_lines import OverlayLines
from viewer.render.renderer import Renderer
from viewer.scene.scene import load

MAX_GIF_FRAMES = 900  # E refuses a longer range: 30 s at 30 fps, ~1 GB of frames held twice by the GIF writer


class FilesMixin:
    """``ViewerApp``'s files: they use the window's ``ctx``, ``wnd``, ``options``, ``programs``, ``state``,
    ``camera`` and the frame's rules (``view_camera``, ``_aspect``, ``_view_size``, ``_scene_view``,
    ``_scene_drawing``, ``_pose_at``); they make the file's ``scene``, ``renderer``, ``lines``, ``compare_view``
    and ``pose``, and list what they wrote in ``screenshots`` / ``exports``."""

    def _make_gpu(self, scene) -> None:
        self.renderer = Renderer(self.ctx, scene, self.programs)
        self.lines = OverlayLines(self.ctx, self.programs, scene)
        self.compare_view = CompareView(self.ctx, self.programs, scene)
        self.pose = Pose(scene)
        self._posed = None
        self._followed = (None, None)  # a new file: nothing followed yet (no jump from the old one's node)

    def _load(self, path: str | Path):
        """The scene of ``path``, or None with the error in the bar and on stderr."""
        try:
            return load(path, self.options.allow_outside_folder)
        except (GltfError, OSError) as exc:
            self.state.message = str(exc).replace("\n", " ")
            print(f"animview: {self.state.message}", file=sys.stderr)
            return None

    def open(self, path: str | Path, keep_view: bool = False) -> bool:
        """Load ``path`` in place of the current file (``keep_view``: a reload — same clip, time, camera).

        A file that fails to load leaves the current one showing and puts the error in the bar.
        """
        scene = self._load(path)
        if scene is None:
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

    def open_against(self, path: str | Path) -> bool:
        """Hold ``path`` against the current file (B in the right pane, the divergence strip under the ruler).

        A file that fails to load changes nothing and puts the error in the bar, as ``open`` does.
        """
        b = self._load(path)
        if b is None:
            return False
        self.state.set_against(b)
        self.state.message = f"against {Path(path).name}"
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
        path = free_path(
            self.options.screenshot_dir, f"animview-{self.scene.path.stem}-{self.state.clock.t:.3f}s", ".png"
        )
        save_png(path, rgb.reshape(h, w, 3)[::-1])
        self.screenshots.append(path)
        self.state.message = f"saved {path}"

    def export_range(self) -> Path | None:
        """Write the loop range (the whole clip when none is set) as a GIF of the 3D view, at the ruler's
        frame rate, next to the screenshots (E); the message line says where. Returns the file.

        Only the range's frames are posed and drawn, so two seconds of an hour-long take cost two seconds'
        frames; a range over ``MAX_GIF_FRAMES`` frames (the whole of a long take, with no range set) is refused
        with a message rather than filling the memory."""
        s = self.state
        if s.clip is None:
            s.message = "nothing to export: the file has no animation"
            return None
        lo, hi = s.clock.span
        count = len(frame_times(lo, hi, s.fps))
        if count > MAX_GIF_FRAMES:  # a GIF holds its frames in memory: an hour would be 100 000 of them
            s.message = (
                f"not exported: {lo:.3f}-{hi:.3f} s is {count} frames, a GIF takes at most {MAX_GIF_FRAMES}: "
                "set a loop range (I / O, or right click on the ruler)"
            )
            return None
        path = free_path(self.options.screenshot_dir, f"animview-{self.scene.path.stem}-{lo:.3f}-{hi:.3f}s", ".gif")
        source = ViewFrames(self._scene_drawing(), self._view_size(), self._scene_view(), self._pose_at)
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
