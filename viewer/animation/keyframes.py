"""Where a time falls among key times: the one search every evaluator in ``table.py`` uses.

glTF 2.0 §3.11 fixes the answer at the edges: before the first key hold the first value, after the last
key hold the last, and at exactly a key time take that key. So a channel with ``n`` keys has ``n + 1``
*regions*: region 0 is before the first key, region ``k`` (1 ≤ k < n) is ``[t[k-1], t[k])`` and region
``n`` is from the last key on — the local region is simply "how many keys are ≤ t", which gives all
three rules at once (a time equal to key k is in the region that starts at key k).

A clip's channels have different key times, so a time is first located among the union of all of them
(its *window*: how many union keys are ≤ t, so the windows are the half-open spans between consecutive
union keys, plus one before and one after). Inside a window no channel changes region, which is what
the per-frame cache keys on. Every channel's keys are stored as integer union ranks, so turning a window
into regions is an integer search: exact for any finite time whatever the magnitudes (a band offset added
to a float time would round it onto a neighbouring key, or past the table).
"""

from __future__ import annotations

import bisect
from typing import Sequence

import numpy as np


class BandedSearch:
    """Windows and regions of every channel of a clip.

    The search is done once, on the union of key times (``window`` for one time, ``windows`` for many);
    ``regions`` then gives every channel's region in one ``searchsorted`` over the channels' key ranks,
    each channel shifted into its own integer band and closed by a sentinel, so the global search index
    *is* the global region index (channel c's regions start at ``bases[c]``).

    Args:
        channel_times: key times (seconds, strictly increasing, finite) of each channel.
    """

    def __init__(self, channel_times: Sequence[np.ndarray]) -> None:
        times = [np.asarray(ts, np.float64) for ts in channel_times]
        self.union = np.unique(np.concatenate(times)) if times else np.zeros(0)
        # Playback asks for one time at each window change: bisect on a list costs a fraction of a numpy
        # call, with the same float comparisons.
        self._union_list = self.union.tolist()
        last = float(self.union[-1]) if len(self.union) else 0.0
        # Callers may clamp queries to [-margin, hi]: every region beyond holds, so no answer changes,
        # and polynomial arguments stay within one key span of the keys.
        self.margin = 1.0
        self.hi = last + max(self.margin, abs(last) * 1e-15)
        # Every channel's keys ranked in one search, then cut per channel (views of one array): a rig of
        # 10 000 channels costs a few numpy calls here, not a few per channel.
        lengths = np.array([len(ts) for ts in times], dtype=np.int64)
        starts = np.cumsum(lengths) - lengths
        ranks = np.searchsorted(self.union, np.concatenate(times)) if times else np.zeros(0, np.int64)
        self.ranks = np.split(ranks, np.cumsum(lengths)[:-1]) if times else []  # per channel, its union ranks
        # A channel keyed at every union time (the usual case: one shared input accessor) has its
        # region equal to the window, with no second search.
        in_order = ranks == np.arange(len(ranks)) - np.repeat(starts, lengths)
        every = np.logical_and.reduceat(in_order, starts) if times else np.zeros(0, bool)
        self._every_key = ((lengths == len(self.union)) & every).tolist()
        band = len(self.union) + 2
        offsets = np.arange(len(times), dtype=np.int64) * band
        sentinel = len(self.union)  # not below any window (0 … len), so never counted
        self.keys = np.empty(len(ranks) + len(times), np.int64)
        ends = np.cumsum(lengths + 1) - 1  # each channel's sentinel, after its keys
        self.keys[ends] = sentinel + offsets
        self.keys[np.arange(len(ranks)) + np.repeat(np.arange(len(times)), lengths)] = ranks + np.repeat(
            offsets, lengths
        )
        self.bases = np.cumsum([0] + [len(ts) + 1 for ts in times])[:-1].astype(np.int64)
        self.offsets = offsets

    def window(self, t: float) -> int:
        """How many union key times are ≤ t (seconds): 0 before the first key, ``len(union)`` from the last."""
        return bisect.bisect_right(self._union_list, t)

    def windows(self, times: np.ndarray) -> np.ndarray:
        """``window`` of each of many times (any shape)."""
        return np.searchsorted(self.union, np.asarray(times, dtype=np.float64), side="right")

    def regions(self, window: int | np.ndarray) -> np.ndarray:
        """Global region index of every channel in one window (C,) or in each of F windows (F, C)."""
        # A key is ≤ every time of window w exactly when its rank is < w: count those in each band.
        return np.searchsorted(self.keys, np.add.outer(window, self.offsets), side="left")

    def local_regions(self, windows: np.ndarray, channel: int) -> np.ndarray:
        """Region of one channel (0 … n) in each window, shaped like ``windows`` — for channels that share
        their key times, one search serves them all."""
        if self._every_key[channel]:
            return np.asarray(windows)
        return np.searchsorted(self.ranks[channel], windows, side="left")
