"""Motion trails on the GPU: each mode's path as a line strip, dots at the keys, a marker at the current time.

The numbers come from ``viewer.compare.views.trail`` (pure numpy, tested without a GPU); this module only uploads
and draws them with ``shaders/lines.glsl``, the program the grid and the skeleton lines use. Depth testing
is off, as for the skeleton, so a trail stays visible where it passes behind the mesh. In a pane, the
pane's own trail is drawn opaque and the other panes' faded, so the difference is seen in place.
A sample whose position is not float32-finite (a hostile file) is written as the origin and cut out of
its strip, and such key dots and markers are dropped, so no inf or NaN reaches the vertex buffer.
"""

from __future__ import annotations

from typing import Sequence

import moderngl
import numpy as np

from viewer.base import math3d
from viewer.compare.views import Trail
from viewer.render.limits import fits_f32
from viewer.render.shaders import ProgramCache

LINES_SHADER = "lines.glsl"
FLOATS = 7  # x, y, z, r, g, b, a
KEY_PX = 7.0
MARKER_PX = 13.0
FADED_ALPHA = 0.3


def _rows(points: np.ndarray, color: Sequence[float], alpha: float) -> np.ndarray:
    out = np.empty((len(points), FLOATS), dtype=np.float32)
    out[:, :3] = np.where(fits_f32(points)[:, None], points, 0.0)
    out[:, 3:6] = color[:3]
    out[:, 6] = alpha
    return out


def _continuous_runs(jumps: np.ndarray) -> list[tuple[int, int]]:
    """[start, end) sample ranges between jumps (jumps[i]: no line from sample i to i + 1)."""
    cuts = np.flatnonzero(jumps) + 1
    bounds = np.concatenate([[0], cuts, [len(jumps) + 1]])
    return list(zip(bounds[:-1].tolist(), bounds[1:].tolist()))


def trail_vertices(
    trails: Sequence[Trail], own: str, t: float, marker_rgb: np.ndarray | None = None
) -> tuple[np.ndarray, list[tuple[int, int]], int, int]:
    """Vertex rows for drawing: strips first (one per pane's trail and node), then key dots, then the markers.

    Returns:
        (rows (V, 7) float32, [(first, count)] of each strip, number of key dots, number of markers).
        The trails of pane ``own`` (``Trail.owner``) are opaque and drawn last among the strips; the others
        faded. ``marker_rgb``: (K, 3) colours of the own trail's markers, one per node (the error now, in the
        against view); else the trail's colour.
    """
    ordered = sorted(trails, key=lambda tr: tr.owner == own)  # own pane's on top
    strips, parts, first = [], [], 0
    for tr in ordered:
        alpha = 1.0 if tr.owner == own else FADED_ALPHA
        for k in range(len(tr.nodes)):
            parts.append(_rows(tr.points[:, k], tr.color, alpha))
            bad = ~fits_f32(tr.points[:, k])  # no segment to or from such a sample
            cut = tr.jumps[:, k] | bad[:-1] | bad[1:]
            strips.extend((first + a, b - a) for a, b in _continuous_runs(cut) if b - a > 1)
            first += len(tr.times)
    mine = [tr for tr in trails if tr.owner == own]
    keys = [_rows(_finite(tr.key_points.reshape(-1, 3)), (1.0, 1.0, 1.0), 1.0) for tr in mine]
    markers = []
    with np.errstate(over="ignore", invalid="ignore"):
        for tr in mine:
            at = tr.at(t)
            rows = _rows(at, tr.color, 1.0)
            if marker_rgb is not None and len(marker_rgb) == len(at):
                rows[:, 3:6] = marker_rgb
            markers.append(rows[fits_f32(at)])
    n_keys, n_markers = sum(len(a) for a in keys), sum(len(a) for a in markers)
    rows = np.concatenate(parts + keys + markers) if parts or keys or markers else np.zeros((0, FLOATS), np.float32)
    return rows.astype(np.float32), strips, n_keys, n_markers


def _finite(points: np.ndarray) -> np.ndarray:
    return points[fits_f32(points)]


class TrailLines:
    """One dynamic vertex buffer (grown on demand) and the draw calls for a pane's trails."""

    def __init__(self, ctx: moderngl.Context, programs: ProgramCache) -> None:
        self.ctx = ctx
        self.program = programs.get(LINES_SHADER)
        self.capacity = 0
        self.buffer = None
        self.vao = None

    def _reserve(self, vertices: int) -> None:
        if vertices <= self.capacity:
            return
        self.release()
        self.capacity = max(vertices, 2 * self.capacity, 1024)
        self.buffer = self.ctx.buffer(reserve=self.capacity * FLOATS * 4, dynamic=True)
        self.vao = self.ctx.vertex_array(self.program, [(self.buffer, "3f 4f", "in_position", "in_color")])

    def draw(
        self, trails: Sequence[Trail], own: str, t: float, view_proj: np.ndarray, marker_rgb: np.ndarray | None = None
    ) -> None:
        """Draw ``trails`` over whatever the bound framebuffer holds (its viewport: the pane)."""
        rows, strips, n_keys, n_markers = trail_vertices(trails, own, t, marker_rgb)
        if not len(rows):
            return
        self._reserve(len(rows))
        self.buffer.orphan()
        self.buffer.write(rows.tobytes())
        self.ctx.enable_only(moderngl.BLEND)
        self.ctx.blend_func = moderngl.SRC_ALPHA, moderngl.ONE_MINUS_SRC_ALPHA
        self.program["u_mvp"].write(math3d.to_gl(view_proj))
        for first, count in strips:
            self.vao.render(moderngl.LINE_STRIP, vertices=count, first=first)
        start = len(rows) - n_keys - n_markers  # after every strip row (a strip may be cut short by a jump)
        if n_keys:
            self.ctx.point_size = KEY_PX
            self.vao.render(moderngl.POINTS, vertices=n_keys, first=start)
        if n_markers:
            self.ctx.point_size = MARKER_PX
            self.vao.render(moderngl.POINTS, vertices=n_markers, first=start + n_keys)
        self.ctx.disable(moderngl.BLEND)

    def release(self) -> None:
        if self.vao is not None:
            self.vao.release()
            self.buffer.release()
            self.vao = self.buffer = None
            self.capacity = 0
