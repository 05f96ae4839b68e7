"""``animview render``'s look flags: each one reaches the picture, and bad values are one-line usage errors."""

from __future__ import annotations

import numpy as np
import pytest

from tests.render.conftest import cli_render
from viewer.base.resources import asset_path
from viewer.cli.main import main

DEMO = asset_path("interpolation.gltf")


def render(tmp_path, name: str, *flags) -> np.ndarray:
    picture = cli_render(DEMO, tmp_path / f"{name}.png", "--time", "1", "--size", "160x120", "--quiet", *flags)
    return picture.astype(np.int16)


def test_each_look_flag_changes_the_picture(gl_available, tmp_path):
    base = render(tmp_path, "base")
    brighter = render(tmp_path, "bright", "--exposure", "1")
    darker = render(tmp_path, "dark", "--exposure=-1")
    assert brighter.mean() > base.mean() > darker.mean()
    for flags in (
        ["--environment", "off"],
        ["--env-intensity", "3"],
        ["--env-background"],
        ["--tonemap", "aces"],
        ["--tonemap", "none"],
        ["--lights", "studio", "--environment", "off"],
        ["--aa", "fxaa"],
        ["--aa", "off"],
    ):
        picture = render(tmp_path, "x", *flags)
        if flags == ["--lights", "studio", "--environment", "off"]:
            assert np.abs(picture - render(tmp_path, "y", "--environment", "off")).max() == 0  # no file lights
        else:
            assert np.abs(picture - base).max() > 8, flags


@pytest.mark.parametrize(
    "flags,words",
    [
        (["--exposure", "50"], "from -20 to 20"),
        (["--exposure", "nan"], "stops"),
        (["--env-intensity", "-1"], "0 or more"),
        (["--tonemap", "filmic"], "invalid choice"),
        (["--lights", "sun"], "invalid choice"),
        (["--environment", "maybe"], "invalid choice"),
        (["--aa", "smaa"], "invalid choice"),
    ],
)
def test_bad_look_values_are_one_line_errors(capsys, tmp_path, flags, words):
    code = main(["render", str(DEMO), "-o", str(tmp_path / "x.png"), *flags])
    err = capsys.readouterr().err
    assert code == 2 and words in err and len(err.strip().splitlines()) == 1
