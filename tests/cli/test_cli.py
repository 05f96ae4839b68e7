"""The ``animview`` command: inspect, sample, bench, and bad input → one stderr line and exit 2.

Most cases call ``viewer.cli.main`` in-process (fast); a few run ``python -m viewer`` in a subprocess to
prove the real process behaves the same (exit status, no traceback).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys

import numpy as np
import pytest

from tests.conftest import REPO_ROOT, khronos_model
from tests.gltf_builder import GltfBuilder, minimal_animated
from viewer import load
from viewer.animation.modes import MODES
from viewer.cli import main

BENCH_KEYS = {
    "channels",
    "frames",
    "per_frame_channel_samples_per_s",
    "batch_channel_samples_per_s",
    "update_ms_per_frame",
    "update_us_per_frame",
    "update_us_per_frame_numpy",
    "load_s",
    "per_frame_channel_samples_per_s_numpy",
    "batch_channel_samples_per_s_numpy",
    "kernel",
}
BENCH_OPTIONAL = {"render_fps", "render_fps_noaa", "render_fps_msaa", "render_aa", "first_frame_s", "kernel_load_s"}


def run(capsys, *argv) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def run_process(*argv) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "viewer", *map(str, argv)], cwd=REPO_ROOT, capture_output=True, text=True, timeout=120
    )


@pytest.fixture
def minimal_file(tmp_path):
    return minimal_animated().write_gltf(tmp_path, "minimal.gltf")


@pytest.fixture
def tutorial_file(tmp_path):
    """One node, translation keys 0.8 → (14, 3, −2) and 1.6 → (18, 1, 1) (the tutorial's example)."""
    b = GltfBuilder()
    b.add_node()
    b.add_animation(
        [dict(node=0, path="translation", times=[0.8, 1.6], values=[[14, 3, -2], [18, 1, 1]])], name="Slide"
    )
    b.add_scene([0])
    return b.write_gltf(tmp_path, "tutorial.gltf")


# -- inspect -------------------------------------------------------------------------------------------


def test_inspect_table_on_fox(capsys):
    code, out, err = run(capsys, "inspect", khronos_model("Fox"))
    assert code == 0 and err == ""
    assert "24 joints" in out
    assert "animations 3" in out
    for k, name in enumerate(["Survey", "Walk", "Run"]):
        assert re.search(rf"animation {k} '{name}': [0-9.]+ s, 21 channels", out), name
    rows = [line for line in out.splitlines() if re.match(r"^    \d+ ", line)]
    assert len(rows) == 63
    assert all(("rotation" in r or "translation" in r) and "LINEAR" in r for r in rows)


def test_inspect_json_on_fox(capsys):
    code, out, _ = run(capsys, "inspect", khronos_model("Fox"), "--json")
    assert code == 0
    info = json.loads(out)
    assert info["nodes"] == 26 and info["scenes"] == 1
    assert [s["joints"] for s in info["skins"]] == [24]
    assert [a["name"] for a in info["animations"]] == ["Survey", "Walk", "Run"]
    assert [len(a["channels"]) for a in info["animations"]] == [21, 21, 21]
    assert info["animations"][0]["duration"] == pytest.approx(3.4166667, abs=1e-6)
    ch = info["animations"][0]["channels"][0]
    assert set(ch) >= {"node", "node_name", "path", "interpolation", "keys", "start", "end"}
    assert all(c["interpolation"] == "LINEAR" for a in info["animations"] for c in a["channels"])


def test_inspect_json_on_generated_file(capsys, minimal_file):
    code, out, _ = run(capsys, "inspect", minimal_file, "--json")
    assert code == 0
    info = json.loads(out)
    assert [m["morph_targets"] for m in info["meshes"]] == [2, 0]
    (anim,) = info["animations"]
    assert anim["name"] == "Anim" and anim["duration"] == pytest.approx(2.0) and anim["keys"] == 4
    assert [(c["node"], c["path"], c["interpolation"], c["keys"]) for c in anim["channels"]] == [
        (2, "translation", "LINEAR", 3),
        (3, "rotation", "CUBICSPLINE", 2),
        (1, "weights", "STEP", 3),
        (0, "scale", "LINEAR", 2),
    ]


# -- sample --------------------------------------------------------------------------------------------


def _sample(capsys, *argv) -> dict:
    code, out, err = run(capsys, "sample", *argv, "--json")
    assert code == 0, err
    return json.loads(out)


def test_sample_default_times_are_keys_and_midpoints(capsys, minimal_file):
    doc = _sample(capsys, minimal_file)
    (anim,) = doc["animations"]
    assert [s["t"] for s in anim["samples"]] == pytest.approx([0, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0])
    assert anim["index"] == 0 and anim["name"] == "Anim" and anim["duration"] == pytest.approx(2.0)
    first = anim["samples"][0]["nodes"]
    assert set(first) == {"0", "1", "2", "3"}
    assert set(first["2"]) == {"translation"} and set(first["3"]) == {"rotation"}
    assert first["1"]["weights"] == [0, 0]


def test_sample_times_negative_and_past_the_end_hold(capsys, tutorial_file):
    doc = _sample(capsys, tutorial_file, "--times=-0.5,0,1.2,9")
    (anim,) = doc["animations"]
    assert [s["t"] for s in anim["samples"]] == [-0.5, 0.0, 1.2, 9.0]
    got = [s["nodes"]["0"]["translation"] for s in anim["samples"]]
    np.testing.assert_allclose(got, [[14, 3, -2], [14, 3, -2], [16, 2, -0.5], [18, 1, 1]], atol=1e-5)


def test_sample_steps(capsys, tutorial_file):
    doc = _sample(capsys, tutorial_file, "--steps", "5")
    ts = [s["t"] for s in doc["animations"][0]["samples"]]
    assert ts == pytest.approx([0.0, 0.4, 0.8, 1.2, 1.6])
    got = [s["nodes"]["0"]["translation"] for s in doc["animations"][0]["samples"]]
    np.testing.assert_allclose(got[3], [16, 2, -0.5], atol=1e-5)
    np.testing.assert_allclose(got[0], got[1], atol=0)  # before the first key: the first value


@pytest.mark.parametrize("mode", MODES)
def test_sample_every_mode(capsys, minimal_file, mode):
    times = [-0.25, 0.0, 0.3, 0.5, 0.77, 1.0, 1.4, 2.0, 3.0]
    doc = _sample(capsys, minimal_file, "--mode", mode, "--times=" + ",".join(map(str, times)))
    clip = load(minimal_file).clips[0]
    expected = clip.sample(np.array(times), mode)
    (anim,) = doc["animations"]
    for f, s in enumerate(anim["samples"]):
        assert s["t"] == times[f]
        for c, ch in enumerate(clip.channels):
            got = np.array(s["nodes"][str(ch.node)][ch.path])
            exp = expected[f, c, : ch.width]
            if ch.path == "rotation":
                exp = exp / np.linalg.norm(exp)
            np.testing.assert_allclose(got, exp, atol=1e-12, err_msg=f"{mode} {ch.path} t={times[f]}")


def test_sample_one_animation_of_several(capsys):
    doc = _sample(capsys, khronos_model("Fox"), "--animation", "1", "--steps", "3")
    (anim,) = doc["animations"]
    assert anim["index"] == 1 and anim["name"] == "Walk"
    assert len(anim["samples"]) == 3
    assert anim["samples"][-1]["t"] == pytest.approx(anim["duration"])


def test_sample_text_output(capsys, tutorial_file):
    code, out, err = run(capsys, "sample", tutorial_file, "--times=1.2")
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0].startswith("animation 0 'Slide'")
    assert len(lines) == 2 and "translation" in lines[1] and "16.00000" in lines[1]


