"""Where a time falls among a sampler's key times.

Two views of the same search (glTF 2.0 §3.11: before the first key hold the first value, after the
last key hold the last; at exactly a key time, that key):

* ``locate`` names the case explicitly (before-first / exact / between / after-last) for one channel
  and any number of times — what readouts and tests want.
* ``BandedSearch`` finds the *region* of every channel of a clip in one ``np.searchsorted`` call over
  integer key ranks — what playback wants. A channel with ``n`` keys has ``n + 1`` regions: region 0
  is before the first key, region ``k`` (1 ≤ k < n) is ``[t[k-1], t[k])``, region ``n`` is from the
  last key on. Each
  channel's key ranks are shifted into its own band and closed by a sentinel, so the global search
  index *is* the global region index.
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
    """Region index of many channels at once: one scalar search and one ``searchsorted`` per call.

    A time is first located among the union of every channel's key times (its *rank*); each channel's
    keys are stored as their ranks, shifted into the channel's own integer band and closed by a
    sentinel, so one ``searchsorted`` over those integers gives every channel's global region index.
    Ranks are integers, so the answer is exact for any finite time, whatever the magnitudes (a band
    offset added to a float time would round it onto a neighbouring key, or past the table).

    Args:
        channel_times: key times (seconds, strictly increasing, finite) of each channel.
    """

    def __init__(self, channel_times: Sequence[np.ndarray]) -> None:
        self.times = [np.asarray(ts, np.float64) for ts in channel_times]
        self.union = np.unique(np.concatenate(self.times)) if self.times else np.zeros(0)
        last = float(self.union[-1]) if len(self.union) else 0.0
        # Callers may clamp queries to [-margin, hi]: every region beyond holds, so no answer changes,
        # and polynomial arguments stay within one key span of the keys.
        self.margin = 1.0
        self.hi = last + max(self.margin, abs(last) * 1e-15)
        band = len(self.union) + 2
        self.offsets = np.arange(len(self.times), dtype=np.int64) * band
        sentinel = len(self.union)  # above every rank a query can have (−1 … len − 1)
        ranks = [np.searchsorted(self.union, ts) for ts in self.times]
        self.keys = (np.concatenate([np.append(r, sentinel) + off for r, off in zip(ranks, self.offsets)])
                     if self.times else np.zeros(0, np.int64))
        self.bases = np.cumsum([0] + [len(ts) + 1 for ts in self.times])[:-1].astype(np.int64)

    def regions(self, t: float) -> np.ndarray:
        """Global region index (C,) of every channel at one finite time t (seconds)."""
        last_key = int(np.searchsorted(self.union, t, side="right")) - 1  # rank of the last key ≤ t
        return np.searchsorted(self.keys, self.offsets + last_key, side="right")

    def regions_batch(self, times: np.ndarray) -> np.ndarray:
        """Global region indices (F, C) at many finite times (F,)."""
        last_key = np.searchsorted(self.union, np.asarray(times, dtype=np.float64), side="right") - 1
        return np.searchsorted(self.keys, last_key[:, None] + self.offsets[None, :], side="right")
