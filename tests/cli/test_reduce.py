"""``animview reduce``: the report on stderr and in JSON, and bad usage as one line and exit 2."""

from __future__ import annotations

import json

import pytest

from tests.cli.test_cli import run, run_process
from tests.gltf_builder import GltfBuilder
from tests.reduce.conftest import sine_file


def test_reduce_writes_the_copy_and_its_report(tmp_path, capsys):
    src = sine_file(tmp_path / "sine.glb")
    code, out, err = run(capsys, "reduce", src, "-o", tmp_path / "out.gltf", "--max-error", "1mm", "--json", "-")
    assert code == 0
    report = json.loads(out)
    assert report["within"] and report["max_error"] <= 1e-3 and report["max_error_allowed"] == pytest.approx(1e-3)
    assert report["animation_bytes_after"] < report["animation_bytes_before"]
    assert {"keys_before", "keys_after", "p99_error", "file_bytes_after", "clips"} <= set(report)
    node = report["clips"][0]["nodes"][0]
    assert node["node"] == "box" and node["channels"]["translation"] in ("linear", "cubic")
    assert "animation bytes" in err and "within" in err
    assert (tmp_path / "out.gltf").is_file()


@pytest.mark.parametrize("error, expected", [("2%", None), ("0.5cm", 0.005), ("0.0004", 0.0004), ("0", 0.0)])
def test_error_units(tmp_path, capsys, error, expected):
    src = sine_file(tmp_path / "sine.glb")
    code, out, _ = run(capsys, "reduce", src, "-o", tmp_path / "o.glb", "--max-error", error, "--json", "-", "--quiet")
    report = json.loads(out)
    assert code == 0
    if expected is None:
        assert report["max_error_allowed"] == pytest.approx(0.02 * report["size"])
    else:
        assert report["max_error_allowed"] == pytest.approx(expected)


@pytest.mark.parametrize(
    "argv, words",
    [
        (["--max-error", "abc"], "--max-error"),
        (["--max-error", "-1mm"], "--max-error"),
        (["--max-error", "5 parsecs"], "--max-error"),
        (["--animation", "7"], "animation"),
        (["--json", "/no/such/folder/r.json"], "report"),
    ],
)
def test_bad_arguments_are_one_line_and_exit_2(tmp_path, capsys, argv, words):
    src = sine_file(tmp_path / "sine.glb")
    code, out, err = run(capsys, "reduce", src, "-o", tmp_path / "o.glb", *argv)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and words in err


def test_bad_files_are_one_line_and_exit_2(tmp_path, capsys):
    src = sine_file(tmp_path / "sine.glb")
    for argv, words in (
        ([tmp_path / "missing.glb", "-o", tmp_path / "o.glb"], "not found"),
        ([src, "-o", tmp_path / "o.txt"], ".glb or .gltf"),
        ([src, "-o", tmp_path / "nowhere" / "o.glb"], "does not exist"),
    ):
        code, _, err = run(capsys, "reduce", *argv)
        assert code == 2 and len(err.strip().splitlines()) == 1 and words in err, err
    still = GltfBuilder()
    still.add_node(name="n")
    still.add_scene([0])
    code, _, err = run(capsys, "reduce", still.write_glb(tmp_path / "still.glb"), "-o", tmp_path / "o.glb")
    assert code == 2 and "no animations" in err


def test_the_process_exits_2_without_a_traceback(tmp_path):
    src = sine_file(tmp_path / "sine.glb")
    done = run_process("reduce", src, "-o", tmp_path / "o.glb", "--max-error", "nope")
    assert done.returncode == 2 and "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1
