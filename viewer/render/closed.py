"""Whether a primitive's triangles close a surface wound outward, so its back faces may be culled.

Decided once per geometry at upload, for every triangle of a million-triangle file: hence one sort of one
hashed key per vertex (weld) and per edge (pairing) rather than row-wise ``np.unique``, and a volume sign
with a strict rounding bound that falls back to the exact float64 sum only when the bound cannot decide.
"""

from __future__ import annotations

import numpy as np


def closed_outward(positions: np.ndarray, triangles: np.ndarray, deltas: np.ndarray | None = None) -> bool:
    """True when the triangles form closed, consistently wound surfaces facing outward.

    Vertices are welded by position first (split normals and UV seams keep a surface closed). Closed and
    consistent: every directed edge a→b occurs exactly once and so does b→a. Outward: positive signed
    volume, at rest and with each morph target fully applied; welded vertices must also move together
    under every target (``deltas``: (targets, n, 3), of the same vertices as ``positions``: gathered through
    ``MeshData.source_vertex`` when tangents split vertices; the copies weld back by position), or a morph
    could open a crack.

    Why it matters: for such a surface seen from outside, every back-facing sample lies behind a
    front-facing one, so culling back faces changes no pixel even when the material is double-sided —
    and on llvmpipe with MSAA it halves the rasterization cost (see ``Renderer``).

    Why it is built this way: it runs at load on every double-sided primitive, so on a million-triangle
    file it must cost a fraction of a second, not seconds. Each step is one sort of 64-bit integers
    (numpy's vectorized sorts; nothing else is O(n log n)): the weld sorts a hash of each position
    (``_weld``), the edge test one key per edge (``_paired``), and the volumes are first bounded
    (``_volume_sign``), the exact float64 sum being needed only when the bound cannot decide. The answer
    is the same as welding with ``np.unique(axis=0)`` and testing with sorted edge lists and float64
    volumes; ``tests/test_closed_outward.py`` keeps that algorithm and compares.
    """
    p = np.asarray(positions, np.float64)
    if not len(triangles) or len(triangles) % 3:
        return False
    if deltas is not None and deltas.shape[1:] != p.shape:
        raise ValueError(
            f"morph deltas of {deltas.shape[1]} vertices for {len(p)} positions: gather them "
            "through MeshData.source_vertex"
        )
    morphed = deltas is not None and len(deltas) > 0
    group, rep, count = _weld(p, morphed)
    if morphed:
        if np.isnan(deltas).any():  # NaN equals nothing, not even itself
            return False
        dup = np.flatnonzero(rep != np.arange(len(p)))  # vertices welded to another one
        if len(dup) and not np.array_equal(deltas[:, dup], deltas[:, rep[dup]]):
            return False
    # (3 corners, m) rows: np.take along them is several times faster than fancy (m, 3) indexing
    corners = np.asarray(triangles, np.int64).reshape(-1, 3).T.copy()
    if not _paired(np.take(group, corners), count):
        return False
    p_t = p.T.copy()
    shapes = [None] + (list(deltas) if deltas is not None else [])
    return all(_volume_sign(p_t if d is None else p_t + d.T, corners) for d in shapes)


_MIX = np.uint64(0xBF58476D1CE4E5B9), np.uint64(0x94D049BB133111EB)


def _mix(z: np.ndarray) -> np.ndarray:
    """splitmix64's finalizer, in place: every input bit moves every output bit (a float32 read as float64
    has 29 zero low bits, which a plain multiply would leave zero)."""
    z ^= z >> np.uint64(30)
    z *= _MIX[0]
    z ^= z >> np.uint64(27)
    z *= _MIX[1]
    z ^= z >> np.uint64(31)
    return z


