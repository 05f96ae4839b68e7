"""The compare view's curve window (ImPlot): the chosen channel over time, one line per compared pane — a mode,
or an engine as its player shows the clip over the clock (a wrap at the loop's end is part of what it plays).

The channel follows the selected node: its own first (translation if animated), else its material's,
camera's or light's (``compare.related_channels``), so picking a mesh shows its colour curve; the picker
lists every channel of the clip by ``Channel.label``. A pane given another clip of the file plots that clip's
channel of the same property (none when it does not animate it).

One small plot per component that moves (a translation's constant z gets none); rotations as quaternion
components or, switched, as intrinsic X-Y-Z Euler degrees. White dots mark the channel's keys, an orange
line the playhead: dragging it or clicking in a plot seeks the clock there. The numbers are
``viewer.compare.views.curve`` — the same values ``animview sample --mode`` (or ``--engine``) prints.
"""

from __future__ import annotations

import weakref

import numpy as np
from imgui_bundle import imgui, implot

from viewer.compare import views as compare
from viewer.ui.panels import FloatRect
from viewer.ui.state import ViewerState

PLOT_H = 95
PLAYHEAD = imgui.ImVec4(1.0, 0.63, 0.16, 1.0)
KEY = imgui.ImVec4(1.0, 1.0, 1.0, 1.0)
_CURVES: list[tuple[object, int, str, compare.Series]] = []  # recent (clip, channel, mode, series), newest first
CACHED = 8
_FOLLOWED: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # state -> node selected at its last draw


def cached_curve(clip, channel: int, mode: str, played=None) -> compare.Series:
    """``compare.curve`` of the whole clip, kept across frames: it depends on no time, and sampling every
    channel densely each frame would cost a large clip milliseconds. ``played``: an engine pane's clock
    (its rewritten clip is an object of its own, so the cache tells it apart)."""
    for entry in _CURVES:
        if entry[0] is clip and entry[1] == channel and entry[2] == mode:
            return entry[3]
    curve = compare.curve(clip, channel, mode, played=played)
    _CURVES[:] = [(clip, channel, mode, curve)] + _CURVES[: CACHED - 1]
    return curve


def same_channel(clip, key) -> int | None:
    """The channel of ``clip`` that writes the property ``key`` (``Channel.key``); None when it animates none."""
    if clip is None:
        return None
    return next((c for c, ch in enumerate(clip.channels) if ch.key == key), None)


def default_channel(state: ViewerState) -> int:
    """The selected node's first channel (its translation if animated), else its material's, camera's or
    light's first, else the clip's first channel."""
    rows, channels = node_rows(state), state.clip.channels
    translation = [c for c in rows if channels[c].consumer == "node" and channels[c].path == "translation"]
    return (translation or rows or [0])[0]


def node_rows(state: ViewerState) -> list[int]:
    """Channels the selected node's curves may show: its own and its material(s)', camera's and light's."""
    node = state.selected_node
    return compare.related_channels(state.scene, state.clip, node) if node is not None and state.clip else []


def _follow_selection(state: ViewerState) -> None:
    """A newly selected animated node brings its curves; the picker's choice holds while the selection does,
    or when it moves to a node nothing animates."""
    node, channel = state.selected_node, state.curve_channel
    moved = _FOLLOWED.get(state, node) != node
    _FOLLOWED[state] = node
    if channel is None or channel >= len(state.clip.channels) or (moved and node_rows(state)):
        state.curve_channel = default_channel(state)


def curves_section(state: ViewerState) -> list[FloatRect]:
    """The selected channel in every compared mode, one plot per moving component; returns the plots'
    window rectangles (a click in one seeks)."""
    clip = state.clip
    if clip is None or not clip.channels:
        imgui.text_disabled("no animation")
        return []
    _follow_selection(state)
    labels = [state.channel_label(c) for c in range(len(clip.channels))]  # Channel.label: "material 0 · …"
    imgui.set_next_item_width(-110)  # the rest of the column, less the label and the Euler box
    _, state.curve_channel = imgui.combo("channel", state.curve_channel, labels)
    rotation = clip.channels[state.curve_channel].curve.rotation
    if rotation:
        imgui.same_line()
        _, state.curve_euler = imgui.checkbox("Euler", state.curve_euler)
    target, curves = clip.channels[state.curve_channel].key, {}
    for src in state.pane_sources():  # the legend: the panes' labels in their colours
        c = same_channel(src.clip, target)
        if c is None:
            continue
        if curves:
            imgui.same_line()
        imgui.text_colored(imgui.ImVec4(*src.color, 1.0), src.label)
        curves[src.label] = cached_curve(src.clip, c, src.mode, src.time if src.engine else None), src.color
    series = {m: c.components(rotation and state.curve_euler, " deg") for m, (c, _) in curves.items()}
    names = next(iter(series.values()))[2]
    shown = compare.moving_components(np.concatenate([s[0] for s in series.values()]))
    return [rect for k in shown if (rect := _plot(state, names[k], k, curves, series)) is not None]


def _plot(state: ViewerState, name: str, k: int, curves, series) -> FloatRect | None:
    flags = implot.Flags_.no_title | implot.Flags_.no_menus | implot.Flags_.no_box_select | implot.Flags_.no_legend
    if not implot.begin_plot(f"##{name}", imgui.ImVec2(-1, PLOT_H), flags):
        return None
    implot.setup_axes("", name, implot.AxisFlags_.auto_fit, implot.AxisFlags_.auto_fit)
    for mode, (curve, (r, g, b)) in curves.items():  # by pane label: an engine's pane plays mode authored too
        values, key_values, _ = series[mode]
        implot.set_next_line_style(imgui.ImVec4(r, g, b, 1.0), 2.0)
        implot.plot_line(mode, np.ascontiguousarray(curve.times), np.ascontiguousarray(values[:, k]))
        implot.set_next_marker_style(implot.Marker_.circle, 3.0, KEY, 0.0, KEY)
        implot.plot_scatter(
            f"##keys {mode}", np.ascontiguousarray(curve.key_times), np.ascontiguousarray(key_values[:, k])
        )
    changed, t, *_ = implot.drag_line_x(k, float(state.clock.t), PLAYHEAD, 2.0)
    if changed:
        state.clock.seek(t)
    elif implot.is_plot_hovered() and imgui.is_mouse_clicked(0):
        state.clock.seek(float(implot.get_plot_mouse_pos().x))
    pos, size = implot.get_plot_pos(), implot.get_plot_size()
    implot.end_plot()
    return pos.x, pos.y, size.x, size.y
