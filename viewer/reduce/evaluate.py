"""A reduced channel at many times, straight from its keys: the measurement rounds' sampler.

Every round changes some channels; the viewer's ``ChannelTable`` packs a channel's intervals once and is then
fast to sample, but building it for a 36 000-key channel costs tens of milliseconds, and a round rebuilds it for
every changed channel. The rounds sample a few thousand times, so a direct search and blend is cheaper. It
follows glTF 2.0 Appendix C as the tables do — keys normalized and the shortest arc for a LINEAR rotation, the
tangents × Δt and a normalized result for a cubic one, the key before for STEP, the ends held outside the keys —
and ``tests/reduce/test_evaluate.py`` holds it to ``Clip.sample``. The written file is measured by the diff,
on the tables.
"""

from __future__ import annotations

import numpy as np

from viewer.animation.modes import Curve
from viewer.base import math3d


def sample_curve(curve: Curve, t: np.ndarray) -> np.ndarray:
    """(F, W) the curve's value at each time."""
    times = np.asarray(curve.times, np.float64)
    v = np.asarray(curve.values, np.float64)
    if len(times) == 1:
        return np.repeat(v[:1], len(t), axis=0)
    i = np.clip(np.searchsorted(times, t, side="right") - 1, 0, len(times) - 2)
    span = times[i + 1] - times[i]
    u = np.clip((t - times[i]) / np.where(span > 0, span, 1.0), 0.0, 1.0)[:, None]
    if curve.interpolation == "STEP" or curve.discrete:
        return np.where(t[:, None] >= times[-1], v[-1], v[i])
    if curve.interpolation == "CUBICSPLINE":
        dt = span[:, None]
        m0, m1 = (
            np.asarray(curve.out_tangents, np.float64)[i] * dt,
            np.asarray(curve.in_tangents, np.float64)[i + 1] * dt,
        )
        u2, u3 = u * u, u * u * u
        out = (2 * u3 - 3 * u2 + 1) * v[i] + (u3 - 2 * u2 + u) * m0 + (-2 * u3 + 3 * u2) * v[i + 1] + (u3 - u2) * m1
        return math3d.quat_normalize(out) if curve.rotation else out
    if not curve.rotation:
        return v[i] + u * (v[i + 1] - v[i])
    q = math3d.quat_normalize(v)
    a, b = q[i], q[i + 1]
    b = np.where((a * b).sum(axis=1, keepdims=True) < 0.0, -b, b)
    d, p = a - b, a + b
    theta = np.maximum(2.0 * np.arctan2(np.linalg.norm(d, axis=1), np.linalg.norm(p, axis=1)), math3d.MIN_SLERP_ANGLE)
    inv = (1.0 / np.sin(theta))[:, None]
    return np.sin((1.0 - u) * theta[:, None]) * inv * a + np.sin(u * theta[:, None]) * inv * b
