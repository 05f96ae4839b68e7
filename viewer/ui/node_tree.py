"""The node tree of the docked column's Node section: a search field over the scene's hierarchy.

- The arrow opens and closes a node; a click on the name selects it, a double-click selects and opens.
- Opened by default: the roots, every single-child chain (a rig's root → hip run), and then level by level
  as long as the tree stays within ``OPEN_ROWS`` rows — so a small rig (Fox's 24 joints) opens whole.
- A node selected elsewhere (picked in the 3D view) is revealed once: its ancestors open and the tree
  scrolls to its row; ``ViewerState.tree_revealed`` remembers which. A click in the tree sets both, so the
  tree does not jump. While the section is collapsed nothing is drawn, so the reveal waits for it.
- Text in the search field (``ViewerState.node_filter``) replaces the tree by a flat list of the nodes
  whose name contains it (any case), each with its parent's name dimmed and its full path as a tooltip.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from imgui_bundle import imgui

from viewer.scene.scene import Nodes
from viewer.ui.state import ViewerState

TREE_ROW_H = 19
INDENT_PX = 12.0  # narrower than imgui's 21, so a rig eight joints deep keeps its names readable
OPEN_ROWS = 32  # rows the tree may show opened by default (single-child chains open regardless)
DIM = imgui.ImVec4(0.55, 0.57, 0.62, 1.0)

RECTS: dict = {}
"""Screen rectangles (x, y, w, h) of the last drawn tree: "search" (the field), "tree" (the scrolling
child as shown), "selected" (the selected node's row, when drawn) and "rows" ({node: rect} of the rows
drawn). For tests and for anything that needs to point at a row."""


@dataclass(frozen=True)
class _Tree:
    children: dict[int, list[int]]  # node → children in file order; -1 → the roots
    default_open: frozenset[int]
    lower: tuple[str, ...]  # names in lower case, for the search


_TREES: list[tuple[Nodes, _Tree]] = []  # the last two scenes' trees (Nodes is unhashable)


def tree_of(nodes: Nodes) -> _Tree:
    """Children, default-open nodes and search keys of ``nodes``; built once per scene, not per frame."""
    for known, tree in _TREES:
        if known is nodes:
            return tree
    children: dict[int, list[int]] = {-1: []}
    for i, p in enumerate(nodes.parent.tolist()):
        children.setdefault(int(p), []).append(i)
    tree = _Tree(children, _default_open(children), tuple(n.lower() for n in nodes.names))
    _TREES[:] = [(nodes, tree)] + _TREES[:1]
    return tree


def _default_open(children: dict[int, list[int]]) -> frozenset[int]:
    """Roots, single-child chains, then shallow levels first while the shown rows stay within OPEN_ROWS."""
    roots = children[-1]
    opened = {r for r in roots if r in children}
    shown = len(roots) + sum(len(children[r]) for r in opened)
    queue = deque(k for r in opened for k in children[r])
    while queue:
        node = queue.popleft()
        kids = children.get(node)
        if kids and (len(kids) == 1 or shown + len(kids) <= OPEN_ROWS):
            opened.add(node)
            shown += len(kids)
            queue.extend(kids)
    return frozenset(opened)


def ancestors(nodes: Nodes, node: int) -> list[int]:
    """The parents of ``node`` up to its root (nearest first)."""
    out, parent = [], int(nodes.parent[node])
    while parent >= 0 and len(out) < len(nodes):  # the bound guards a (rejected at load) cycle
        out.append(parent)
        parent = int(nodes.parent[parent])
    return out


def _item_rect() -> tuple[float, float, float, float]:
    lo, hi = imgui.get_item_rect_min(), imgui.get_item_rect_max()
    return lo.x, lo.y, hi.x - lo.x, hi.y - lo.y


def draw(state: ViewerState, rows: int) -> None:
    """The search field and, below it, the tree (or the search's matches), ``rows`` rows tall at most."""
    RECTS.clear()
    RECTS["rows"] = {}
    nodes = state.scene.nodes
    imgui.push_id(str(state.scene.path))  # another file starts from its own default-open tree
    clear_w = 24.0 if state.node_filter else 0.0
    imgui.set_next_item_width(-(clear_w + imgui.get_style().item_spacing.x) if clear_w else -1.0)
    _, state.node_filter = imgui.input_text_with_hint(
        "##node_filter", "search nodes", state.node_filter, imgui.InputTextFlags_.escape_clears_all
    )
    RECTS["search"] = _item_rect()
    if clear_w:
        imgui.same_line()
        if imgui.button("x##clear_filter", imgui.ImVec2(clear_w, 0)):
            state.node_filter = ""
        imgui.set_item_tooltip("clear the search (Esc in the field)")
    height = TREE_ROW_H * min(len(nodes), rows) + 6
    revealing = state.selected_node is not None and state.selected_node != state.tree_revealed
    if imgui.begin_child("##tree", imgui.ImVec2(0, height)):
        pos, size = imgui.get_window_pos(), imgui.get_window_size()
        RECTS["tree"] = (pos.x, pos.y, size.x, size.y)
        if state.node_filter.strip():
            _matches(state, nodes, state.node_filter.strip().lower())
        else:
            _hierarchy(state, nodes)
    imgui.end_child()
    if revealing and not state.node_filter.strip():  # the column scrolls too, so the tree is on screen
        imgui.set_scroll_here_y(1.0)
    imgui.pop_id()


def _hierarchy(state: ViewerState, nodes: Nodes) -> None:
    tree = tree_of(nodes)
    target = state.selected_node
    reveal = target is not None and target != state.tree_revealed
    path = set(ancestors(nodes, target)) if reveal else set()
    imgui.push_style_var(imgui.StyleVar_.indent_spacing, INDENT_PX)
    stack: list[tuple[int, bool]] = [(root, False) for root in reversed(tree.children[-1])]
    while stack:  # depth first without recursion: a chain of thousands of nodes is a valid file
        node, pop = stack.pop()
        if pop:
            imgui.tree_pop()
            continue
        kids = tree.children.get(node, [])
        if node in path:
            imgui.set_next_item_open(True, imgui.Cond_.always)  # on the way to the node to reveal
        elif node in tree.default_open:
            imgui.set_next_item_open(True, imgui.Cond_.once)  # the first time it is drawn only
        if _row(state, nodes, node, kids, reveal):
            stack.append((node, True))
            stack.extend((k, False) for k in reversed(kids))
    imgui.pop_style_var()
    if reveal and state.selected_node == target:  # (a click this frame already set its own)
        state.tree_revealed = target
    elif state.selected_node is None:
        state.tree_revealed = None


def _row(state: ViewerState, nodes: Nodes, node: int, kids: list[int], reveal: bool) -> bool:
    """One tree row; scrolls to it when it is the selected node to reveal. Returns whether it is open."""
    flags = (
        imgui.TreeNodeFlags_.open_on_arrow
        | imgui.TreeNodeFlags_.open_on_double_click
        | imgui.TreeNodeFlags_.span_avail_width
    )
    if not kids:
        flags |= imgui.TreeNodeFlags_.leaf
    if state.selected_node == node:
        flags |= imgui.TreeNodeFlags_.selected
    opened = imgui.tree_node_ex(f"{nodes.names[node]}##{node}", flags)
    if imgui.is_item_clicked() and not imgui.is_item_toggled_open():
        state.select_node(node)
        state.tree_revealed = state.selected_node  # chosen here: it is in view, no jump
    rect = _item_rect()
    RECTS["rows"][node] = rect
    if state.selected_node == node:
        RECTS["selected"] = rect
        if reveal and not _fully_visible(rect):
            imgui.set_scroll_here_y(0.5)
    return opened


def _fully_visible(rect) -> bool:
    top = imgui.get_window_pos().y
    return rect[1] >= top and rect[1] + rect[3] <= top + imgui.get_window_size().y


def _matches(state: ViewerState, nodes: Nodes, text: str) -> None:
    """The flat list of nodes whose name contains ``text``; a click selects (the tree reveals it later).
    Only the rows in view are built (imgui's list clipper), and a row's full path only when hovered."""
    found = [i for i, name in enumerate(tree_of(nodes).lower) if text in name]
    if not found:
        imgui.text_disabled("no node matches")
        return
    clipper = imgui.ListClipper()
    clipper.begin(len(found))
    while clipper.step():
        for node in found[clipper.display_start : clipper.display_end]:
            clicked, _ = imgui.selectable(f"{nodes.names[node]}##{node}", state.selected_node == node)
            if clicked:
                state.select_node(node)  # tree_revealed stays: clearing the search shows it in the tree
            rect = _item_rect()
            RECTS["rows"][node] = rect
            if state.selected_node == node:
                RECTS["selected"] = rect
            if imgui.is_item_hovered():
                up = ancestors(nodes, node)
                imgui.set_tooltip("/".join(nodes.names[a] for a in [*reversed(up), node]))
            parent = int(nodes.parent[node])
            if parent >= 0:
                imgui.same_line()
                imgui.text_colored(DIM, f"in {nodes.names[parent]}")
    clipper.end()
