"""Playback time for one clip: the only place that decides which clip time ``t`` a frame shows.

The UI (timeline, keys) only sets clock state; the render loop asks the clock for ``t`` once per
frame with ``update()`` (reads the injected time source) or ``tick(dt)`` (an explicit real-time
step, for the window loop and tests). Looping and clamping to the clip live here, never in the
samplers, so a sampler can be asked for any time, including while scrubbing backwards.

All times are seconds (float). Rules chosen where the brief left a choice:

* Speed is signed: its magnitude is clamped to [0.1, 8]× and its sign is the direction of play.
  Ping-pong flips the sign on reaching either end, landing on an end included.
* ``"once"`` pauses on the end of play (the duration, or 0 in reverse) exactly; ``play()`` there
  starts the clip over from the other end, as media players do.
* ``"loop"``: the end and 0 are one instant (the seam), so a pause-at-keys stop on a key at the
  end is not followed by a second stop on a key at 0.
* ``next_key()`` / ``prev_key()`` stay put at the last / first key (they never wrap), so holding
  the key down cannot spin round a looping clip.
* ``step_frames()`` and ``seek()`` clamp to the clip and never wrap.
* A duration of 0 (single-key clips) keeps ``t`` at 0.
* A loop range (in / out points, ``set_in`` / ``set_out``) narrows play to [in, out]: every loop mode,
  pause-at-keys, Home / End and ``play()`` from the end work inside it as they do on the whole clip, and
  playing from a time outside it starts at its in point (its out point in reverse). Seeking and scrubbing
  may still go anywhere in the clip. The range, like the duration, the key times and ``seek``, is the
  clip's side of the clock: ``Timeline`` (``timeline.py``), which ``Clock`` extends with playing.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from viewer.playback.rules import (
    KEY_EPSILON,
    LOOP_MODES,
    SPEED_LADDER,
    LoopMode,
    at_least,
    clamp_speed,
    faster_speed,
    first_key_on_path,
    key_after,
    key_before,
    slower_speed,
    travel,
)
from viewer.playback.timeline import Timeline

__all__ = ["Clock", "ClockState", "LoopMode", "LOOP_MODES", "SPEED_LADDER", "KEY_EPSILON"]


@dataclass(frozen=True)
class ClockState:
    """An immutable snapshot of the clock, for the UI and tests.

    Attributes:
        t: clip time in seconds.
        playing: whether time advances on ``update()`` / ``tick()``.
        speed: signed speed (× real time); negative plays in reverse.
        loop_mode: ``"loop"``, ``"once"`` or ``"pingpong"``.
        pause_at_keys: whether playback stops on each key time.
    """

    t: float
    playing: bool
    speed: float
    loop_mode: LoopMode
    pause_at_keys: bool


class Clock(Timeline):
    """Playback clock for one clip, driven by an injectable time source: a ``Timeline`` that plays.

    Args:
        duration: clip length in seconds, >= 0.
        time_source: callable returning the current real time in seconds (monotonic); only
            ``update()`` and ``play()`` read it.
        loop_mode: ``"loop"``, ``"once"`` or ``"pingpong"``.
        speed: signed speed (× real time), magnitude clamped to [0.1, 8].
        frame_rate: frames per second for ``step_frames()``.
        keys: key times in seconds (any order) for key stepping and pause-at-keys.
        pause_at_keys: stop on each key time while playing.

    The clock starts paused at t = 0.
    """

    def __init__(
        self,
        duration: float = 0.0,
        *,
        time_source: Callable[[], float] = time.perf_counter,
        loop_mode: LoopMode = "loop",
        speed: float = 1.0,
        frame_rate: float = 30.0,
        keys: Iterable[float] = (),
        pause_at_keys: bool = False,
    ) -> None:
        super().__init__(duration, keys)
        self._time_source = time_source
        self._speed = clamp_speed(speed)
        # The direction the user asked for; ping-pong swings flip the speed's sign, and leaving ping-pong on
        # the way back must not leave the clip playing in reverse.
        self._chosen = 1 if self._speed > 0 else -1
        self.loop_mode = loop_mode
        self.frame_rate = frame_rate
        self.pause_at_keys = bool(pause_at_keys)
        """Whether playback stops exactly on each key time it crosses or lands on."""
        self._playing = False
        self._last_real: float | None = None  # time source reading at the last update / play
        self._scrubbing = False
        self._resume_after_scrub = False

    @property
    def playing(self) -> bool:
        """Whether ``update()`` / ``tick()`` advance time."""
        return self._playing

    def state(self) -> ClockState:
        """Snapshot the clock as an immutable ``ClockState``."""
        return ClockState(self._t, self._playing, self._speed, self._loop_mode, self.pause_at_keys)

    @property
    def speed(self) -> float:
        """Signed speed (× real time); setting clamps the magnitude to [0.1, 8] and keeps the sign.

        Raises:
            ValueError: on 0 (no direction) or a non-finite value.
        """
        return self._speed

    @speed.setter
    def speed(self, value: float) -> None:
        self._speed = clamp_speed(value)
        self._chosen = 1 if self._speed > 0 else -1

    @property
    def direction(self) -> int:
        """+1 when playing forward, -1 in reverse (the sign of ``speed``)."""
        return 1 if self._speed > 0 else -1

    @property
    def loop_mode(self) -> LoopMode:
        """``"loop"``, ``"once"`` or ``"pingpong"``; what happens at the ends of the clip."""
        return self._loop_mode

    @loop_mode.setter
    def loop_mode(self, mode: LoopMode) -> None:
        if mode not in LOOP_MODES:
            raise ValueError(f"loop mode must be one of {LOOP_MODES}, got {mode!r}")
        if getattr(self, "_loop_mode", mode) == "pingpong" and mode != "pingpong":
            self._speed = math.copysign(self._speed, self._chosen)
        self._loop_mode = mode

    @property
    def frame_rate(self) -> float:
        """Frames per second used by ``step_frames()``; must be positive and finite."""
        return self._frame_rate

    @frame_rate.setter
    def frame_rate(self, value: float) -> None:
        self._frame_rate = at_least(value, 1e-6, "frame_rate")

    def cycle_loop_mode(self) -> LoopMode:
        """Switch to the next loop mode (loop → once → pingpong → loop) and return it."""
        index = LOOP_MODES.index(self._loop_mode)
        self.loop_mode = LOOP_MODES[(index + 1) % len(LOOP_MODES)]
        return self._loop_mode

    def faster(self) -> float:
        """Step |speed| up one rung of ``SPEED_LADDER``, keeping direction; return the speed."""
        self._speed = faster_speed(self._speed)
        return self._speed

    def slower(self) -> float:
        """Step |speed| down one rung of ``SPEED_LADDER``, keeping direction; return the speed."""
        self._speed = slower_speed(self._speed)
        return self._speed

    def reverse(self) -> None:
        """Flip the direction of play, keeping the speed magnitude."""
        self._speed = -self._speed
        self._chosen = -self._chosen

    def play(self) -> None:
        """Start advancing time from now; a ``"once"`` clip at its end starts over."""
        lo, hi = self.span
        end_of_play = hi if self.direction > 0 else lo
        if self._loop_mode == "once" and abs(self._t - end_of_play) <= KEY_EPSILON:
            self._t = hi if self.direction < 0 else lo
        self._resume()

    def pause(self) -> None:
        """Stop advancing time; ``t`` stays where it is."""
        self._playing = False

    def toggle(self) -> bool:
        """Play if paused, pause if playing; return the new ``playing``."""
        if self._playing:
            self.pause()
        else:
            self.play()
        return self._playing

    def _resume(self) -> None:
        """Play on from ``t`` as it is, measuring real time from this moment."""
        self._playing = True
        self._last_real = self._time_source()

    def update(self) -> float:
        """Advance by the real time since the last reading of the time source (or ``play()``).

        Time that passes while paused is not played; a source running backwards advances nothing.
        Returns ``t``.
        """
        now = self._time_source()
        elapsed = 0.0 if self._last_real is None else max(now - self._last_real, 0.0)
        self._last_real = now
        return self.tick(elapsed)

    def tick(self, dt: float) -> float:
        """Advance by ``dt`` real seconds (× speed) when playing and return ``t``.

        Any ``dt`` costs the same: loop and ping-pong fold the path with ``%``.

        Raises:
            ValueError: if ``dt`` is negative or not finite (reverse play is a negative speed).
        """
        real = at_least(dt, 0.0, "dt")
        if self._playing and real > 0.0:
            self._advance(real * abs(self._speed))
        return self._t

    def _advance(self, distance: float) -> None:
        """Move ``distance`` clip seconds along the path inside the play span, stopping on a key if asked to.

        The rules work on [0, length]: the span's in point is their 0.
        """
        lo, hi = self.span
        if not lo - KEY_EPSILON <= self._t <= hi + KEY_EPSILON:  # outside the loop range: enter it
            self._t = lo if self.direction > 0 else hi
        t, length = min(max(self._t - lo, 0.0), hi - lo), hi - lo
        if self.pause_at_keys:
            keys = [k - lo for k in self._keys if lo - KEY_EPSILON <= k <= hi + KEY_EPSILON]
            stop = first_key_on_path(keys, t, self.direction, length, self._loop_mode)
            if stop is not None and stop.distance <= distance + KEY_EPSILON:
                self._land(lo + stop.t, stop.direction)
                self._playing = False
                return
        landing = travel(t, self.direction, distance, length, self._loop_mode)
        self._land(lo + landing.t, landing.direction)
        if landing.at_end:
            self._playing = False

    def _land(self, t: float, direction: int) -> None:
        """Set ``t`` and the direction of play (ping-pong turns round at the ends)."""
        self._t = t
        self._speed = math.copysign(self._speed, direction)

    def next_key(self) -> float:
        """Pause; go to the nearest key after ``t`` (beyond ``KEY_EPSILON``), or stay; return t."""
        self.pause()
        key = key_after(self._keys, self._t, self._duration)
        if key is not None:
            self.seek(key)
        return self._t

    def prev_key(self) -> float:
        """Pause; go to the nearest key before ``t`` (beyond ``KEY_EPSILON``), or stay; return t."""
        self.pause()
        key = key_before(self._keys, self._t)
        if key is not None:
            self.seek(key)
        return self._t

    def step_frames(self, n: int) -> float:
        """Pause; move ``n`` frames (``n / frame_rate`` s, clamped to the clip); return ``t``."""
        self.pause()
        self.seek(self._t + n / self._frame_rate)
        return self._t

    @property
    def scrubbing(self) -> bool:
        """Whether a scrub (``begin_scrub()`` … ``end_scrub()``) is in progress."""
        return self._scrubbing

    def begin_scrub(self) -> None:
        """Start dragging the playhead: remember whether it was playing, then pause."""
        if not self._scrubbing:
            self._scrubbing = True
            self._resume_after_scrub = self._playing
        self.pause()

    def scrub_to(self, t: float) -> None:
        """Move the playhead while dragging (a clamped ``seek``)."""
        self.seek(t)

    def end_scrub(self) -> None:
        """Stop dragging; play on from where it was dropped if it was playing before."""
        if not self._scrubbing:
            return
        self._scrubbing = False
        if self._resume_after_scrub:
            self._resume()
