"""``animview render A --against B --animation-b K --mode-b M``: B's own clip and mode in the exported panes and
strip — here A against itself, so everything that differs is the choice's."""

from __future__ import annotations

import numpy as np

from tests.conftest import khronos_model
from tests.render.conftest import cli_render
from viewer import export
from viewer.compare import views as compare
from viewer.compare.against import SCALE_STOPS, PaneChoice
from viewer.export import compare as compare_export
from viewer.scene.scene import load

SIZE = (640, 300)
STRIP_H = 28  # STRIP_FRACTION of 300 is under STRIP_MIN_PX


def pane_crops(rgb: np.ndarray) -> list[np.ndarray]:
    """Pane A and pane B below their labels, above the strip, one pixel in from the borders."""
    return [
        rgb[y + 40 : y + h - STRIP_H, x + 2 : x + w - 2].astype(int)
        for x, y, w, h in compare.pane_rects(2, SIZE[0], SIZE[1])
    ]


def test_b_in_step_colours_the_strip_and_another_clip_parts_the_panes(tmp_path):
    fox = khronos_model("Fox")
    flags = ["--against", fox, "--animation", "Walk", "--time", "0.3", "--size", "640x300", "--overlay"]
    same = cli_render(fox, tmp_path / "same.png", *flags)
    step = cli_render(fox, tmp_path / "step.png", *flags, "--mode-b", "step")
    run = cli_render(fox, tmp_path / "run.png", *flags, "--animation-b", "Run")
    green = np.round(255 * SCALE_STOPS[0])
    band = slice(SIZE[1] - STRIP_H // 2 - 1, SIZE[1] - STRIP_H // 2)
    off_green = [
        (np.abs(rgb[band, 300:600].reshape(-1, 3).astype(int) - green).max(axis=1) > 30).sum() for rgb in (same, step)
    ]
    assert off_green[0] <= 3 and off_green[1] > 30, off_green  # green but for the playhead; the error scale
    a, b = pane_crops(same)
    assert (np.abs(a - b).sum(axis=2) > 24).sum() <= 10  # the same pose, to a few pixels of edge blending
    a, b = pane_crops(run)
    assert (np.abs(a - b).sum(axis=2) > 60).sum() > 200  # B runs while A walks


def test_the_offscreen_panes_take_the_choice(ctx):
    fox = load(khronos_model("Fox"))
    survey, walk, run = fox.clips
    look = compare_export.CompareLook(against=fox, strip=True, choice_b=PaneChoice(run.index, "step"))
    off = compare_export.CompareOffscreen(fox, walk, export.View(size=(320, 160), samples=0), ctx, look=look)
    try:
        a, b = off.sources
        assert (a.clip, a.mode, b.clip, b.mode) == (walk, "authored", run, "step")
        assert (off.divergence.clip_b, off.divergence.mode_b) == ("Run", "step") and off.divergence.scale > 0
        assert off.frame(0.2).shape == (160, 320, 3)
    finally:
        off.release()


def test_b_played_by_an_engine_in_the_exported_panes(ctx, tmp_path):
    fox = khronos_model("Fox")
    scene = load(fox)
    walk = scene.clips[1]
    look = compare_export.CompareLook(against=scene, strip=True, choice_b=PaneChoice(None, "godot"))
    off = compare_export.CompareOffscreen(scene, walk, export.View(size=(320, 160), samples=0), ctx, look=look)
    try:
        a, b = off.sources
        assert (a.engine, b.engine.name, b.label) == (None, "godot", "Fox.glb · Walk · Godot 4")
        assert off.divergence.mode_b == "godot" and off.divergence.scale > 0  # Godot's 30 fps resample parts them
    finally:
        off.release()
    flags = ["--against", fox, "--animation", "Walk", "--size", "320x160", "--mode-b", "godot"]
    assert cli_render(fox, tmp_path / "godot.png", *flags).shape == (160, 320, 3)