# -- bad input: one line on stderr, exit 2 ------------------------------------------------------------------


@pytest.mark.parametrize(
    "argv",
    [
        ["sample", "{file}", "--mode", "bezier"],
        ["sample", "{file}", "--animation", "99"],
        ["sample", "{file}", "--animation", "-1"],
        ["sample", "{file}", "--times", "abc"],
        ["sample", "{file}", "--times=1,x"],
        ["sample", "{file}", "--steps", "0"],
        ["sample", "{file}", "--steps", "3", "--times", "1"],
        ["sample", "{missing}"],
        ["inspect", "{missing}"],
        ["bench", "{missing}"],
        ["inspect", "{broken}"],
        ["frobnicate", "{file}"],
    ],
)
def test_bad_input_is_one_line_and_exit_2(capsys, tmp_path, minimal_file, argv):
    broken = tmp_path / "broken.gltf"
    broken.write_text("{ not json", encoding="utf-8")
    argv = [a.format(file=minimal_file, missing=tmp_path / "nope.gltf", broken=broken) for a in argv]
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert out == ""
    assert len(err.splitlines()) == 1 and err.endswith("\n"), err
    assert "Traceback" not in err


def test_bad_input_in_a_real_process(tmp_path, minimal_file):
    for argv, needle in [
        (["sample", minimal_file, "--animation", "99"], "99"),
        (["sample", tmp_path / "nope.gltf"], "nope.gltf"),
        (["sample", minimal_file, "--mode", "bezier"], "bezier"),
    ]:
        proc = run_process(*argv)
        assert proc.returncode == 2, proc
        assert proc.stdout == ""
        assert len(proc.stderr.splitlines()) == 1 and needle in proc.stderr, proc.stderr


