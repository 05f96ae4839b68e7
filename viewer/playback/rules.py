"""The pure rules of playback behind ``viewer.playback.clock``: where the playhead goes, how speed steps.

The path functions take the current clip time (seconds), a direction (+1 forward, -1 reverse),
a distance in clip seconds (real seconds × |speed|), the clip duration (seconds) and a loop mode,
and say where the playhead lands. Nothing here holds state, so the clock's rules can be read (and
tested) as arithmetic; the clock only keeps the state and calls these.

Rules, per loop mode:

* ``"once"``: clamp to [0, duration]; reaching (or landing on) the end in the direction of play
  stops there exactly.
* ``"loop"``: wrap modulo the duration, so a step past the end lands at ``t - duration``; any
  number of laps costs one ``%``. The end and 0 are the same instant (the seam).
* ``"pingpong"``: the playhead reflects at both ends; the path is a triangle wave of period
  ``2 × duration``, so any number of bounces costs one ``%``. Reaching an end flips the direction.

Keyframe stops (pause-at-keys) use the same path: ``first_key_on_path`` walks at most three
segments of it (to the first end, then back or around), which meets every key inside the clip, so
the work is bounded whatever the distance.
"""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from typing import Literal, NamedTuple

LoopMode = Literal["loop", "once", "pingpong"]
LOOP_MODES: tuple[LoopMode, ...] = ("loop", "once", "pingpong")

KEY_EPSILON = 1e-9
"""Seconds within which the playhead counts as *at* a key time (float noise in authored times)."""

SPEED_LADDER: tuple[float, ...] = (0.1, 0.25, 0.5, 1.0, 1.5, 2.0, 4.0, 8.0)
"""Speed magnitudes (× real time) that ``faster()`` / ``slower()`` step through."""
MIN_SPEED = SPEED_LADDER[0]
MAX_SPEED = SPEED_LADDER[-1]
_RUNG_TOLERANCE = 1e-9  # a speed this close to a rung counts as on it


def finite(value: float, what: str) -> float:
    """Return ``value`` as a float, refusing NaN and infinities (they would poison ``t``)."""
    number = float(value)
    if not math.isfinite(number):
        raise ValueError(f"{what} must be finite, got {value!r}")
    return number


def at_least(value: float, lowest: float, what: str) -> float:
    """Return ``value`` as a finite float >= ``lowest``, or raise ValueError naming ``what``."""
    number = finite(value, what)
    if number < lowest:
        raise ValueError(f"{what} must be >= {lowest}, got {value!r}")
    return number


def clamp_speed(speed: float) -> float:
    """Clamp a signed speed's magnitude to [MIN_SPEED, MAX_SPEED], keeping its sign.

    Raises:
        ValueError: on 0 (it has no direction; pausing is how time stops) or a non-finite value.
    """
    value = finite(speed, "speed")
    if value == 0.0:
        raise ValueError("speed must be non-zero; pause to stop time")
    return math.copysign(min(max(abs(value), MIN_SPEED), MAX_SPEED), value)


def faster_speed(speed: float) -> float:
    """The next rung of ``SPEED_LADDER`` above ``|speed|`` (the top stays), with speed's sign."""
    rung = bisect_right(SPEED_LADDER, abs(speed) + _RUNG_TOLERANCE)
    return math.copysign(SPEED_LADDER[min(rung, len(SPEED_LADDER) - 1)], speed)


def slower_speed(speed: float) -> float:
    """The next rung of ``SPEED_LADDER`` below ``|speed|`` (the bottom stays), with speed's sign."""
    rung = bisect_left(SPEED_LADDER, abs(speed) - _RUNG_TOLERANCE) - 1
    return math.copysign(SPEED_LADDER[max(rung, 0)], speed)


def key_after(keys: Sequence[float], t: float, duration: float) -> float | None:
    """The first key strictly after ``t`` (beyond ``KEY_EPSILON``) inside the clip, or None."""
    i = bisect_right(keys, t + KEY_EPSILON)
    return keys[i] if i < len(keys) and keys[i] <= duration + KEY_EPSILON else None


def key_before(keys: Sequence[float], t: float) -> float | None:
    """The last key strictly before ``t`` (beyond ``KEY_EPSILON``) inside the clip, or None."""
    i = bisect_left(keys, t - KEY_EPSILON) - 1
    return keys[i] if i >= 0 and keys[i] >= -KEY_EPSILON else None


class Landing(NamedTuple):
    """Where a move ends.

    Attributes:
        t: clip time in seconds, within [0, duration].
        direction: +1 or -1, the direction of play after the move (flipped by a ping-pong end).
        at_end: True when a ``"once"`` clip reached its end in the direction of play.
    """

    t: float
    direction: int
    at_end: bool


class KeyStop(NamedTuple):
    """The first key time met along the playhead's path.

    Attributes:
        t: the key time in seconds, clamped to [0, duration].
        direction: direction of play when standing on it (ping-pong flips on a key at an end).
        distance: clip seconds travelled from the start of the path to the key.
    """

    t: float
    direction: int
    distance: float


class _Segment(NamedTuple):
    """One straight run of the path, from ``start`` to ``end`` (seconds)."""

    start: float
    end: float
    direction: int
    include_start: bool


