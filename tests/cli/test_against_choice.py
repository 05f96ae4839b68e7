"""``--animation-b`` and ``--mode-b`` (the viewer and ``render``): bad values are one line and exit 2."""

from __future__ import annotations

import pytest

from tests.conftest import REPO_ROOT, khronos_model
from viewer.cli import main


@pytest.mark.parametrize("command", ["view", "render"])
@pytest.mark.parametrize(
    "extra, words",
    [
        (["--against", "A", "--mode-b", "smooth"], ["--mode-b", "smooth", "cubic-zero", "filament"]),
        (["--against", "A", "--animation-b", "Gallop"], ["--animation-b", "Gallop", "'Run'"]),
        (["--against", "A", "--animation-b", "3"], ["--animation-b 3 is not in"]),
        (["--mode-b", "step"], ["go with --against"]),
        (["--animation-b", "Run"], ["go with --against"]),
    ],
)
def test_bad_b_choices_are_one_line(tmp_path, capsys, command, extra, words):
    fox = str(khronos_model("Fox"))
    extra = [fox if x == "A" else x for x in extra]
    if command == "render":
        argv = ["render", fox, "-o", str(tmp_path / "x.png"), *extra]
    else:
        argv = [fox, *extra, "--window", "headless", "--backend", "egl", "--frames", "1"]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and all(w in err for w in words), err
    assert not (tmp_path / "x.png").exists()


@pytest.mark.parametrize("command", ["view", "render"])
@pytest.mark.parametrize(
    "items, words",
    [
        ("spec,unity", ["unknown interpolation mode or engine 'unity'", "filament"]),
        ("three", ["2 to 4"]),
        ("spec,three,filament,godot,ksv", ["2 to 4"]),
        ("three,linear,three", ["once"]),
    ],
)
def test_bad_compare_items_are_one_line(tmp_path, capsys, command, items, words):
    """``--compare`` takes modes and engine names: anything else, a repeat or a count outside 2–4 is exit 2."""
    demo = str(REPO_ROOT / "assets" / "interpolation.gltf")
    if command == "render":
        argv = ["render", demo, "-o", str(tmp_path / "x.png"), "--compare", items]
    else:
        argv = [demo, "--compare", items, "--window", "headless", "--backend", "egl", "--frames", "1"]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and all(w in err for w in words), err
    assert not (tmp_path / "x.png").exists()


def test_compare_takes_engines_beside_modes(tmp_path):
    out = tmp_path / "panes.png"
    demo = str(REPO_ROOT / "assets" / "interpolation.gltf")
    assert main(["render", demo, "--compare", "spec,three,linear", "-o", str(out)]) == 0
    assert out.is_file()
