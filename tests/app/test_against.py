"""``animview A --against B``: two files' panes on one clock and camera, the divergence strip, the error colours,
B over A, and files dropped on the panes — driven headless through the real app."""

from __future__ import annotations

import numpy as np
import pytest

from tests.app.conftest import Driver, demo
from tests.conftest import khronos_model
from tests.render.conftest import assert_matches_golden
from viewer.cli import main
from viewer.ui import against_panel


@pytest.fixture(scope="module")
def fox_step(tmp_path_factory):
    """Fox with every clip baked as STEP at 8 fps: the same keys' poses, held — B differs from A between them."""
    out = tmp_path_factory.mktemp("against") / "fox_step.glb"
    assert main(["bake", str(khronos_model("Fox")), "-o", str(out), "--mode", "step", "--fps", "8", "--quiet"]) == 0
    return out


@pytest.fixture
def fox(fox_step):
    d = Driver(khronos_model("Fox"), against=fox_step, animation=1)  # Walk
    yield d
    d.close()


def test_two_panes_labelled_by_file_with_the_matched_clip(fox, fox_step):
    d, state = fox, fox.app.state
    assert state.display.compare and len(d.app.compare_view.rects) == 2
    a, b = d.app.compare_view.sources
    assert a.label == "Fox.glb · Walk" and b.label == "fox_step.glb · Walk"
    assert b.scene is state.against.b and b.clip.name == "Walk"
    state.select_clip(2)  # Run: B follows with its own Run
    d.frame(0.0)
    assert d.app.compare_view.sources[1].clip.name == "Run" and d.app.compare_view.poses[1].scene is state.against.b
    assert d.app.ctx.error == "GL_NO_ERROR"


def test_a_click_on_the_strip_seeks_and_snaps_to_the_worst_time(fox):
    d = fox
    div = d.app.state.divergence()
    assert div is not None and div.scale > 0 and d.layout.strip_h > 0
    x, y = d.layout.strip_point(0.2)
    d.click(x, y)
    assert d.clock.t == pytest.approx(d.layout.ruler.t_of(x))
    x, y = d.layout.strip_point(div.worst_t)
    d.click(x + 2, y)  # a little beside the mark: lands on it exactly
    assert d.clock.t == div.worst_t
    assert not d.clock.playing


def test_joints_take_the_error_colour_and_the_readout_gives_both_panes(fox):
    d, state = fox, fox.app.state
    state.display.skeleton = True
    d.clock.seek(0.2)  # between two of B's 8 fps keys: B holds the pose of 0.125 s
    state.select_node(int(np.flatnonzero(np.array(state.scene.nodes.names) == "b_LeftFoot02_018")[0]))
    d.frames(2, 0.0)
    err_a, err_b = d.app.compare_view.errors
    assert np.nanmax(err_a) > 0.5 and np.nanmax(err_b) == np.nanmax(err_a)
    lines = against_panel.SHOWN
    assert lines[0].startswith("now ") and any(s.startswith("A world") for s in lines)
    delta = [s for s in lines if s.startswith("Δ") and "T" not in s and "R" not in s]
    assert float(delta[0].split()[1]) == pytest.approx(err_a[state.selected_node], rel=1e-3)


def test_b_over_a_changes_only_pane_a(fox):
    d = fox
    d.key("H")
    d.app.state.display.trails = False
    d.clock.seek(0.2)
    d.frame(0.0)
    before = d.pixels().astype(int)
    d.app.state.display.overlay_b = True
    d.frame(0.0)
    after = d.pixels().astype(int)
    (ax, ay, aw, ah), (bx, by, bw, bh) = d.app.compare_view.rects
    changed = np.abs(after - before).sum(axis=2) > 12
    assert changed[ay : ay + ah, ax : ax + aw].sum() > 200
    assert not changed[by : by + bh, bx + 2 : bx + bw].any()


def test_a_click_in_pane_b_selects_the_partner(fox):
    d = fox
    d.key("H")
    from viewer.render.overlay_lines import to_window

    x, y, w, h = d.app.compare_view.rects[1]
    pose_b, vp = d.app.compare_view.poses[1], d.app.compare_view.view_projections[1]
    node_b = int(np.flatnonzero(np.array(pose_b.scene.nodes.names) == "b_Head_05")[0])
    screen, _ = to_window(pose_b.world[[node_b], :3, 3], vp, (w, h))
    d.click(x + screen[0, 0], y + screen[0, 1])
    assert d.app.state.scene.nodes.names[d.app.state.selected_node] == "b_Head_05"


def test_dropping_files_onto_the_panes(fox_step):
    d = Driver(demo("irregular.gltf"), compare=("step", "linear"))
    try:
        d.key("H")
        x, y, w, h = d.app.compare_view.rects[1]
        d.app.on_files_dropped_event(x + w // 2, y + h // 2, [str(demo("irregular.gltf"))])
        d.frame(0.0)
        assert d.app.state.against is not None and d.app.compare_view.sources[1].label.startswith("irregular.gltf · ")
        x, y, w, h = d.app.compare_view.rects[0]
        d.app.on_files_dropped_event(x + 5, y + 5, [str(fox_step)])  # on pane A: it becomes the file, B stays
        d.frame(0.0)
        assert d.app.state.scene.path == fox_step and d.app.state.against.b.path.name == "irregular.gltf"
        d.app.on_files_dropped_event(x + w + 5, y + 5, ["/no/such.glb"])
        assert "such.glb" in d.app.state.message and d.app.state.against.b.path.name == "irregular.gltf"
    finally:
        d.close()


def test_the_against_window_picture(fox):
    """The window as a user opens it: A | B with trails and error-coloured joints, the strip under the ruler."""
    d = fox
    d.app.state.display.skeleton = True
    d.clock.seek(0.2)
    d.frames(2, 0.0)
    assert_matches_golden("against_window_fox_0.20", d.pixels())


def test_view_refuses_against_with_compare(capsys, fox_step):
    argv = [str(khronos_model("Fox")), "--against", str(fox_step), "--compare", "step,linear", "--window", "headless"]
    assert main(argv) == 2
    assert len(capsys.readouterr().err.splitlines()) == 1
