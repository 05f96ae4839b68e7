"""The compare view's overlay: pane labels, and the "Compare" panel (panes, trails, readout; against another
file, ``against_panel``'s).

The panel adds, removes and changes panes (2 to 4, each mode or engine once — the combo lists the engines after
the modes: a pane then plays the clip as that engine will, ``compare.players`` —; a pane after the first may
show another clip of the file: ``pane_choice``), switches trails, and reads out the selected node's local values
— and its material(s)', camera's and light's — in every compared pane at the current time with the difference
from ``authored`` (for rotations the angle between the two, in degrees), per clip shown. It only changes
``ViewerState``.
"""

from __future__ import annotations

from imgui_bundle import imgui

from viewer.compare import views as compare
from viewer.compare.against import PaneSource
from viewer.compare.players import ITEMS, PANE_COLORS, played_at
from viewer.ui import against_panel, pane_choice
from viewer.ui.panels import _vec, value_text
from viewer.ui.state import ViewerState


def _color(mode: str, alpha: float = 1.0) -> imgui.ImVec4:
    r, g, b = PANE_COLORS[mode]
    return imgui.ImVec4(r, g, b, alpha)


def draw_pane_labels(rects, sources: list[PaneSource]) -> None:
    """Each pane's label (its mode, or its file, clip and mode) in its colour at its top-left corner, and a line
    between panes (behind the panels)."""
    draw = imgui.get_background_draw_list()
    for (x, y, w, h), src in zip(rects, sources):
        size = imgui.calc_text_size(src.label)
        draw.add_rect_filled(
            imgui.ImVec2(x + 4, y + 4),
            imgui.ImVec2(x + 12 + size.x, y + 8 + size.y),
            imgui.get_color_u32(imgui.ImVec4(0.08, 0.09, 0.1, 0.9)),
        )
        draw.add_text(imgui.ImVec2(x + 8, y + 6), imgui.get_color_u32(imgui.ImVec4(*src.color, 1.0)), src.label)
        line = imgui.get_color_u32(imgui.ImVec4(0.3, 0.32, 0.36, 1))
        if x > 0:
            draw.add_line(imgui.ImVec2(x, y), imgui.ImVec2(x, y + h), line, 2)
        if y > 0:
            draw.add_line(imgui.ImVec2(x, y), imgui.ImVec2(x + w, y), line, 2)


def compare_section(state: ViewerState) -> None:
    """Pane controls, trails and ghosts toggles, and the per-mode readout (against another file: ``against``)."""
    _, state.display.trails = imgui.checkbox("trails", state.display.trails)
    imgui.same_line()
    _, state.display.ghosts = imgui.checkbox("ghosts", state.display.ghosts)
    if state.against is not None:
        against_panel.against_section(state)
        return
    remove = None
    button_w = imgui.calc_text_size("remove").x + 2 * imgui.get_style().frame_padding.x
    for i, mode in enumerate(list(state.compare_modes)):  # one row a pane: its mode or engine, its clip, remove
        width = pane_choice.half_width(button_w)
        tall = imgui.ComboFlags_.height_large  # the modes and the engines, every entry in view
        picked = pane_choice.combo(f"mode {i}", list(ITEMS), ITEMS.index(mode), width, flags=tall)
        if imgui.is_item_hovered():
            imgui.set_tooltip(f"pane {i + 1}'s interpolation mode, or the engine whose playback it shows")
        if picked is not None:
            state.set_pane(i, ITEMS[picked])
        imgui.same_line()
        pane_choice.clip_combo(state, i, width)
        imgui.same_line()
        imgui.begin_disabled(len(state.compare_modes) <= compare.MIN_PANES)  # comparing needs two
        if imgui.small_button(f"remove##pane{i}"):
            remove = i
        imgui.end_disabled()
    if remove is not None:
        state.remove_pane(remove)
    if len(state.compare_modes) < compare.MAX_PANES and imgui.button("add pane"):
        state.add_pane()
    imgui.separator()
    _readout(state)


def _readout(state: ViewerState) -> None:
    """The selected node's values per pane, grouped by the clip the panes play (one group unless a pane was
    given another clip)."""
    node, groups = state.selected_node, {}
    for i, item in enumerate(state.compare_modes):  # an engine's pane groups with the clip it rewrites
        clip = state.pane_clip(i) or state.clip
        if clip is not None:
            groups.setdefault(id(clip), (clip, []))[1].append(item)
    shown = [
        (clip, modes, rows)
        for clip, modes in groups.values()
        if node is not None and (rows := compare.related_channels(state.scene, clip, node))
    ]
    if not shown:
        imgui.text_disabled("select an animated node for its values per mode")
        return
    imgui.text(f"#{node} {state.scene.nodes.names[node]} at {state.clock.t:.3f} s")
    for clip, modes, rows in shown:
        if len(groups) > 1:
            imgui.text(f"clip {clip.name}")
        engines = played_at(state.scene, clip, modes, state.clock.t)
        values = compare.readout(clip, node, state.clock.t, tuple(modes), state.scene, engines)
        for c in rows:  # the node's own values, then its material(s)', camera's and light's
            ch = clip.channels[c]
            key = compare.readout_key(ch)
            unit = " (deg)" if ch.curve.rotation else ""
            imgui.text_disabled(f"{key}: value, then difference from authored{unit}")
            for mode, entry in values.items():
                imgui.text_colored(_color(mode), f"{mode:>11}")
                imgui.same_line()
                imgui.text(f"{value_text(ch, entry[key], 3)}  {_vec(entry['Δ ' + key], 3)}")
