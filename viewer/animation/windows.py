"""Long clips sampled through small tables: a window of keys at a time, or just the keys some times need.

A ``ChannelTable`` holds ~100 bytes per key per channel (float64 coefficients and segment rows), six times
what a LINEAR quaternion key takes in the file: an hour of a 60-joint take at 60 fps would hold 1.4 GB and
take seconds to build before the first frame. So a clip with more regions than ``LONG_REGIONS`` gets a
``WindowedTable``: the clip's union key times are cut into windows of about ``WINDOW_REGIONS`` regions, and
each window's table is built from the channels' keys cut to that window (a few milliseconds), when a time
in it is first asked for; a few are kept, least recently used first out.

Cutting is exact. A region's coefficients depend only on its own two keys and, for Catmull-Rom, on the
keys on either side, so a cut keeps one more key on each side than the window needs. The one thing that
reaches further is the sign a cubic mode gives each rotation key (``modes.same_hemisphere`` flips keys to
follow the previous one, all the way from the first): a cut's keys get the whole curve's signs first
(``signs``, computed once per channel) in ``Curve.signs``, which the cubic modes then use.

Many times at once (bounds, trails, checks) go window by window where a window holds many of them, and
otherwise through one table of just the keys those times need — each time's interval with its neighbours —,
so sampling a thousand times spread over an hour builds a thousand intervals per channel, not the hour.
"""

from __future__ import annotations

import bisect
from collections import OrderedDict
from dataclasses import replace
from typing import Sequence

import numpy as np

from viewer.animation import modes
from viewer.animation.table import ChannelTable

LONG_REGIONS = 1 << 18  # a clip with more regions than this (~27 MB of table) is sampled by windows
WINDOW_REGIONS = 1 << 14  # regions per window table (~1.7 MB, built in 5–15 ms; 4.5 s of a 61-channel take)
MIN_WINDOW_KEYS = 64  # union keys per window at least, however many channels
KEPT_WINDOWS = 4  # window tables kept (playback at a window's end, a scrub back and forth)
SIGN_CHUNK = 1 << 16  # keys per pass when working out a rotation curve's signs


def is_long(curves: Sequence[modes.Curve]) -> bool:
    """Whether a clip's table would be large enough to be built a window at a time."""
    regions = sum(len(c.times) + 1 for c in curves)
    if regions <= LONG_REGIONS:
        return False
    per = _keys_per_window(len(curves))
    return max(len(c.times) for c in curves) > 4 * per


