"""Ground grid and axis gizmo: coloured line lists drawn with ``shaders/lines.glsl``.

The grid lies under the scene (at the lowest point of the bounds it is given), its spacing a round
number (1, 2 or 5 × 10^k scene units) at most half the bounds' radius, its lines on multiples of
the spacing so they stay put while the model moves; the world X and Z axes are drawn red and blue
where they cross it. The gizmo shows the world axes (X red, Y green, Z blue) as the camera sees them, in
a small square in the lower-left corner. Colours are sRGB, written as they are.
"""

from __future__ import annotations

import math

import moderngl
import numpy as np

from viewer.base import math3d
from viewer.render.limits import MAX_EXTENT, view_bounds
from viewer.render.shaders import ProgramCache

LINES_SHADER = "lines.glsl"
GRID_COLOR = (0.26, 0.27, 0.30, 1.0)
MAJOR_COLOR = (0.34, 0.35, 0.38, 1.0)
AXIS_COLORS = ((0.86, 0.26, 0.24, 1.0), (0.40, 0.78, 0.28, 1.0), (0.26, 0.46, 0.92, 1.0))
GRID_REACH = 2.5  # grid half-width, in bounds radii
GIZMO_FRACTION = 0.14  # gizmo square side, fraction of the smaller viewport side


def nice_spacing(length: float) -> float:
    """The 1-2-5 × 10^k number nearest below ``length`` (> 0); lengths outside [1e-300, 1e300] (or NaN)
    are clamped first, so the answer is always a positive finite number."""
    length = min(max(float(length), 1e-300), 1e300) if length == length else 1.0
    k = math.floor(math.log10(length))
    base = 10.0**k
    for m in (5.0, 2.0, 1.0):
        if m * base <= length:
            return m * base
    return base


def grid_lines(lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """(2·L, 7) float32 line vertices (x, y, z, r, g, b, a) of the ground grid under [lo, hi].

    Any bounds are accepted (``limits.view_bounds``: huge, tiny, zero-size, non-finite); line positions
    are computed in floats, so a centre 1e26 spacings from the origin cannot overflow an integer.
    """
    center, _, radius = view_bounds(lo, hi)
    step = nice_spacing(radius / 2.0)
    cells = math.ceil(GRID_REACH * radius / step)  # radius / step is in [2, 10]: at most 25 cells
    cx, cz = np.round(center[0] / step), np.round(center[2] / step)
    lo, hi = np.asarray(lo, np.float64), np.asarray(hi, np.float64)
    known = np.isfinite(lo).all() and np.isfinite(hi).all()
    y = float(np.clip(min(lo[1], hi[1]), -MAX_EXTENT, MAX_EXTENT)) if known else 0.0  # under the lowest point
    k = np.arange(-cells, cells + 1)
    xs, zs = (cx + k) * step, (cz + k) * step
    x0, x1, z0, z1 = xs[0], xs[-1], zs[0], zs[-1]
    major_x, major_z = np.fmod(cx + k, 5.0) == 0, np.fmod(cz + k, 5.0) == 0
    rows = []
    for x, major in zip(xs, major_x):
        color = AXIS_COLORS[2] if abs(x) < 0.5 * step else MAJOR_COLOR if major else GRID_COLOR
        rows += [(x, y, z0, *color), (x, y, z1, *color)]  # along Z; the line at x = 0 is the Z axis
    for z, major in zip(zs, major_z):
        color = AXIS_COLORS[0] if abs(z) < 0.5 * step else MAJOR_COLOR if major else GRID_COLOR
        rows += [(x0, y, z, *color), (x1, y, z, *color)]
    return np.asarray(rows, dtype=np.float32)


def gizmo_lines() -> np.ndarray:
    """(6, 7) float32: unit X, Y, Z axes from the origin, coloured."""
    rows = []
    for axis, color in enumerate(AXIS_COLORS):
        tip = [0.0, 0.0, 0.0]
        tip[axis] = 1.0
        rows += [(0.0, 0.0, 0.0, *color), (*tip, *color)]
    return np.asarray(rows, dtype=np.float32)


class LineSet:
    """A vertex array of coloured lines, replaceable."""

    def __init__(self, ctx: moderngl.Context, programs: ProgramCache, vertices: np.ndarray) -> None:
        self.ctx = ctx
        self.program = programs.get(LINES_SHADER)
        self.buffer = ctx.buffer(vertices.tobytes())
        self.vao = ctx.vertex_array(self.program, [(self.buffer, "3f 4f", "in_position", "in_color")])
        self.count = len(vertices)

    def draw(self, mvp: np.ndarray) -> None:
        if self.count:
            self.program["u_mvp"].write(math3d.to_gl(mvp))
            self.vao.render(moderngl.LINES, vertices=self.count)

    def release(self) -> None:
        self.vao.release()
        self.buffer.release()


class Overlays:
    """The ground grid and the axis gizmo of one renderer."""

    def __init__(self, ctx: moderngl.Context, programs: ProgramCache, lo: np.ndarray, hi: np.ndarray) -> None:
        self.ctx = ctx
        self.grid = LineSet(ctx, programs, grid_lines(lo, hi))
        self.gizmo = LineSet(ctx, programs, gizmo_lines())
        self._programs = programs

    def set_ground(self, lo: np.ndarray, hi: np.ndarray) -> None:
        """Rebuild the grid for new bounds (e.g. a whole clip's)."""
        self.grid.release()
        self.grid = LineSet(self.ctx, self._programs, grid_lines(lo, hi))

    def draw_grid(self, view_proj: np.ndarray) -> None:
        self.grid.draw(view_proj)

    def draw_gizmo(self, view: np.ndarray, viewport: tuple[int, int, int, int]) -> None:
        """Axes turned like the view, orthographic, in a square in the lower-left of ``viewport``."""
        x, y, w, h = viewport
        side = max(int(GIZMO_FRACTION * min(w, h)), 24)
        margin = side // 6
        rot = np.eye(4)
        rot[:3, :3] = view[:3, :3]
        scale = np.diag([0.8, 0.8, -0.8, 1.0])  # unit axes fill 80 % of the square; -z keeps depth order
        old = self.ctx.viewport
        self.ctx.viewport = (x + margin, y + margin, side, side)
        self.gizmo.draw(scale @ rot)
        self.ctx.viewport = old

    def release(self) -> None:
        self.grid.release()
        self.gizmo.release()
