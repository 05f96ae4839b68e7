"""Curve rewrites that need more than moving or copying keys: an engine's own cubic, written as spec Hermite
pieces. Filament's ``cubicSpline`` multiplies the tangents by the normalized parameter u instead of the key
interval — p(u) = h00·v0 + h01·v1 + u·(h10·b0 + h11·a1), a quartic in u that no single Hermite interval
reproduces; cut into ``PIECES`` spans, each a Hermite through the quartic's values and slopes at its ends, it is
met within h⁴/384·|p''''| (a ten-thousandth of the tangents' size for eight pieces).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from viewer.animation.modes import Curve

PIECES = 8


def normalized_parameter_tangents(c: Curve, pieces: int = PIECES) -> Curve:
    """The CUBICSPLINE curve ``c`` as an engine plays it whose Hermite takes tangents × u (see the module)."""
    n = len(c.times)
    if n < 2:
        return c
    u = np.arange(pieces + 1) / pieces  # knots within each interval, both ends included
    v0, v1 = c.values[:-1, None, :], c.values[1:, None, :]
    b0, a1 = c.out_tangents[:-1, None, :], c.in_tangents[1:, None, :]
    dt = np.diff(c.times)[:, None, None]
    uu = u[None, :, None]
    h00, h10, h01, h11 = 2 * uu**3 - 3 * uu**2 + 1, uu**3 - 2 * uu**2 + uu, -2 * uu**3 + 3 * uu**2, uu**3 - uu**2
    d00, d10, d01, d11 = 6 * uu**2 - 6 * uu, 3 * uu**2 - 4 * uu + 1, -6 * uu**2 + 6 * uu, 3 * uu**2 - 2 * uu
    tangent = h10 * b0 + h11 * a1
    value = h00 * v0 + h01 * v1 + uu * tangent  # (n - 1, pieces + 1, W)
    slope = (d00 * v0 + d01 * v1 + tangent + uu * (d10 * b0 + d11 * a1)) / dt  # per second
    times = (c.times[:-1, None] + u[None, :] * np.diff(c.times)[:, None])[:, :-1].reshape(-1)
    times = np.append(times, c.times[-1])
    values = np.concatenate([value[:, :-1].reshape(-1, value.shape[-1]), c.values[-1:]])
    out_t = np.concatenate([slope[:, :-1].reshape(-1, slope.shape[-1]), c.out_tangents[-1:]])
    in_t = np.concatenate([c.in_tangents[:1], slope[:, 1:].reshape(-1, slope.shape[-1])])
    return replace(c, times=times, values=values, in_tangents=in_t, out_tangents=out_t)
