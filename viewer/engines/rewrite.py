"""Curve rewrites that need more than moving or copying keys: an engine's own cubic, written as spec Hermite
pieces. Filament's ``cubicSpline`` multiplies the tangents by the normalized parameter u instead of the key
interval — p(u) = h00·v0 + h01·v1 + u·(h10·b0 + h11·a1), a quartic in u that no single Hermite interval
reproduces; cut into ``PIECES`` spans, each a Hermite through the quartic's values and slopes at its ends, it is
met within h⁴/384·|p''''| (a ten-thousandth of the tangents' size for eight pieces).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from viewer.animation.modes import Curve, same_hemisphere

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


def auto_handles(c: Curve) -> Curve:
    """The curve as Blender plays a CUBICSPLINE sampler it imported: the tangents dropped, the values joined by a
    Bézier with AUTO handles under the F-curve's default Continuous Acceleration smoothing.

    ``curve.cc:calchandleNurb_intern`` puts every F-curve AUTO handle one third of the neighbouring key span away
    in x, so the Bézier is linear in x and is a Hermite in time; ``fcurve.cc:BKE_fcurve_handles_recalc_ex``
    flattens the first and last keys' handles (constant extrapolation) and locks them; then
    ``curve.cc:bezier_handle_calc_smooth_fcurve`` solves for the inner handles' heights h_i that make the
    second derivative continuous (no limits on plain AUTO handles): l_i² h_{i-1} + 2(l_i + 1) h_i + h_{i+1}/l_{i+1}
    = dy_i l_i² + dy_{i+1}, l_i = dx_{i+1}/dx_i. The slope at key i is 3 h_i / dx_{i+1} on both sides. Rotations
    keep the importer's sign-continuity flips (components are separate F-curves)."""
    values = np.asarray(c.values, np.float64)
    if c.rotation:
        values = same_hemisphere(values)
    n = len(c.times)
    slopes = np.zeros_like(values)
    if n > 2:
        dx = np.diff(c.times)  # dx[i - 1] is the span into key i
        dy = np.diff(values, axis=0)
        ratio = dx[1:] / dx[:-1]  # l_i for i = 1 … n - 2
        ratio_next = np.append(ratio[1:], 1.0)  # l_{i+1}; the last key's is 1
        a, b, cc = ratio**2, 2.0 * (ratio + 1.0), 1.0 / ratio_next
        d = dy[:-1] * (ratio**2)[:, None] + dy[1:]
        h = _tridiagonal(a, b, cc, d)
        slopes[1:-1] = 3.0 * h / dx[1:, None]
    return replace(c, values=values, in_tangents=slopes, out_tangents=slopes.copy(), interpolation="CUBICSPLINE")


def _tridiagonal(a: np.ndarray, b: np.ndarray, c: np.ndarray, d: np.ndarray) -> np.ndarray:
    """Thomas' algorithm for a[i] x[i-1] + b[i] x[i] + c[i] x[i+1] = d[i] (x outside the range is 0, as the locked
    end handles are); d is (m, W), one right-hand side per component."""
    m = len(b)
    cp, dp = np.zeros(m), np.zeros_like(d)
    cp[0], dp[0] = c[0] / b[0], d[0] / b[0]
    for i in range(1, m):
        den = b[i] - a[i] * cp[i - 1]
        cp[i], dp[i] = c[i] / den, (d[i] - a[i] * dp[i - 1]) / den
    x = np.zeros_like(d)
    x[-1] = dp[-1]
    for i in range(m - 2, -1, -1):
        x[i] = dp[i] - cp[i] * x[i + 1]
    return x


def clamped(c: Curve, lo: np.ndarray, hi: np.ndarray) -> Curve:
    """The curve's output clamped to [lo, hi] per component (a property with a hard range, as Blender's shape-key
    value is), written as keys: every interval is cut where a component crosses a bound (roots of its cubic, or
    of its line), so that between cuts each component is wholly inside — kept, the piece exact — or outside — the
    bound, flat. STEP curves only clip their values."""
    lo, hi = np.asarray(lo, np.float64), np.asarray(hi, np.float64)
    if c.interpolation == "STEP" or c.discrete or len(c.times) < 2:
        return replace(c, values=np.clip(c.values, lo, hi))
    cubic = c.in_tangents is not None
    dt = np.diff(c.times)
    v0, v1 = c.values[:-1], c.values[1:]
    b0 = c.out_tangents[:-1] * dt[:, None] if cubic else v1 - v0
    a1 = c.in_tangents[1:] * dt[:, None] if cubic else v1 - v0
    coef = np.stack([v0, b0, -3 * v0 - 2 * b0 + 3 * v1 - a1, 2 * v0 + b0 - 2 * v1 + a1], axis=1)  # (n-1, 4, W)
    starts, values, outs, ends = [], [], [], []  # per piece: start time and value, out slope, in slope at its end
    for k in range(len(dt)):
        u = np.array(sorted({0.0, 1.0} | set(_crossings(coef[k], lo, hi))))
        powers = u[:, None] ** np.arange(4)
        dpowers = np.concatenate([np.zeros((len(u), 1)), powers[:, :3] * np.arange(1, 4)], axis=1)
        val, slope = powers @ coef[k], dpowers @ coef[k] / dt[k]
        mid = ((u[:-1] + u[1:]) / 2)[:, None] ** np.arange(4) @ coef[k]
        outside = (mid < lo) | (mid > hi)  # (pieces, W): the piece is the bound there
        starts.append(c.times[k] + u[:-1] * dt[k])
        values.append(val[:-1])
        outs.append(np.where(outside, 0.0, slope[:-1]))
        ends.append(np.where(outside, 0.0, slope[1:]))
    width = c.values.shape[1]
    times = np.concatenate(starts + [c.times[-1:]])
    vals = np.clip(np.concatenate(values + [c.values[-1:]]), lo, hi)
    if not cubic:
        return replace(c, times=times, values=vals)
    out_t = np.concatenate(outs + [c.out_tangents[-1:]])
    in_t = np.concatenate([c.in_tangents[:1]] + ends).reshape(-1, width)
    return replace(c, times=times, values=vals, in_tangents=in_t, out_tangents=out_t)


def _crossings(coef: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> list[float]:
    """Parameters in (0, 1) where any component of one interval's cubic (power basis, (4, W)) meets a bound."""
    found = []
    for w in range(coef.shape[1]):
        for bound in (lo[w], hi[w]):
            poly = coef[::-1, w] - np.array([0.0, 0.0, 0.0, bound])
            poly = np.trim_zeros(np.where(np.abs(poly) < 1e-300, 0.0, poly), "f")
            if len(poly) < 2:
                continue
            found += [float(r.real) for r in np.roots(poly) if abs(r.imag) < 1e-9 and 0.0 < r.real < 1.0]
    return found
