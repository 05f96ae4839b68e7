"""Where a time falls among a sampler's key times.

Two views of the same search (glTF 2.0 §3.11: before the first key hold the first value, after the
last key hold the last; at exactly a key time, that key):

* ``locate`` names the case explicitly (before-first / exact / between / after-last) for one channel
  and any number of times — what readouts and tests want.
* ``BandedSearch`` finds the *region* of every channel of a clip in one ``np.searchsorted`` call —
  what playback wants. A channel with ``n`` keys has ``n + 1`` regions: region 0 is before the first
  key, region ``k`` (1 ≤ k < n) is ``[t[k-1], t[k])``, region ``n`` is from the last key on. Each
  channel's keys are shifted into its own band of the time axis and closed by a sentinel key, so
  the global search index *is* the global region index.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

BEFORE, EXACT, BETWEEN, AFTER = 0, 1, 2, 3
CASE_NAMES = ("before-first", "exact", "between", "after-last")


@dataclass(frozen=True)
class KeyLocation:
    """Result of ``locate``; arrays have the shape of the query times.

    Attributes:
        case: BEFORE / EXACT / BETWEEN / AFTER per time.
        index: the key at or before t (0 before the first key, n-1 after the last).
        u: fraction (0..1) of the way from key ``index`` to key ``index + 1``; 0 unless BETWEEN.
    """

    case: np.ndarray
    index: np.ndarray
    u: np.ndarray


def locate(times: np.ndarray, t: float | np.ndarray) -> KeyLocation:
    """Locate time(s) t (seconds) among strictly increasing key times (n,)."""
    times = np.asarray(times, dtype=np.float64)
    t = np.asarray(t, dtype=np.float64)
    n = times.shape[0]
    right = np.searchsorted(times, t, side="right")  # keys <= t
    index = np.clip(right - 1, 0, n - 1)
    exact = (right > 0) & (times[index] == t)
    after = (right == n) & ~exact
    before = right == 0
    case = np.select([before, exact, after], [BEFORE, EXACT, AFTER], BETWEEN)
    nxt = np.minimum(index + 1, n - 1)
    span = times[nxt] - times[index]
    between = case == BETWEEN
    u = np.where(between, (t - times[index]) / np.where(between, span, 1.0), 0.0)
    return KeyLocation(case=case, index=index, u=u)


class BandedSearch:
    """Region index of many channels at once, one ``searchsorted`` per call.

    Adding a channel's band offset can round a query that lies within ~1e-16 × offset of a key onto
    the key itself, so every answer is checked against its region's [lo, hi) and the rare miss is
    searched again in that channel alone: the result is exact.

    Args:
        channel_times: key times (seconds, strictly increasing, ≥ 0) of each channel.
    """

    def __init__(self, channel_times: Sequence[np.ndarray]) -> None:
        self.times = [np.asarray(ts, np.float64) for ts in channel_times]
        last = max((float(ts[-1]) for ts in self.times), default=0.0)
        # Queries are clamped to [-margin, last + margin]; every region beyond holds, so no answer changes.
        self.margin = 1.0
        self.band = float(2.0 ** np.ceil(np.log2(last + 4.0 * self.margin)))
        self.hi = last + self.margin
        self.offsets = np.arange(len(self.times), dtype=np.float64) * self.band
        sentinel = last + 2.0 * self.margin
        self.keys = np.concatenate([np.append(ts, sentinel) + off for ts, off in zip(self.times, self.offsets)]
                                   ) if self.times else np.zeros(0)
        self.bases = np.cumsum([0] + [len(ts) + 1 for ts in self.times])[:-1].astype(np.int64)
        inf = np.array([np.inf])
        self.region_lo = np.concatenate([np.concatenate([-inf, ts]) for ts in self.times]) if self.times else inf
        self.region_hi = np.concatenate([np.concatenate([ts, inf]) for ts in self.times]) if self.times else inf

    def regions(self, t: float) -> np.ndarray:
        """Global region index (C,) of every channel at one time t (seconds)."""
        r = np.searchsorted(self.keys, self.offsets + min(max(t, -self.margin), self.hi), side="right")
        bad = (t < self.region_lo[r]) | (t >= self.region_hi[r])
        if bad.any():
            for c in np.flatnonzero(bad):
                r[c] = self.bases[c] + np.searchsorted(self.times[c], t, side="right")
        return r

    def regions_batch(self, times: np.ndarray) -> np.ndarray:
        """Global region indices (F, C) at many times (F,)."""
        t = np.asarray(times, dtype=np.float64)
        q = np.clip(t, -self.margin, self.hi)[:, None] + self.offsets[None, :]
        r = np.searchsorted(self.keys, q, side="right")
        bad = (t[:, None] < self.region_lo[r]) | (t[:, None] >= self.region_hi[r])
        for f, c in zip(*np.nonzero(bad)):
            r[f, c] = self.bases[c] + np.searchsorted(self.times[c], t[f], side="right")
        return r
