"""Several poses drawn side by side into one framebuffer: the panes of the compare and against views.

Each pane is a viewport *and* a scissor rectangle: ``Renderer.render`` clears its framebuffer, and GL's
clear ignores the viewport but honours the scissor, so without the scissor each pane would wipe the
ones drawn before it. All panes share one camera (the linked view); each keeps its own aspect ratio. A pane
brings its own renderer, since two files' panes draw two scenes' GPU resources.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import moderngl
import numpy as np

from viewer.compare.views import PixelRect, Trail
from viewer.pose.pose import Pose
from viewer.render.overlay_lines import OverlayLines
from viewer.render.renderer import Renderer, RenderOptions
from viewer.render.trails import TrailLines

GHOST_OPACITY = 0.25
OVERLAY_OPACITY = 0.45  # the other file drawn inside a pane: fainter than the pane's own mesh, clearer than ghosts


@dataclass
class Pane:
    """One pane: its label (``Trail.owner`` of its trails), its pose (already set for the frame's time), its
    GL viewport (origin bottom-left) and the renderer of its scene.

    Attributes:
        ghosts: the mesh at other times (each key), drawn faded over the pane.
        overlay: another pane's renderer and pose drawn translucent inside this one (B over A).
        lines: the skeleton drawn over the pane when given; ``joint_rgb`` (N, 3) colours its joints and
            ``marker_rgb`` (K, 3) its trail markers (the error now, in the against view).
    """

    label: str
    pose: Pose
    viewport: PixelRect
    renderer: Renderer
    ghosts: Sequence[Pose] = ()
    overlay: tuple[Renderer, Pose] | None = None
    lines: OverlayLines | None = None
    joint_rgb: np.ndarray | None = None
    marker_rgb: np.ndarray | None = None
    selected: int | None = None  # this pane's node marked on its skeleton (its own scene's index)


def render_panes(
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
            pane.renderer.render(pane.pose, camera, fbo, options)
            for ghost in pane.ghosts:
                pane.renderer.render_ghost(ghost, camera, fbo, GHOST_OPACITY, options)
            if pane.overlay is not None:
                pane.overlay[0].render_ghost(pane.overlay[1], camera, fbo, OVERLAY_OPACITY, options)
            view, proj = camera.matrices(pane.pose, pane.viewport[2] / max(pane.viewport[3], 1))
            out.append(proj @ view)
            if trail_lines is not None and trails:
                trail_lines.draw(trails, pane.label, t, out[-1], pane.marker_rgb)
            if pane.lines is not None:
                pane.lines.draw(pane.pose, out[-1], True, False, pane.selected, pane.joint_rgb)
    finally:
        fbo.scissor = None
        fbo.viewport = full
        fbo.use()
    return out
