"""The window's compare view (``--compare``, C, the Compare panel), driven headless through the real app."""

from __future__ import annotations

import numpy as np
import pytest

from tests.app.conftest import Driver, demo
from viewer.cli import main
from viewer.compare import views as compare
from viewer.ui.state import ViewerState

MODES3 = ("step", "linear", "catmull-rom")
LABEL_H = 30


@pytest.fixture
def irregular():
    d = Driver(demo("irregular.gltf"), compare=MODES3)  # keys at 0, 0.3, 0.45, 1.5, 1.7, 3.0 s
    yield d
    d.close()


def pane_crops(d: Driver) -> list[np.ndarray]:
    """The panes of the 3D view (overlay hidden), below their labels, one pixel in from each border."""
    rgb = d.pixels().astype(int)
    return [rgb[y + LABEL_H : y + h - 1, x + 2 : x + w - 2] for x, y, w, h in d.app.compare_view.rects]


def test_compare_panes_agree_at_keys_and_differ_between(irregular):
    d = irregular
    assert d.app.state.display.compare and d.app.state.compare_modes == list(MODES3)
    d.key("H")  # hide the overlay: the panes fill the window
    d.app.state.display.trails = False  # each pane draws its own trail on top: compare the meshes alone
    d.clock.seek(float(d.clock.keys[2]))
    d.frame(0.0)
    rects = d.app.compare_view.rects
    assert len(rects) == 3 and len({y for _, y, _, _ in rects}) == 1
    crops = pane_crops(d)
    for mode, crop in zip(MODES3[1:], crops[1:]):
        assert np.abs(crop - crops[0]).max() <= 2, f"{mode} differs from step at a key"
    d.clock.seek(0.9)
    d.frame(0.0)
    crops = pane_crops(d)
    for a in range(3):
        for b in range(a + 1, 3):
            assert (np.abs(crops[a] - crops[b]).sum(axis=2) > 60).sum() > 100, (MODES3[a], MODES3[b])
    assert d.app.ctx.error == "GL_NO_ERROR"


def test_c_toggles_compare_view_and_panel(irregular):
    d = irregular
    d.clock.seek(0.9)
    d.frame(0.0)
    split = d.view_pixels()
    d.key("C")
    assert not d.app.state.display.compare
    assert not np.array_equal(d.view_pixels(), split)
    d.key("C")
    d.frame(0.0)  # the column's auto-sized panels settle on their second frame
    assert d.app.state.display.compare
    assert np.array_equal(d.view_pixels(), split)


def test_four_panes_form_a_grid_and_click_selects_in_a_pane(irregular):
    d = irregular
    assert d.app.state.add_pane()
    d.key("H")
    rects = d.app.compare_view.rects
    assert len(rects) == 4 and len({y for _, y, _, _ in rects}) == 2
    # click the ball in the 4th pane: its origin projected with that pane's camera
    x, y, w, h = rects[3]
    mode = d.app.state.compare_modes[3]
    vp = d.app.compare_view.view_projections[3]
    from viewer.render.overlay_lines import to_window

    screen, _ = to_window(d.app.compare_view.pose(mode).world[[0], :3, 3], vp, (w, h))
    d.click(x + screen[0, 0], y + screen[0, 1])
    assert d.app.state.selected_node == 0


def test_pane_editing_rules(irregular):
    state = ViewerState(irregular.app.scene, compare=("step", "linear"))
    assert state.display.compare
    assert not state.remove_pane(0)  # two is the least
    assert state.set_pane(0, "linear") and state.compare_modes == ["linear", "step"]  # swapped
    assert state.add_pane() and state.add_pane() and not state.add_pane()  # four at most
    assert len(set(state.compare_modes)) == 4
    assert state.remove_pane(3) and len(state.compare_modes) == 3
    assert not state.set_pane(0, "bogus")
    assert not ViewerState(irregular.app.scene).display.compare


def test_readout_shows_every_mode(irregular):
    d = irregular
    d.app.state.select_node(0)
    d.clock.seek(0.9)
    d.frame(0.0)
    values = compare.readout(d.app.state.clip, 0, 0.9, MODES3)
    assert set(values) == set(MODES3)


@pytest.mark.parametrize("bad", ["step", "step,nope", "step,step"])
def test_view_rejects_bad_compare(capsys, bad):
    code = main([str(demo("irregular.gltf")), "--compare", bad, "--window", "headless", "--frames", "1"])
    assert code == 2
    assert len(capsys.readouterr().err.splitlines()) == 1


def test_curve_section_plots_and_a_click_seeks():
    d = Driver(demo("irregular.gltf"), size=(1280, 1200), compare=MODES3)  # tall enough to show the plots
    try:
        d.app.state.select_node(0)
        d.clock.seek(0.9)
        d.frames(2, 0.0)
        assert d.app.state.curve_channel == 0
        plots = d.app.overlay.widgets["curve_plots"]
        assert plots
        x, y, w, h = plots[-1]  # the lower plot, in the docked column right of the 3D view
        assert w > 200 and h > 40 and x >= d.layout.scene_viewport()[2]
        d.click(x + 0.8 * w, y + h / 2)  # inside it, right of the playhead
        assert 0.9 < d.clock.t <= 3.0
        d.key("C")
        assert not d.app.overlay.widgets["curve_plots"]  # the Curves section went away with the panes
    finally:
        d.close()


def test_ghosts_toggle_in_the_window_and_are_built_once(irregular):
    d = irregular
    d.key("H")
    d.clock.seek(0.9)
    d.frame(0.0)
    before = d.view_pixels()
    d.app.state.display.ghosts = True
    d.frame(0.0)
    with_ghosts = d.view_pixels()
    assert (np.abs(with_ghosts.astype(int) - before.astype(int)).sum(axis=2) > 12).sum() > 300
    cached = d.app.compare_view.ghosts(d.app.state.clip, "linear")
    d.clock.seek(1.6)
    d.frame(0.0)
    assert d.app.compare_view.ghosts(d.app.state.clip, "linear") is cached  # independent of the time
    d.app.state.display.ghosts = False
    d.clock.seek(0.9)
    d.frame(0.0)
    assert np.array_equal(d.view_pixels(), before)
    assert d.app.ctx.error == "GL_NO_ERROR"


def test_compare_view_with_trails_on_a_morph_only_clip_plays(tmp_path):
    """A clip that drives only morph weights has no node to trail: the panes still play (it crashed)."""
    from tests.gltf_builder import morph_only

    d = Driver(morph_only().write_gltf(tmp_path, "morph_only.gltf"), compare=MODES3, paused=False)
    try:
        d.app.state.display.trails = True
        d.app.state.display.ghosts = True
        d.frames(10)
        assert d.app.state.clock.t > 0.0
        assert d.view_pixels().any()
    finally:
        d.close()