def test_real_process_sample_with_negative_times(tutorial_file):
    proc = run_process("sample", tutorial_file, "--json", "--times=-0.5,0,1.2,9")
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    got = [s["nodes"]["0"]["translation"] for s in doc["animations"][0]["samples"]]
    np.testing.assert_allclose(got, [[14, 3, -2], [14, 3, -2], [16, 2, -0.5], [18, 1, 1]], atol=1e-5)


def test_warnings_are_one_line_each_and_do_not_fail(capsys, tmp_path):
    b = GltfBuilder()
    b.add_node()
    b.add_animation(
        [
            dict(node=0, path="translation", times=[0, 1], values=[[0, 0, 0], [1, 1, 1]]),
            dict(node=0, path="translation", times=[0, 1], values=[[5, 5, 5], [6, 6, 6]]),
        ]
    )
    b.add_scene([0])
    code, out, err = run(capsys, "sample", b.write_gltf(tmp_path), "--json", "--times=1")
    assert code == 0
    assert json.loads(out)["animations"][0]["samples"][0]["nodes"]["0"]["translation"] == [6, 6, 6]
    assert err and all(line.startswith("animview: warning:") for line in err.splitlines())


# -- bench ---------------------------------------------------------------------------------------------


def test_bench_json_keys(capsys, minimal_file):
    code, out, err = run(capsys, "bench", minimal_file, "--json", "--frames", "50")
    assert code == 0, err
    result = json.loads(out)
    engines = {k for k in result if k.startswith("engine_") and k.endswith("_us_per_frame")}
    assert BENCH_KEYS <= set(result) - engines <= BENCH_KEYS | BENCH_OPTIONAL
    assert result["channels"] == 4 and result["frames"] == 50
    assert result["kernel"].startswith(("ready", "numpy", "failed")), result["kernel"]
    for key in (BENCH_KEYS | (BENCH_OPTIONAL & set(result))) - {"render_aa", "kernel"}:
        assert isinstance(result[key], (int, float)) and result[key] > 0, key
    if "render_fps" in result:  # a four-triangle model: auto keeps MSAA
        assert result["render_aa"] == "msaa4" and "render_fps_msaa" not in result


def test_bench_on_a_still_model_reports_its_render_figures(capsys, tmp_path):
    """A model without animations (the material test models) is timed too: nothing to sample, frames to draw."""
    b = GltfBuilder()
    b.add_node(mesh=b.add_mesh(positions=[[0, 0, 0], [1, 0, 0], [0, 1, 0]], indices=[0, 1, 2]))
    b.add_scene([0])
    code, out, err = run(
        capsys,
        "bench",
        b.write_gltf(tmp_path, "still.gltf"),
        "--json",
        "--frames",
        "5",
        "--render-frames",
        "5",
        "--size",
        "64x48",
    )
    assert code == 0, err
    result = json.loads(out)
    assert result["channels"] == 0 and result["per_frame_channel_samples_per_s"] == 0.0
    if "render_fps" in result:  # where an offscreen context exists
        assert result["render_fps"] > 0 and result["render_fps_noaa"] > 0


