"""Frames of the viewer's own 3D view, for the window's export of its loop range (E).

The window already holds everything a frame needs — renderer, compare panes, lines, pose and the camera the
user set up — so this source borrows them and draws through ``render.scene_view`` into an offscreen target
of the view's size: the GIF shows what the window shows (panes, trails, skeleton, in-place motion), without
the overlay. It owns only its target; the window keeps the rest.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Callable

import moderngl
import numpy as np

from viewer.pose.pose import Pose
from viewer.render.antialias import choose_for
from viewer.render.compare_view import CompareView
from viewer.render.overlay_lines import OverlayLines
from viewer.render.renderer import Renderer
from viewer.render.scene_view import SceneView, draw_scene_view
from viewer.render.target import OffscreenTarget


class ViewFrames:
    """``frame(t)`` → (h, w, 3) uint8 of ``view`` at time ``t``, drawn with the window's objects.

    Args:
        size: (width, height) of the 3D view in pixels.
        view: what the window shows now; each frame replaces its time.
        pose_at: poses ``pose`` at a time (the window's rule: clip, mode, in place).
        samples: MSAA samples of the target, when the look's anti-aliasing picks MSAA.
    """

    def __init__(
        self,
        ctx: moderngl.Context,
        size: tuple[int, int],
        renderer: Renderer,
        panes: CompareView,
        lines: OverlayLines,
        pose: Pose,
        camera,
        view: SceneView,
        pose_at: Callable[[float], None],
        samples: int = 4,
    ) -> None:
        self.ctx, self.size = ctx, (int(size[0]), int(size[1]))
        self.renderer, self.panes, self.lines, self.pose, self.camera = renderer, panes, lines, pose, camera
        self.view, self.pose_at = view, pose_at
        samples, fxaa = choose_for(renderer.scene, view.display.look.aa, samples, self.size)
        self.target = OffscreenTarget(ctx, self.size, samples, fxaa, renderer.programs)

    def frame(self, t: float) -> np.ndarray:
        self.pose_at(t)
        w, h = self.size
        draw_scene_view(
            self.ctx,
            self.target.fbo,
            (0, 0, w, h),
            h,
            self.renderer,
            self.panes,
            self.lines,
            self.pose,
            self.camera,
            replace(self.view, t=float(t)),
        )
        return self.target.read(3)

    def release(self) -> None:
        self.target.release()
