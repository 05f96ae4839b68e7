"""The compiled frame: sampling, TRS → local → world, joints and weights in one call.

numpy costs ~0.75 µs per call whatever the size, so a 25-node rig posed by ~125 numpy calls can never be
fast; here one call does the whole frame and the per-node arithmetic is what costs. Every formula is the
numpy reference's (``animation/table.py`` for values, ``math3d.compose_trs``, ``hierarchy.compose_world``,
``Pose.joint_matrices``), in the same order of operations, so the two agree to rounding.

Importing this module imports numba; ``viewer.fast`` decides when (never on the path to a first picture).
Packed layouts (built by ``fast/plan.py``):

* ``ch`` (C, 7) int64 per channel: first key in ``ktimes``, key count, first region row, target kind
  (``T_*``), node, and for weights the first element written in the flat weight buffer (−1: the node has
  none) and how many; ``norm`` (C,) renormalize-quaternion flags; ``last`` (C,) the region found last frame.
* ``nd`` (N, 3) int64 per node, in parents-first order: node, parent, 1 where the rest ``matrix`` is the
  local matrix (a node with ``matrix`` that the clip does not animate).
* ``jt`` (J, 2) int64 per joint of every skin: joint node, skin.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from viewer.fast.kernels_layout import (
    H_C,
    H_CH,
    H_IBM,
    H_J,
    H_JT,
    H_LAST,
    H_N,
    H_ND,
    H_NORM,
    H_NW,
    H_REST_M,
    H_REST_TRS,
    H_REST_W,
    H_S,
    H_VALUES,
    H_W,
    T_ROTATION,
    T_SCALE,
    T_TRANSLATION,
    T_VISIBLE,
    T_WEIGHTS,
)

# Columns of the region table ``seg`` (table.py): START, LO, HI, OMEGA, POLY.
_START, _LO, _HI, _OMEGA, _POLY = 0, 1, 2, 3, 4
FLOAT32_MAX = float(np.finfo(np.float32).max)


@njit(cache=True, nogil=True, inline="always")
def _region(t, ktimes, first, count):
    """How many of a channel's keys are ≤ t: its local region (``keyframes.py``'s rule)."""
    lo = 0
    hi = count
    while lo < hi:
        mid = (lo + hi) >> 1
        if t < ktimes[first + mid]:
            hi = mid
        else:
            lo = mid + 1
    return lo


@njit(cache=True, nogil=True, inline="always")
def _sample_channels(t, coef, seg, ktimes, ch, norm, last, out, f):
    """Every channel's value at t into out[f] (out: (F, C, W)): region search (last frame's region first),
    then the region's cubic or slerp form, then quaternion renormalizing where the mode needs it. (Indexing
    out[f, c, w] directly: a view per frame would cost more than a one-channel frame's arithmetic.)"""
    width = out.shape[2]
    for c in range(ch.shape[0]):
        r = last[c]
        if not (seg[r, _LO] <= t < seg[r, _HI]):
            r = ch[c, 2] + _region(t, ktimes, ch[c, 0], ch[c, 1])
            last[c] = r
        d = t - seg[r, _START]
        omega = seg[r, _OMEGA]
        if seg[r, _POLY] == 0.0:  # slerp (its ω may underflow to 0 over a huge key span: still slerp's form)
            co = np.cos(omega * d)
            si = np.sin(omega * d)
            for w in range(width):
                out[f, c, w] = coef[0, r, w] * co + coef[1, r, w] * si
        elif coef.shape[0] == 4:
            for w in range(width):
                out[f, c, w] = coef[0, r, w] + d * (coef[1, r, w] + d * (coef[2, r, w] + d * coef[3, r, w]))
        else:  # a table without cubic regions keeps c0, c1 only (the same sum: the cubic terms are 0)
            for w in range(width):
                out[f, c, w] = coef[0, r, w] + d * coef[1, r, w]
        if norm[c] != 0.0:
            length = 0.0
            for w in range(width):
                length += out[f, c, w] * out[f, c, w]
            length = np.sqrt(length)
            if length > 0.0:
                for w in range(width):
                    out[f, c, w] = out[f, c, w] / length