def test_bench_times_diff_in_its_own_process(capsys, minimal_file, tmp_path):
    args = ("--json", "--frames", "5", "--render-frames", "2", "--size", "64x48")
    code, out, err = run(capsys, "bench", minimal_file, *args, "--diff", minimal_file)
    assert code == 0, err
    result = json.loads(out)
    assert result["diff_s"] > 0 and result["diff_status"] == 0 and result["diff_peak_mb"] > 10
    code, _, err = run(capsys, "bench", minimal_file, *args, "--diff", tmp_path / "absent.glb")
    assert code == 2 and "--diff failed" in err and "absent.glb" in err and len(err.strip().splitlines()) == 1


def test_bench_text_output(capsys, minimal_file):
    code, out, _ = run(capsys, "bench", minimal_file, "--frames", "20")
    assert code == 0
    names = [line.split()[0] for line in out.splitlines()]
    assert BENCH_KEYS <= set(names)


# -- the same argument, the same meaning, in every command ----------------------------------------


def test_animation_is_an_index_or_a_name_in_every_command(capsys, tmp_path):
    b = GltfBuilder()
    b.add_node()
    b.add_animation([dict(node=0, path="translation", times=[0, 1], values=[[0, 0, 0], [1, 0, 0]])], name="Walk")
    b.add_animation([dict(node=0, path="translation", times=[0, 2], values=[[0, 0, 0], [0, 5, 0]])], name="Run")
    b.add_scene([0])
    path = b.write_gltf(tmp_path, "two.gltf")
    for key in ("1", "Run"):
        code, out, err = run(capsys, "sample", path, "--json", "--animation", key, "--times=2")
        assert code == 0, err
        assert [a["name"] for a in json.loads(out)["animations"]] == ["Run"]
        code, _, err = run(
            capsys,
            path,
            "--animation",
            key,
            "--window",
            "headless",
            "--backend",
            "egl",
            "--frames",
            "1",
            "--size",
            "64x48",
        )
        assert code in (0, 1), err  # 1: no window could be made on this machine
        code, _, err = run(
            capsys,
            "render",
            path,
            "-o",
            tmp_path / f"{key}.png",
            "--animation",
            key,
            "--size",
            "32x24",
            "--samples",
            "0",
            "--quiet",
        )
        assert code == 0, err
    for argv in (["sample", path], [path], ["render", path, "-o", tmp_path / "x.png"]):
        code, _, err = run(capsys, *argv, "--animation", "Fly")
        assert code == 2 and "'Walk'" in err and "'Run'" in err, err


def test_yaw_and_pitch_are_degrees(capsys, minimal_file, tmp_path):
    code, _, err = run(capsys, "render", minimal_file, "-o", tmp_path / "x.png", "--yaw", "north")
    assert code == 2 and "degrees" in err


# -- bake ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("extra", [[], ["--fps", "24"]])
def test_bake_writes_a_file_that_samples_like_the_mode(capsys, tmp_path, extra):
    from viewer.base.resources import asset_path

    src = asset_path("irregular.gltf")
    out = tmp_path / "baked.glb"
    code, _, err = run(capsys, "bake", src, "--mode", "catmull-rom", "-o", out, *extra)
    assert code == 0 and "wrote" in err, err
    times = sorted(set(load(src).clips[0].key_times.tolist()))
    want = load(src).clips[0].sample(np.array(times), "catmull-rom")
    got = load(out).clips[0].sample(np.array(times))
    np.testing.assert_allclose(got, want, atol=1e-6)


@pytest.mark.parametrize(
    "argv",
    [
        ["bake", "{file}", "-o", "{out}"],  # no mode
        ["bake", "{file}", "--mode", "bezier", "-o", "{out}"],
        ["bake", "{file}", "--mode", "step", "-o", "{txt}"],  # not .glb/.gltf
        ["bake", "{file}", "--mode", "step", "-o", "{nodir}"],
        ["bake", "{file}", "--mode", "step", "--fps", "0", "-o", "{out}"],
        ["bake", "{file}", "--mode", "step", "--fps", "30", "--keys", "-o", "{out}"],
        ["bake", "{file}", "--mode", "step", "--animation", "Fly", "-o", "{out}"],
    ],
)
def test_bake_bad_usage_is_one_line_and_exit_2(capsys, tmp_path, minimal_file, argv):
    argv = [
        x.format(file=minimal_file, out=tmp_path / "o.glb", txt=tmp_path / "o.txt", nodir=tmp_path / "no" / "o.glb")
        for x in argv
    ]
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "" and len(err.splitlines()) == 1, err
