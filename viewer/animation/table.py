"""All channels of a clip packed into flat region tables, evaluated together.

Per-frame sampling in Python is dominated by per-call overhead, so a clip is never sampled channel
by channel: one search finds every channel's region (``keyframes.BandedSearch``, the only place that
decides where a time falls among keys), one gather fetches each region's data, and one expression
evaluates every mode.

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

from dataclasses import replace
from typing import Sequence

import numpy as np

from viewer import fast
from viewer.animation import modes
from viewer.animation.keyframes import BandedSearch
from viewer.base import math3d

# Columns of the per-region segment table: polynomial origin (s), the times the region covers
# [LO, HI), slerp rate ω (rad/s), P (1 on cubic regions). (Renormalizing is per channel: ``norm``.)
START, LO, HI, OMEGA, POLY = range(5)
_COLS = 5
# Values per batch chunk (F_chunk × C × W): small enough that temporaries are reused from cache.
CHUNK_VALUES = 16384
# Channels built in one batch at most (their keys × width bound the batch's temporaries).
GROUP_CHANNELS = 4096
# Regions built in one batch at most: a batch's temporaries are ~10 float64 rows of 4 × W per region, so 60
# channels of 7 200 keys in one batch peaked at 200 MB for a 46 MB table.
GROUP_REGIONS = 1 << 17
# Frame caches kept per clip and mode (one per window between consecutive key times), and their memory.
MAX_CACHED_WINDOWS = 4096
FRAME_CACHE_BYTES = 32 << 20


def _slerp_coefficients(iv: modes.Intervals, dt: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Rows q0 and K of the cos/sin form, and ω; K stays exact for tiny θ (no 1 − cos θ cancellation)."""
    q0, q1 = iv.coef[..., 0, :], iv.coef[..., 1, :]
    theta = iv.slerp_theta[..., None]
    k = ((q1 - q0) + q0 * (2.0 * np.sin(0.5 * theta) ** 2)) / np.sin(theta)
    coef = np.zeros_like(iv.coef)
    coef[..., 0, :], coef[..., 1, :] = q0, k
    return coef, iv.slerp_theta / dt


def group_regions(curves: Sequence[modes.Curve], mode: str, width: int) -> tuple[np.ndarray, np.ndarray, bool]:
    """Regions (n + 1 each) of G channels of one kind (``region_kind``): hold-first, the n − 1 intervals,
    hold-last — worked out for all G at once, as one (G, n, W) batch of curves.

    Returns:
        coef (G, n + 1, 4, width), seg (G, n + 1, 5) — see the column names above — and whether the mode's
        values are quaternions to renormalize.
    """
    first = curves[0]
    times = np.stack([np.asarray(c.times, dtype=np.float64) for c in curves])
    values = np.stack([np.asarray(c.values, dtype=np.float64) for c in curves])
    g, n, w = values.shape
    held = math3d.quat_normalize(values) if first.rotation and not first.raw_keys else values
    coef = np.zeros((g, n + 1, 4, width))
    seg = np.zeros((g, n + 1, _COLS))
    coef[:, 0, 0, :w], coef[:, -1, 0, :w] = held[:, 0], held[:, -1]
    seg[:, 0, LO], seg[:, 0, HI], seg[:, 0, POLY] = -np.inf, times[:, 0], 1.0
    seg[:, -1, LO], seg[:, -1, HI], seg[:, -1, POLY] = times[:, -1], np.inf, 1.0
    if n == 1:
        return coef, seg, False
    tangents = [None, None]
    if first.in_tangents is not None:
        tangents = [np.stack([np.asarray(t, np.float64) for t in ts]) for ts in _tangents(curves)]
    signs = None if first.signs is None else np.stack([c.signs for c in curves])
    batch = replace(first, times=times, values=values, in_tangents=tangents[0], out_tangents=tangents[1], signs=signs)
    iv = modes.intervals(mode, batch)
    dt = np.diff(times, axis=-1)
    inner = seg[:, 1:-1]
    inner[..., START], inner[..., LO], inner[..., HI] = times[:, :-1], times[:, :-1], times[:, 1:]
    if iv.slerp_theta is not None:
        raw, inner[..., OMEGA] = _slerp_coefficients(iv, dt)
        if iv.lerped is not None:  # component-wise intervals: c0 + c1·d as on polynomial rows, renormalized
            lerp = iv.coef * np.stack([np.ones_like(dt), 1.0 / dt, np.zeros_like(dt), np.zeros_like(dt)], -1)[..., None]
            raw = np.where(iv.lerped[..., None, None], lerp, raw)
            inner[..., OMEGA] = np.where(iv.lerped, 0.0, inner[..., OMEGA])
            inner[..., POLY] = np.where(iv.lerped, 1.0, 0.0)
    else:
        inv = 1.0 / dt
        raw = iv.coef * np.stack([np.ones_like(inv), inv, inv**2, inv**3], axis=-1)[..., None]
        inner[..., POLY] = 1.0
    coef[:, 1:-1, :, : raw.shape[-1]] = raw
    return coef, seg, bool(iv.normalize)