def _keys_per_window(channels: int) -> int:
    return max(MIN_WINDOW_KEYS, WINDOW_REGIONS // max(1, channels))


class WindowedTable:
    """A ``ChannelTable``'s interface (``evaluate``, ``evaluate_batch``, ``width``, ``widths``, ``key_times``)
    over tables of a window of keys each.

    Args:
        curves: one curve per channel.
        mode: an interpolation mode from ``modes.MODES``.
        union: the sorted union of the curves' key times, if the caller has it (``Clip.key_times``).
    """

    def __init__(self, curves: Sequence[modes.Curve], mode: str, union: np.ndarray | None = None) -> None:
        self.curves, self.mode = list(curves), mode
        self.widths = np.array([c.values.shape[1] for c in curves], dtype=np.int64)
        self.width = int(self.widths.max(initial=1))
        self.key_times = [np.asarray(c.times, dtype=np.float64) for c in curves]
        # Channels sharing one times array are cut by one search.
        self._groups: dict[int, tuple[np.ndarray, list[int]]] = {}
        for c, times in enumerate(self.key_times):
            self._groups.setdefault(id(times), (times, []))[1].append(c)
        if union is None:
            union = np.unique(np.concatenate([t for t, _ in self._groups.values()]))
        per = _keys_per_window(len(curves))
        self.edges = np.asarray(union[per::per], dtype=np.float64)  # window w: [edges[w-1], edges[w])
        self._edge_list = self.edges.tolist()
        self._tables: OrderedDict[int, ChannelTable] = OrderedDict()
        self._last = 0  # the window of the last single time asked for
        self._signs: dict[int, np.ndarray] = {}
        self._aligned = [modes.resigns(mode, c) for c in curves]
        # The keys one time needs, around the key j at or before it: its interval's two, and for Catmull-Rom
        # (tangents from both neighbouring intervals) one more on each side.
        catmull = any(modes.resolve(mode, c) == "catmull-rom" for c in curves)
        self._stencil = np.arange(-1, 3) if catmull else np.arange(0, 2)

    @property
    def windows(self) -> int:
        return len(self.edges) + 1

    def window_of(self, t: float) -> int:
        """The window holding time t (seconds): a bisect, cheap enough for every frame."""
        return bisect.bisect_right(self._edge_list, t)

    def window(self, w: int) -> ChannelTable:
        """Window w's table, built on first use."""
        table = self._tables.get(w)
        if table is not None:
            self._tables.move_to_end(w)
            return table
        lo = -np.inf if w == 0 else float(self.edges[w - 1])
        hi = np.inf if w >= len(self.edges) else float(self.edges[w])
        table = self._cut_table(lambda times: _span(times, lo, hi))
        self._tables[w] = table
        while len(self._tables) > KEPT_WINDOWS:
            self._tables.popitem(last=False)
        return table

    def plan(self):
        """The compiled kernels' view of the first window (``FramePlan`` rebinds windows as time moves)."""
        return self.window(0).plan()

    def table_for(self, t: float) -> tuple[int | None, ChannelTable]:
        """A table that holds time t, and its window (None: a table of just the keys t needs, for this once).

        Playback moves into the next window: it is built. A scrub that jumps past the neighbouring windows
        gets a table of t's own keys (a millisecond, not the window's ten): the window is built only if the
        next time asked for is in it again.
        """
        w = self.window_of(t)
        if w not in self._tables and abs(w - self._last) > 1:
            self._last = w
            return None, self._cut_table(lambda keys: _around(keys, np.array([t]), self._stencil))
        self._last = w
        return w, self.window(w)

    def evaluate(self, t: float) -> np.ndarray:
        """Values (C, width) of every channel at time t (seconds)."""
        return self.table_for(t)[1].evaluate(t)

    def evaluate_batch(self, times: np.ndarray) -> np.ndarray:
        """Values (F, C, width) at many times: by window where a window holds many of them (its table costs
        about as much as that many times' own intervals), the rest through tables of just their keys."""
        times = np.asarray(times, dtype=np.float64).reshape(-1)
        out = np.empty((len(times), len(self.curves), self.width))
        which = np.searchsorted(self.edges, times, side="right")
        order = np.argsort(which, kind="stable")
        found, starts, counts = np.unique(which[order], return_index=True, return_counts=True)
        per_time = len(self._stencil) * len(self.curves)  # regions a time's own keys take
        scattered = []
        for w, s, n in zip(found.tolist(), starts.tolist(), counts.tolist()):
            rows = order[s : s + n]
            if w in self._tables or n * per_time >= WINDOW_REGIONS:
                out[rows] = self.window(w).evaluate_batch(times[rows])
            else:
                scattered.append(rows)
        if scattered:
            rows = np.concatenate(scattered)
            step = max(1, (4 * WINDOW_REGIONS) // per_time)
            for k in range(0, len(rows), step):
                part = rows[k : k + step]
                table = self._cut_table(lambda keys, at=times[part]: _around(keys, at, self._stencil))
                out[part] = table.evaluate_batch(times[part])
        return out

    def _cut_table(self, pick) -> ChannelTable:
        """A table of every curve cut to the key indices ``pick(times)`` chooses (sorted, unique)."""
        cut: list[modes.Curve | None] = [None] * len(self.curves)
        for times, members in self._groups.values():
            keys = pick(times)
            cut_times = times[keys]
            for c in members:
                curve = self.curves[c]
                values = np.asarray(curve.values)[keys]
                cut[c] = replace(
                    curve,
                    times=cut_times,
                    values=values,
                    in_tangents=None if curve.in_tangents is None else np.asarray(curve.in_tangents)[keys],
                    out_tangents=None if curve.out_tangents is None else np.asarray(curve.out_tangents)[keys],
                    signs=self.signs(c)[keys] if self._aligned[c] else None,
                )
        return ChannelTable(cut, self.mode)

    def signs(self, channel: int) -> np.ndarray:
        """±1 per key: the sign ``modes.same_hemisphere`` gives each normalized rotation key of the whole curve."""
        if channel not in self._signs:
            values = np.asarray(self.curves[channel].values)
            flips = np.zeros(len(values), dtype=np.int8)
            for lo in range(1, len(values), SIGN_CHUNK):
                hi = min(len(values), lo + SIGN_CHUNK)
                q = modes.normalized_keys(values[lo - 1 : hi])
                flips[lo:hi] = np.sum(q[1:] * q[:-1], axis=-1) < 0.0
            # The sign of key k is (−1) to the number of flips up to it.
            self._signs[channel] = np.where(np.cumsum(flips, dtype=np.int64) % 2 == 1, -1.0, 1.0)
        return self._signs[channel]


def _span(times: np.ndarray, lo: float, hi: float) -> np.ndarray:
    """Key indices a window [lo, hi) needs: the keys inside, the one before each end (its interval), and
    one more on each side (Catmull-Rom's neighbours)."""
    first = int(np.searchsorted(times, lo, side="right")) - 2
    last = int(np.searchsorted(times, hi, side="left")) + 2
    return np.arange(max(0, first), min(len(times), last))


def _around(times: np.ndarray, at: np.ndarray, stencil: np.ndarray) -> np.ndarray:
    """Key indices the times ``at`` need: ``stencil`` around the key j at or before each — before the first key
    or from the last on, the first or last interval's (a channel cut to one key would be built as a constant,
    whose rotation a cubic mode no longer renormalizes)."""
    j = np.clip(np.searchsorted(times, at, side="right") - 1, 0, max(0, len(times) - 2))
    keys = np.unique((j[:, None] + stencil).reshape(-1))
    return keys[(keys >= 0) & (keys < len(times))]