def travel(t: float, direction: int, distance: float, duration: float, mode: LoopMode) -> Landing:
    """Move the playhead ``distance`` clip seconds from ``t`` in ``direction``.

    Args:
        t: start time in seconds, within [0, duration].
        direction: +1 or -1.
        distance: clip seconds to travel, >= 0.
        duration: clip length in seconds, >= 0; 0 keeps the playhead at 0.
        mode: ``"loop"``, ``"once"`` or ``"pingpong"``.

    Returns:
        The landing; see the module docstring for the rule of each mode.
    """
    if duration <= 0.0:
        return Landing(0.0, direction, mode == "once")
    if mode == "loop":
        return _travel_loop(t, direction, distance, duration)
    if mode == "pingpong":
        return _travel_pingpong(t, direction, distance, duration)
    return _travel_once(t, direction, distance, duration)


def _travel_once(t: float, direction: int, distance: float, duration: float) -> Landing:
    """Clamp to the clip; reaching the end in the direction of play lands exactly on it."""
    target = t + direction * distance
    if direction > 0 and target >= duration:
        return Landing(duration, direction, True)
    if direction < 0 and target <= 0.0:
        return Landing(0.0, direction, True)
    return Landing(min(max(target, 0.0), duration), direction, False)


def _travel_loop(t: float, direction: int, distance: float, duration: float) -> Landing:
    """Wrap modulo the duration; Python's float ``%`` is never negative for a positive divisor."""
    wrapped = (t + direction * distance) % duration
    return Landing(min(wrapped, duration), direction, False)


def _travel_pingpong(t: float, direction: int, distance: float, duration: float) -> Landing:
    """Fold the path onto a triangle wave: phase in [0, 2·duration), forward in the first half."""
    period = 2.0 * duration
    phase = t if direction > 0 else period - t
    phase = (phase + distance) % period
    if phase < duration:
        return Landing(phase, 1, False)
    return Landing(max(period - phase, 0.0), -1, False)


def first_key_on_path(
    keys: Sequence[float], t: float, direction: int, duration: float, mode: LoopMode
) -> KeyStop | None:
    """Find the first key time the playhead meets when it plays on from ``t``.

    The key it stands on (within ``KEY_EPSILON`` of ``t``) does not count, so playing on from a
    stop moves off it. A key exactly at the end of a step counts (the step lands on it). Keys
    outside [0, duration] are never met.

    Args:
        keys: key times in seconds, sorted ascending.
        t: start time in seconds, within [0, duration].
        direction: +1 or -1.
        duration: clip length in seconds.
        mode: ``"loop"``, ``"once"`` or ``"pingpong"``.

    Returns:
        The key, the direction of play on it and the path distance to it (clip seconds), or None
        when the path meets no key at all (no keys in the clip, or ``"once"`` with none ahead).
    """
    if duration <= 0.0 or not keys:
        return None
    travelled = 0.0
    for segment in _path_segments(t, direction, duration, mode):
        key = _first_key_in_segment(keys, segment)
        if key is not None:
            landed = min(max(key, 0.0), duration)
            return KeyStop(
                landed,
                _direction_on_key(landed, segment, mode),
                travelled + abs(key - segment.start),
            )
        travelled += abs(segment.end - segment.start)
    return None


def _path_segments(t: float, direction: int, duration: float, mode: LoopMode) -> list[_Segment]:
    """The straight runs of the path that together meet every key in the clip at least once.

    Each segment's end is inclusive; its start is exclusive because the previous segment (or the
    key being stood on) already covered it. The loop's second lap starts at the far side of the
    seam, which no earlier segment covered, so it includes its start.
    """
    ahead, behind = (duration, 0.0) if direction > 0 else (0.0, duration)
    if mode == "once":
        return [_Segment(t, ahead, direction, False)]
    if mode == "loop":
        # Standing on the seam in the direction of play is standing on its far side.
        if abs(t - ahead) <= KEY_EPSILON:
            t = behind
        return [_Segment(t, ahead, direction, False), _Segment(behind, ahead, direction, True)]
    return [
        _Segment(t, ahead, direction, False),
        _Segment(ahead, behind, -direction, False),
        _Segment(behind, ahead, direction, False),
    ]


def _first_key_in_segment(keys: Sequence[float], segment: _Segment) -> float | None:
    """The first key met along one segment (bisect on the sorted keys), or None."""
    start, end = segment.start, segment.end
    if segment.direction > 0:
        if segment.include_start:
            i = bisect_left(keys, start - KEY_EPSILON)
        else:
            i = bisect_right(keys, start + KEY_EPSILON)
        return keys[i] if i < len(keys) and keys[i] <= end + KEY_EPSILON else None
    if segment.include_start:
        i = bisect_right(keys, start + KEY_EPSILON) - 1
    else:
        i = bisect_left(keys, start - KEY_EPSILON) - 1
    return keys[i] if i >= 0 and keys[i] >= end - KEY_EPSILON else None


def _direction_on_key(key: float, segment: _Segment, mode: LoopMode) -> int:
    """Ping-pong turns round on a key at a segment's end (always a clip end), as ``travel`` does."""
    at_end = abs(key - segment.end) <= KEY_EPSILON
    return -segment.direction if mode == "pingpong" and at_end else segment.direction
