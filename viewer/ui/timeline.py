"""Geometry of the timeline bar as plain arithmetic: where the bar sits, time ↔ pixel on the ruler, ticks.

Nothing here imports imgui: the overlay draws at exactly these positions, and tests (headless and the
real-window one under Xvfb) compute the same positions to aim synthetic clicks and drags. Pixels are
window coordinates (origin top-left, y down, the units moderngl-window reports mouse events in); times
are seconds.

Layout of the bar, full width at the bottom of the window, top to bottom::

    controls row   play/pause, loop, speed, clip, key stepping, pause-at-keys      CONTROLS_H
    ruler          seconds and frame numbers; press and drag anywhere on it scrubs  RULER_H
    summary row    every key time of the clip                                       ROW_H
    channel rows   one per channel (node · path) when expanded, up to MAX_ROWS, then it scrolls

The left ``LABEL_W`` pixels of the ruler and rows hold labels; time runs from ``x0 = LABEL_W`` (t = 0)
to ``x1 = width - MARGIN`` (t = duration).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

CONTROLS_H = 30
RULER_H = 30
ROW_H = 18
PAD = 4
MAX_ROWS = 8
LABEL_W = 190
MARGIN = 14
SIDE_MIN_W, SIDE_MAX_W = 300, 440  # the docked panel column
MIN_TICK_GAP_PX = 64  # labelled ticks at least this far apart
TICK_PICK_PX = 5  # a click this close to a key tick selects it


@dataclass(frozen=True)
class Ruler:
    """Linear map between clip time and window x on the ruler.

    Attributes:
        x0: window x of t = 0, pixels.
        x1: window x of t = duration, pixels (> x0).
        duration: clip length, seconds (0 maps everything to x0).
    """

    x0: float
    x1: float
    duration: float

    @property
    def px_per_second(self) -> float:
        return (self.x1 - self.x0) / self.duration if self.duration > 0 else 0.0

    def x_of(self, t: float) -> float:
        """Window x of clip time ``t`` (not clamped, so ticks past the end can be culled by the caller)."""
        if self.duration <= 0:
            return self.x0
        return self.x0 + (t / self.duration) * (self.x1 - self.x0)

    def t_of(self, x: float) -> float:
        """Clip time under window x, clamped to [0, duration]: dragging past either end pins the playhead there."""
        if self.duration <= 0:
            return 0.0
        u = (x - self.x0) / (self.x1 - self.x0)
        return min(max(u, 0.0), 1.0) * self.duration


@dataclass(frozen=True)
class Layout:
    """Rectangles of the bar for one window size, as window pixels (y down).

    Attributes:
        width, height: window size.
        top: y of the bar's top edge.
        controls_y, ruler_y, summary_y, rows_y: top edge of each band.
        rows_h: height of the channel rows band (0 when collapsed).
        ruler: the time ↔ x map, shared by the ruler, the summary row and the channel rows.
        side_w: width of the panel column docked at the right of the 3D view (0: none).
    """

    width: int
    height: int
    top: float
    controls_y: float
    ruler_y: float
    summary_y: float
    rows_y: float
    rows_h: float
    ruler: Ruler
    side_w: int = 0

    def in_bar(self, x: float, y: float) -> bool:
        """True when window point (x, y) is on the bar (so the 3D view must not take it)."""
        return self.top <= y < self.height and 0 <= x < self.width

    def on_ruler(self, x: float, y: float) -> bool:
        """True when (x, y) is on the ruler strip, the part that scrubs."""
        return self.ruler_y <= y < self.ruler_y + RULER_H and self.ruler.x0 <= x <= self.ruler.x1

    def scene_viewport(self) -> tuple[int, int, int, int]:
        """GL viewport (x, y from the bottom, w, h) of the 3D view: above the bar, left of the panel column."""
        top = int(min(max(self.top, 1), self.height))
        return 0, self.height - top, max(self.width - self.side_w, 1), top

    def ruler_point(self, t: float) -> tuple[int, int]:
        """Integer window point on the ruler's middle line at clip time ``t``, for aiming synthetic input.

        The x is rounded, so ``ruler.t_of(x)`` of the returned point is the time a drag to it seeks to.
        """
        return round(self.ruler.x_of(t)), round(self.ruler_y + RULER_H / 2)


def bar_height(visible_rows: int) -> float:
    """Height of the bar in pixels with ``visible_rows`` channel rows showing."""
    return PAD + CONTROLS_H + RULER_H + ROW_H + visible_rows * ROW_H + PAD


def side_width(width: int) -> int:
    """The panel column's width for a window ``width`` pixels wide: about 30 %, within [300, 440]."""
    return int(min(max(0.3 * width, SIDE_MIN_W), SIDE_MAX_W, 0.5 * width))