def _tangents(curves: Sequence[modes.Curve]) -> tuple[list, list]:
    return [c.in_tangents for c in curves], [c.out_tangents for c in curves]


def region_kind(curve: modes.Curve, mode: str) -> tuple:
    """Channels with the same kind are built in one batch: same concrete mode, key count, width and flags."""
    tangents = curve.in_tangents is not None
    kind = modes.resolve(mode, curve), len(curve.times), curve.values.shape[1], curve.rotation, tangents
    return kind + (curve.lerp_above, curve.lerp_renormalized, curve.raw_keys, curve.signs is not None)


class ChannelTable:
    """Every channel of a clip in one mode, ready to evaluate at one time or many.

    Args:
        curves: one curve per channel.
        mode: an interpolation mode from ``modes.MODES``.
    """

    def __init__(self, curves: Sequence[modes.Curve], mode: str) -> None:
        self.widths = np.array([c.values.shape[1] for c in curves], dtype=np.int64)
        self.width = int(self.widths.max(initial=1))
        self.key_times = [np.asarray(c.times, dtype=np.float64) for c in curves]
        self.search = BandedSearch(self.key_times)
        self._plan = None  # the compiled kernels' view of this table (``fast.plan.TablePlan``), on first use
        # Every channel's regions written straight into the table (no per-channel arrays to concatenate):
        # a 40 000-channel clip has a million regions, and its table is the largest thing a clip holds.
        # Coefficients are stored (P, R, W) so each power's rows are contiguous for the batch gathers, and
        # P = 2 (c0, c1) until a channel has a cubic region: LINEAR, STEP and slerp tables need half.
        regions = int(sum(len(t) + 1 for t in self.key_times))
        self.coefs = np.zeros((2, regions, self.width))
        self.seg = np.zeros((regions, _COLS))
        self.norm = np.zeros(len(curves))  # per channel: 1 where its quaternions need renormalizing
        # Channels of one kind (``region_kind``) are built together: a 10 000-channel rig has a handful of kinds.
        kinds: dict[tuple, list[int]] = {}
        for c, curve in enumerate(curves):
            kinds.setdefault(region_kind(curve, mode), []).append(c)
        bases = self.search.bases
        for members in kinds.values():
            step = max(1, min(GROUP_CHANNELS, GROUP_REGIONS // (len(curves[members[0]].times) + 1)))
            for lo in range(0, len(members), step):
                part = members[lo : lo + step]
                coef, seg, normalize = group_regions([curves[c] for c in part], mode, self.width)
                if len(self.coefs) == 2 and np.any(coef[:, :, 2:] != 0.0):
                    self.coefs = np.concatenate([self.coefs, np.zeros_like(self.coefs)])
                rows = (bases[part][:, None] + np.arange(seg.shape[1])).reshape(-1)
                self.coefs[:, rows] = coef.reshape(-1, 4, self.width).transpose(1, 0, 2)[: len(self.coefs)]
                self.seg[rows] = seg.reshape(-1, _COLS)
                self.norm[part] = float(normalize)
        self.any_norm = bool(self.norm.any())
        self.any_slerp = bool(np.any(self.seg[:, OMEGA] != 0.0))
        self._window = (np.inf, -np.inf)  # [lo, hi): times in which the cached regions all hold
        self._frame: FrameCache | None = None
        # Between two consecutive key times of the whole clip no channel changes region, so a
        # FrameCache depends only on that window's index: playback loops, so they are kept, up to a
        # memory budget (one window holds every channel's current region).
        self._frames: dict[int, FrameCache] = {}
        self._max_frames = max(1, min(MAX_CACHED_WINDOWS, FRAME_CACHE_BYTES // max(1, 48 * len(curves) * self.width)))
        self._groups: BatchGroups | None = None  # built on the first batch evaluation

    @property
    def coef(self) -> np.ndarray:
        """Coefficients (R, 4, W) per region (zeros where ``coefs`` holds no cubic rows)."""
        full = self.coefs if len(self.coefs) == 4 else np.concatenate([self.coefs, np.zeros_like(self.coefs)])
        return full.transpose(1, 0, 2)

    def evaluate(self, t: float) -> np.ndarray:
        """Values (C, width) of every channel at time t (seconds); padding columns are 0."""
        k = fast.active()
        if k is not None:
            return (self._plan or self.plan()).sample(k, t)
        # Beyond the keys every channel holds, so clamping changes no value and keeps τ³ finite.
        t = min(max(t, -self.search.margin), self.search.hi)
        lo, hi = self._window
        if not lo <= t < hi:
            self._frame = self._frame_at(t)
            self._window = self._frame.window
        f = self._frame
        tau = t - f.origin
        out = f.poly @ np.array((1.0, tau, tau * tau, tau * tau * tau))
        if self.any_slerp:
            # Re[(a − ib)·e^{iωτ}] = a·cos ωτ + b·sin ωτ: one exp instead of cos, sin and two products.
            out += (f.ab * np.exp(f.iomega * tau)[:, None]).real
        return _normalize(out, self.norm) if self.any_norm else out

    def plan(self):
        """This table packed for the compiled kernels (``fast.plan.TablePlan``), built once."""
        if self._plan is None:
            from viewer.fast.plan import TablePlan

            self._plan = TablePlan(self)
        return self._plan

    def _frame_at(self, t: float) -> FrameCache:
        window = self.search.window(t)
        frame = self._frames.get(window)
        if frame is None:
            if len(self._frames) >= self._max_frames:
                self._frames.clear()
            frame = self._frames[window] = FrameCache(self, window, t)
        return frame

    def evaluate_batch(self, times: np.ndarray) -> np.ndarray:
        """Values (F, C, width) at many times (F,) in one pass."""
        times = np.asarray(times, dtype=np.float64)
        k = fast.active()
        if k is not None:
            out = np.empty((times.shape[0], len(self.widths), self.width))
            self.plan().sample_batch(k, np.ascontiguousarray(times), out)  # normalized by the kernel
            return out
        times = np.clip(times, -self.search.margin, self.search.hi)
        if self._groups is None:
            self._groups = BatchGroups(self.key_times, self.coefs, self.seg, self.search)
        out = self._groups.evaluate(times, len(self.widths), self.width)
        return _normalize(out, self.norm) if self.any_norm else out


class FrameCache:
    """The regions current at one time, written over one common origin.

    Within ``window`` no channel changes region, so every cubic is a polynomial in τ = t − origin and
    every slerp is Re[(q0 − iK)·e^{iωτ}]: a frame then costs one small matmul with the scalar basis
    [1, τ, τ², τ³] plus one complex exp for slerp rows. When a channel's region began before the
    window (channels with different key times), its cubic is Taylor-shifted and its slerp phase folded in.

    Args:
        table: the clip's table.
        window: ``table.search.window(t)``, the span between union key times that t lies in.
        t: a time in that window (seconds): the origin when every channel is still before its first key.
    """

    def __init__(self, table: ChannelTable, window: int, t: float) -> None:
        r = table.search.regions(window)
        seg = np.take(table.seg, r, axis=0)
        lo = float(seg[:, LO].max(initial=-np.inf))
        hi = float(seg[:, HI].min(initial=np.inf))
        self.window = (lo, hi) if len(r) else (-np.inf, np.inf)
        self.origin = lo if np.isfinite(lo) else float(t)
        self.iomega = 1j * seg[:, OMEGA]
        # Cubic coefficients (C, W, 4) for a matmul with [1, τ, τ², τ³], and slerp's rows as q0 − iK:
        # Re[(q0 − iK)·e^{iωτ}] = q0·cos ωτ + K·sin ωτ, and a phase shift φ is a product with e^{iφ}
        # (zero where the other kind of region is).
        rows = np.take(table.coefs, r, axis=1)
        if len(rows) == 2:
            rows = np.concatenate([rows, np.zeros_like(rows)])
        poly = (seg[:, POLY] != 0.0)[:, None]
        self.poly = np.ascontiguousarray(np.where(poly[None], rows, 0.0).transpose(1, 2, 0))
        self.ab = np.where(poly, 0.0, rows[0] - 1j * rows[1])
        delta = self.origin - seg[:, START]
        moved = (delta != 0.0) & (seg[:, LO] > -np.inf)
        if moved.any():
            d = (delta * moved)[:, None]
            c0, c1, c2, c3 = (self.poly[..., k] for k in range(4))
            self.poly = np.stack(
                [c0 + d * (c1 + d * (c2 + d * c3)), c1 + d * (2.0 * c2 + 3.0 * d * c3), c2 + 3.0 * d * c3, c3], axis=2
            )
            self.ab = self.ab * np.exp(self.iomega[:, None] * d)


class BatchGroups:
    """Channels grouped by shared key times, split by formula kind, for many times at once.

    Exported clips usually share one input accessor across many channels, so one region search per
    group serves them all, and d = t − region start is one (F,) vector per group.
    """

    def __init__(self, key_times, coefs: np.ndarray, seg: np.ndarray, search: BandedSearch) -> None:
        self.search = search
        self.c = list(coefs)  # (R, W) each, contiguous: c0, c1 (and c2, c3 when the table has cubics)
        self.omega = np.ascontiguousarray(seg[:, OMEGA])
        self.poly = np.ascontiguousarray(seg[:, POLY])
        self.groups: list[tuple[int, np.ndarray, list[tuple[str, np.ndarray, np.ndarray]]]] = []
        by_times: dict[bytes, list[int]] = {}
        for i, times in enumerate(key_times):
            by_times.setdefault(times.tobytes(), []).append(i)
        bases = np.append(search.bases, len(seg))
        for members in by_times.values():
            origin = seg[bases[members[0]] : bases[members[0] + 1], START]
            kinds: dict[str, list[int]] = {}
            for i in members:
                lo, hi = bases[i], bases[i + 1]
                kind = (
                    "slerp"
                    if np.any(seg[lo:hi, OMEGA] != 0.0)
                    else ("cubic" if np.any(coefs[2:, lo:hi] != 0.0) else "linear")
                )
                if kind == "slerp" and np.any((seg[lo:hi, POLY] != 0.0) & np.any(coefs[1, lo:hi] != 0.0, axis=-1)):
                    kind = "mixed"  # slerp rows and component-wise rows (``Curve.lerp_above``) in one channel
                kinds.setdefault(kind, []).append(i)
            subsets = [(k, _slice_if_consecutive(v), bases[np.array(v)]) for k, v in kinds.items()]
            self.groups.append((members[0], origin, subsets))

    def evaluate(self, times: np.ndarray, channels: int, width: int) -> np.ndarray:
        """Values (F, C, width), computed in frame chunks whose temporaries stay cache-sized
        (large numpy temporaries are fresh pages every time, which costs more than the arithmetic)."""
        out = np.empty((times.shape[0], channels, width))
        step = max(1, CHUNK_VALUES // max(1, channels * width))
        for lo in range(0, times.shape[0], step):
            self._evaluate_into(times[lo : lo + step], out[lo : lo + step])
        return out

    def _evaluate_into(self, times: np.ndarray, out: np.ndarray) -> None:
        # np.take gathers rows an order of magnitude faster than fancy indexing on these shapes.
        # (Measured: plain expressions beat in-place ufuncs writing into the strided output here.)
        c0, c1 = self.c[:2]
        c2, c3 = self.c[2:] or (None, None)  # only "cubic" subsets read them, and they exist only with cubics
        windows = self.search.windows(times)
        for first, origin, subsets in self.groups:
            j = self.search.local_regions(windows, first)
            d = (times - np.take(origin, j))[:, None]
            for kind, where, base in subsets:
                r = base[None, :] + j[:, None]
                if kind == "linear":
                    out[:, where] = np.take(c0, r, axis=0) + np.take(c1, r, axis=0) * d[..., None]
                elif kind in ("slerp", "mixed"):
                    x = np.take(self.omega, r) * d
                    s = np.sin(x) + np.take(self.poly, r) * d if kind == "mixed" else np.sin(x)
                    out[:, where] = (
                        np.take(c0, r, axis=0) * np.cos(x)[..., None] + np.take(c1, r, axis=0) * s[..., None]
                    )
                else:
                    dd = d[..., None]
                    out[:, where] = np.take(c0, r, axis=0) + dd * (
                        np.take(c1, r, axis=0) + dd * (np.take(c2, r, axis=0) + dd * np.take(c3, r, axis=0))
                    )


def _slice_if_consecutive(channels: list[int]) -> slice | np.ndarray:
    """A slice when the channels are consecutive (a view to write into), else an index array."""
    if channels == list(range(channels[0], channels[-1] + 1)):
        return slice(channels[0], channels[-1] + 1)
    return np.array(channels)


def _normalize(out: np.ndarray, norm: np.ndarray) -> np.ndarray:
    """Renormalize quaternion rows of cubic modes (component-wise Hermite leaves the unit sphere)."""
    length = np.sqrt(np.einsum("...w,...w->...", out, out))
    scale = 1.0 + norm * (length - 1.0)
    return out / np.where(scale > 0.0, scale, 1.0)[..., None]
