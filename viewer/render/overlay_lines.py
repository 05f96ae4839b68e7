"""Lines drawn over the picture: the skeleton (joints and bones), the posed bounds box, the selected node.

Uses ``shaders/lines.glsl`` (the grid's program) with depth testing off, so joints inside a mesh stay
visible. What the skeleton is: with skins, every skin's joints, and a bone from each joint to its parent
when the parent is a joint too; without skins, every node and its parent link (so rigid animations show
their hierarchy). The geometry is plain numpy (``skeleton_points``, ``box_edges``, ``pick``) and tested
without a GPU; one dynamic buffer per scene holds it, rewritten each frame. Nodes whose position is
not float32-finite (a hostile file's 1e300 translation) are left out, and so is a bounds box beyond
float32, so no inf or NaN reaches the line buffer.
"""

from __future__ import annotations

import moderngl
import numpy as np

from viewer.base import math3d
from viewer.pose.bounds import pose_bounds
from viewer.pose.pose import Pose
from viewer.render.limits import fits_f32
from viewer.render.shaders import ProgramCache
from viewer.scene.scene import Scene

LINES_SHADER = "lines.glsl"
BONE_COLOR = (0.35, 0.85, 1.0, 1.0)
JOINT_COLOR = (1.0, 0.92, 0.35, 1.0)
SELECTED_COLOR = (1.0, 0.3, 0.85, 1.0)
BOUNDS_COLOR = (1.0, 0.62, 0.2, 1.0)
JOINT_PX = 6.0
SELECTED_PX = 11.0
PICK_PX = 12.0  # a click this close to a node's screen position selects it
FLOATS = 7  # x, y, z, r, g, b, a


def skeleton_nodes(scene: Scene) -> tuple[np.ndarray, np.ndarray]:
    """(points, bones): node indices drawn as joints (P,) and (B, 2) [child, parent] node pairs."""
    nodes = scene.nodes
    if scene.skins:
        points = np.unique(np.concatenate([s.joints for s in scene.skins]))
    else:
        points = np.arange(len(nodes))
    member = np.zeros(len(nodes), dtype=bool)
    member[points] = True
    parents = nodes.parent[points]
    has_parent = parents >= 0
    has_parent[has_parent] = member[parents[has_parent]]
    bones = np.stack([points[has_parent], parents[has_parent]], axis=1) if len(points) else np.zeros((0, 2), int)
    return points, bones.astype(np.int64)


def box_edges(lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """(24, 3) endpoints of the 12 edges of the axis-aligned box [lo, hi]."""
    c = np.array([[x, y, z] for x in (lo[0], hi[0]) for y in (lo[1], hi[1]) for z in (lo[2], hi[2])], dtype=np.float64)
    pairs = [(0, 1), (2, 3), (4, 5), (6, 7), (0, 2), (1, 3), (4, 6), (5, 7), (0, 4), (1, 5), (2, 6), (3, 7)]
    return c[np.array(pairs).reshape(-1)]


def to_window(points: np.ndarray, view_proj: np.ndarray, size: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
    """Window pixel positions (N, 2) (origin top-left, y down) of world points (N, 3), and (N,) in-front flags."""
    clip = np.c_[np.asarray(points, np.float64), np.ones(len(points))] @ view_proj.T
    w = clip[:, 3]
    front = w > 1e-9
    ndc = clip[:, :2] / np.where(front, w, 1.0)[:, None]
    x = (ndc[:, 0] * 0.5 + 0.5) * size[0]
    y = (0.5 - ndc[:, 1] * 0.5) * size[1]
    return np.stack([x, y], axis=1), front


def pick(
    world: np.ndarray,
    candidates: np.ndarray,
    view_proj: np.ndarray,
    size: tuple[int, int],
    x: float,
    y: float,
    radius_px: float = PICK_PX,
) -> int | None:
    """The candidate node whose origin appears nearest window point (x, y), within ``radius_px``; else None.

    Args:
        world: (N, 4, 4) world matrices (math convention) of the posed scene.
        candidates: node indices that may be picked.
        view_proj: (4, 4) projection × view.
        size: (width, height) of the view in pixels.
    """
    if not len(candidates):
        return None
    with np.errstate(over="ignore", invalid="ignore"):  # a node at 1e300: inf / NaN, never picked
        screen, front = to_window(world[candidates, :3, 3], view_proj, size)
        d = np.hypot(screen[:, 0] - x, screen[:, 1] - y)
    d[~front | ~np.isfinite(d)] = np.inf
    best = int(np.argmin(d))
    return int(candidates[best]) if d[best] <= radius_px else None


def _rows(points: np.ndarray, color: tuple[float, float, float, float]) -> np.ndarray:
    out = np.empty((len(points), FLOATS), dtype=np.float32)
    out[:, :3] = points
    out[:, 3:] = color
    return out


class OverlayLines:
    """GPU side: one vertex buffer sized for the scene's worst case, drawn as LINES then POINTS."""

    def __init__(self, ctx: moderngl.Context, programs: ProgramCache, scene: Scene) -> None:
        self.ctx = ctx
        self.program = programs.get(LINES_SHADER)
        self.points, self.bones = skeleton_nodes(scene)
        capacity = 2 * len(self.bones) + 24 + len(self.points) + 1
        self.buffer = ctx.buffer(reserve=capacity * FLOATS * 4, dynamic=True)
        self.vao = ctx.vertex_array(self.program, [(self.buffer, "3f 4f", "in_position", "in_color")])

    def draw(
        self,
        pose: Pose,
        view_proj: np.ndarray,
        skeleton: bool,
        bounds: bool,
        selected: int | None,
        joint_rgb: np.ndarray | None = None,
    ) -> None:
        """Draw the chosen parts over whatever the bound framebuffer holds; ``joint_rgb`` (N, 3) colours each
        node's joint (the against view's error now), else every joint is ``JOINT_COLOR``."""
        pos = pose.world[:, :3, 3]
        ok = fits_f32(pos)
        lines, points = [], []
        if skeleton and len(self.bones):
            bones = self.bones[ok[self.bones].all(axis=1)]
            lines.append(_rows(pos[bones.reshape(-1)], BONE_COLOR))
        if bounds:
            with np.errstate(over="ignore", invalid="ignore"):
                edges = box_edges(*pose_bounds(pose))
            if fits_f32(edges).all():
                lines.append(_rows(edges, BOUNDS_COLOR))
        if skeleton:
            shown = self.points[ok[self.points]]
            points.append(_rows(pos[shown], JOINT_COLOR))
            if joint_rgb is not None:
                points[-1][:, 3:6] = joint_rgb[shown]
        n_lines = sum(len(a) for a in lines)
        n_points = sum(len(a) for a in points)
        has_selected = selected is not None and 0 <= selected < len(pos) and bool(ok[selected])
        if not (n_lines or n_points or has_selected):
            return
        parts = lines + points + ([_rows(pos[[selected]], SELECTED_COLOR)] if has_selected else [])
        self.buffer.write(np.concatenate(parts).tobytes())
        self.ctx.enable_only(moderngl.BLEND)
        self.program["u_mvp"].write(math3d.to_gl(view_proj))
        if n_lines:
            self.vao.render(moderngl.LINES, vertices=n_lines)
        if n_points:
            self.ctx.point_size = JOINT_PX
            self.vao.render(moderngl.POINTS, vertices=n_points, first=n_lines)
        if has_selected:
            self.ctx.point_size = SELECTED_PX
            self.vao.render(moderngl.POINTS, vertices=1, first=n_lines + n_points)

    def release(self) -> None:
        self.vao.release()
        self.buffer.release()
