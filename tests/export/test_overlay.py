"""``animview render … --overlay``'s engine: the viewer's overlay drawn into headless (EGL) frames."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image

from viewer import export
from viewer.base.resources import asset_path
from viewer.export.overlay import OverlayLook, OverlayOffscreen
from viewer.scene.scene import load
from viewer.ui import timeline

PLAYHEAD = np.array([255, 160, 40])


def playhead_x(rgb: np.ndarray, row: int) -> float:
    orange = np.flatnonzero(np.abs(rgb[row, timeline.LABEL_W :].astype(int) - PLAYHEAD).sum(axis=1) < 60)
    assert len(orange), "no playhead on that row"
    return timeline.LABEL_W + float(orange.mean())  # right of the labels (a selected channel's is orange too)


def test_png_has_the_bar_with_the_playhead_at_the_time(ctx, tmp_path):
    scene = load(asset_path("interpolation.gltf"))
    clip = scene.clips[0]
    view = export.View(size=(960, 540), samples=0)
    out = tmp_path / "shot.png"
    rgb = export.write_png(OverlayOffscreen(scene, clip, view, ctx, look=OverlayLook(channels=False)), out, 1.45)
    assert np.array_equal(np.asarray(Image.open(out).convert("RGB")), rgb)
    lay = timeline.layout(960, 540, clip.duration)
    assert playhead_x(rgb, int(lay.summary_y + 10)) == pytest.approx(lay.ruler.x_of(1.45), abs=1.5)
    plain = export.render_png(scene, tmp_path / "plain.png", 1.45, clip, view, ctx)
    bar = slice(int(lay.top) + 2, 540)
    assert not np.array_equal(rgb[bar], plain[bar])
    assert rgb[int(lay.top) :].std() > 10 and rgb[: int(lay.top)].std() > 10  # bar and scene, not blank


def test_expanded_dope_sheet_and_skeleton(ctx, tmp_path):
    scene = load(asset_path("skinned_arm.gltf"))
    clip = scene.clips[0]
    look = OverlayLook(channels=True, skeleton=True)
    rgb = export.write_png(
        OverlayOffscreen(scene, clip, export.View(size=(960, 540)), ctx, look=look), tmp_path / "a.png", 1.0
    )
    lay = timeline.layout(960, 540, clip.duration, channel_rows=len(clip.channels))
    rows = rgb[int(lay.rows_y) : int(lay.rows_y + lay.rows_h)]
    assert rows.std() > 5  # channel rows with ticks and labels are there
    assert playhead_x(rgb, int(lay.rows_y + 5)) == pytest.approx(lay.ruler.x_of(1.0), abs=1.5)


def test_gif_frames_follow_playback(ctx, tmp_path):
    scene = load(asset_path("irregular.gltf"))
    out = tmp_path / "clip.gif"
    n = export.write_clip(
        OverlayOffscreen(scene, scene.clips[0], export.View(size=(480, 270)), ctx), out, 0.0, 1.0, 4.0
    )
    assert n == 5
    gif = Image.open(out)
    frames = []
    for k in range(gif.n_frames):
        gif.seek(k)
        frames.append(np.asarray(gif.convert("RGB")))
    assert len(frames) == 5
    assert all(not np.array_equal(a, b) for a, b in zip(frames, frames[1:]))
    assert ctx.error == "GL_NO_ERROR"