@njit(cache=True, nogil=True)
def sample(t, lo, hi, coef, seg, ktimes, ch, norm, last, out):
    """``ChannelTable.evaluate``: values (1, C, W) at one time, t clamped to [lo, hi] as the table does."""
    _sample_channels(min(max(t, lo), hi), coef, seg, ktimes, ch, norm, last, out, 0)


@njit(cache=True, nogil=True)
def sample_batch(times, lo, hi, coef, seg, ktimes, ch, norm, last, out):
    """``ChannelTable.evaluate_batch``: values (F, C, W) at F times; the caller bounds F (memory)."""
    for f in range(times.shape[0]):
        _sample_channels(min(max(times[f], lo), hi), coef, seg, ktimes, ch, norm, last, out, f)


@njit(cache=True, nogil=True)
def _compose_trs(trs, n, m):
    """``math3d.compose_trs`` of node n's row [t(3), r(4), s(3)] into m[n] (4, 4), the spec's formula."""
    x, y, z, w = trs[n, 3], trs[n, 4], trs[n, 5], trs[n, 6]
    xx, yy, zz = x * x, y * y, z * z
    xy, xz, yz, wx, wy, wz = x * y, x * z, y * z, w * x, w * y, w * z
    sx, sy, sz = trs[n, 7], trs[n, 8], trs[n, 9]
    m[n, 0, 0] = (1 - 2 * (yy + zz)) * sx
    m[n, 0, 1] = (2 * (xy - wz)) * sy
    m[n, 0, 2] = (2 * (xz + wy)) * sz
    m[n, 0, 3] = trs[n, 0]
    m[n, 1, 0] = (2 * (xy + wz)) * sx
    m[n, 1, 1] = (1 - 2 * (xx + zz)) * sy
    m[n, 1, 2] = (2 * (yz - wx)) * sz
    m[n, 1, 3] = trs[n, 1]
    m[n, 2, 0] = (2 * (xz - wy)) * sx
    m[n, 2, 1] = (2 * (yz + wx)) * sy
    m[n, 2, 2] = (1 - 2 * (xx + yy)) * sz
    m[n, 2, 3] = trs[n, 2]
    m[n, 3, 0] = 0.0
    m[n, 3, 1] = 0.0
    m[n, 3, 2] = 0.0
    m[n, 3, 3] = 1.0


@njit(cache=True, nogil=True)
def _affine(m, n):
    return m[n, 3, 0] == 0.0 and m[n, 3, 1] == 0.0 and m[n, 3, 2] == 0.0 and m[n, 3, 3] == 1.0


@njit(cache=True, nogil=True)
def _product(a, ia, b, ib, out, io):
    """out[io] = a[ia] @ b[ib] (4×4; out[io] must not be a[ia] or b[ib]); True when it fits float32.

    Affine pairs skip the terms that multiply the zeros of the last row: the sums are the full product's
    (adding 0·x changes no finite sum), a third of the work."""
    ok = True
    rows = 3 if _affine(a, ia) and _affine(b, ib) else 4
    for i in range(rows):
        for j in range(4):
            s = a[ia, i, 0] * b[ib, 0, j] + a[ia, i, 1] * b[ib, 1, j] + a[ia, i, 2] * b[ib, 2, j]
            if rows == 4 or j == 3:
                s += a[ia, i, 3] * b[ib, 3, j]
            out[io, i, j] = s
            if not abs(s) <= FLOAT32_MAX:  # NaN fails the comparison too
                ok = False
    if rows == 3:
        out[io, 3, 0] = 0.0
        out[io, 3, 1] = 0.0
        out[io, 3, 2] = 0.0
        out[io, 3, 3] = 1.0
    return ok


@njit(cache=True, nogil=True)
def _copy(src, isrc, out, io):
    """out[io] = src[isrc] (4×4); True when it fits float32."""
    ok = True
    for i in range(4):
        for j in range(4):
            v = src[isrc, i, j]
            out[io, i, j] = v
            if not abs(v) <= FLOAT32_MAX:
                ok = False
    return ok


