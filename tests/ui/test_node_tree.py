"""The Node section's tree: what opens by default, revealing a node picked elsewhere, the search field.

Rows are checked through the screen rectangles the tree records (``node_tree.RECTS``); clicks and typing go
through the real app's event wiring (``app_harness.Driver``).
"""

from __future__ import annotations

import pytest

from tests.app.conftest import Driver, demo
from tests.conftest import KHRONOS_DIR
from tests.gltf_builder import GltfBuilder
from viewer.scene.scene import load
from viewer.ui import node_tree
from viewer.ui.node_tree import RECTS

FOX = KHRONOS_DIR / "Fox" / "Fox.glb"


def _inside(inner, outer) -> bool:
    x, y, w, h = inner
    ox, oy, ow, oh = outer
    return ox <= x and oy <= y and x + w <= ox + ow + 0.5 and y + h <= oy + oh + 0.5


def _visible(node: int) -> bool:
    rect = RECTS["rows"].get(node)
    return rect is not None and _inside(rect, RECTS["tree"])


def _centre(rect) -> tuple[float, float]:
    x, y, w, h = rect
    return x + min(w / 2, 40.0), y + h / 2


@pytest.fixture
def wide_file(tmp_path):
    """A hub with 40 arms of two hands each: too wide to open by default, so hands start hidden."""
    b = GltfBuilder()
    mesh = b.add_mesh(positions=[[0, 0, 0], [1, 0, 0], [0, 1, 0]], indices=[0, 1, 2])
    arms = []
    for i in range(40):
        hands = [b.add_node(name=f"hand{i}{s}", mesh=mesh, translation=[i * 0.1, 0, 0]) for s in "ab"]
        arms.append(b.add_node(name=f"arm{i}", children=hands))
    b.add_node(name="hub", children=arms)
    b.add_scene([len(b.doc["nodes"]) - 1])
    return b.write_gltf(tmp_path, "wide.gltf")


def test_small_rigs_open_whole_and_wide_trees_only_their_chains(wide_file):
    scene = load(FOX if FOX.is_file() else demo("skinned_arm.gltf"))
    tree = node_tree.tree_of(scene.nodes)
    opened = tree.default_open
    assert all(n in opened for n, kids in tree.children.items() if n >= 0 and kids)  # every inner node
    wide = load(wide_file).nodes
    tree = node_tree.tree_of(wide)
    hub = wide.names.index("hub")
    assert tree.default_open == {hub}  # the root; 40 arms of 2 would pass the row budget
    assert node_tree.ancestors(wide, wide.names.index("hand7b")) == [wide.names.index("arm7"), hub]


def test_a_chain_opens_whatever_its_length(tmp_path):
    b = GltfBuilder()
    node = b.add_node(name="tip")
    for i in range(300):  # deeper than any row budget, and than Python's recursion would like
        node = b.add_node(name=f"link{i}", children=[node])
    b.add_scene([node])
    nodes = load(b.write_gltf(tmp_path, "chain.gltf")).nodes
    assert len(node_tree.tree_of(nodes).default_open) == 300


def test_a_node_selected_in_the_view_is_revealed(wide_file):
    d = Driver(wide_file, size=(1280, 720))
    try:
        nodes = d.app.scene.nodes
        deep = nodes.names.index("hand35b")
        d.frames(2, 0.0)
        assert deep not in RECTS["rows"]  # its arm is closed
        d.app.state.select_node(deep)  # as a pick in the 3D view does
        d.frames(2, 0.0)
        assert d.app.state.tree_revealed == deep
        assert _visible(deep) and _inside(RECTS["selected"], RECTS["tree"])
        assert nodes.names.index("arm35") in RECTS["rows"]
    finally:
        d.close()