def layout(width: int, height: int, duration: float, channel_rows: int = 0, side_w: int = 0) -> Layout:
    """The bar's geometry for a window of ``width`` × ``height`` pixels.

    Args:
        width, height: window size in pixels.
        duration: clip length in seconds.
        channel_rows: channel rows shown (0 when the dope sheet is collapsed); at most ``MAX_ROWS``
            get space, the rest scroll.
    """
    rows = min(max(channel_rows, 0), MAX_ROWS)
    top = height - bar_height(rows)
    controls_y = top + PAD
    ruler_y = controls_y + CONTROLS_H
    summary_y = ruler_y + RULER_H
    rows_y = summary_y + ROW_H
    x1 = max(width - MARGIN, LABEL_W + 1)
    return Layout(width, height, top, controls_y, ruler_y, summary_y, rows_y, rows * ROW_H,
                  Ruler(float(LABEL_W), float(x1), float(duration)), side_w)


def nice_step(min_seconds: float) -> float:
    """The smallest 1-2-5 × 10^k seconds that is at least ``min_seconds`` (> 0)."""
    k = math.floor(math.log10(min_seconds))
    for m in (1.0, 2.0, 5.0, 10.0):
        step = m * 10.0 ** k
        if step >= min_seconds * (1 - 1e-12):
            return step
    return 10.0 ** (k + 1)


@dataclass(frozen=True)
class Tick:
    """A ruler tick: its time in seconds, frame number, and whether it is labelled (major)."""

    t: float
    frame: int
    major: bool


def ticks(ruler: Ruler, fps: float) -> list[Tick]:
    """Ticks from 0 to the duration: majors at a 1-2-5 step that keeps labels ``MIN_TICK_GAP_PX`` apart,
    minors at a fifth of the step (a quarter for a 2 step). Majors are computed as ``k × step``, not accumulated,
    so the last label does not drift."""
    if ruler.duration <= 0 or ruler.px_per_second <= 0:
        return [Tick(0.0, 0, True)]
    step = nice_step(MIN_TICK_GAP_PX / ruler.px_per_second)
    mantissa = round(step / 10.0 ** math.floor(math.log10(step)))
    minor = step / (4 if mantissa == 2 else 5)
    count = int(math.floor(ruler.duration / minor + 1e-9))
    out = []
    per_major = round(step / minor)
    for k in range(count + 1):
        t = k * minor
        out.append(Tick(t, frame_of(t, fps), k % per_major == 0))
    return out


def frame_of(t: float, fps: float) -> int:
    """Frame number shown at time ``t`` seconds (frame 0 at t = 0); within 1e-6 frame of a frame's start
    counts as that frame, so float noise (0.1 × 30 = 2.9999999999999996) does not show the frame before."""
    return int(math.floor(t * fps + 1e-6))


def nearest_key(keys: Sequence[float], ruler: Ruler, x: float, tolerance_px: float = TICK_PICK_PX) -> float | None:
    """The key time whose tick is nearest window x, if it is within ``tolerance_px``; else None."""
    best, best_dx = None, tolerance_px
    for key in keys:
        dx = abs(ruler.x_of(key) - x)
        if dx <= best_dx:
            best, best_dx = float(key), dx
    return best


def format_time(t: float, fps: float) -> str:
    """Readout text: seconds to the millisecond and the frame number, e.g. ``"1.250 s  f 37"``."""
    return f"{t:6.3f} s  f {frame_of(t, fps)}"
