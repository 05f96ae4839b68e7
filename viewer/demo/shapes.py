"""Triangle meshes for the demo scenes: box, UV sphere, capped cylinder, as numpy arrays.

Every shape returns ``(positions (n, 3), normals (n, 3), indices (m, 3))`` in float64/int64, with
triangles wound counter-clockwise seen from outside (glTF's front face, §3.7.2.1) and unit normals.
"""

from __future__ import annotations

import numpy as np

Shape = tuple[np.ndarray, np.ndarray, np.ndarray]

# (outward normal, first in-face axis); the second axis is normal × first, so first × second = normal.
_BOX_FACES = (
    ((1, 0, 0), (0, 0, -1)),
    ((-1, 0, 0), (0, 0, 1)),
    ((0, 1, 0), (1, 0, 0)),
    ((0, -1, 0), (1, 0, 0)),
    ((0, 0, 1), (1, 0, 0)),
    ((0, 0, -1), (-1, 0, 0)),
)


def grid_triangles(rows: int, cols: int, first: int = 0) -> np.ndarray:
    """Two CCW triangles per cell of a (rows+1) × (cols+1) vertex grid laid out row-major.

    Within a row the first in-face axis grows with the column and the second with the row.
    """
    r, c = np.meshgrid(np.arange(rows), np.arange(cols), indexing="ij")
    v00 = first + r * (cols + 1) + c
    v10, v01 = v00 + 1, v00 + cols + 1
    v11 = v01 + 1
    return np.concatenate([np.stack([v00, v10, v11], -1), np.stack([v00, v11, v01], -1)], axis=1).reshape(-1, 3)


def box(
    size: tuple[float, float, float] = (1.0, 1.0, 1.0),
    divisions: int = 1,
    center: tuple[float, float, float] = (0.0, 0.0, 0.0),
) -> Shape:
    """An axis-aligned box, each face a ``divisions`` × ``divisions`` grid with its own flat normals."""
    half = 0.5 * np.asarray(size, dtype=np.float64)
    ab = np.linspace(-1.0, 1.0, divisions + 1)
    b, a = np.meshgrid(ab, ab, indexing="ij")  # rows follow the second axis, columns the first
    positions, normals, indices = [], [], []
    for n, u in _BOX_FACES:
        n, u = np.asarray(n, np.float64), np.asarray(u, np.float64)
        v = np.cross(n, u)
        p = (n + a.reshape(-1, 1) * u + b.reshape(-1, 1) * v) * half + np.asarray(center, np.float64)
        indices.append(grid_triangles(divisions, divisions, sum(len(q) for q in positions)))
        positions.append(p)
        normals.append(np.broadcast_to(n, p.shape))
    return np.concatenate(positions), np.concatenate(normals), np.concatenate(indices)


def uv_sphere(radius: float = 1.0, rings: int = 12, segments: int = 24) -> Shape:
    """A sphere of latitude rings (pole to pole) and longitude segments; the seam column is duplicated."""
    theta = np.linspace(0.0, np.pi, rings + 1)[:, None]  # from +Y down to −Y
    phi = np.linspace(0.0, 2.0 * np.pi, segments + 1)[None, :]
    n = np.stack(
        np.broadcast_arrays(np.sin(theta) * np.sin(phi), np.cos(theta), np.sin(theta) * np.cos(phi)), axis=-1
    ).reshape(-1, 3)
    # Rows run down from the north pole and columns eastwards: that grid's CCW is outward here.
    return radius * n, n, grid_triangles(rings, segments)[:, ::-1].copy()


def cylinder(radius: float, heights: np.ndarray, segments: int = 16) -> Shape:
    """A capped cylinder along +Y with a vertex ring at each of ``heights`` (increasing), for bending."""
    heights = np.asarray(heights, dtype=np.float64)
    phi = np.linspace(0.0, 2.0 * np.pi, segments + 1)
    ring = np.stack([np.sin(phi), np.zeros_like(phi), np.cos(phi)], axis=-1)  # (segments + 1, 3) radial
    side = (radius * ring[None, :, :] + heights[:, None, None] * np.array([0.0, 1.0, 0.0])).reshape(-1, 3)
    side_n = np.broadcast_to(ring, (len(heights), segments + 1, 3)).reshape(-1, 3)
    positions, normals = [side], [side_n]
    indices = [grid_triangles(len(heights) - 1, segments)]
    for y, up in ((heights[0], -1.0), (heights[-1], 1.0)):
        first = sum(len(p) for p in positions)
        cap = np.concatenate([[[0.0, y, 0.0]], radius * ring[:-1] + [0.0, y, 0.0]])
        k = np.arange(segments)
        tris = np.stack([np.zeros(segments, np.int64), 1 + k, 1 + (k + 1) % segments], axis=-1)
        indices.append(first + (tris if up > 0 else tris[:, ::-1]))
        positions.append(cap)
        normals.append(np.broadcast_to([0.0, up, 0.0], cap.shape))
    return np.concatenate(positions), np.concatenate(normals), np.concatenate(indices)


def merge(*shapes: Shape) -> Shape:
    """One mesh holding several shapes (indices shifted past the vertices before them)."""
    offsets = np.cumsum([0] + [len(s[0]) for s in shapes[:-1]])
    return (
        np.concatenate([s[0] for s in shapes]),
        np.concatenate([s[1] for s in shapes]),
        np.concatenate([s[2] + o for s, o in zip(shapes, offsets)]),
    )


def vertex_normals(positions: np.ndarray, indices: np.ndarray) -> np.ndarray:
    """Area-weighted vertex normals (n, 3) of a triangle mesh: the sum of adjacent face normals, normalized."""
    p = np.asarray(positions, dtype=np.float64)
    tri = np.asarray(indices, dtype=np.int64).reshape(-1, 3)
    face = np.cross(p[tri[:, 1]] - p[tri[:, 0]], p[tri[:, 2]] - p[tri[:, 0]])  # length = 2 × area
    acc = np.zeros_like(p)
    for k in range(3):
        np.add.at(acc, tri[:, k], face)
    return acc / np.linalg.norm(acc, axis=1, keepdims=True)
