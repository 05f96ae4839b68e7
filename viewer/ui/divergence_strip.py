"""The divergence strip under the ruler (against another file): where in time B leaves A, and by how much.

The diff report's ``over_time`` (``compare.against.Divergence``, measured once per clip and mode) is drawn on
the ruler's own time axis, one colour per pixel column — the largest distance in that column's time span, so
a one-frame spike stays visible zoomed out — on the error scale the panes' joints use (green: the same,
red: the clip's largest). The worst time is marked; a click (or a drag) on the strip seeks there, and a click
within a few pixels of the worst mark lands on it exactly. It only changes the clock.
"""

from __future__ import annotations

import numpy as np
from imgui_bundle import imgui

from viewer.compare.against import Divergence, column_maxima, error_colors
from viewer.ui import timeline as tl
from viewer.ui.bar_style import DIM, LABEL, ROW_BG, col
from viewer.ui.state import ViewerState

COLUMN_PX = 2  # pixels per colour column
WORST = (255, 64, 215, 255)  # the worst time's mark: apart from the scale's green-yellow-red


def strip_label(div: Divergence | None) -> str:
    """The strip's caption: the clip's largest distance, or that the two agree, or that B has no such clip."""
    if div is None:
        return "B has no matching clip"
    if div.scale == 0.0:
        return f"same (max {div.max_distance:.2g})"
    return f"max {div.max_distance:.3g} at {div.worst_t:.2f}s"


def draw(state: ViewerState, lay: tl.Layout) -> None:
    """Draw the strip at ``lay.strip_y`` and seek on a click."""
    if not lay.strip_h:
        return
    dl, r, y, h = imgui.get_window_draw_list(), lay.ruler, lay.strip_y, lay.strip_h
    div = state.divergence()
    dl.add_rect_filled(imgui.ImVec2(0, y), imgui.ImVec2(lay.width, y + h), col(ROW_BG))
    dl.add_text(imgui.ImVec2(2 * tl.PAD, y + 1), col(DIM if div is None else LABEL), strip_label(div))
    if div is None or r.duration <= 0:
        return
    columns = max(int((r.x1 - r.x0) // COLUMN_PX), 1)
    colors = error_colors(column_maxima(div.times, div.distances, r.start, r.view_end, columns), div.scale)
    packed = (np.round(colors * 255).astype(np.int64) * [1, 256, 65536]).sum(axis=1)
    edges = np.linspace(r.x0, r.x1, columns + 1)
    starts = np.r_[0, np.flatnonzero(np.diff(packed)) + 1]  # one rectangle per run of one colour
    ends = np.r_[starts[1:], columns]
    for a, b in zip(starts.tolist(), ends.tolist()):
        rgb = colors[a]
        color = imgui.get_color_u32(imgui.ImVec4(float(rgb[0]), float(rgb[1]), float(rgb[2]), 1.0))
        dl.add_rect_filled(imgui.ImVec2(float(edges[a]), y + 2), imgui.ImVec2(float(edges[b]), y + h - 2), color)
    if r.visible(div.worst_t) and div.scale > 0:
        x = r.x_of(div.worst_t)
        dl.add_line(imgui.ImVec2(x, y), imgui.ImVec2(x, y + h), col(WORST), 2.0)
        dl.add_triangle_filled(imgui.ImVec2(x - 5, y), imgui.ImVec2(x + 5, y), imgui.ImVec2(x, y + 6), col(WORST))
    imgui.set_cursor_screen_pos(imgui.ImVec2(r.x0, y))
    imgui.invisible_button("##divergence", imgui.ImVec2(max(r.x1 - r.x0, 1.0), h))
    mouse_x = imgui.get_io().mouse_pos.x
    if imgui.is_item_active():
        near_worst = r.visible(div.worst_t) and abs(r.x_of(div.worst_t) - mouse_x) <= tl.TICK_PICK_PX
        state.clock.seek(div.worst_t if near_worst else r.t_of(mouse_x))
    if imgui.is_item_hovered():
        t = r.t_of(mouse_x)
        imgui.set_tooltip(
            f"B against A at {t:.3f} s: {div.at(t):.4g} apart\n"
            f"worst {div.max_distance:.4g} at {div.worst_t:.3f} s ({div.worst_what})\nclick: seek"
        )
