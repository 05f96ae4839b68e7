"""The clip's time line under the playhead: its length, key times, loop range and where the playhead is.

``Clock`` (``clock.py``) is a ``Timeline`` that plays: it adds speed, direction, loop modes and the moves
made in real time. What is here holds whether the clip plays or not — nothing reads a time source or the
play state — so it lives apart from the playing and stays small enough to read in one go.

All times are seconds (float). ``t`` is always within [0, duration]; a loop range (in / out points), when set,
lies inside the clip, is longer than ``KEY_EPSILON`` and is not the whole clip. Seeking may go anywhere in the
clip, inside the range or not, so the range can be moved while looking at the rest.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from viewer.playback.rules import KEY_EPSILON, at_least, finite


class Timeline:
    """A clip's duration, key times and loop range, and the playhead's time on it.

    Args:
        duration: clip length in seconds, >= 0.
        keys: key times in seconds (any order) for key stepping and pause-at-keys.

    The playhead starts at t = 0, with no loop range.
    """

    def __init__(self, duration: float = 0.0, keys: Iterable[float] = ()) -> None:
        self._t = 0.0
        self._duration = at_least(duration, 0.0, "duration")
        self.set_keys(keys)
        self._range: tuple[float, float] | None = None

    @property
    def t(self) -> float:
        """Current clip time in seconds, within [0, duration]; change it with ``seek()``."""
        return self._t

    def seek(self, t: float) -> None:
        """Go to clip time ``t`` seconds, clamped to [0, duration]; play state is unchanged."""
        self._t = min(max(finite(t, "t"), 0.0), self._duration)

    def home(self) -> None:
        """Go to the start of play: the loop range's in point, else t = 0."""
        self.seek(self.span[0])

    def end(self) -> None:
        """Go to the end of play: the loop range's out point, else t = duration."""
        self.seek(self.span[1])

    @property
    def duration(self) -> float:
        """Clip length in seconds; change it with ``set_duration()``."""
        return self._duration

    def set_duration(self, duration: float) -> None:
        """Set the clip length in seconds (when the clip changes) and clamp ``t`` into it."""
        self._duration = at_least(duration, 0.0, "duration")
        self._t = min(self._t, self._duration)
        if self._range is not None:  # keep what still fits (another clip ticked on), else play it all
            self.set_range(*self._range)

    @property
    def keys(self) -> tuple[float, ...]:
        """Key times in seconds, sorted ascending; change them with ``set_keys()``."""
        return self._keys

    def set_keys(self, times: Iterable[float]) -> None:
        """Replace the key times (seconds) used by key stepping and pause-at-keys.

        The caller picks them: every channel of the clip, or one channel. They are sorted here. An array's
        ``tolist`` is taken when it has one: an hour-long take has 216 000 key times, and checking them as
        Python floats in C loops (``map``) costs milliseconds where a generator of array scalars took 0.2 s.
        """
        values = times.tolist() if hasattr(times, "tolist") else list(times)
        values = list(map(float, values))
        if not all(map(math.isfinite, values)):
            for x in values:
                finite(x, "key time")
        self._keys = tuple(sorted(values))

    @property
    def range(self) -> tuple[float, float] | None:
        """The loop range (in, out) in seconds, or None: play runs over the whole clip."""
        return self._range

    @property
    def span(self) -> tuple[float, float]:
        """The times play runs between: the loop range, else (0, duration)."""
        return self._range if self._range is not None else (0.0, self._duration)

    def set_range(self, t_in: float, t_out: float) -> bool:
        """Loop between ``t_in`` and ``t_out`` seconds (clamped to the clip); a range shorter than
        ``KEY_EPSILON`` or covering the whole clip clears it. Returns whether a range is set."""
        lo = min(max(finite(t_in, "in point"), 0.0), self._duration)
        hi = min(max(finite(t_out, "out point"), 0.0), self._duration)
        whole = lo <= KEY_EPSILON and hi >= self._duration - KEY_EPSILON
        self._range = (lo, hi) if hi - lo > KEY_EPSILON and not whole else None
        return self._range is not None

    def set_in(self, t: float | None = None) -> bool:
        """In point at ``t`` (the playhead when omitted); an out point before it moves to the clip's end."""
        lo = self._t if t is None else t
        hi = self.span[1]
        return self.set_range(lo, hi if hi > lo + KEY_EPSILON else self._duration)

    def set_out(self, t: float | None = None) -> bool:
        """Out point at ``t`` (the playhead when omitted); an in point after it moves to the clip's start."""
        hi = self._t if t is None else t
        lo = self.span[0]
        return self.set_range(lo if lo < hi - KEY_EPSILON else 0.0, hi)

    def clear_range(self) -> None:
        """Play the whole clip again."""
        self._range = None
