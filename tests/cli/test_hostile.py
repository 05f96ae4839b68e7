"""Every bad use of the command line is one line on stderr and exit status 2 (issue: hostile files).

Missing, unreadable and odd files, bad outputs, bad numbers, bad clip and mode names, and commands that
need an animation on a file without one. Also the numbers argparse used to mistake for options.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tests.conftest import REPO_ROOT
from tests.gltf_builder import GltfBuilder, minimal_animated
from viewer.cli import main


def run(capsys, *argv) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.fixture
def files(tmp_path):
    still = GltfBuilder()
    still.add_node(mesh=still.add_mesh(positions=[[0, 0, 0], [1, 0, 0], [0, 1, 0]], indices=[0, 1, 2]))
    still.add_scene([0])
    unreadable = tmp_path / "locked.gltf"
    unreadable.write_text("{}", encoding="utf-8")
    unreadable.chmod(0)
    outside = tmp_path / "outside.bin"
    outside.write_bytes(bytes(64))
    (tmp_path / "m").mkdir()
    escaping = tmp_path / "m" / "escaping.gltf"
    escaping.write_text(
        json.dumps({"asset": {"version": "2.0"}, "buffers": [{"uri": "../outside.bin", "byteLength": 64}]}),
        encoding="utf-8",
    )
    return {
        "file": minimal_animated().write_gltf(tmp_path, "minimal.gltf"),
        "still": still.write_gltf(tmp_path, "still.gltf"),
        "missing": tmp_path / "nope.gltf",
        "dir": tmp_path,
        "locked": unreadable,
        "escaping": escaping,
        "png": tmp_path / "out.png",
        "nodir": tmp_path / "no" / "such" / "out.png",
        "txt": tmp_path / "out.txt",
    }


BAD = [
    ["inspect", "{missing}"],
    ["inspect", "{dir}"],
    ["inspect", "/dev/zero"],
    ["sample", "/dev/null"],
    ["inspect", "{escaping}"],
    ["render", "{escaping}", "-o", "{png}"],
    ["sample", "{still}"],
    ["sample", "{still}", "--json"],
    ["sample", "{file}", "--times=nan"],
    ["sample", "{file}", "--times", "1,inf"],
    ["sample", "{file}", "--times", ","],
    ["sample", "{file}", "--steps", "-3"],
    ["sample", "{file}", "--mode", "bezier"],
    ["sample", "{file}", "--animation", "walk"],
    ["bench", "{file}", "--frames", "1e9x"],
    ["render", "{file}", "-o", "{nodir}"],
    ["render", "{file}", "-o", "{txt}"],
    ["render", "{file}", "-o", "{dir}"],
    ["render", "{file}", "-o", "{png}", "--time", "nan"],
    ["render", "{file}", "-o", "{png}", "--time=-inf"],
    ["render", "{file}", "-o", "{png}", "--animation", "no such clip"],
    ["render", "{file}", "-o", "{png}", "--mode", "bezier"],
    ["render", "{file}", "-o", "{png}", "--size", "0x10"],
    ["render", "{file}", "-o", "{png}", "--fps", "-1"],
    ["render", "{file}", "-o", "{png}", "--yaw", "1e999"],
    ["render", "{file}", "-o", "{png}", "--camera", "7"],
    ["{missing}"],
    ["{dir}"],
    ["{file}", "--speed", "nan"],
    ["{file}", "--animation", "5"],
]
if os.geteuid() != 0:  # root reads a mode-000 file anyway
    BAD.append(["inspect", "{locked}"])


@pytest.mark.parametrize("argv", BAD, ids=lambda a: " ".join(a))
def test_bad_usage_is_one_line_and_exit_2(capsys, files, argv):
    code, out, err = run(capsys, *[a.format(**files) for a in argv])
    assert code == 2, (out, err)
    assert out == ""
    assert len(err.splitlines()) == 1 and err.endswith("\n") and "Traceback" not in err, err
    assert len(err) < 600


def test_negative_numbers_with_exponents_are_values_not_options(capsys, files):
    code, out, err = run(capsys, "sample", files["file"], "--json", "--times", "-1e308,-2.5e-1,1e3")
    assert code == 0, err
    assert [s["t"] for s in json.loads(out)["animations"][0]["samples"]] == [-1e308, -0.25, 1000.0]
    code, _, err = run(
        capsys,
        "render",
        files["file"],
        "-o",
        files["png"],
        "--time",
        "-1e308",
        "--size",
        "32x24",
        "--samples",
        "0",
        "--quiet",
    )
    assert code == 0, err
    assert files["png"].stat().st_size > 0


def test_allow_outside_folder_lets_the_escaping_file_load(capsys, files):
    code, out, err = run(capsys, "inspect", files["escaping"], "--allow-outside-folder", "--json")
    assert code == 0, err
    assert json.loads(out)["nodes"] == 0


def test_a_real_process_refuses_a_device_at_once(files):
    """The model file itself: /dev/zero would be read until memory runs out."""
    proc = subprocess.run(
        [sys.executable, "-m", "viewer", "inspect", "/dev/zero"],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.PIPE,
    )
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.strip().endswith("not a regular file (a character device)"), proc.stderr