@njit(cache=True, nogil=True)
def _apply(values, ch, trs, weights, own_visible):
    """Write sampled rows (values[0] of (1, C, W)) onto the rest pose in trs, weights, own_visible (``Pose.apply``)."""
    width = values.shape[2]
    for c in range(ch.shape[0]):
        kind = ch[c, 3]
        node = ch[c, 4]
        if kind == T_TRANSLATION or kind == T_SCALE:
            col = 0 if kind == T_TRANSLATION else 7
            for k in range(min(3, width)):
                trs[node, col + k] = values[0, c, k]
        elif kind == T_ROTATION:
            for k in range(min(4, width)):
                trs[node, 3 + k] = values[0, c, k]
        elif kind == T_WEIGHTS:
            start = ch[c, 5]
            if start >= 0:
                for k in range(min(ch[c, 6], width)):
                    weights[start + k] = values[0, c, k]
        elif kind == T_VISIBLE:
            own_visible[node] = values[0, c, 0] >= 0.5


@njit(cache=True, nogil=True)
def _floats(buf, at, size):
    return buf[at : at + size]


@njit(cache=True, nogil=True)
def pose_frame(t, coef, seg, ktimes, pf, pi, pb, sf, sb):
    """One whole frame of ``Pose.set_time`` + ``Pose.joint_matrices`` of every skin.

    coef (P, R, W) / seg (R, 5) / ktimes: the clip table's regions and key times (shared, never copied);
    pf / pi / pb: the plan's other float, int (header first) and bool tables; sf / sb: the pose's float and bool
    state (``kernels_layout.state_layout`` / ``flag_layout``). Returns how many nodes' world matrices and
    how many skins' joint matrices do not fit float32 (the caller warns about them).
    """
    C, W, N, NW, J, S = pi[H_C], pi[H_W], pi[H_N], pi[H_NW], pi[H_J], pi[H_S]
    norm = _floats(pf, pi[H_NORM], C)
    rest_trs = _floats(pf, pi[H_REST_TRS], N * 10).reshape((N, 10))
    rest_weights = _floats(pf, pi[H_REST_W], NW)
    rest_matrix = _floats(pf, pi[H_REST_M], N * 16).reshape((N, 4, 4))
    inverse_bind = _floats(pf, pi[H_IBM], J * 16).reshape((J, 4, 4))
    values = _floats(pf, pi[H_VALUES], C * W).reshape((1, C, W))
    ch = pi[pi[H_CH] : pi[H_CH] + C * 7].reshape((C, 7))
    last = pi[pi[H_LAST] : pi[H_LAST] + C]
    nd = pi[pi[H_ND] : pi[H_ND] + N * 3].reshape((N, 3))
    jt = pi[pi[H_JT] : pi[H_JT] + J * 2].reshape((J, 2))
    trs = sf[0 : N * 10].reshape((N, 10))
    weights = sf[N * 10 : N * 10 + NW]
    local = sf[N * 10 + NW : N * 26 + NW].reshape((N, 4, 4))
    world = sf[N * 26 + NW : N * 42 + NW].reshape((N, 4, 4))
    joints = sf[N * 42 + NW : N * 42 + NW + J * 16].reshape((J, 4, 4))

    _sample_channels(min(max(t, pf[0]), pf[1]), coef, seg, ktimes, ch, norm, last, values, 0)
    trs[:] = rest_trs
    weights[:] = rest_weights
    for n in range(N):
        sb[n] = pb[n]  # own visibility
    _apply(values, ch, trs, weights, sb[0:N])
    undrawable = 0
    for i in range(N):
        n = nd[i, 0]
        p = nd[i, 1]
        if nd[i, 2] != 0:
            _copy(rest_matrix, n, local, n)
        else:
            _compose_trs(trs, n, local)
        if p < 0:
            ok = _copy(local, n, world, n)
            sb[N + n] = sb[n]
        else:
            ok = _product(world, p, local, n, world, n)
            sb[N + n] = sb[n] and sb[N + p]
        sb[2 * N + n] = ok
        if not ok:
            undrawable += 1
    for s in range(S):
        sb[3 * N + s] = True
    bad_skins = 0
    for j in range(J):
        if not _product(world, jt[j, 0], inverse_bind, j, joints, j):
            bad_skins += sb[3 * N + jt[j, 1]]  # counted once per skin
            sb[3 * N + jt[j, 1]] = False
    return undrawable, bad_skins
