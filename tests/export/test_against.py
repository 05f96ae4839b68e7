"""``animview render A --against B``: the two files side by side headless, the divergence strip with
``--overlay``, B over A; and the arguments that do not go with it."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image

from tests.conftest import khronos_model
from tests.render.conftest import assert_matches_golden, cli_render
from viewer.cli import main
from viewer.compare import views as compare


@pytest.fixture(scope="module")
def fox_step(tmp_path_factory):
    out = tmp_path_factory.mktemp("against") / "fox_step.glb"
    assert main(["bake", str(khronos_model("Fox")), "-o", str(out), "--mode", "step", "--fps", "8", "--quiet"]) == 0
    return out


def test_side_by_side_with_the_strip(tmp_path, fox_step):
    fox = khronos_model("Fox")
    flags = ["--against", fox_step, "--animation", "Walk", "--time", "0.2", "--size", "640x360", "--trails"]
    rgb = cli_render(fox, tmp_path / "ab.png", *flags, "--overlay")
    assert_matches_golden("against_render_fox_0.20", rgb)
    plain = cli_render(fox, tmp_path / "plain.png", *flags)
    strip_h = 29  # STRIP_FRACTION of 360, at least STRIP_MIN_PX
    assert rgb.shape == plain.shape == (360, 640, 3)
    bottom = rgb[-strip_h // 2, 200:600].astype(int)
    assert len({tuple(p) for p in bottom}) > 5  # a colour scale, not one flat colour
    assert not np.array_equal(rgb[-strip_h:], plain[-strip_h:])


def test_a_file_against_itself_is_the_same_in_both_panes(tmp_path):
    fox = khronos_model("Fox")
    rgb = cli_render(fox, tmp_path / "same.png", "--against", fox, "--time", "1.0", "--size", "640x300")
    (ax, ay, aw, ah), (bx, by, bw, bh) = compare.pane_rects(2, 640, 300)
    a = rgb[ay + 40 : ay + ah, ax + 2 : ax + aw - 2].astype(int)
    b = rgb[by + 40 : by + bh, bx + 2 : bx + aw - 2].astype(int)
    assert np.abs(a - b).max() <= 8  # the same file: the same picture, to the last bit of blending


def test_b_over_a_shows_b_in_pane_a_only(tmp_path, fox_step):
    fox = khronos_model("Fox")
    flags = ["--against", fox_step, "--animation", "Walk", "--time", "0.2", "--size", "640x300"]
    plain = cli_render(fox, tmp_path / "p.png", *flags).astype(int)
    over = cli_render(fox, tmp_path / "o.png", *flags, "--overlay-b").astype(int)
    changed = np.abs(over - plain).sum(axis=2) > 12
    assert changed[:, :318].sum() > 100 and not changed[:, 322:].any()


def test_gif_against(tmp_path, fox_step):
    out = tmp_path / "ab.gif"
    argv = ["render", str(khronos_model("Fox")), "--against", str(fox_step), "--animation", "Walk", "-o", str(out)]
    assert main([*argv, "--size", "320x180", "--fps", "10", "--overlay", "--quiet"]) == 0
    with Image.open(out) as gif:
        assert gif.n_frames == 9 and gif.size == (320, 180)


@pytest.mark.parametrize(
    "extra, word",
    [(["--compare", "step,linear"], "--compare"), (["--curves"], "--curves")],
)
def test_what_does_not_go_with_against(tmp_path, capsys, fox_step, extra, word):
    argv = ["render", str(khronos_model("Fox")), "-o", str(tmp_path / "x.png"), "--against", str(fox_step), *extra]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and word in err


def test_overlay_b_needs_against(tmp_path, capsys):
    assert main(["render", str(khronos_model("Fox")), "-o", str(tmp_path / "x.png"), "--overlay-b"]) == 2
    assert "--against" in capsys.readouterr().err


def test_against_a_missing_file_is_one_line(tmp_path, capsys):
    assert main(["render", str(khronos_model("Fox")), "-o", str(tmp_path / "x.png"), "--against", "nope.glb"]) == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1
