"""The dope sheet's rows: key ticks (with tooltips) on any row, the tools row, and one row per channel.

Which rows show is decided in ``dope_rows`` (per clip, filtered); here they are drawn inside a child window
with a scrollbar, only the rows in view, and keys closer than ``MERGE_PX`` on screen joined into one bar. The keys
are binned per pixel column first (``timeline.key_columns``: one search of the column edges), so a row costs its
width, in time and in shapes, whatever its key count — an hour of capture draws as fast as a second (zoom in to
see the keys apart). A row keeps its
interpolation's colour; the selected node's rows get a
warm background and a bar at the left instead of another text colour, so both read at once. A channel
whose value or velocity jumps at the loop seam (``animation.seams``) is marked with a red "!" whose
tooltip gives the numbers.
"""

from __future__ import annotations

from typing import Callable

import numpy as np
from imgui_bundle import imgui

from viewer.animation.modes import AUTHORED_TO_MODE
from viewer.compare.views import mode_rgb255
from viewer.ui import timeline as tl
from viewer.ui.bar_style import (
    HEADER_BG,
    LABEL,
    OUTSIDE_RANGE,
    PLAYHEAD,
    RANGE,
    ROW_ALT_BG,
    ROW_BG,
    SEAM,
    SELECTED_BG,
    col,
)
from viewer.ui.state import ViewerState

GRAB_PX = 6  # key rows and the ruler take clicks this far past both ends of the time axis
# Keys closer than this on screen are drawn as one bar: a row's shapes stay under width / MERGE_PX whatever the
# key count (imgui's renderer here holds 65 536 indices per window, about 2 200 diamonds).
MERGE_PX = 7.0
VALUE_DIGITS = 4


def key_ticks(
    state: ViewerState,
    lay: tl.Layout,
    times,
    y: float,
    color,
    item_id: str,
    describe: Callable[[int], str] | None = None,
) -> None:
    """Diamonds at the key times in view on one row; hovering one shows its time, frame (and what
    ``describe(k)`` adds); a click near one (``TICK_PICK_PX``) pauses and goes to it."""
    dl, r = imgui.get_window_draw_list(), lay.ruler
    times = np.asarray(times, dtype=np.float64)
    mid = y + tl.ROW_H / 2
    for a, b in tl.tick_runs(times, r, MERGE_PX):
        if b - a < 1.0:  # one key here: a diamond
            dl.add_quad_filled(
                imgui.ImVec2(a, mid - 5),
                imgui.ImVec2(a + 4, mid),
                imgui.ImVec2(a, mid + 5),
                imgui.ImVec2(a - 4, mid),
                col(color),
            )
        else:  # keys closer than MERGE_PX: one bar (zoom in to tell them apart)
            dl.add_rect_filled(imgui.ImVec2(a - 2, mid - 4), imgui.ImVec2(b + 2, mid + 4), col(color))
    imgui.set_cursor_screen_pos(imgui.ImVec2(r.x0 - GRAB_PX, y))
    clicked = imgui.invisible_button(item_id, imgui.ImVec2(r.x1 - r.x0 + 2 * GRAB_PX, tl.ROW_H))
    if not (clicked or imgui.is_item_hovered()):
        return
    k = tl.nearest_key_index(times, r, imgui.get_io().mouse_pos.x)
    if k is None:
        return
    if clicked:
        state.clock.pause()
        state.clock.seek(float(times[k]))
    else:
        text = f"key {k + 1} of {len(times)}: {times[k]:.4f} s, frame {tl.frame_of(float(times[k]), state.fps)}"
        imgui.set_tooltip(text + (f"\n{describe(k)}" if describe else ""))


