"""The window's compare and against views on the GPU side: a pose per pane, every pane's trail, one draw per frame.

The app hands it the area above the bar, the time and the panes' sources (``compare.against.PaneSource``:
scene, clip, mode, and an engine's clock — from ``ViewerState``); it poses one ``Pose`` per pane, splits the area with
``compare.pane_rects`` and draws with ``render.panes``. A pane of another file gets that file's renderer, made
here on first use and released when no pane shows the file any more. Trails are computed once per (sources,
followed node) — sampling the whole clip densely is the expensive part and the result does not depend on the
time — and reused every frame. With two files' node pairs (``PaneLook.match``) each pane's joints and trail
markers take the colour of the distance to their partner now, on the divergence strip's scale.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Sequence

import moderngl
import numpy as np

from viewer.animation.clip import Clip
from viewer.compare import views as compare
from viewer.compare.against import PaneSource, error_colors, node_errors
from viewer.compare.matching import NodeMatch
from viewer.pose.pose import Pose
from viewer.render.overlay_lines import OverlayLines, pick
from viewer.render.panes import Pane, render_panes
from viewer.render.renderer import Renderer, RenderOptions
from viewer.render.shaders import ProgramCache
from viewer.render.trails import TrailLines
from viewer.scene.scene import Scene


@dataclass(frozen=True)
class PaneLook:
    """What the panes show besides the poses.

    Attributes:
        trails: motion trails of ``node`` (None: the few that move most), key dots and a marker at the time.
        node: the selected node, by the first pane's scene's index.
        ghosts: the mesh at every key time, faded.
        in_place: the motion root held (``Pose.set_time``); trails keep the authored path.
        skeleton: joints and bones over each pane.
        overlay: the second pane's pose drawn translucent inside the first (B over A).
        match: node pairs of the first two panes' files: joints and markers coloured by their distance now.
        scale: the distance coloured red (the divergence strip's top); 0 colours every distance green.
    """

    trails: bool = True
    node: int | None = None
    ghosts: bool = False
    in_place: bool = False
    skeleton: bool = False
    overlay: bool = False
    match: NodeMatch | None = None
    scale: float = 0.0


class CompareView:
    """Poses, trails, the trail buffer and the other files' renderers of the panes."""

    def __init__(self, ctx: moderngl.Context, programs: ProgramCache, scene: Scene) -> None:
        self.ctx, self.programs, self.scene = ctx, programs, scene
        self.trail_lines = TrailLines(ctx, programs)
        self.poses: list[Pose] = []
        """The panes' poses as drawn last, in pane order."""
        self.sources: list[PaneSource] = []
        """The panes' sources as drawn last."""
        self.errors: list[np.ndarray] = []
        """Per pane, the distance of each of its nodes to its partner as drawn last (two files; else empty)."""
        self._renderers: dict[int, Renderer] = {}  # id(scene) → renderer, for scenes other than the window's
        self._lines: dict[int, OverlayLines] = {}  # id(scene) → the panes' skeleton lines
        self._ghosts: dict[tuple[int, object, str], list[Pose]] = {}  # (scene, clip, mode) → the pose at each key
        self._trails_key = None
        self._trails: list[compare.Trail] = []
        self._look = PaneLook()
        self.rects: list[compare.PixelRect] = []
        """Window rectangles (origin top-left) of the panes drawn last."""
        self.view_projections: list[np.ndarray] = []

    def pose(self, mode: str) -> Pose:
        """The pose of the (first) pane of this file in ``mode`` as drawn last."""
        for src, pose in zip(self.sources, self.poses):
            if src.scene is self.scene and src.mode == mode:
                return pose
        raise KeyError(f"no pane shows {mode!r}")

    def renderer_for(self, scene: Scene, main: Renderer) -> Renderer:
        """``main`` for the window's own scene; another file's renderer (made once) on ``main``'s ground."""
        if scene is main.scene:
            return main
        r = self._renderers.get(id(scene))
        if r is None:
            r = self._renderers[id(scene)] = Renderer(self.ctx, scene, self.programs)
        if main.ground is not None and r.ground is not main.ground:
            r.set_ground(*main.ground)
            r.ground = main.ground
        return r

    def _pane_poses(self, sources: Sequence[PaneSource], t: float, in_place: bool) -> list[Pose]:
        """One pose per pane (kept while the pane shows the same scene), set for time ``t``."""
        poses = [p if i < len(sources) and p.scene is sources[i].scene else None for i, p in enumerate(self.poses)]
        poses = (poses + [None] * len(sources))[: len(sources)]
        out = []
        for src, pose in zip(sources, poses):
            pose = pose or Pose(src.scene)
            pose.set_time(src.clip, src.time(t), src.mode, in_place)  # an engine's pane: its player's time
            out.append(pose)
        return out

    def _node_in(self, pane: int, node: int | None) -> int | None:
        """A node of the first pane's scene as pane ``pane`` indexes it (its partner in another file)."""
        if node is None or pane == 0 or self.sources[pane].scene is self.sources[0].scene:
            return node
        match = self._look.match
        return match.partner().get(node) if match is not None else None

    def trails(self, sources: Sequence[PaneSource], node: int | None) -> list[compare.Trail]:
        """Every pane's trail of ``node``; None or a node the first pane's clip does not move: the few that move
        most. Another file's pane follows the partners of those nodes."""
        first = sources[0] if sources else None
        if first is None or first.clip is None:
            return []
        animated = compare.animated_nodes(first.scene, first.clip)
        nodes = [node] if node is not None and node in animated else compare.moving_nodes(first.scene, first.clip)
        key = (tuple((id(s.scene), s.clip.key if s.clip else None, s.mode, s.label) for s in sources), node)
        if key != self._trails_key:
            self._trails = []
            for i, src in enumerate(sources):
                mine = [n for n in (self._node_in(i, int(k)) for k in nodes) if n is not None]
                if src.clip is not None and mine:
                    played = src.time if src.engine is not None else None
                    tr = compare.trail(src.scene, src.clip, src.mode, mine, played=played, keys=src.keys)
                    self._trails.append(replace(tr, label=src.label, rgb=src.color))
            self._trails_key = key
        return self._trails

    def draw(
        self,
        renderer: Renderer,
        camera,
        fbo: moderngl.Framebuffer,
        area: compare.PixelRect,
        window_height: int,
        sources: Sequence[PaneSource],
        t: float,
        options: RenderOptions | None = None,
        look: PaneLook | None = None,
    ) -> None:
        """Pose every pane at time ``t`` (seconds) and draw them into ``area`` (window pixels, top-left origin)."""
        look = look or PaneLook()
        x0, y0, w, h = area
        self.rects = [(x + x0, y + y0, pw, ph) for x, y, pw, ph in compare.pane_rects(len(sources), w, h)]
        self.sources, self._look = list(sources), look
        self.poses = self._pane_poses(sources, t, look.in_place)
        paired = look.match is not None and len(sources) == 2  # B may be A's own scene, another clip or mode
        self.errors = list(node_errors(self.poses[0].world, self.poses[1].world, look.match)) if paired else []
        shown = self.trails(sources, look.node) if look.trails else []
        panes = []
        for i, (src, rect, pose) in enumerate(zip(sources, self.rects, self.poses)):
            r = self.renderer_for(src.scene, renderer)
            pane = Pane(
                src.label, pose, compare.gl_viewport(rect, window_height), r, selected=self._node_in(i, look.node)
            )
            if look.ghosts:
                pane.ghosts = self.ghosts(src.clip, src.mode, src.scene)
            if look.overlay and i == 0 and len(sources) > 1:
                pane.overlay = (self.renderer_for(sources[1].scene, renderer), self.poses[1])
            if look.skeleton:
                pane.lines = self._lines_for(src.scene)
            if self.errors:
                pane.joint_rgb = error_colors(self.errors[i], look.scale)
                own = [tr for tr in shown if tr.owner == src.label]
                pane.marker_rgb = error_colors(self.errors[i][own[0].nodes], look.scale) if own else None
            panes.append(pane)
        self.view_projections = render_panes(panes, camera, fbo, options, self.trail_lines, shown, t)
        self._keep({id(s.scene) for s in sources})

    def _lines_for(self, scene: Scene) -> OverlayLines:
        if id(scene) not in self._lines:
            self._lines[id(scene)] = OverlayLines(self.ctx, self.programs, scene)
        return self._lines[id(scene)]

    def _keep(self, scenes: set[int]) -> None:
        """Release the renderers and lines of files no pane shows any more (another B was opened)."""
        for cache in (self._renderers, self._lines):
            for key in [k for k in cache if k not in scenes]:
                cache.pop(key).release()

    def ghosts(self, clip: Clip | None, mode: str, scene: Scene | None = None) -> list[Pose]:
        """The pose at every key time of ``clip`` of ``scene`` (default: the window's) in ``mode`` (built once:
        they do not depend on the time)."""
        if clip is None:
            return []
        scene = scene or self.scene
        key = (id(scene), clip.key, mode)
        if key not in self._ghosts:
            self._ghosts = {k: v for k, v in self._ghosts.items() if k[:2] == key[:2] or k[0] != key[0]}
            self._ghosts[key] = compare.ghost_poses(scene, clip, mode)
        return self._ghosts[key]

    def pick(self, x: float, y: float) -> int | None:
        """The node shown nearest window point (x, y) in the pane under it (as drawn last), by the first pane's
        scene's index (a node of another file: its partner's; None when it has none)."""
        for i, ((px, py, pw, ph), pose, vp) in enumerate(zip(self.rects, self.poses, self.view_projections)):
            if px <= x < px + pw and py <= y < py + ph:
                node = pick(pose.world, np.arange(len(pose.world)), vp, (pw, ph), x - px, y - py)
                if node is None or i == 0 or self.sources[i].scene is self.sources[0].scene:
                    return node
                back = {b: a for a, b in self._look.match.partner().items()} if self._look.match else {}
                return back.get(node)
        return None

    def release(self) -> None:
        self.trail_lines.release()
        self._keep(set())
