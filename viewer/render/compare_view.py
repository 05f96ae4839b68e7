"""The window's compare view on the GPU side: a pose per pane, every mode's trail, one draw per frame.

The app hands it the area above the bar, the clip, the time and the modes (from ``ViewerState``); it poses
one ``Pose`` per mode, splits the area with ``compare.pane_rects`` and draws with ``render.panes``. Trails
are computed once per (clip, modes, followed node) — sampling the whole clip densely is the expensive part
and the result does not depend on the time — and reused every frame.
"""

from __future__ import annotations

from typing import Sequence

import moderngl
import numpy as np

from viewer.animation.clip import Clip
from viewer.compare import views as compare
from viewer.pose.pose import Pose
from viewer.render.overlay_lines import pick
from viewer.render.panes import Pane, render_panes
from viewer.render.renderer import Renderer, RenderOptions
from viewer.render.shaders import ProgramCache
from viewer.render.trails import TrailLines
from viewer.scene.scene import Scene


class CompareView:
    """Poses, trails and the trail buffer of one scene's compare panes."""

    def __init__(self, ctx: moderngl.Context, programs: ProgramCache, scene: Scene) -> None:
        self.scene = scene
        self.trail_lines = TrailLines(ctx, programs)
        self.poses: dict[str, Pose] = {}
        self._ghosts: dict[tuple[int, str], list[Pose]] = {}  # (clip, mode) → the pose at each key
        self._trails_key = None
        self._trails: list[compare.Trail] = []
        self.rects: list[compare.PixelRect] = []
        """Window rectangles (origin top-left) of the panes drawn last."""
        self.view_projections: list[np.ndarray] = []

    def pose(self, mode: str) -> Pose:
        if mode not in self.poses:
            self.poses[mode] = Pose(self.scene)
        return self.poses[mode]

    def trails(self, clip: Clip | None, modes: Sequence[str], node: int | None) -> list[compare.Trail]:
        """Every mode's trail of ``node``; None or a node the clip does not move: the few that move most."""
        if clip is None:
            return []
        animated = compare.animated_nodes(self.scene, clip)
        nodes = [node] if node is not None and node in animated else compare.moving_nodes(self.scene, clip)
        key = (clip.key, tuple(modes), None if nodes is None else node)
        if key != self._trails_key:
            self._trails = [compare.trail(self.scene, clip, m, nodes) for m in modes]
            self._trails_key = key
        return self._trails

    def draw(
        self,
        renderer: Renderer,
        camera,
        fbo: moderngl.Framebuffer,
        area: compare.PixelRect,
        window_height: int,
        clip: Clip | None,
        t: float,
        modes: Sequence[str],
        options: RenderOptions | None = None,
        trails: bool = True,
        node: int | None = None,
        ghosts: bool = False,
        in_place: bool = False,
    ) -> None:
        """Pose every pane at time ``t`` (seconds) and draw them into ``area`` (window pixels, top-left origin);
        ``in_place`` holds the motion root as ``Pose.set_time`` does (trails keep the authored path)."""
        x0, y0, w, h = area
        self.rects = [(x + x0, y + y0, pw, ph) for x, y, pw, ph in compare.pane_rects(len(modes), w, h)]
        panes = []
        for mode, rect in zip(modes, self.rects):
            pose = self.pose(mode)
            pose.set_time(clip, t, mode, in_place)
            panes.append(
                Pane(mode, pose, compare.gl_viewport(rect, window_height), self.ghosts(clip, mode) if ghosts else ())
            )
        shown = self.trails(clip, modes, node) if trails else []
        self.view_projections = render_panes(renderer, panes, camera, fbo, options, self.trail_lines, shown, t)

    def ghosts(self, clip: Clip | None, mode: str) -> list[Pose]:
        """The pose at every key time of ``clip`` in ``mode`` (built once: they do not depend on the time)."""
        if clip is None:
            return []
        key = (clip.key, mode)
        if key not in self._ghosts:
            self._ghosts = {k: v for k, v in self._ghosts.items() if k[0] == clip.key}
            self._ghosts[key] = compare.ghost_poses(self.scene, clip, mode)
        return self._ghosts[key]

    def pick(self, x: float, y: float, modes: Sequence[str]) -> int | None:
        """The node shown nearest window point (x, y) in the pane under it (as drawn last), or None."""
        for (px, py, pw, ph), mode, vp in zip(self.rects, modes, self.view_projections):
            if px <= x < px + pw and py <= y < py + ph:
                world = self.pose(mode).world
                return pick(world, np.arange(len(world)), vp, (pw, ph), x - px, y - py)
        return None

    def release(self) -> None:
        self.trail_lines.release()
