"""The 3D part of a viewer frame, composed once for the window and for exports.

What the window shows above its timeline bar — one pose, or one pane per source (interpolation modes, or two
files), with the skeleton and bounds lines — is drawn here (``SceneDrawing``) from plain settings, so ``app/frame.py``,
``export/overlay.py`` and ``export/view_frames.py`` compose the same picture through the same calls (the
overlay itself is drawn by each caller on top: ``render/`` knows no imgui).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

import moderngl

from viewer.animation.clip import Clip
from viewer.compare.against import PaneSource
from viewer.compare.matching import NodeMatch
from viewer.pose.pose import Pose
from viewer.render.compare_view import CompareView, PaneLook
from viewer.render.overlay_lines import OverlayLines
from viewer.render.renderer import Look, Renderer, RenderOptions


@dataclass
class Display:
    """Toggles of what is drawn (the window's keys flip them; ``ViewerState.display`` holds them), grouped by
    what they change: the 2D overlay, the 3D picture, the compare panes, the motion.

    Attributes:
        overlay: the timeline and panels (H).
        help: the key help window (?).
        channels: the dope sheet expanded into one row per channel.
        look: lights, environment, exposure and tone mapping (the View section's look).
        variant: the KHR_materials_variants variant the materials come from (None: the file's own; ``--variant``,
            the View section's chooser).
        grid: the ground grid (G).
        skeleton: joints and bones over the mesh (J).
        wireframe: meshes as lines (W).
        bounds: the posed scene's bounding box (B).
        compare: the view split into one pane per compared mode (C).
        trails: motion trails in the compare panes.
        ghosts: the mesh at every key time, faded, in the compare panes.
        overlay_b: in the against view, file B drawn translucent inside A's pane.
        in_place: the motion root's horizontal travel is held, so a walk stays on the spot (M).
        follow: the camera moves with the motion root, or the selected node (T).
    """

    overlay: bool = True
    help: bool = False
    channels: bool = False

    look: Look = field(default_factory=Look)
    variant: int | None = None
    grid: bool = True
    skeleton: bool = False
    wireframe: bool = False
    bounds: bool = False

    compare: bool = False
    trails: bool = True
    ghosts: bool = False
    overlay_b: bool = False

    in_place: bool = False
    follow: bool = False


@dataclass(frozen=True)
class SceneView:
    """What the 3D view shows this frame.

    Attributes:
        clip, t: the clip and its time (seconds); the pose ``SceneDrawing.draw`` draws is set for them.
        sources: the panes' sources (scene, clip, mode), drawn when ``display.compare`` is on.
        selected: the node trails follow and the lines mark (None: no marker, trails follow every node).
        display: the toggles (grid, skeleton, bounds, wireframe, compare, trails, ghosts).
        match, scale: two files' node pairs and the distance coloured red (``PaneLook``), in the against view.
    """

    clip: Clip | None
    t: float
    sources: Sequence[PaneSource] = ()
    selected: int | None = None
    display: Display = field(default_factory=Display)
    match: NodeMatch | None = None
    scale: float = 0.0


@dataclass(frozen=True)
class SceneDrawing:
    """The objects a 3D view is drawn with, on their context, and the pose and camera it shows: the window makes
    one from its own each frame, an export keeps one for all its frames.

    Attributes:
        camera: an ``OrbitCamera`` or a glTF camera (anything with ``matrices(pose, aspect)``).
    """

    ctx: moderngl.Context
    renderer: Renderer
    panes: CompareView
    lines: OverlayLines
    pose: Pose
    camera: Any

    def draw(
        self,
        fbo: moderngl.Framebuffer,
        viewport: tuple[int, int, int, int],
        window_height: int,
        view: SceneView,
        options: RenderOptions | None = None,
    ) -> None:
        """Draw ``view`` into ``viewport`` (GL, origin bottom-left) of ``fbo``; leaves the full viewport bound."""
        ctx, pose, camera = self.ctx, self.pose, self.camera
        full = fbo.viewport
        options = options or RenderOptions()
        d = view.display
        options = RenderOptions(**{**vars(options), "grid": d.grid, "look": d.look, "variant": d.variant})
        fbo.viewport = viewport
        ctx.wireframe = d.wireframe
        try:
            if d.compare and view.sources:  # one pane per source on one clock and camera; top-left origin
                x, y, w, h = viewport
                look = PaneLook(
                    d.trails, view.selected, d.ghosts, d.in_place, d.skeleton, d.overlay_b, view.match, view.scale
                )
                area = (x, window_height - y - h, w, h)
                self.panes.draw(self.renderer, camera, fbo, area, window_height, view.sources, view.t, options, look)
            else:
                self.renderer.render(pose, camera, fbo, options)
                ctx.wireframe = False
                view_matrix, proj = camera.matrices(pose, viewport[2] / max(viewport[3], 1))
                self.lines.draw(pose, proj @ view_matrix, d.skeleton, d.bounds, view.selected)
        finally:
            ctx.wireframe = False
            fbo.viewport = full
            fbo.use()
