"""Several poses of one scene drawn side by side into one framebuffer: the panes of the compare view.

Each pane is a viewport *and* a scissor rectangle: ``Renderer.render`` clears its framebuffer, and GL's
clear ignores the viewport but honours the scissor, so without the scissor each pane would wipe the
ones drawn before it. All panes share one camera (the linked view); each keeps its own aspect ratio.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import moderngl
import numpy as np

from viewer.compare.views import PixelRect, Trail
from viewer.pose.pose import Pose
from viewer.render.renderer import Renderer, RenderOptions
from viewer.render.trails import TrailLines

GHOST_OPACITY = 0.25


@dataclass
class Pane:
    """One pane: its mode, its pose (already set for the frame's time) and its GL viewport (origin bottom-left)."""

    mode: str
    pose: Pose
    viewport: PixelRect
    ghosts: Sequence[Pose] = ()  # the mesh at other times (each key), drawn faded over the pane


def render_panes(
    renderer: Renderer,
    panes: Sequence[Pane],
    camera,
    fbo: moderngl.Framebuffer,
    options: RenderOptions | None = None,
    trail_lines: TrailLines | None = None,
    trails: Sequence[Trail] = (),
    t: float = 0.0,
) -> list[np.ndarray]:
    """Draw every pane into its rectangle of ``fbo`` (with ``trails`` on top when given).

    Returns:
        The (4, 4) projection × view of each pane (for picking and tests).
    """
    full = fbo.viewport
    out = []
    try:
        for pane in panes:
            fbo.viewport = pane.viewport
            fbo.scissor = pane.viewport
            renderer.render(pane.pose, camera, fbo, options)
            for ghost in pane.ghosts:
                renderer.render_ghost(ghost, camera, fbo, GHOST_OPACITY, options)
            view, proj = camera.matrices(pane.pose, pane.viewport[2] / max(pane.viewport[3], 1))
            out.append(proj @ view)
            if trail_lines is not None and trails:
                trail_lines.draw(trails, pane.mode, t, out[-1])
    finally:
        fbo.scissor = None
        fbo.viewport = full
        fbo.use()
    return out
