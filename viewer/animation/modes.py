"""Every interpolation mode in one table (glTF 2.0 Appendix C, plus comparison modes).

Each mode turns a sampler's keys into per-interval data for ``table.ChannelTable``:
either cubic polynomial coefficients in the interval's local parameter u ∈ [0, 1]
(``value(u) = c0 + c1·u + c2·u² + c3·u³``) or, for LINEAR rotations, the two unit quaternions
that slerp joins. Writing STEP, LINEAR, Hermite and Catmull-Rom all as cubics in u lets one
vectorized evaluator serve every mode.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from viewer.base import math3d

MODES = ("authored", "step", "linear", "cubicspline", "catmull-rom", "cubic-zero")
AUTHORED_TO_MODE = {"STEP": "step", "LINEAR": "linear", "CUBICSPLINE": "cubicspline"}


@dataclass(frozen=True)
class Curve:
    """One sampler's keys, as the file gave them.

    Every mode function also takes a batch of curves of one shape: times (G, n), values (G, n, W), and
    gives (G, n − 1, …) intervals (``table`` builds many channels' regions at once so).

    Attributes:
        times: key times (n,), seconds, strictly increasing.
        values: key values (n, W) (W = 3 for translation/scale, 4 for rotation, targets for weights), float32
            as the file stores them or float64; every mode reads them as float64.
        in_tangents, out_tangents: (n, W) per-second tangents of a CUBICSPLINE sampler, else None.
        rotation: values are quaternions [x, y, z, w].
        interpolation: the sampler's authored interpolation ("STEP", "LINEAR", "CUBICSPLINE").
        discrete: the values are booleans or integers (KHR_animation_pointer): STEP in every mode, since a
            comparison mode that blended them would show states the file cannot have.
        lerp_above: LINEAR rotations only: intervals whose (shortest-path) keys' dot product is above this are
            blended component by component and renormalized instead of slerped — what some engines do for
            nearly equal keys (``viewer/engines``); None: always slerp, as the spec says. ``lerp_renormalized``
            False: those blends are not renormalized (the channel's other intervals are not either).
        raw_keys: LINEAR rotations only: keys used as stored (not normalized, as engines that trust the file
            do) and the slerp angle taken as acos of their dot product — "acos", or "acos-hold-equal" where
            exactly equal keys hold the first; None: the spec's normalized keys.
        signs: ±1 per key, for a cut of a longer rotation curve (``windows.py``): the signs ``same_hemisphere``
            gives these keys along the whole curve, which the cubic modes then use rather than re-signing from
            the cut's first key. None: a whole curve.
    """

    times: np.ndarray
    values: np.ndarray
    in_tangents: np.ndarray | None
    out_tangents: np.ndarray | None
    rotation: bool
    interpolation: str
    discrete: bool = False
    lerp_above: float | None = None
    lerp_renormalized: bool = True
    raw_keys: str | None = None
    signs: np.ndarray | None = None


@dataclass(frozen=True)
class Intervals:
    """Per-interval data for the n−1 intervals of a curve.

    Attributes:
        coef: (n−1, 4, W): polynomial coefficients c0..c3, or for slerp intervals q0 and q1 in rows 0, 1.
        slerp_theta: (n−1,) angle between q0 and q1 for slerp intervals, None for polynomial ones.
        normalize: results are quaternions to renormalize after component-wise evaluation.
        lerped: (n−1,) bool, with ``slerp_theta``: intervals blended component-wise (``Curve.lerp_above``),
            whose coef rows are then c0, c1 of a polynomial; None when every interval slerps.
    """

    coef: np.ndarray
    slerp_theta: np.ndarray | None = None
    normalize: bool = False
    lerped: np.ndarray | None = None


def hermite_coefficients(p0, p1, m0, m1) -> np.ndarray:
    """Cubic Hermite in u with end tangents m0, m1 already scaled to the interval (× Δt): (…, k, 4, W)."""
    return np.stack([p0, m0, 3.0 * (p1 - p0) - 2.0 * m0 - m1, 2.0 * (p0 - p1) + m0 + m1], axis=-2)


def same_hemisphere(q: np.ndarray) -> np.ndarray:
    """Flip signs so consecutive quaternions (along axis −2) have a non-negative dot product (q ≡ −q)."""
    if q.shape[-2] < 2:
        return q
    flips = np.where(np.sum(q[..., 1:, :] * q[..., :-1, :], axis=-1) < 0.0, -1.0, 1.0)
    ones = np.ones(flips.shape[:-1] + (1,))
    return q * np.concatenate([ones, np.cumprod(flips, axis=-1)], axis=-1)[..., None]


def normalized_keys(values: np.ndarray) -> np.ndarray:
    """Rotation keys as every mode reads them: unit quaternions (a zero key is the identity)."""
    return math3d.quat_normalize(values)


def _values(curve: Curve, align: bool) -> np.ndarray:
    v = np.asarray(curve.values, dtype=np.float64)
    if curve.rotation and not curve.raw_keys:
        v = normalized_keys(v)
        if align:
            v = same_hemisphere(v) if curve.signs is None else v * curve.signs[..., None]
    return v


def _hermite(curve: Curve, values: np.ndarray, tangents: np.ndarray) -> Intervals:
    """Hermite intervals from per-second tangents (n, W) at every key (in = out)."""
    return _hermite_in_out(curve, values, tangents, tangents)


def _hermite_in_out(curve: Curve, values, in_tan, out_tan) -> Intervals:
    dt = np.diff(curve.times, axis=-1)[..., None]
    coef = hermite_coefficients(
        values[..., :-1, :], values[..., 1:, :], out_tan[..., :-1, :] * dt, in_tan[..., 1:, :] * dt
    )
    return Intervals(coef=coef, normalize=curve.rotation)


def step(curve: Curve) -> Intervals:
    """STEP: each interval holds its first key's value (so at a key's own time, that key)."""
    v = _values(curve, align=False)[..., :-1, :]
    zeros = np.zeros_like(v)
    return Intervals(coef=np.stack([v, zeros, zeros, zeros], axis=-2))


def linear(curve: Curve) -> Intervals:
    """LINEAR: lerp; rotations slerp along the shortest arc (Appendix C)."""
    v = _values(curve, align=False)
    p0, p1 = v[..., :-1, :], v[..., 1:, :]
    if curve.rotation:
        p1 = np.where(np.sum(p0 * p1, axis=-1, keepdims=True) < 0.0, -p1, p1)
        if curve.raw_keys:
            d = np.sum(p0 * p1, axis=-1)
            theta = np.arctan2(np.sqrt(np.maximum(0.0, 1.0 - d * d)), d)
            if curve.raw_keys == "acos-hold-equal":
                theta = np.where((p0 == p1).all(axis=-1), 0.0, theta)
            theta = np.maximum(theta, math3d.MIN_SLERP_ANGLE)
        else:
            theta = np.maximum(math3d.quat_half_angle(p0, p1), math3d.MIN_SLERP_ANGLE)
        zeros = np.zeros_like(p0)
        if curve.lerp_above is not None:
            lerped = np.sum(p0 * p1, axis=-1) > curve.lerp_above
            if curve.raw_keys == "acos-hold-equal":
                lerped &= ~(p0 == p1).all(axis=-1)
            c1 = np.where(lerped[..., None], p1 - p0, p1)
            coef = np.stack([p0, c1, zeros, zeros], axis=-2)
            normalize = bool(lerped.any()) and curve.lerp_renormalized
            return Intervals(coef=coef, slerp_theta=theta, normalize=normalize, lerped=lerped)
        return Intervals(coef=np.stack([p0, p1, zeros, zeros], axis=-2), slerp_theta=theta)
    zeros = np.zeros_like(p0)
    return Intervals(coef=np.stack([p0, p1 - p0, zeros, zeros], axis=-2))


def cubicspline(curve: Curve) -> Intervals:
    """CUBICSPLINE: Hermite with the authored tangents × Δt; first in- and last out-tangent unused.

    A sampler with no authored tangents gets zero tangents (then it equals ``cubic-zero``).
    Authored rotation keys are not re-signed: their tangents were written for their signs.
    """
    if curve.in_tangents is None:
        return cubic_zero(curve)
    v = np.asarray(curve.values, dtype=np.float64)
    return _hermite_in_out(
        curve, v, np.asarray(curve.in_tangents, np.float64), np.asarray(curve.out_tangents, np.float64)
    )


def catmull_rom(curve: Curve) -> Intervals:
    """Catmull-Rom for irregular key times (the seed article, corrected).

    Tangent at key i: ½(p_i − p_{i−1})/(t_i − t_{i−1}) + ½(p_{i+1} − p_i)/(t_{i+1} − t_i); the end keys take
    the slope of their single interval. Reproduces any linear function exactly.
    """
    v = _values(curve, align=True)
    slopes = np.diff(v, axis=-2) / np.diff(curve.times, axis=-1)[..., None]
    tangents = np.empty_like(v)
    tangents[..., 0, :], tangents[..., -1, :] = slopes[..., 0, :], slopes[..., -1, :]
    tangents[..., 1:-1, :] = 0.5 * (slopes[..., :-1, :] + slopes[..., 1:, :])
    return _hermite(curve, v, tangents)


def cubic_zero(curve: Curve) -> Intervals:
    """Hermite with zero tangents: C¹, flat at every key (the article's plain "cubic")."""
    v = _values(curve, align=True)
    return _hermite(curve, v, np.zeros_like(v))


def resolve(mode: str, curve: Curve) -> str:
    """The concrete mode used for a curve ("authored" → the sampler's own interpolation)."""
    if mode not in MODE_TABLE and mode != "authored":
        raise ValueError(f"unknown interpolation mode {mode!r}; choose from {', '.join(MODES)}")
    if curve.discrete:
        return "step"
    return AUTHORED_TO_MODE[curve.interpolation] if mode == "authored" else mode


MODE_TABLE: dict[str, Callable[[Curve], Intervals]] = {
    "step": step,
    "linear": linear,
    "cubicspline": cubicspline,
    "catmull-rom": catmull_rom,
    "cubic-zero": cubic_zero,
}


def resigns(mode: str, curve: Curve) -> bool:
    """Whether ``mode`` re-signs the curve's rotation keys along it (``same_hemisphere``): the cubics that
    make their own tangents, CUBICSPLINE without authored tangents among them."""
    concrete = resolve(mode, curve)
    cubic = concrete in ("catmull-rom", "cubic-zero") or (concrete == "cubicspline" and curve.in_tangents is None)
    return cubic and curve.rotation and not curve.raw_keys


def intervals(mode: str, curve: Curve) -> Intervals:
    """Per-interval data of ``curve`` (n ≥ 2 keys) in ``mode``."""
    return MODE_TABLE[resolve(mode, curve)](curve)
