"""Per-vertex tangents for normal mapping when a file gives none (glTF 2.0 asks for MikkTSpace).

Pure numpy, no GL. Compatible with MikkTSpace where it shows on screen: each triangle's tangent comes from
its UV gradients, corners are weighted by their angle, the sum is made orthogonal to the vertex normal, and
a vertex is never averaged across a mirrored-UV seam. Not reproduced: MikkTSpace's extra splits (by
normal, by non-manifold groups) and its bit-exact float order.

Handedness follows glTF: ``bitangent = cross(normal, tangent.xyz) * w`` must point where the normal map's
+Y (green) points, which is *up the image*. glTF's v runs *down* the image (origin at its top-left), so the
bitangent is −dPosition/dv and the tangent +dPosition/du. Files and exporters (and three.js's
``negateSign``) agree; ``NormalTangentMirrorTest`` checks it in the tests.
"""

from __future__ import annotations

import numpy as np

_Z = np.array([0.0, 0.0, 1.0])


def _normalized(v: np.ndarray, fallback: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Unit rows of v and which rows could be normalized (finite, not ~0); the others get ``fallback``
    (zeros when None)."""
    length = np.linalg.norm(v, axis=-1, keepdims=True)
    ok = np.isfinite(length) & (length > 1e-30)
    unit = np.where(ok, v / np.where(ok, length, 1.0), 0.0 if fallback is None else fallback)
    return unit, ok[..., 0]


def _any_perpendicular(n: np.ndarray) -> np.ndarray:
    """A unit vector perpendicular to each unit row of n (the axis least aligned with it, made orthogonal)."""
    axis = np.where(np.abs(n[:, :1]) < 0.9, [[1.0, 0.0, 0.0]], [[0.0, 1.0, 0.0]])
    return _normalized(axis - n * np.einsum("ij,ij->i", n, axis)[:, None])[0]


def generate(
    positions: np.ndarray, normals: np.ndarray, uvs: np.ndarray, triangles: np.ndarray
) -> tuple[np.ndarray, np.ndarray | None, np.ndarray]:
    """Tangents of an indexed triangle mesh.

    Args:
        positions, normals: (n, 3); uvs: (n, 2), the UV set the normal texture samples.
        triangles: (m, 3) vertex indices, all below n.

    Returns:
        tangents: (n', 4) float32; xyz unit and perpendicular to the vertex normal, w = ±1 so that
            ``cross(normal, xyz) * w`` is the bitangent (see the module docstring for its direction).
        source_vertex: None, or (n',) int64 when vertices were split: the input vertex of each output one.
            Vertices 0..n-1 stay where they were; copies are appended.
        triangles': ``triangles`` itself when nothing split, else (m, 3) indices of the output vertices.

    A vertex whose triangles disagree in UV handedness (a mirrored seam) gets one copy per handedness:
    averaging both halves' tangents would cancel them. Triangles with a degenerate UV (or non-finite) area
    contribute nothing; a vertex left with nothing gets any unit perpendicular to its normal and w = +1.
    """
    tri = np.asarray(triangles).reshape(-1, 3)
    idx = tri.astype(np.int64)
    corner = idx.reshape(-1)
    n = len(positions)
    with np.errstate(all="ignore"):
        nrm = _normalized(np.asarray(normals, np.float64), _Z)[0]
        p = np.asarray(positions, np.float64)[idx]  # (m, 3 corners, 3)
        uv = np.asarray(uvs, np.float64)[idx]  # (m, 3 corners, 2)
        e1, e2 = p[:, 1] - p[:, 0], p[:, 2] - p[:, 0]
        d1, d2 = uv[:, 1] - uv[:, 0], uv[:, 2] - uv[:, 0]
        det = d1[:, 0] * d2[:, 1] - d2[:, 0] * d1[:, 1]
        scale = np.linalg.norm(d1, axis=1) * np.linalg.norm(d2, axis=1)
        # dP/du up to a positive factor (1/|det|): only its direction is used
        t_face = (e1 * d2[:, 1:] - e2 * d1[:, 1:]) * np.sign(det)[:, None]
        face = np.cross(e1, e2)
        valid = (np.abs(det) > 1e-7 * scale) & np.isfinite(det) & np.isfinite(face).all(axis=1)
        valid &= np.isfinite(t_face).all(axis=1)
        valid = np.repeat(valid, 3)

        # per corner: handedness with this vertex's normal, tangent projected on its plane, corner angle
        nc = nrm[corner]
        # n·(dP/du × −dP/dv) = −n·(e1×e2)/det ≥ 0  ⇔  w = +1
        right = (np.einsum("ij,ij->i", nc, np.repeat(face, 3, axis=0)) * np.repeat(det, 3)) <= 0
        tc = np.repeat(t_face, 3, axis=0)
        tc, ok_t = _normalized(tc - nc * np.einsum("ij,ij->i", nc, tc)[:, None])
        pc = p.reshape(-1, 3)
        nxt, prv = np.roll(p, -1, axis=1).reshape(-1, 3), np.roll(p, 1, axis=1).reshape(-1, 3)
        a = _normalized((nxt - pc) - nc * np.einsum("ij,ij->i", nc, nxt - pc)[:, None])[0]
        b = _normalized((prv - pc) - nc * np.einsum("ij,ij->i", nc, prv - pc)[:, None])[0]
        angle = np.arccos(np.clip(np.einsum("ij,ij->i", a, b), -1.0, 1.0))

    # split: a vertex with valid corners of both handednesses sends its left-handed corners to a copy
    seen_right = np.bincount(corner[valid & right], minlength=n) > 0
    seen_left = np.bincount(corner[valid & ~right], minlength=n) > 0
    split = np.flatnonzero(seen_right & seen_left)
    source = None
    target = corner
    if len(split):
        copy_of = np.full(n, -1, np.int64)
        copy_of[split] = n + np.arange(len(split))
        target = np.where(valid & ~right & (copy_of[corner] >= 0), copy_of[corner], corner)
        source = np.concatenate([np.arange(n, dtype=np.int64), split.astype(np.int64)])
    count = n + len(split)

    weight = np.where(valid & ok_t & np.isfinite(angle), angle, 0.0)
    acc = np.stack([np.bincount(target, weight * tc[:, k], minlength=count) for k in range(3)], axis=1)
    out_n = nrm if source is None else nrm[source]
    with np.errstate(all="ignore"):
        t, ok = _normalized(acc - out_n * np.einsum("ij,ij->i", out_n, acc)[:, None])
    t = np.where(ok[:, None], t, _any_perpendicular(out_n))
    left = np.bincount(target[valid & ~right], minlength=count) > 0
    tangents = np.concatenate([t, np.where(left, -1.0, 1.0)[:, None]], axis=1).astype(np.float32)
    if source is None:
        return tangents, None, triangles
    dtype = np.promote_types(tri.dtype, np.min_scalar_type(count - 1))
    return tangents, source, target.reshape(-1, 3).astype(dtype)
