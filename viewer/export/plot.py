"""Pane labels, the curve strip and the divergence strip of the compare and against views, drawn with Pillow
into exported frames.

Headless frames have no imgui/ImPlot, so the curve plot is drawn here: one small plot per component of
the selected channel (Euler degrees for rotations, which read better than quaternion components), one
line per mode in the mode's colour, dots at the channel's keys and a vertical playhead at the time.
No GL: it only draws on an RGB array.
"""

from __future__ import annotations

from typing import Mapping, Sequence

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from viewer.compare.against import Divergence, PaneSource, column_maxima, error_colors
from viewer.compare.views import PixelRect, Series, mode_rgb255, moving_components

AXIS = (120, 124, 132)
TEXT = (225, 228, 235)
PLAYHEAD = (255, 160, 40)
PAD = 6


def _font(size: int) -> ImageFont.ImageFont:
    return ImageFont.load_default(size=size)


def _rgb255(rgb) -> tuple[int, int, int]:
    return tuple(int(round(255 * float(c))) for c in rgb[:3])


def draw_labels(
    rgb: np.ndarray, rects: Sequence[PixelRect], sources: Sequence[PaneSource], size: int = 18
) -> np.ndarray:
    """Each pane's label (its mode, or its file and clip) in its colour at the pane's top-left corner, on a dark
    box; returns a new array."""
    img = Image.fromarray(rgb)
    draw = ImageDraw.Draw(img)
    font = _font(size)
    for (x, y, w, h), src in zip(rects, sources):
        box = draw.textbbox((x + PAD, y + PAD), src.label, font=font)
        draw.rectangle((box[0] - 4, box[1] - 3, box[2] + 4, box[3] + 3), fill=(20, 22, 26))
        draw.text((x + PAD, y + PAD), src.label, fill=_rgb255(src.color), font=font)
        if x > 0:  # pane borders: the left edge, and the top edge of a second row
            draw.line((x, y, x, y + h), fill=(60, 64, 72), width=2)
        if y > 0:
            draw.line((x, y, x + w, y), fill=(60, 64, 72), width=2)
    return np.asarray(img)


def draw_curves(
    rgb: np.ndarray,
    rect: PixelRect,
    curves: Mapping[str, Series],
    path: str,
    title: str,
    t: float,
    background: tuple[int, int, int] = (24, 26, 30),
    colors: Mapping[str, tuple[float, float, float]] | None = None,
) -> np.ndarray:
    """Plot ``curves`` (one per mode, same channel) into ``rect`` of the frame; returns a new array. ``colors``:
    each curve's colour by its key (panes' labels: an engine's pane is no mode), else the mode's.

    Components that no mode moves (a translation's constant z) are left out so the others get room.
    """
    img = Image.fromarray(rgb)
    draw = ImageDraw.Draw(img)
    x0, y0, w, h = rect
    draw.rectangle((x0, y0, x0 + w - 1, y0 + h - 1), fill=background)
    font = _font(13)
    draw.text((x0 + PAD, y0 + 2), title, fill=TEXT, font=font)
    series = {m: c.components(euler=path == "rotation") for m, c in curves.items()}
    names = next(iter(series.values()))[2]
    stacked = np.concatenate([s[0] for s in series.values()])
    shown = moving_components(stacked)
    any_curve = next(iter(curves.values()))
    t0, t1 = float(any_curve.times[0]), float(any_curve.times[-1])
    top, plot_w = y0 + 20, (w - PAD) / len(shown)
    for slot, k in enumerate(shown):
        px, py, pw, ph = x0 + PAD + slot * plot_w, top, plot_w - PAD, h - 20 - PAD
        lo, hi = float(stacked[:, k].min()), float(stacked[:, k].max())
        lo, hi = (lo - 0.5, hi + 0.5) if hi - lo < 1e-9 else (lo - 0.06 * (hi - lo), hi + 0.06 * (hi - lo))

        def to_px(tt, v):
            return (
                px + (np.asarray(tt) - t0) / max(t1 - t0, 1e-9) * pw,
                py + ph - (np.asarray(v) - lo) / (hi - lo) * ph,
            )

        draw.rectangle((px, py, px + pw, py + ph), outline=AXIS)
        draw.text((px + 4, py + 2), f"{names[k]}  [{lo:.2f}, {hi:.2f}]", fill=AXIS, font=font)
        for mode, c in curves.items():
            values, key_values, _ = series[mode]
            xs, ys = to_px(c.times, values[:, k])
            fill = _rgb255(colors[mode]) if colors else mode_rgb255(mode)
            draw.line(list(zip(xs.tolist(), ys.tolist())), fill=fill, width=2)
            kx, ky = to_px(c.key_times, key_values[:, k])
            for a, b in zip(kx.tolist(), ky.tolist()):
                draw.ellipse((a - 3, b - 3, a + 3, b + 3), fill=(255, 255, 255))
        hx = float(to_px(min(max(t, t0), t1), lo)[0])
        draw.line((hx, py, hx, py + ph), fill=PLAYHEAD, width=2)
    return np.asarray(img)


WORST = (255, 64, 215)  # the worst time's mark, as the window's strip draws it


def draw_strip(
    rgb: np.ndarray,
    rect: PixelRect,
    div: Divergence | None,
    duration: float,
    t: float,
    background: tuple[int, int, int] = (24, 26, 30),
) -> np.ndarray:
    """The divergence strip into ``rect``: a caption, the distance over [0, ``duration``] seconds as the error
    colour scale (one column per pixel: the largest distance in its time span), the worst time and the
    playhead at ``t``; returns a new array."""
    img = Image.fromarray(rgb)
    draw = ImageDraw.Draw(img)
    x0, y0, w, h = rect
    draw.rectangle((x0, y0, x0 + w - 1, y0 + h - 1), fill=background)
    font = _font(13)
    caption = "B has no matching clip" if div is None else f"B against A: max {div.max_distance:.3g}"
    label_w = int(draw.textlength(caption, font=font)) + 2 * PAD
    draw.text((x0 + PAD, y0 + (h - 13) // 2), caption, fill=TEXT, font=font)
    if div is None or duration <= 0:
        return np.asarray(img)
    sx0, sx1 = x0 + label_w, x0 + w - PAD
    columns = max(sx1 - sx0, 1)
    colors = np.round(255 * error_colors(column_maxima(div.times, div.distances, 0.0, duration, columns), div.scale))
    band = np.asarray(img).copy()
    band[y0 + 4 : y0 + h - 4, sx0 : sx0 + columns] = colors.astype(np.uint8)[None]
    img = Image.fromarray(band)
    draw = ImageDraw.Draw(img)

    def x_of(time: float) -> float:
        return sx0 + min(max(time, 0.0), duration) / duration * columns

    if div.scale > 0:
        wx = x_of(div.worst_t)
        draw.line((wx, y0 + 1, wx, y0 + h - 2), fill=WORST, width=2)
        draw.polygon([(wx - 5, y0), (wx + 5, y0), (wx, y0 + 6)], fill=WORST)
    px = x_of(t)
    draw.line((px, y0, px, y0 + h - 1), fill=PLAYHEAD, width=2)
    return np.asarray(img)
