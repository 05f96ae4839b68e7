"""The ruler's ticks and their labels, at any zoom from hours of capture down to single frames.

Kept apart from ``timeline`` (the bar's geometry) because which steps read well is a table of its own: a
1-2-5 step in seconds is right for a two-second clip but labels an hour at "500s, 1000s …". So the step is
picked from what a person counts in at that zoom:

* zoomed in until a labelled step of ten frames or fewer fits, whole frames (1, 2, 5, 10): every tick sits on a
  frame's start and the bright label is the frame number, the time under it;
* below a second, 1-2-5 × 10^k seconds;
* from a second up, the steps of a clock (1, 2, 5, 10, 15, 30 s, 1, 2, 5, 10, 15, 30 min, 1, 2, 3, 6, 12 h).

Times read as a clock (``12:34.5``, ``1:02:03``) in a clip of a minute or more, else as seconds (``1.5s``);
the decimals follow the step. Labels are kept apart by their estimated width (imgui's default font is
``CHAR_PX`` wide per character), so a long "1:02:34.567" never runs into its neighbour. No imgui here.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from viewer.ui.timeline import Ruler, clock_text, frame_of

MIN_TICK_GAP_PX = 64  # labelled ticks at least this far apart (more when their labels are wider)
CHAR_PX = 7  # imgui's default font, ProggyClean 13 px, is this wide per character
LABEL_GAP_PX = 12  # free pixels between one label's end and the next label
FRAME_TICKS_AT = 10  # frames: once a labelled step this short fits, the ruler counts whole frames
# (major step, ticks per major step): seconds, minutes, hours as a clock is read
CLOCK_STEPS = (
    (1, 5),
    (2, 4),
    (5, 5),
    (10, 5),
    (15, 3),
    (30, 3),
    (60, 4),
    (120, 4),
    (300, 5),
    (600, 5),
    (900, 3),
    (1800, 3),
    (3600, 4),
    (7200, 4),
    (10800, 3),
    (21600, 6),
    (43200, 4),
)
FRAME_STEPS = ((1, 1), (2, 2), (5, 5), (10, 5))  # (frames per major step, ticks per major step)


@dataclass(frozen=True)
class Tick:
    """A ruler tick: its time in seconds, frame number, and whether it is labelled (major)."""

    t: float
    frame: int
    major: bool


@dataclass(frozen=True)
class Scale:
    """How the ruler is divided at one zoom.

    Attributes:
        step: seconds between labelled ticks.
        minors: ticks per step (1: none between the labelled ones).
        frames: the step is whole frames; labels lead with the frame number.
        fps: the frame rate the frame numbers count.
        long: the clip is a minute or more: times read as a clock (``12:34.5``).
        hours: the clip is an hour or more: the clock shows hours (``1:02:34``).
    """

    step: float
    minors: int
    frames: bool
    fps: float
    long: bool = False
    hours: bool = False

    @property
    def decimals(self) -> int:
        """Decimals a time label needs to tell this step's ticks apart (milliseconds at frame steps)."""
        if self.frames:
            return 3
        return max(0, math.ceil(-math.log10(self.step) - 1e-9))

    def time(self, t: float) -> str:
        return clock_text(t, self.decimals, self.long, self.hours)

    def labels(self, tick: Tick) -> tuple[str, str]:
        """(bright, dim) lines under a labelled tick: the time and the frame, or at frame steps the frame first."""
        if self.frames:
            return str(tick.frame), self.time(tick.t)
        return self.time(tick.t), str(tick.frame)


def nice_step(min_seconds: float) -> float:
    """The smallest 1-2-5 × 10^k seconds that is at least ``min_seconds`` (> 0)."""
    k = math.floor(math.log10(min_seconds))
    for m in (1.0, 2.0, 5.0, 10.0):
        step = m * 10.0**k
        if step >= min_seconds * (1 - 1e-12):
            return step
    return 10.0 ** (k + 1)


def _scale_for_gap(ruler: Ruler, fps: float, gap_px: float) -> Scale:
    min_seconds = gap_px / ruler.px_per_second
    long, hours = ruler.duration >= 60.0, ruler.duration >= 3600.0
    if fps > 0 and min_seconds * fps <= FRAME_TICKS_AT:
        frames, minors = next((s for s in FRAME_STEPS if s[0] >= min_seconds * fps * (1 - 1e-12)), FRAME_STEPS[-1])
        return Scale(frames / fps, minors, True, fps, long, hours)
    if min_seconds > 1.0:
        for step, minors in CLOCK_STEPS:
            if step >= min_seconds * (1 - 1e-12):
                return Scale(float(step), minors, False, fps, long, hours)
        return Scale(nice_step(min_seconds / 86400.0) * 86400.0, 5, False, fps, long, hours)  # days
    step = nice_step(min_seconds)
    mantissa = round(step / 10.0 ** math.floor(math.log10(step)))
    return Scale(step, 4 if mantissa == 2 else 5, False, fps, long, hours)


def scale(ruler: Ruler, fps: float) -> Scale:
    """The step for the ruler's view: the shortest whose labels stay ``MIN_TICK_GAP_PX`` apart and clear of
    each other (estimated from the widest label in view, at its end)."""
    if ruler.duration <= 0 or ruler.px_per_second <= 0:  # a still file: one tick at 0
        return Scale(1.0, 1, False, fps)
    gap = float(MIN_TICK_GAP_PX)
    sc = _scale_for_gap(ruler, fps, gap)
    for _ in range(3):  # a wider gap gives a longer step, whose labels are no longer: this settles
        end = Tick(ruler.view_end, frame_of(ruler.view_end, fps), True)
        need = CHAR_PX * max(len(text) for text in sc.labels(end)) + LABEL_GAP_PX
        if need <= gap:
            break
        gap = float(need)
        sc = _scale_for_gap(ruler, fps, gap)
    return sc


def ticks(ruler: Ruler, fps: float, sc: Scale | None = None) -> list[Tick]:
    """Ticks over the view at ``scale(ruler, fps)`` (or ``sc``): the majors labelled. Each is computed as
    ``k × minor step`` (in whole frames at frame steps), not accumulated, so the last label does not drift."""
    if ruler.duration <= 0 or ruler.px_per_second <= 0:
        return [Tick(0.0, 0, True)]
    sc = sc or scale(ruler, fps)
    if sc.frames:  # count in frames: exact frame numbers, times k × n / fps
        per_minor = round(sc.step * fps) // sc.minors
        first = math.ceil(ruler.start * fps / per_minor - 1e-9)
        last = math.floor(ruler.view_end * fps / per_minor + 1e-9)
        return [Tick(k * per_minor / fps, k * per_minor, k % sc.minors == 0) for k in range(first, last + 1)]
    minor = sc.step / sc.minors
    first = math.ceil(ruler.start / minor - 1e-9)
    last = math.floor(ruler.view_end / minor + 1e-9)
    return [Tick(k * minor, frame_of(k * minor, fps), k % sc.minors == 0) for k in range(first, last + 1)]
