"""All channels of a clip packed into flat region tables, evaluated together.

Per-frame sampling in Python is dominated by per-call overhead, so a clip is never sampled channel
by channel: one ``searchsorted`` finds every channel's region (``keyframes.BandedSearch``), one
gather fetches each region's data, and one expression evaluates every mode.

Every region is written as a function of d = t − start (seconds into the region):

* cubic regions (STEP, LINEAR lerp, Hermite, Catmull-Rom, and the held values before/after the keys):
  ``c0 + c1·d + c2·d² + c3·d³`` with ω = 0;
* slerp regions (LINEAR rotations): ``q0·cos(ωd) + K·sin(ωd)`` with ω = θ/Δt and
  K = (q1 − q0 cos θ)/sin θ, the unit tangent of the great arc — the same curve as Appendix C's
  ``sin((1−u)θ)/sin θ · q0 + sin(uθ)/sin θ · q1``.

So the basis row is ``[cos ωd, sin ωd + P·d, d², d³]`` (P = 1 on cubic regions, where ω = 0) and
``value = Σ_b basis[b] · coef[b]`` for both kinds.

Playback moves forward in small steps, so the last regions are cached with the time window in which
none of them changes; a frame inside that window skips the search and the gathers.
"""
from __future__ import annotations

from typing import Sequence

import numpy as np

from viewer import math3d
from viewer.animation import modes
from viewer.animation.keyframes import BandedSearch

# Columns of the per-region segment table: polynomial origin (s), the times the region covers
# [LO, HI), slerp rate ω (rad/s), P (1 on cubic regions), and "renormalize the quaternion".
START, LO, HI, OMEGA, POLY, NORM = range(6)
_COLS = 6


def _hold(value: np.ndarray, width: int, lo: float, hi: float) -> tuple[np.ndarray, np.ndarray]:
    """A constant region over [lo, hi): coef [value, 0, 0, 0] (origin 0 keeps d finite)."""
    coef = np.zeros((1, 4, width))
    coef[0, 0, : value.shape[0]] = value
    seg = np.array([[0.0, lo, hi, 0.0, 1.0, 0.0]])
    return coef, seg


def _slerp_coefficients(iv: modes.Intervals, dt: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Rows q0 and K of the cos/sin form, and ω; K stays exact for tiny θ (no 1 − cos θ cancellation)."""
    q0, q1 = iv.coef[:, 0], iv.coef[:, 1]
    theta = iv.slerp_theta[:, None]
    k = ((q1 - q0) + q0 * (2.0 * np.sin(0.5 * theta) ** 2)) / np.sin(theta)
    coef = np.zeros_like(iv.coef)
    coef[:, 0], coef[:, 1] = q0, k
    return coef, iv.slerp_theta / dt


def channel_regions(curve: modes.Curve, mode: str, width: int) -> tuple[np.ndarray, np.ndarray]:
    """Regions (n + 1) of one channel: hold-first, the n − 1 intervals, hold-last.

    Returns:
        coef (n + 1, 4, width) and seg (n + 1, 6) — see the column names above.
    """
    times = np.asarray(curve.times, dtype=np.float64)
    values = np.asarray(curve.values, dtype=np.float64)
    if curve.rotation:
        values = math3d.quat_normalize(values)
    first = _hold(values[0], width, -np.inf, times[0])
    last = _hold(values[-1], width, times[-1], np.inf)
    if times.shape[0] == 1:
        return np.concatenate([first[0], last[0]]), np.concatenate([first[1], last[1]])
    iv = modes.intervals(mode, curve)
    dt = np.diff(times)
    seg = np.zeros((dt.shape[0], _COLS))
    seg[:, START], seg[:, LO], seg[:, HI] = times[:-1], times[:-1], times[1:]
    if iv.slerp_theta is not None:
        raw, seg[:, OMEGA] = _slerp_coefficients(iv, dt)
    else:
        inv = 1.0 / dt
        raw = iv.coef * np.stack([np.ones_like(inv), inv, inv**2, inv**3], axis=1)[:, :, None]
        seg[:, POLY] = 1.0
    seg[:, NORM] = float(iv.normalize)
    coef = np.zeros((dt.shape[0], 4, width))
    coef[:, :, : raw.shape[2]] = raw
    return np.concatenate([first[0], coef, last[0]]), np.concatenate([first[1], seg, last[1]])


class ChannelTable:
    """Every channel of a clip in one mode, ready to evaluate at one time or many.

    Args:
        curves: one curve per channel.
        mode: an interpolation mode from ``modes.MODES``.
    """

    def __init__(self, curves: Sequence[modes.Curve], mode: str) -> None:
        self.widths = np.array([c.values.shape[1] for c in curves], dtype=np.int64)
        self.width = int(self.widths.max(initial=1))
        parts = [channel_regions(c, mode, self.width) for c in curves]
        self.coef = np.concatenate([p[0] for p in parts]) if parts else np.zeros((0, 4, self.width))
        self.seg = np.concatenate([p[1] for p in parts]) if parts else np.zeros((0, _COLS))
        self.search = BandedSearch([c.times for c in curves])
        self.any_norm = bool(np.any(self.seg[:, NORM] != 0.0))
        self._window = (np.inf, -np.inf)  # [lo, hi): times in which the cached regions all hold
        self._cached: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None = None

    def evaluate(self, t: float) -> np.ndarray:
        """Values (C, width) of every channel at time t (seconds); padding columns are 0."""
        lo, hi = self._window
        if not lo <= t < hi:
            self._refill(t)
        seg, coef, start, omega = self._cached
        d = t - start
        x = omega * d
        basis = np.stack([np.cos(x), np.sin(x) + seg[:, POLY] * d, d * d, d * d * d], axis=1)
        out = (basis[:, None, :] @ coef)[:, 0, :]
        return self._normalize(out, seg) if self.any_norm else out

    def _refill(self, t: float) -> None:
        r = self.search.regions(t)
        seg = self.seg[r]
        self._cached = (seg, self.coef[r], np.ascontiguousarray(seg[:, START]),
                        np.ascontiguousarray(seg[:, OMEGA]))
        self._window = (float(seg[:, LO].max(initial=-np.inf)), float(seg[:, HI].min(initial=np.inf)))
        if len(r) == 0:
            self._window = (-np.inf, np.inf)

    def evaluate_batch(self, times: np.ndarray) -> np.ndarray:
        """Values (F, C, width) at many times (F,) in one pass."""
        times = np.asarray(times, dtype=np.float64)
        r = self.search.regions_batch(times)
        seg = self.seg[r]
        d = times[:, None] - seg[..., START]
        x = seg[..., OMEGA] * d
        d2 = d * d
        basis = np.stack([np.cos(x), np.sin(x) + seg[..., POLY] * d, d2, d2 * d], axis=-1)
        out = np.einsum("fcb,fcbw->fcw", basis, self.coef[r])
        return self._normalize(out, seg) if self.any_norm else out

    @staticmethod
    def _normalize(out: np.ndarray, seg: np.ndarray) -> np.ndarray:
        """Renormalize quaternion rows of cubic modes (component-wise Hermite leaves the unit sphere)."""
        norm = np.sqrt(np.einsum("...w,...w->...", out, out))
        scale = 1.0 + seg[..., NORM] * (norm - 1.0)
        return out / np.where(scale > 0.0, scale, 1.0)[..., None]
