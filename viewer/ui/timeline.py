"""Geometry of the timeline bar as plain arithmetic: where the bar sits, time ↔ pixel on the ruler, ticks.

Nothing here imports imgui: the overlay draws at exactly these positions, and tests (headless and the
real-window one under Xvfb) compute the same positions to aim synthetic clicks and drags. Pixels are
window coordinates (origin top-left, y down, the units moderngl-window reports mouse events in); times
are seconds.

Layout of the bar, full width at the bottom of the window, top to bottom::

    controls row   play/pause, loop, speed, clip, key stepping, pause-at-keys      CONTROLS_H
    ruler          seconds and frame numbers; press and drag anywhere on it scrubs  RULER_H
    strip          against another file: the divergence over time; a click seeks    STRIP_H
    summary row    every key time of the clip                                       ROW_H
    tools row      when expanded: the channel filter, "selected node only", counts  TOOLS_H
    channel rows   one per channel (node · path) when expanded, up to MAX_ROWS, then it scrolls

The left ``LABEL_W`` pixels of the ruler and rows hold labels; time runs from ``x0 = LABEL_W`` (the start of
the view: t = 0 unless zoomed) to ``x1 = width - MARGIN`` (the end of the view: the duration unless zoomed).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

import numpy as np

CONTROLS_H = 30
RULER_H = 30
STRIP_H = 16
ROW_H = 18
TOOLS_H = 24
PAD = 4
MAX_ROWS = 8
MIN_ROWS = 2
BAR_SHARE = 0.4  # the expanded bar takes at most this share of the window's height (at least MIN_ROWS rows)
LABEL_W = 190
MARGIN = 14
SIDE_MIN_W, SIDE_MAX_W = 300, 440  # the docked panel column
TICK_PICK_PX = 5  # a click this close to a key tick selects it


@dataclass(frozen=True)
class Ruler:
    """Linear map between clip time and window x on the ruler, over the part of the clip in view.

    Attributes:
        x0: window x of the view's start, pixels.
        x1: window x of the view's end, pixels (> x0).
        duration: clip length, seconds (0 maps everything to x0).
        start, end: the clip times in view, seconds (``end`` None: the duration — the whole clip fits).
    """

    x0: float
    x1: float
    duration: float
    start: float = 0.0
    end: float | None = None

    @property
    def view_end(self) -> float:
        return self.duration if self.end is None else self.end

    @property
    def span(self) -> float:
        """Seconds in view."""
        return self.view_end - self.start

    @property
    def px_per_second(self) -> float:
        return (self.x1 - self.x0) / self.span if self.duration > 0 and self.span > 0 else 0.0

    def x_of(self, t: float) -> float:
        """Window x of clip time ``t`` (not clamped, so ticks outside the view can be culled by the caller)."""
        if self.duration <= 0 or self.span <= 0:
            return self.x0
        return self.x0 + (t - self.start) / self.span * (self.x1 - self.x0)

    def time_at(self, x: float) -> float:
        """Clip time under window x, not clamped (zooming keeps this fixed under the pointer)."""
        if self.duration <= 0 or self.span <= 0:
            return 0.0
        return self.start + (x - self.x0) / (self.x1 - self.x0) * self.span

    def t_of(self, x: float) -> float:
        """Clip time under window x, clamped to the view and the clip: dragging past either end pins the
        playhead there."""
        if self.duration <= 0:
            return 0.0
        return min(max(self.time_at(x), self.start, 0.0), self.view_end, self.duration)

    def visible(self, t: float) -> bool:
        """True when time ``t`` lies in the view (ticks outside it are not drawn)."""
        return self.start - 1e-9 <= t <= self.view_end + 1e-9


MIN_VIEW_SECONDS = 0.001  # the ruler never spans less, whatever the frame rate
MIN_VIEW_FRAMES = 5  # zoomed all the way in, the ruler spans this many frames: each one wide and numbered


def shortest_view(fps: float) -> float:
    """Seconds the ruler spans zoomed all the way in: ``MIN_VIEW_FRAMES`` frames at ``fps``, so the deepest
    zoom shows single frames apart (a fixed span would be a fraction of a frame at 30 fps, or dozens at 1000)."""
    return max(MIN_VIEW_FRAMES / fps, MIN_VIEW_SECONDS) if fps > 0 else MIN_VIEW_SECONDS


def clamp_view(
    start: float, end: float, duration: float, shortest: float = MIN_VIEW_SECONDS
) -> tuple[float, float] | None:
    """A view of the clip kept inside [0, duration] and at least ``shortest`` seconds long (None: all of it)."""
    span = min(max(end - start, min(shortest, duration)), duration)
    if duration <= 0 or span >= duration:
        return None
    start = min(max(start, 0.0), duration - span)
    return start, start + span


def zoom(ruler: Ruler, factor: float, x: float, shortest: float = MIN_VIEW_SECONDS) -> tuple[float, float] | None:
    """The view after zooming by ``factor`` (> 1 in) around window x: the time under x stays under x
    unless the view meets an end of the clip or ``shortest`` seconds. None: the whole clip (zoomed all the
    way out)."""
    anchor = ruler.time_at(x)
    span = max(ruler.span / factor, min(shortest, ruler.duration))
    u = (x - ruler.x0) / (ruler.x1 - ruler.x0)
    return clamp_view(anchor - u * span, anchor - u * span + span, ruler.duration, shortest)


def pan(ruler: Ruler, dx: float) -> tuple[float, float] | None:
    """The view after dragging the ruler ``dx`` pixels (right shows earlier times)."""
    if ruler.px_per_second <= 0:
        return None
    shift = -dx / ruler.px_per_second
    return clamp_view(ruler.start + shift, ruler.view_end + shift, ruler.duration)


@dataclass(frozen=True)
class Layout:
    """Rectangles of the bar for one window size, as window pixels (y down).

    Attributes:
        width, height: window size.
        top: y of the bar's top edge.
        controls_y, ruler_y, summary_y, tools_y, rows_y: top edge of each band (tools_y = rows_y when
            collapsed: no tools row).
        rows_h: height of the channel rows band (0 when collapsed).
        ruler: the time ↔ x map, shared by the ruler, the summary row and the channel rows.
        side_w: width of the panel column docked at the right of the 3D view (0: none).
        strip_y, strip_h: the divergence strip under the ruler (``strip_h`` 0: none; the summary row follows).
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
    tools_y: float = 0.0
    strip_y: float = 0.0
    strip_h: float = 0.0

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

    def strip_point(self, t: float) -> tuple[int, int]:
        """Integer window point on the divergence strip's middle line at clip time ``t`` (aiming clicks)."""
        return round(self.ruler.x_of(t)), round(self.strip_y + self.strip_h / 2)

    def ruler_point(self, t: float) -> tuple[int, int]:
        """Integer window point on the ruler's middle line at clip time ``t``, for aiming synthetic input.

        The x is rounded, so ``ruler.t_of(x)`` of the returned point is the time a drag to it seeks to.
        """
        return round(self.ruler.x_of(t)), round(self.ruler_y + RULER_H / 2)


