"""``--engine`` on the command line: ``sample`` prints what the engine's player shows, ``diff A --engine E``
compares the spec's playback with E's and names both, bad names are one line and exit 2."""

from __future__ import annotations

import json

from tests.conftest import REPO_ROOT
from viewer.cli import main

DEMO = str(REPO_ROOT / "assets" / "interpolation.gltf")


def test_sample_as_an_engine_plays_it(capsys):
    assert main(["sample", DEMO, "--engine", "ksv", "--times", "1", "--json"]) == 0
    (anim,) = json.loads(capsys.readouterr().out)["animations"]
    assert anim["engine"]["name"] == "ksv" and anim["engine"]["version"]
    assert anim["samples"][0]["nodes"]["0"]["translation"] == [-3.0, -1.0, 0.0]  # STEP: the old key at t = 1
    assert main(["sample", DEMO, "--times", "1", "--json"]) == 0
    spec = json.loads(capsys.readouterr().out)["animations"][0]
    assert spec["samples"][0]["nodes"]["0"]["translation"] != [-3.0, -1.0, 0.0] and "engine" not in spec


def test_diff_a_file_with_an_engines_playback(capsys):
    assert main(["diff", DEMO, "--engine", "filament", "--json"]) == 1
    (clip,) = json.loads(capsys.readouterr().out)["clips"]
    assert (clip["engine"], clip["engine_b"]) == ("spec", "filament")
    assert clip["worst"]["t"] == 1.0 and clip["max_distance"] > 2
    assert main(["diff", DEMO, DEMO, "--engine", "filament"]) == 0  # filament playing both: the same
    assert "as filament plays it" in capsys.readouterr().out


def test_bad_engine_or_no_file_b_is_one_line_exit_2(capsys):
    assert main(["diff", DEMO, "--engine", "unity"]) == 2
    err = capsys.readouterr().err.strip()
    assert "unknown engine 'unity'" in err and "three" in err and len(err.splitlines()) == 1
    assert main(["diff", DEMO]) == 2 and "--engine" in capsys.readouterr().err
    assert main(["sample", DEMO, "--engine", ""]) == 2
