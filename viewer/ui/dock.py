"""The docked panel column: View, Compare, Node and Curves at the right of the 3D view, never over it.

The column takes ``layout.side_w`` pixels from the right of the area above the bar and the 3D view (every
compare pane) gets the rest (``Layout.scene_viewport``), so nothing is drawn under a panel. Each panel is a
collapsible section; the column scrolls when they do not fit, and its left edge can be dragged to widen it
(the width is kept in ``ViewerState.side_w`` and used from the next frame on).
"""

from __future__ import annotations

from imgui_bundle import imgui

from viewer.pose.pose import Pose
from viewer.ui import compare_panel, curve_view, panels
from viewer.ui.panels import FloatRect, window_rect
from viewer.ui.state import ViewerState
from viewer.ui.timeline import SIDE_MAX_W, SIDE_MIN_W, Layout

FLAGS = (
    panels.PANEL_FLAGS | imgui.WindowFlags_.no_move | imgui.WindowFlags_.no_collapse | imgui.WindowFlags_.no_title_bar
)
OPEN = imgui.TreeNodeFlags_.default_open
TREE_ROWS = 14  # node tree rows shown before it scrolls


def draw_column(state: ViewerState, pose: Pose, layout: Layout) -> tuple[FloatRect, list[FloatRect]]:
    """Draw the column for this frame; returns its window rectangle and the curve plots' rectangles."""
    x = layout.width - layout.side_w
    imgui.set_next_window_pos(imgui.ImVec2(x, 0.0), imgui.Cond_.always)
    imgui.set_next_window_size(imgui.ImVec2(layout.side_w, layout.top), imgui.Cond_.always)
    imgui.set_next_window_size_constraints(
        imgui.ImVec2(SIDE_MIN_W, layout.top), imgui.ImVec2(max(SIDE_MIN_W, layout.width * 0.6), layout.top)
    )
    imgui.begin("##panels", None, FLAGS)
    plots: list[FloatRect] = []
    if imgui.collapsing_header("View", OPEN):
        panels.view_section(state)
    if state.display.compare and imgui.collapsing_header("Compare", OPEN):
        compare_panel.compare_section(state)
    if imgui.collapsing_header("Node", OPEN):
        panels.node_section(state, pose, TREE_ROWS if not state.display.compare else TREE_ROWS // 2)
    if state.display.compare and state.against is None and imgui.collapsing_header("Curves", OPEN):
        plots = curve_view.curves_section(state)
    rect = window_rect()
    imgui.end()
    dragged = rect[2] != layout.side_w  # the user dragged the left edge: keep the new width
    if dragged:
        state.side_w = int(min(max(rect[2], SIDE_MIN_W), max(SIDE_MAX_W, layout.width * 0.6)))
    return rect, plots