def bar_height(visible_rows: int, expanded: bool = False, strip: bool = False) -> float:
    """Height of the bar in pixels with ``visible_rows`` channel rows showing (``expanded``: the dope sheet
    is open, so its tools row shows even when the filter leaves no row; ``strip``: the divergence strip)."""
    bands = CONTROLS_H + RULER_H + (STRIP_H if strip else 0) + ROW_H + (TOOLS_H if expanded else 0)
    return PAD + bands + visible_rows * ROW_H + PAD


def side_width(width: int) -> int:
    """The panel column's width for a window ``width`` pixels wide: about 30 %, within [300, 440]."""
    return int(min(max(0.3 * width, SIDE_MIN_W), SIDE_MAX_W, 0.5 * width))


def layout(
    width: int,
    height: int,
    duration: float,
    channel_rows: int = 0,
    side_w: int = 0,
    view: tuple[float, float] | None = None,
    expanded: bool | None = None,
    strip: bool = False,
) -> Layout:
    """The bar's geometry for a window of ``width`` × ``height`` pixels.

    Args:
        width, height: window size in pixels.
        duration: clip length in seconds.
        channel_rows: channel rows shown (0 when the dope sheet is collapsed); at most ``MAX_ROWS`` get
            space, fewer where the bar would pass ``BAR_SHARE`` of the height; the rest scroll.
        side_w: the docked column's width (the 3D view is left of it).
        view: the clip times in view on the ruler (None: the whole clip).
        expanded: the dope sheet is open (default: when it has rows).
        strip: the divergence strip shows under the ruler (against another file).
    """
    expanded = channel_rows > 0 if expanded is None else bool(expanded)
    fit = int((BAR_SHARE * height - bar_height(0, expanded, strip)) // ROW_H)  # a small window keeps its 3D view
    rows = min(max(channel_rows, 0), MAX_ROWS, max(fit, MIN_ROWS))
    top = height - bar_height(rows, expanded, strip)
    controls_y = top + PAD
    ruler_y = controls_y + CONTROLS_H
    strip_y = ruler_y + RULER_H
    summary_y = strip_y + (STRIP_H if strip else 0)
    tools_y = summary_y + ROW_H
    rows_y = tools_y + (TOOLS_H if expanded else 0)
    x1 = max(width - MARGIN, LABEL_W + 1)
    view = clamp_view(*view, duration) if view is not None else None
    start, end = view if view is not None else (0.0, None)
    return Layout(
        width,
        height,
        top,
        controls_y,
        ruler_y,
        summary_y,
        rows_y,
        rows * ROW_H,
        Ruler(float(LABEL_W), float(x1), float(duration), start, end),
        side_w,
        tools_y,
        strip_y,
        STRIP_H if strip else 0.0,
    )


def frame_of(t: float, fps: float) -> int:
    """Frame number shown at time ``t`` seconds (frame 0 at t = 0); within 1e-6 frame of a frame's start
    counts as that frame, so float noise (0.1 × 30 = 2.9999999999999996) does not show the frame before."""
    return int(math.floor(t * fps + 1e-6))


def nearest_key_index(keys: Sequence[float], ruler: Ruler, x: float, tolerance_px: float = TICK_PICK_PX) -> int | None:
    """Index of the key whose tick is nearest window x, if it is within ``tolerance_px``; else None."""
    times = np.asarray(keys, dtype=np.float64)
    if times.size == 0:
        return None
    i = int(np.searchsorted(times, ruler.time_at(x)))
    near = [k for k in (i - 1, i) if 0 <= k < times.size]
    best = min(near, key=lambda k: abs(ruler.x_of(times[k]) - x))
    return best if abs(ruler.x_of(times[best]) - x) <= tolerance_px else None


def nearest_key(keys: Sequence[float], ruler: Ruler, x: float, tolerance_px: float = TICK_PICK_PX) -> float | None:
    """The key time whose tick is nearest window x, if it is within ``tolerance_px``; else None."""
    k = nearest_key_index(keys, ruler, x, tolerance_px)
    return None if k is None else float(np.asarray(keys, dtype=np.float64)[k])


def key_columns(keys: Sequence[float], ruler: Ruler) -> np.ndarray:
    """Keys binned per pixel column of the ruler: (n + 1,) indices into the sorted ``keys``, where column c
    (window x from ``x0 + c·w`` to ``x0 + (c+1)·w``, w about a pixel) holds ``keys[idx[c]:idx[c+1]]``.

    One ``np.searchsorted`` of the column edges, so a row costs its width in pixels, not its key count:
    an hour of capture at 60 fps is 216 000 keys a channel and the bar is drawn every frame.
    """
    times = np.asarray(keys, dtype=np.float64)
    n = max(int(math.ceil(ruler.x1 - ruler.x0 - 1e-9)), 1)
    edges = ruler.start + np.arange(n + 1) * (ruler.span / n)
    edges[0], edges[-1] = ruler.start - 1e-9, ruler.view_end + 1e-9  # keys on the view's ends are in it
    return np.searchsorted(times, edges, side="left")


def tick_runs(keys: Sequence[float], ruler: Ruler, merge_px: float) -> list[tuple[float, float]]:
    """Window x ranges (first, last) of the sorted keys in view, keys less than ``merge_px`` apart joined:
    at most one run per ``merge_px`` of ruler, however many keys (binned by ``key_columns``: nothing here
    touches every key)."""
    times = np.asarray(keys, dtype=np.float64)
    if times.size == 0:
        return []
    if ruler.span <= 0 or ruler.duration <= 0:  # every key sits at x0
        lo, hi = visible_keys(times, ruler)
        return [(ruler.x0, ruler.x0)] if hi > lo else []
    idx = key_columns(times, ruler)
    filled = np.flatnonzero(np.diff(idx))
    if filled.size == 0:
        return []
    column_px = (ruler.x1 - ruler.x0) / (idx.size - 1)
    breaks = np.flatnonzero(np.diff(filled) * column_px >= merge_px)
    first = idx[filled[np.r_[0, breaks + 1]]]  # a run's first key: the first of its first column
    last = idx[filled[np.r_[breaks, filled.size - 1]] + 1] - 1  # its last key: the last of its last column
    scale = (ruler.x1 - ruler.x0) / ruler.span
    xa = ruler.x0 + (times[first] - ruler.start) * scale
    xb = ruler.x0 + (times[last] - ruler.start) * scale
    return list(zip(xa.tolist(), xb.tolist()))


def visible_keys(keys: Sequence[float], ruler: Ruler) -> tuple[int, int]:
    """The index range [lo, hi) of the (sorted) keys inside the ruler's view: only those are drawn."""
    times = np.asarray(keys, dtype=np.float64)
    lo = int(np.searchsorted(times, ruler.start - 1e-9, side="left"))
    hi = int(np.searchsorted(times, ruler.view_end + 1e-9, side="right"))
    return lo, hi


def clock_text(t: float, decimals: int = 3, long: bool = False, hours: bool = False) -> str:
    """``t`` seconds as a person reads it: ``"1.500s"``, or as a clock when ``long`` (``"12:34.5"``) and with
    hours when ``hours`` (``"1:02:34.5"``); ``decimals`` after the seconds. Rounded before it is split, so
    59.96 s at one decimal reads ``"1:00.0"``, never ``"0:60.0"``."""
    t = round(max(float(t), 0.0), decimals)
    if not long:
        return f"{t:.{decimals}f}s"
    whole = math.floor(t)  # t is already rounded: a whole number of seconds is exact, no 59.99999 here
    h, rest = divmod(whole, 3600)
    m, s = divmod(rest, 60)
    seconds = f"{s + (t - whole):0{3 + decimals if decimals else 2}.{decimals}f}"
    if hours:
        return f"{h}:{m:02d}:{seconds}"
    return f"{60 * h + m}:{seconds}"


def format_time(t: float, fps: float, duration: float = 0.0) -> str:
    """Readout text: the time to the millisecond and the frame number, e.g. ``"1.250 s  f 37"``; in a clip
    of a minute or more as a clock, ``"12:34.567  f 45274"``."""
    if duration >= 60.0:
        return f"{clock_text(t, 3, True, duration >= 3600.0)}  f {frame_of(t, fps)}"
    return f"{t:6.3f} s  f {frame_of(t, fps)}"