def _weld(p: np.ndarray, representatives: bool) -> tuple[np.ndarray, np.ndarray | None, int]:
    """Vertices of equal position (float compare: −0 welds with +0, NaN with nothing) numbered alike:
    (group of each vertex, a vertex of each vertex's group when ``representatives`` else None, group count).

    Why a hash: sorting (n, 3) rows (``np.unique(axis=0)``) compares structured items one by one, ~30×
    slower than sorting one uint64 per vertex. Equal rows have equal bits once −0 is made +0, so they hash
    alike and end up adjacent; adjacent equal hashes of unequal rows (a collision, or NaN rows) send the
    rare file to the row sort."""
    if not len(p):
        return np.zeros(0, np.int64), np.zeros(0, np.int64), 0
    q = np.ascontiguousarray((p + 0.0).T)  # (3, n); -0.0 + 0.0 is +0.0
    x, y, z = q.view(np.uint64)
    h = _mix(_mix(_mix(x.copy()) + y) + z)  # uint64 arithmetic wraps
    order = np.argsort(h)
    h = np.take(h, order)
    joined = h[1:] == h[:-1]  # sorted vertex i + 1 continues the group of sorted vertex i
    if joined.any():
        s = np.take(q, order, axis=1)
        equal = (s[0, 1:] == s[0, :-1]) & (s[1, 1:] == s[1, :-1]) & (s[2, 1:] == s[2, :-1])
        if (joined & ~equal).any():
            _, first, group = np.unique(p, axis=0, return_index=True, return_inverse=True)
            group = group.reshape(-1)
            return group, np.take(first, group), len(first)
    start = np.concatenate([[True], ~joined])
    sorted_group = np.cumsum(start) - 1
    group = np.empty(len(p), np.int64)
    group[order] = sorted_group
    rep = None
    if representatives:
        rep = np.empty(len(p), np.int64)
        rep[order] = np.take(order[start], sorted_group)
    return group, rep, int(sorted_group[-1]) + 1


def _paired(t: np.ndarray, n: int) -> bool:
    """Do the non-degenerate triangles of ``t`` ((3 corners, m) welded vertices < n) use every directed
    edge at most once, each with its reverse? One sort: an edge's key is its undirected pair times 2, plus
    1 when it runs from the higher vertex to the lower, so the sorted keys must come in pairs (2e, 2e + 1)."""
    keep = (t[0] != t[1]) & (t[1] != t[2]) & (t[2] != t[0])
    if not keep.all():
        t = t[:, keep]
    if not t.shape[1] or t.shape[1] % 2:  # no triangles; or edges that cannot all pair up
        return False
    a, b = t.reshape(-1), np.roll(t, -1, axis=0).reshape(-1)  # edges 0→1, 1→2, 2→0 of every triangle
    keys = np.minimum(a, b)
    keys *= n
    keys += np.maximum(a, b)
    keys *= 2
    keys += a > b
    keys.sort()
    low, high = keys[0::2], keys[1::2]
    return bool(np.array_equal(high - low, np.ones(len(low), np.int64)) and not (low & 1).any())


CHUNK = 1 << 18  # triangles per step of the volume sum: temporaries of a few MB


def _volume_sign(shape_t: np.ndarray, corners: np.ndarray) -> bool:
    """Is the signed volume Σ a·(b×c) over the triangles (``corners``: (3, m) vertex indices) of the
    vertices ``shape_t`` ((3, n) float64) positive, as float64 ``np.einsum``/``np.cross`` evaluate it?

    Summed axis by axis on contiguous gathers (several times faster than ``np.cross`` over (m, 3, 3)
    corners), with a rigorous bound on the rounding of any evaluation order of that sum: per triangle
    γ5·6M³, over the sum γ(m−1), where M bounds every coordinate and γk = ku/(1 − ku), u = 2⁻⁵³. A sum
    beyond twice the bound has the sign the reference order would give; else (flat, far from the origin
    or non-finite shapes) the reference order decides."""
    m = corners.shape[1]
    volume = 0.0
    with np.errstate(all="ignore"):
        for k in range(0, m, CHUNK):
            (ax, bx, cx), (ay, by, cy), (az, bz, cz) = np.take(shape_t, corners[:, k : k + CHUNK], axis=1)
            t = by * cz
            t -= bz * cy
            t *= ax
            u = bz * cx
            u -= bx * cz
            u *= ay
            t += u
            u = bx * cy
            u -= by * cx
            u *= az
            t += u
            volume += t.sum()
        g = (m + 4) * 2.0**-53
        bound = g / (1.0 - g) * 6.0 * m * np.abs(shape_t).max(initial=0.0) ** 3
    if volume > 2.0 * bound:
        return True
    if volume < -2.0 * bound:
        return False
    w = np.take(shape_t.T, corners.T, axis=0)  # (m, 3 corners, 3 axes)
    # "not <= 0": a NaN volume (NaN positions) passes, as it always has
    return not np.einsum("ij,ij->i", w[:, 0], np.cross(w[:, 1], w[:, 2])).sum() <= 0.0