def test_picking_a_deep_joint_of_a_rig_scrolls_the_tree_to_it():
    d = Driver(FOX if FOX.is_file() else demo("irregular.gltf"), size=(1280, 720))
    try:
        nodes = d.app.scene.nodes
        deepest = int(nodes.depth.argmax()) if not FOX.is_file() else nodes.names.index("b_RightFoot02_022")
        d.app.state.select_node(deepest)
        d.frames(2, 0.0)
        assert _inside(RECTS["selected"], RECTS["tree"])
        # a click on another visible row selects it and the tree stays where it is
        other = next(n for n in RECTS["rows"] if n != deepest and _visible(n))
        where = RECTS["rows"][other]
        d.click(*_centre(where))
        d.frames(2, 0.0)
        assert d.app.state.selected_node == other and d.app.state.tree_revealed == other
        assert RECTS["rows"][other] == where
    finally:
        d.close()


def test_search_lists_matches_and_a_click_selects_then_the_tree_shows_it(wide_file):
    d = Driver(wide_file, size=(1280, 720))
    try:
        state, nodes = d.app.state, d.app.scene.nodes
        before = (state.display.grid, d.clock.loop_mode, state.clip_index)
        d.click(*_centre(RECTS["search"]))
        assert d.app.overlay.typing
        d.type_text("HAND3")  # H, A, N, D, 3: overlay, all clips, clip 3 … none may fire
        assert state.node_filter == "HAND3"
        expected = {i for i, name in enumerate(nodes.names) if "hand3" in name}
        assert len(expected) == 22  # hand3a/b, hand30a … hand39b
        shown = set(RECTS["rows"])  # only the rows in view are built (the list clipper)
        assert shown <= expected and len(shown) >= min(len(expected), 8)
        assert state.display.overlay and (state.display.grid, d.clock.loop_mode, state.clip_index) == before
        target = nodes.names.index("hand31b")
        d.click(*_centre(RECTS["rows"][target]))
        assert state.selected_node == target
        d.frames(1, 0.0)  # the readout of the selection moves the field down
        d.click(*_centre(RECTS["search"]))
        d.key("ESCAPE")  # clears the field (and does not quit the viewer)
        d.frames(2, 0.0)
        assert state.node_filter == "" and not d.app.quit_requested
        assert _visible(target) and state.tree_revealed == target  # revealed once the tree is back
    finally:
        d.close()


def test_typing_in_the_search_field_fires_no_shortcut():
    d = Driver(FOX if FOX.is_file() else demo("irregular.gltf"), size=(1280, 720))
    try:
        state = d.app.state
        d.app.camera.distance *= 3.0  # so that F (frame the scene) would change it
        camera = (d.app.camera.distance, tuple(d.app.camera.target))
        d.click(*_centre(RECTS["search"]))
        d.type_text("f g")  # F frames the scene, Space plays, G hides the grid
        assert state.node_filter == "f g"
        assert not d.clock.playing and state.display.grid
        assert (d.app.camera.distance, tuple(d.app.camera.target)) == camera
        d.frames(1, 0.0)
        assert RECTS["rows"] == {}  # and the list says "no node matches"
    finally:
        d.close()


def test_the_arrow_opens_a_click_on_the_name_selects_a_double_click_does_both(wide_file):
    d = Driver(wide_file, size=(1280, 720))
    try:
        state, nodes = d.app.state, d.app.scene.nodes
        arm, hand = nodes.names.index("arm2"), nodes.names.index("hand2a")
        x, y, w, h = RECTS["rows"][arm]
        d.click(x + 8, y + h / 2)  # the arrow
        d.frames(1, 0.0)
        assert hand in RECTS["rows"] and state.selected_node is None
        d.click(x + 8, y + h / 2)  # closes again
        d.frames(1, 0.0)
        assert hand not in RECTS["rows"]
        d.click(*_centre(RECTS["rows"][arm]))  # the name: selects, stays closed
        d.frames(1, 0.0)
        assert state.selected_node == arm and hand not in RECTS["rows"]
        d.frames(1, 1.0)  # past imgui's double-click time
        d.click(*_centre(RECTS["rows"][arm]))
        d.click(*_centre(RECTS["rows"][arm]))  # a double-click opens it
        d.frames(1, 0.0)
        assert state.selected_node == arm and hand in RECTS["rows"]
    finally:
        d.close()
