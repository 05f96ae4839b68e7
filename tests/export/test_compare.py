"""The compare view rendered headless (EGL): panes agree at key times and differ between them; trails; CLI."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image

from viewer import export
from viewer.base.resources import asset_path
from viewer.cli import main
from viewer.compare import views as compare
from viewer.export import compare as compare_export
from viewer.scene.scene import load

MODES3 = ("step", "linear", "catmull-rom")
SIZE = (900, 300)
LABEL_H = 40  # the pane labels sit in the top rows; compare below them


@pytest.fixture(scope="module")
def irregular():
    return load(asset_path("irregular.gltf"))


def panes(rgb: np.ndarray, count: int) -> list[np.ndarray]:
    """The pane crops (below the labels, one pixel in from each border)."""
    return [
        rgb[y + LABEL_H : y + h - 1, x + 2 : x + w - 2].astype(int)
        for x, y, w, h in compare.pane_rects(count, rgb.shape[1], rgb.shape[0])
    ]


def render(ctx, scene, t, look, size=SIZE):
    off = compare_export.CompareOffscreen(scene, scene.clips[0], export.View(size=size, samples=0), ctx, look=look)
    try:
        return off.frame(t)
    finally:
        off.release()


def test_panes_agree_at_key_times_and_differ_between(ctx, irregular):
    look = compare_export.CompareLook(MODES3)
    for t in irregular.clips[0].key_times[1:-1]:
        crops = panes(render(ctx, irregular, float(t), look), 3)
        for mode, crop in zip(MODES3[1:], crops[1:]):
            assert np.abs(crop - crops[0]).max() <= 2, f"{mode} pane differs from step at key t={t}"
    crops = panes(render(ctx, irregular, 0.9, look), 3)  # between the keys at 0.45 and 1.5
    for a in range(3):
        for b in range(a + 1, 3):
            assert (np.abs(crops[a] - crops[b]).sum(axis=2) > 60).sum() > 100, f"{MODES3[a]} = {MODES3[b]} at 0.9"
    assert ctx.error == "GL_NO_ERROR"


def test_trails_draw_each_modes_path_in_its_colour(ctx, irregular):
    plain = render(ctx, irregular, 0.9, compare_export.CompareLook(MODES3))
    trails = render(ctx, irregular, 0.9, compare_export.CompareLook(MODES3, trails=True))
    green = np.array([round(255 * c) for c in compare.MODE_COLORS["linear"]])
    linear_pane = [panes(img, 3)[1] for img in (plain, trails)]
    count = [(np.abs(p - green).sum(axis=2) < 40).sum() for p in linear_pane]
    assert count[0] < 20 and count[1] > 200, count


def test_four_panes_are_two_by_two_and_curves_strip(ctx, irregular):
    look = compare_export.CompareLook(("authored", "step", "catmull-rom", "cubic-zero"), trails=True, curves=True)
    off = compare_export.CompareOffscreen(
        irregular, irregular.clips[0], export.View(size=(640, 480), samples=0), ctx, look=look
    )
    try:
        rgb = off.frame(1.0)
        assert len({y for _, y, _, _ in off.rects}) == 2
        assert off.strip_h == round(480 * compare_export.CURVE_FRACTION)
        strip = rgb[480 - off.strip_h :]
        assert strip.std() > 10  # axes, lines, key dots
        orange = (np.abs(strip.astype(int) - [255, 160, 40]).sum(axis=2) < 30).sum(axis=0)
        assert orange.argmax() > 0  # the playhead is a vertical line
    finally:
        off.release()


def test_cli_render_compare_png_and_gif(tmp_path, capsys):
    out = tmp_path / "cmp.png"
    path = str(asset_path("irregular.gltf"))
    assert (
        main(
            [
                "render",
                path,
                "--compare",
                "step,linear",
                "--trails",
                "--curves",
                "--size",
                "400x300",
                "--time",
                "0.9",
                "--quiet",
                "-o",
                str(out),
            ]
        )
        == 0
    )
    assert Image.open(out).size == (400, 300)
    gif = tmp_path / "cmp.gif"
    assert (
        main(
            [
                "render",
                path,
                "--compare",
                "linear,catmull-rom",
                "--size",
                "320x160",
                "--fps",
                "2",
                "--quiet",
                "-o",
                str(gif),
            ]
        )
        == 0
    )
    assert Image.open(gif).n_frames == 7


@pytest.mark.parametrize(
    "argv",
    [
        ["--compare", "step"],
        ["--compare", "step,nope"],
        ["--trails"],
        ["--compare", "step,linear", "--overlay"],
        ["--compare", "step,linear", "--node", "9"],
    ],
)
def test_cli_render_compare_bad_arguments(tmp_path, capsys, argv):
    code = main(["render", str(asset_path("irregular.gltf")), "-o", str(tmp_path / "x.png"), *argv])
    err = capsys.readouterr().err
    assert code == 2 and len(err.splitlines()) == 1, err
    assert not (tmp_path / "x.png").exists()


def test_linear_pane_trail_reaches_every_key_position_on_screen(ctx, irregular):
    from viewer.render.overlay_lines import to_window

    clip = irregular.clips[0]
    off = compare_export.CompareOffscreen(
        irregular, clip, export.View(size=SIZE, samples=0), ctx, look=compare_export.CompareLook(MODES3, trails=True)
    )
    try:
        rgb = off.frame(0.9).astype(int)
        x, y, w, h = off.rects[1]
        view, proj = off.camera.matrices(off.panes.pose(MODES3[1]), w / h)
        screen, front = to_window(clip.channels[0].curve.values, proj @ view, (w, h))
    finally:
        off.release()
    assert front.all()
    green = np.array([round(255 * c) for c in compare.MODE_COLORS["linear"]])
    for sx, sy in screen:
        px, py = int(round(x + sx)), int(round(y + sy))
        near = rgb[max(py - 8, 0) : py + 9, max(px - 8, 0) : px + 9]
        assert (np.abs(near - green).sum(axis=2) < 60).sum() >= 3, f"no linear trail near key at {(px, py)}"
        assert (near.min(axis=2) > 230).sum() >= 4, f"no key dot at {(px, py)}"


def test_ghosts_show_the_mesh_faded_at_every_key(ctx, irregular):
    """Ghosts add faded copies where the ball sits at each key, in every pane, and hide nothing live."""
    plain = render(ctx, irregular, 0.9, compare_export.CompareLook(MODES3))
    ghosted = render(ctx, irregular, 0.9, compare_export.CompareLook(MODES3, ghosts=True))
    changed = np.abs(ghosted.astype(int) - plain.astype(int)).sum(axis=2) > 12
    for x, y, w, h in compare.pane_rects(3, *SIZE):
        assert changed[y + LABEL_H : y + h, x : x + w].sum() > 150
    # faded: a ghost pixel lies between the background and the lit ball, never brighter than both
    bg = np.array([round(255 * c) for c in export.View().options.background])
    assert (ghosted[changed].astype(int) - bg).sum(axis=1).min() > 0
    assert len(compare.ghost_poses(irregular, irregular.clips[0], "linear")) == len(irregular.clips[0].key_times)
    assert ctx.error == "GL_NO_ERROR"


def test_ghost_poses_are_the_poses_at_the_key_times(irregular):
    clip = irregular.clips[0]
    for mode in ("step", "catmull-rom"):
        for t, pose in zip(clip.key_times, compare.ghost_poses(irregular, clip, mode)):
            np.testing.assert_allclose(pose.world, _world(irregular, clip, t, mode))


def _world(scene, clip, t, mode):
    from viewer.pose.pose import Pose

    pose = Pose(scene)
    pose.set_time(clip, float(t), mode)
    return pose.world


def test_cli_ghosts_need_compare(tmp_path, capsys):
    code = main(["render", str(asset_path("irregular.gltf")), "-o", str(tmp_path / "x.png"), "--ghosts"])
    err = capsys.readouterr().err
    assert code == 2 and len(err.strip().splitlines()) == 1 and "--compare" in err


def test_cli_compare_with_mode_is_refused(tmp_path, capsys):
    code = main(
        [
            "render",
            str(asset_path("irregular.gltf")),
            "-o",
            str(tmp_path / "x.png"),
            "--compare",
            "step,linear",
            "--mode",
            "linear",
        ]
    )
    err = capsys.readouterr().err
    assert code == 2 and len(err.strip().splitlines()) == 1 and "--mode" in err
