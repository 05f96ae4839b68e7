"""Compare panes are never under a panel: every pane's label and centre stay the 3D view's (headless app).

Through ``app_harness.Driver`` (the real ``ViewerApp`` on a headless EGL window) with compare view on (C),
for every pane the app drew (``CompareView.rects``, which must equal ``compare.pane_rects`` over the
layout's ``scene_viewport``):

- geometry: the pane's label box (where ``compare_panel.draw_pane_labels`` puts it: text at (x + 8, y + 6),
  its dark box from (x + 4, y + 4)) and the pane's centre pixel lie in no overlay window: neither in
  ``Overlay.rects`` nor in any window imgui itself built last frame (its context's window list, children
  and popups included);
- pixels: the label area holds the mode's colour (``compare.mode_rgb255``: the label text is drawn and
  nothing covers it — panels are drawn over the background list the labels use), and every pixel of the
  pane but its label box and the pane separator lines is exactly what the same frame shows with the overlay
  not drawn at all (the centre region included): no imgui pixel lands on the 3D view.

Cases: 1280×720 with three panes (the default compare modes), the docked column dragged wider by its left
edge, 960×540, and four panes (one added) at both sizes; on the skinned and the interpolation demos, and on
Khronos Fox when the shared models are present.
"""

from __future__ import annotations

import numpy as np
import pytest
from imgui_bundle import imgui

from tests.app.conftest import Driver, demo
from tests.conftest import khronos_model
from viewer.compare import views as compare
from viewer.ui.state import DEFAULT_COMPARE

LABEL_TOLERANCE = 10  # max per-channel difference from the mode colour counted as label text
LABEL_MIN_PIXELS = 20  # "step", the shortest label, has about 60 pixels of its exact colour
SEPARATOR_PX = 3  # the 2 px anti-aliased separator line, either side of a pane edge
CENTRE_HALF = 7  # the centre region: 15 × 15 pixels


def _model(name: str):
    return khronos_model("Fox") if name == "Fox" else demo(name)


@pytest.fixture(params=["skinned_arm.gltf", "interpolation.gltf", "Fox"])
def model(request):
    return _model(request.param)


def imgui_windows(d: Driver) -> list[tuple[str, tuple[float, float, float, float]]]:
    """(name, (x, y, w, h)) of every window imgui built last frame, as its own context lists them."""
    d.app.overlay._use()
    return [
        (w.name, (w.pos.x, w.pos.y, w.size.x, w.size.y))
        for w in imgui.get_current_context().windows
        if w.active and not w.hidden
    ]


def overlaps(a, b) -> bool:
    """Two (x, y, w, h) rectangles share a pixel."""
    ax, ay, aw, ah = a
    bx, by, bw, bh = b
    return ax < bx + bw and bx < ax + aw and ay < by + bh and by < ay + ah


def label_box(d: Driver, rect, mode: str) -> tuple[int, int, int, int]:
    """(x, y, w, h) of a pane's label with its dark box, as ``draw_pane_labels`` draws it (one pixel of slack)."""
    d.app.overlay._use()
    size = imgui.calc_text_size(mode)
    x, y, _, _ = rect
    return x + 3, y + 3, int(np.ceil(size.x)) + 10, int(np.ceil(size.y)) + 6


def frame_without_overlay(d: Driver) -> np.ndarray:
    """The same frame (paused, no time passing) with the overlay built but not drawn: the 3D view alone."""
    d.app.overlay.render = lambda: None
    try:
        d.frame(0.0)
        return d.pixels()
    finally:
        del d.app.overlay.render
        d.frame(0.0)