def tools_row(state: ViewerState, lay: tl.Layout, shown: int) -> None:
    """Filter field, "selected node only", how many channels show and how many jump at the loop seam."""
    clip = state.clip
    imgui.set_cursor_screen_pos(imgui.ImVec2(2 * tl.PAD, lay.tools_y + 2))
    imgui.set_next_item_width(tl.LABEL_W - 3 * tl.PAD)
    _, state.channel_filter = imgui.input_text_with_hint("##filter", "filter channels", state.channel_filter)
    imgui.same_line(0, 12)
    _, state.selected_only = imgui.checkbox("selected node only", state.selected_only)
    imgui.same_line(0, 16)
    imgui.text_disabled(f"{shown} of {len(clip.channels)} channels")
    flagged = int(state.seams().flagged.sum())
    if flagged:
        imgui.same_line(0, 16)
        imgui.text_colored(
            imgui.ImVec4(*(c / 255 for c in SEAM)),
            f"! {flagged} {'channels jump' if flagged > 1 else 'channel jumps'} at the loop seam",
        )
        if imgui.is_item_hovered():
            imgui.set_tooltip(
                "The pose at the clip's end differs from its start (value or velocity):\n"
                "the loop shows a jump. Hover a row's ! for the numbers."
            )


def channel_rows(state: ViewerState, lay: tl.Layout, rows) -> None:
    """The rows in a child window that scrolls (wheel, or its scrollbar) past ``MAX_ROWS`` rows."""
    imgui.set_cursor_screen_pos(imgui.ImVec2(0, lay.rows_y))
    imgui.push_style_var(imgui.StyleVar_.window_padding, imgui.ImVec2(0, 0))
    imgui.push_style_var(imgui.StyleVar_.item_spacing, imgui.ImVec2(0, 0))
    flags = imgui.WindowFlags_.no_scroll_with_mouse if imgui.get_io().key_ctrl else 0  # Ctrl+wheel zooms
    imgui.begin_child("##channels", imgui.ImVec2(lay.width, lay.rows_h), 0, flags)
    top, scroll = imgui.get_cursor_screen_pos().y, imgui.get_scroll_y()
    width = imgui.get_content_region_avail().x
    first = int(scroll // tl.ROW_H)
    last = min(len(rows), int((scroll + lay.rows_h) // tl.ROW_H) + 1)
    dl = imgui.get_window_draw_list()
    seams = state.seams()
    for i in range(first, last):
        row, y = rows[i], top + i * tl.ROW_H
        if row.channel is None:
            dl.add_rect_filled(imgui.ImVec2(0, y), imgui.ImVec2(width, y + tl.ROW_H), col(HEADER_BG))
            dl.add_text(imgui.ImVec2(2 * tl.PAD, y + 2), col(LABEL), row.label)
            continue
        _channel_row(state, lay, row, i, y, width, seams)
    imgui.set_cursor_screen_pos(imgui.ImVec2(0, top + len(rows) * tl.ROW_H))
    imgui.dummy(imgui.ImVec2(1, 0))  # the content's height, so the scrollbar knows it
    shade_range(state, lay, lay.rows_y, lay.rows_y + lay.rows_h)  # the child covers the bar's own shade,
    x = lay.ruler.x_of(state.clock.t)  # and its playhead line: draw both again
    if lay.ruler.visible(state.clock.t):
        dl.add_line(imgui.ImVec2(x, lay.rows_y), imgui.ImVec2(x, lay.rows_y + lay.rows_h), col(PLAYHEAD), 2.0)
    imgui.end_child()
    imgui.pop_style_var(2)


def _channel_row(state: ViewerState, lay: tl.Layout, row, i: int, y: float, width: float, seams) -> None:
    clip, c = state.clip, row.channel
    ch = clip.channels[c]
    dl = imgui.get_window_draw_list()
    selected = state.selected_node == ch.node
    dl.add_rect_filled(
        imgui.ImVec2(0, y),
        imgui.ImVec2(width, y + tl.ROW_H),
        col(SELECTED_BG if selected else ROW_ALT_BG if i % 2 else ROW_BG),
    )
    if selected:
        dl.add_rect_filled(imgui.ImVec2(0, y), imgui.ImVec2(3, y + tl.ROW_H), col(PLAYHEAD))
    color = (*mode_rgb255(AUTHORED_TO_MODE[ch.curve.interpolation]), 255)
    imgui.set_cursor_screen_pos(imgui.ImVec2(2 * tl.PAD, y))
    if imgui.invisible_button(f"##label{c}", imgui.ImVec2(tl.LABEL_W - 3 * tl.PAD, tl.ROW_H)):
        if ch.node >= 0:
            state.select_node(ch.node)
    flagged = bool(seams.flagged[c])
    if imgui.is_item_hovered():
        target = f"\n{ch.pointer}" if ch.pointer else ""
        click = "\nclick: select the node" if ch.node >= 0 else ""
        imgui.set_tooltip(
            f"{row.label}{target}\n{ch.curve.interpolation}, {len(ch.curve.times)} keys, "
            f"clip {clip.parts[row.part].name}\nloop {seams.text(c)}{click}"
        )
    label_w = tl.LABEL_W - 5 * tl.PAD - (12 if flagged else 0)
    dl.add_text(imgui.ImVec2(3 * tl.PAD, y + 2), col(color), fit(row.label, label_w))
    if flagged:
        dl.add_text(imgui.ImVec2(tl.LABEL_W - 3 * tl.PAD - 8, y + 2), col(SEAM), "!")
    key_ticks(state, lay, ch.curve.times, y, color, f"##keys{c}", lambda k: _key_value(ch, k))


def _key_value(ch, k: int) -> str:
    """A key's value (and tangents for a cubic spline) as the file stores it, with the interpolation."""
    curve = ch.curve
    text = f"value {_vec(curve.values[k])}  ({curve.interpolation})"
    if curve.in_tangents is not None:
        text += f"\nin-tangent {_vec(curve.in_tangents[k])}\nout-tangent {_vec(curve.out_tangents[k])}"
    return text


def _vec(v) -> str:
    v = np.asarray(v, dtype=np.float64).reshape(-1)
    shown = ", ".join(f"{x:.{VALUE_DIGITS}g}" for x in v[:8])
    return f"[{shown}{', …' if v.size > 8 else ''}]"


def fit(text: str, width: float) -> str:
    """``text`` cut in the middle ("b_LeftF~ · rotation") until it is at most ``width`` pixels wide
    (the row's tooltip has it whole)."""
    if imgui.calc_text_size(text).x <= width:
        return text
    for keep in range(len(text) - 1, 2, -1):
        head = keep - keep // 2
        short = text[:head] + "~" + text[len(text) - keep // 2 :]
        if imgui.calc_text_size(short).x <= width:
            return short
    return text[:3]


def shade_range(state: ViewerState, lay: tl.Layout, y0: float, y1: float) -> None:
    """Shade the times outside the loop range between window y0 and y1 and mark its ends (green brackets)."""
    span = state.clock.range
    if span is None:
        return
    dl, r = imgui.get_window_draw_list(), lay.ruler
    a, b = max(r.x_of(span[0]), r.x0), min(r.x_of(span[1]), r.x1)
    if a > r.x0:
        dl.add_rect_filled(imgui.ImVec2(r.x0, y0), imgui.ImVec2(min(a, r.x1), y1), col(OUTSIDE_RANGE))
    if b < r.x1:
        dl.add_rect_filled(imgui.ImVec2(max(b, r.x0), y0), imgui.ImVec2(r.x1, y1), col(OUTSIDE_RANGE))
    for t, hook in ((span[0], 6), (span[1], -6)):
        if r.visible(t):
            x = r.x_of(t)
            dl.add_line(imgui.ImVec2(x, y0), imgui.ImVec2(x, y1), col(RANGE), 2.0)
            dl.add_line(imgui.ImVec2(x, y0 + 1), imgui.ImVec2(x + hook, y0 + 1), col(RANGE), 3.0)
