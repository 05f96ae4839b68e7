"""The View section's variant chooser: shown only for a file with KHR_materials_variants, the file's own materials
first; a click on a variant redraws the view in it; another file starts from its own materials."""

from __future__ import annotations

import numpy as np

from tests.app.conftest import Driver, demo
from tests.conftest import ext_model
from viewer.scene.scene import load
from viewer.ui.panels import DEFAULT_VARIANT, VARIANT_RECTS
from viewer.ui.state import ViewerState


def _centre(rect) -> tuple[float, float]:
    x, y, w, h = rect
    return x + w / 2, y + h / 2


def test_a_click_on_a_variant_redraws_the_view_in_it():
    d = Driver(ext_model("MaterialsVariantsShoe"))
    try:
        assert d.app.state.display.variant is None and "combo" in VARIANT_RECTS
        own = d.view_pixels().astype(np.int16)
        d.click(*_centre(VARIANT_RECTS["combo"]))
        d.frames(2, 0.0)
        assert set(VARIANT_RECTS) == {"combo", None, 0, 1, 2}  # the default first, then each variant
        d.click(*_centre(VARIANT_RECTS[2]))
        d.frames(2, 0.0)
        assert d.app.state.display.variant == 2 and d.app.renderer.gpu.variant == 2
        street = d.view_pixels().astype(np.int16)
        assert (np.abs(street - own).max(axis=2) > 24).mean() > 0.02
        d.click(*_centre(VARIANT_RECTS["combo"]))
        d.frames(2, 0.0)
        d.click(*_centre(VARIANT_RECTS[None]))
        d.frames(2, 0.0)
        assert d.app.state.display.variant is None
        assert np.array_equal(d.view_pixels().astype(np.int16), own)
    finally:
        d.close()


def test_the_command_lines_variant_is_where_the_viewer_starts():
    d = Driver(ext_model("MaterialsVariantsShoe"), variant=1)
    try:
        assert d.app.state.display.variant == 1 and d.app.renderer.gpu.variant == 1
    finally:
        d.close()


def test_a_file_without_variants_shows_no_chooser():
    d = Driver(demo("materials.gltf"))
    try:
        assert VARIANT_RECTS == {}
    finally:
        d.close()


def test_another_file_starts_from_its_own_materials_a_reload_keeps_the_variant():
    shoe = load(ext_model("MaterialsVariantsShoe"))
    state = ViewerState(shoe)
    state.display.variant = 2
    state.set_scene(shoe, keep=True)
    assert state.display.variant == 2
    state.set_scene(shoe, keep=False)
    assert state.display.variant is None
    state.display.variant = 1
    state.set_scene(load(demo("materials.gltf")), keep=True)  # a reload that lost its variants
    assert state.display.variant is None
    assert DEFAULT_VARIANT == "default"
