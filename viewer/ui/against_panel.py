"""The Compare panel against another file: what each pane shows (B's clip and mode chosen in ``pane_choice``'s
rows), the divergence, and the readout per pane.

The readout gives, at the playhead, the largest distance between matched nodes now, and for the selected node
its value in each pane — world position, local translation and rotation of its partner in B — with the
difference (a distance, and the angle between the two rotations in degrees). The poses are ``Against``'s own,
so the panel reads the same numbers whether or not the panes are drawn. It only changes ``ViewerState``.
"""

from __future__ import annotations

import numpy as np
from imgui_bundle import imgui

from viewer.base import math3d
from viewer.ui import pane_choice
from viewer.ui.panels import _vec
from viewer.ui.state import ViewerState

SHOWN: list[str] = []
"""The readout's lines as last drawn, for tests (pixels do not say which numbers were drawn)."""


def readout_lines(state: ViewerState) -> list[tuple[str, str]]:
    """(who, text) lines of the readout now: who is "A", "B", "Δ" or "" (a heading)."""
    against, clip, t = state.against, state.clip, state.clock.t
    err_a, _ = against.errors_at(clip, t, state.mode, state.choice_b)
    lines = []
    if np.isfinite(err_a).any():
        worst = int(np.nanargmax(err_a))
        lines.append(("", f"now {np.nanmax(err_a):.4g} apart at most ({state.scene.nodes.names[worst]})"))
    node = state.selected_node
    partner = against.match.partner().get(node) if node is not None else None
    if node is None:
        lines.append(("", "select a node for its value in each pane"))
        return lines
    if partner is None:
        lines.append(("", f"#{node} {state.scene.nodes.names[node]} has no partner in B"))
        return lines
    pa, pb = against.pose_a, against.pose_b
    lines.append(("", f"#{node} {state.scene.nodes.names[node]} at {t:.3f} s"))
    wa, wb = pa.world[node, :3, 3], pb.world[partner, :3, 3]
    lines += [("A", f"world {_vec(wa, 3)}"), ("B", f"world {_vec(wb, 3)}"), ("Δ", f"{np.linalg.norm(wa - wb):.4g}")]
    ta, tb = pa.translation[node], pb.translation[partner]
    lines += [("A", f"T {_vec(ta, 3)}"), ("B", f"T {_vec(tb, 3)}"), ("Δ", f"T {_vec(tb - ta, 3)}")]
    ra, rb = pa.rotation[node], pb.rotation[partner]
    angle = float(np.degrees(math3d.quat_angle_between(ra, rb)))
    lines += [("A", f"R {_vec(ra, 3)}"), ("B", f"R {_vec(rb, 3)}"), ("Δ", f"R {angle:.3f} deg")]
    return lines


def against_section(state: ViewerState) -> None:
    """The two panes' sources (B's clip and mode to choose), the B-over-A toggle, the divergence over the clip
    and the readout."""
    d, sources = state.display, state.pane_sources()
    _, d.overlay_b = imgui.checkbox("B over A", d.overlay_b)
    if imgui.is_item_hovered():
        imgui.set_tooltip("draw B translucent inside A's pane, where the two part")
    imgui.same_line()
    if imgui.small_button("stop comparing"):
        state.set_against(None)
        d.compare = False
        return
    pane_choice.against_rows(state)
    div = state.divergence()
    if div is not None:
        imgui.text(f"over the clip: {div.max_distance:.4g} at most, {div.worst_t:.3f} s")
        imgui.text_disabled(f"   ({div.worst_what}; same below {div.threshold:.2g})")
        if imgui.small_button("go to the worst time"):
            state.clock.seek(div.worst_t)
    imgui.separator()
    lines = readout_lines(state)
    SHOWN[:] = [f"{who} {text}".strip() for who, text in lines]
    colors = {who: imgui.ImVec4(*src.color, 1.0) for who, src in zip("AB", sources)}
    for who, text in lines:
        if who in colors:
            imgui.text_colored(colors[who], who)
            imgui.same_line()
            imgui.text(text)
        elif who:
            imgui.text_disabled(who)
            imgui.same_line()
            imgui.text(text)
        else:
            imgui.text_disabled(text)
