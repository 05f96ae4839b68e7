"""Frames of the viewer's own 3D view, for the window's export of its loop range (E).

The window already holds everything a frame needs — renderer, compare panes, lines, pose and the camera the
user set up — so this source borrows them and draws through ``render.scene_view`` into an offscreen target
of the view's size: the GIF shows what the window shows (panes, trails, skeleton, in-place motion), without
the overlay. It owns only its target; the window keeps the rest.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Callable

import numpy as np

from viewer.render.antialias import choose_for
from viewer.render.scene_view import SceneDrawing, SceneView
from viewer.render.target import OffscreenTarget


class ViewFrames:
    """``frame(t)`` → (h, w, 3) uint8 of ``view`` at time ``t``, drawn with the window's objects.

    Args:
        drawing: the window's renderer, panes, lines, pose and camera.
        size: (width, height) of the 3D view in pixels.
        view: what the window shows now; each frame replaces its time.
        pose_at: poses ``drawing.pose`` at a time (the window's rule: clip, mode, in place).
        samples: MSAA samples of the target, when the look's anti-aliasing picks MSAA.
    """

    def __init__(
        self,
        drawing: SceneDrawing,
        size: tuple[int, int],
        view: SceneView,
        pose_at: Callable[[float], None],
        samples: int = 4,
    ) -> None:
        self.drawing, self.size = drawing, (int(size[0]), int(size[1]))
        self.view, self.pose_at = view, pose_at
        samples, fxaa = choose_for(drawing.renderer.scene, view.display.look.aa, samples, self.size)
        self.target = OffscreenTarget(drawing.ctx, self.size, samples, fxaa, drawing.renderer.programs)

    def frame(self, t: float) -> np.ndarray:
        self.pose_at(t)
        w, h = self.size
        self.drawing.draw(self.target.fbo, (0, 0, w, h), h, replace(self.view, t=float(t)))
        return self.target.read(3)

    def release(self) -> None:
        self.target.release()
