"""One frame's work for the window: the pose at a time, the followed camera, the 3D view drawn, and the
camera it is seen through.

Kept apart from the window's wiring because these are the rules a picture is made by, and the GIF export
(``files``) and picking (``input``) must use the very same ones: the same pose rule (``_pose_at``), the same
view (``_scene_view``), the same drawing objects and camera (``_scene_drawing``), the same aspect, or an
exported frame or a clicked node would not match what the window shows. The 3D view is drawn as exports draw
it (``render.scene_view``); in compare view it is split into one pane per mode — or A | B, held against
another file — on the same clock and camera, and the camera is fitted to the first pane.
"""

from __future__ import annotations

import time as walltime

import moderngl
import numpy as np

from viewer.compare.views import pane_rects
from viewer.render.camera import gltf_camera
from viewer.render.renderer import RenderOptions
from viewer.render.scene_view import SceneDrawing, SceneView


class FrameMixin:
    """``ViewerApp``'s frame: it uses the window's ``ctx``, ``wnd``, ``state``, ``overlay``, ``canvas``,
    ``scene``, ``pose``, ``renderer``, ``compare_view``, ``lines``, ``camera`` and ``_gltf_cameras``, and keeps
    ``_posed`` (the pose shown) and ``_followed`` (the node followed, where it was)."""

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
        if s.against is None:
            return SceneView(s.clip, s.clock.t, s.pane_sources(), s.selected_node, s.display)
        divergence = s.divergence()
        scale = divergence.node_scale if divergence is not None else 0.0
        return SceneView(s.clip, s.clock.t, s.pane_sources(), s.selected_node, s.display, s.against.match, scale)

    def _scene_drawing(self) -> SceneDrawing:
        """What the 3D view is drawn with now: the file's renderer, panes and lines, the pose and ``view_camera``."""
        return SceneDrawing(self.ctx, self.renderer, self.compare_view, self.lines, self.pose, self.view_camera())

    def _follow(self) -> None:
        """With follow on (T), move the camera's target by how far the followed node moved since the last
        pose: the selected node, else the clip's motion root. Orbit and zoom stay the user's."""
        s = self.state
        node = (
            s.selected_node
            if s.selected_node is not None
            else (self.pose.motion_root(s.clip) if s.clip is not None else None)
        )
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
        self._scene_drawing().draw(target.fbo, (0, 0, tw, th), th, self._scene_view())
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
        """Panes the 3D view is split into now (1 outside compare view; A | B against another file)."""
        if not self.state.display.compare:
            return 1
        return 2 if self.state.against is not None else len(self.state.compare_modes)

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

    def view_projection(self) -> np.ndarray:
        """(4, 4) projection × view of the 3D view now (math convention)."""
        view, proj = self.view_camera().matrices(self.pose, self._aspect())
        return proj @ view