def check_panes_uncovered(d: Driver, panes: int) -> None:
    """Every pane's label and centre are in no overlay window, and its pixels are the 3D view's."""
    d.move(3, d.wnd.size[1] - 3)  # the pointer rests on the bar's empty corner: no hover highlight on the view
    d.frames(2, 0.0)
    modes = d.app.state.compare_modes
    assert d.app.state.display.compare and len(modes) == panes
    _, _, view_w, view_h = d.layout.scene_viewport()
    rects = compare.pane_rects(panes, view_w, view_h)
    assert d.app.compare_view.rects == rects, "the panes drawn are not the pure layout's"
    windows = [("overlay.rects", r) for r in d.app.overlay.rects] + imgui_windows(d)
    assert any(name == "##panels" for name, _ in windows), "no docked column this frame"

    shot = d.pixels().astype(int)
    bare = frame_without_overlay(d).astype(int)
    # the 3D view's own pixels: everything but the labels and the separator lines between panes
    own = np.zeros(shot.shape[:2], bool)
    own[:view_h, :view_w] = True
    for (x, y, w, h), mode in zip(rects, modes):
        lx, ly, lw, lh = label_box(d, (x, y, w, h), mode)
        own[ly : ly + lh, lx : lx + lw] = False
        if x > 0:
            own[y : y + h, max(x - SEPARATOR_PX, 0) : x + SEPARATOR_PX + 1] = False
        if y > 0:
            own[max(y - SEPARATOR_PX, 0) : y + SEPARATOR_PX + 1, x : x + w] = False

    for (x, y, w, h), mode in zip(rects, modes):
        where = f"{mode} pane {(x, y, w, h)} at {d.wnd.size}"
        box = label_box(d, (x, y, w, h), mode)
        cx, cy = x + w // 2, y + h // 2
        assert box[0] + box[2] <= x + w and box[1] + box[3] <= y + h, f"{where}: the label does not fit the pane"
        for name, r in windows:
            assert not overlaps(box, r), f"{where}: the label is under {name} {r}"
            assert not overlaps((cx, cy, 1, 1), r), f"{where}: the centre is under {name} {r}"

        lx, ly, lw, lh = box
        text = shot[ly : ly + lh, lx : lx + lw]
        near = np.abs(text - np.array(compare.mode_rgb255(mode))).max(axis=2) <= LABEL_TOLERANCE
        assert near.sum() >= LABEL_MIN_PIXELS, f"{where}: the label's text colour is not on screen ({near.sum()} px)"

        centre = np.s_[cy - CENTRE_HALF : cy + CENTRE_HALF + 1, cx - CENTRE_HALF : cx + CENTRE_HALF + 1]
        assert own[centre].all()
        assert np.array_equal(shot[centre], bare[centre]), f"{where}: the overlay drew over the pane's centre"
        pane = np.zeros_like(own)
        pane[y : y + h, x : x + w] = True
        differ = (np.abs(shot - bare).max(axis=2) > 0) & own & pane
        assert not differ.any(), (
            f"{where}: the overlay drew over {differ.sum()} px of the pane, "
            f"first at (x, y) = {tuple(int(v) for v in np.argwhere(differ)[0][::-1])}"
        )
    assert d.app.ctx.error == "GL_NO_ERROR"


def compare_driver(path, size) -> Driver:
    d = Driver(path, size=size)
    d.key("C")  # compare view on: the default modes, three panes
    assert d.app.state.compare_modes == list(DEFAULT_COMPARE)
    d.clock.seek(0.37 * d.clock.duration)  # between keys: the panes differ
    d.frame(0.0)
    return d


@pytest.mark.parametrize("size", [(1280, 720), (960, 540)], ids=["1280x720", "960x540"])
def test_three_panes_are_uncovered(model, size):
    d = compare_driver(model, size)
    try:
        check_panes_uncovered(d, 3)
    finally:
        d.close()


@pytest.mark.parametrize("size", [(1280, 720), (960, 540)], ids=["1280x720", "960x540"])
def test_four_panes_are_uncovered(model, size):
    d = compare_driver(model, size)
    try:
        assert d.app.state.add_pane()  # what the Compare panel's "add pane" does
        d.frame(0.0)
        check_panes_uncovered(d, 4)
    finally:
        d.close()


def test_panes_are_uncovered_with_the_column_dragged_wider(model):
    d = compare_driver(model, (1280, 720))
    try:
        w, h = d.wnd.size
        before = d.layout.side_w
        edge, y = w - before, h // 3
        d.move(edge + 1, y)
        d.frame(0.0)
        d.press(edge + 1, y)
        d.frame(0.0)
        for x in np.linspace(edge + 1, edge - 200, 6)[1:]:
            d.move(x, y)
            d.drag(x, y)
            d.frame(0.0)
        d.release(edge - 200, y)
        d.frames(2, 0.0)
        assert d.layout.side_w >= before + 150, f"the column did not widen ({before} -> {d.layout.side_w})"
        column = next(r for r in d.app.overlay.rects if r[1] == 0.0)
        assert column[0] == w - d.layout.side_w
        check_panes_uncovered(d, 3)
        assert d.app.state.add_pane()
        d.frame(0.0)
        check_panes_uncovered(d, 4)
    finally:
        d.close()
