"""``animview bake --engine E`` (viewer/files/bake_engine.py): the copy, played by the spec, is the original as E
plays it — at every baked time, within 1e-6 — for STEP keys E shows late, cubic tangents E scales its own way
and players that wrap at the end."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from tests.conftest import REPO_ROOT
from tests.gltf_builder import GltfBuilder
from viewer import engines
from viewer.files.bake_engine import bake_engine_file, engine_times, float32_up
from viewer.scene.scene import load


def step_file(tmp_path):
    """A STEP translation and a STEP rotation keyed together, then a LINEAR channel on another node."""
    b = GltfBuilder()
    mesh = b.add_mesh([[0, 0, 0], [1, 0, 0], [0, 1, 0]], [0, 1, 2])
    b.add_node(name="a", mesh=mesh)
    b.add_node(name="b", mesh=mesh)
    b.add_scene([0, 1])
    s = float(np.sqrt(0.5))
    b.add_animation(
        [
            dict(node=0, path="translation", interpolation="STEP", times=[0, 0.5, 1.25, 2], values=np.eye(4, 3)),
            dict(node=0, path="rotation", interpolation="STEP", times=[0, 1.25], values=[[0, 0, 0, 1], [0, s, 0, s]]),
            dict(node=1, path="translation", times=[0, 1, 2], values=[[0, 0, 0], [0, 3, 0], [1, 0, 0]]),
        ],
        name="steps",
    )
    return b.write_gltf(tmp_path, "steps.gltf")


def baked_matches(original, baked, engine, fps: float = 60.0) -> None:
    """The spec's playback of ``baked`` equals ``engine``'s of ``original`` at every time the bake wrote."""
    for clip, copy in zip(original.clips, baked.clips):
        played = engine.clip(clip, original)
        times = engine_times(clip, played, fps)
        times = np.union1d(times, np.concatenate([ch.curve.times for ch in copy.channels]))
        want = engine.sample(clip, original, times)
        got = copy.sample(times)
        assert copy.duration == pytest.approx(clip.duration, abs=0)
        for c, ch in enumerate(clip.channels):
            a, b = want[:, c, : ch.width], got[:, c, : ch.width]
            if ch.curve.rotation:  # q and -q are one rotation
                a = a / np.linalg.norm(a, axis=1, keepdims=True)
                b = b * np.where(np.sum(a * b, axis=1, keepdims=True) < 0, -1.0, 1.0)
            np.testing.assert_allclose(b, a, atol=1e-6, err_msg=f"{clip.name} channel {c} {ch.path}")


@pytest.mark.parametrize("name", engines.NAMES)
def test_the_baked_step_file_plays_as_the_engine_played_the_original(tmp_path, name):
    original = load(step_file(tmp_path))
    out = tmp_path / f"{name}.glb"
    from viewer.cli.main import main

    assert main(["bake", str(original.path), "--engine", name, "-o", str(out), "--quiet"]) == 0
    baked = load(out)
    baked_matches(original, baked, engines.get(name))
    if name == "filament":  # at the STEP key's own time Filament shows the old value; so does the copy, as spec
        t = np.array([0.5, 1.25])
        np.testing.assert_allclose(baked.clips[0].sample(t)[:, 0, :3], [[1, 0, 0], [0, 1, 0]], atol=0)
        kinds = {s["interpolation"] for s in baked.document.raw["animations"][0]["samplers"]}
        assert kinds == {"STEP", "LINEAR"}


@pytest.mark.parametrize("demo", ["interpolation.gltf", "skinned_arm.gltf", "irregular.gltf"])
def test_demo_files_bake_as_filament_and_three_play_them(tmp_path, demo):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        original = load(REPO_ROOT / "assets" / demo)
    for name in engines.NAMES:
        out = tmp_path / f"{name}.gltf"
        summary = bake_engine_file(original, out, engines.get(name), fps=30.0)
        assert f"as {name} plays it" in str(summary)
        baked_matches(original, load(out), engines.get(name), fps=30.0)


def test_float32_up_keeps_a_key_moved_one_float_later_after_the_stored_time():
    t = np.array([0.5, np.nextafter(0.5, 1.0), 0.1])
    up = float32_up(t)
    assert up[0] == 0.5 and up[1] == np.nextafter(np.float32(0.5), np.float32(1)) and up[2] >= 0.1
    assert np.all(up.astype(np.float32).astype(np.float64) == up)


def test_engine_and_mode_exclude_each_other(tmp_path, capsys):
    from viewer.cli.main import main

    path = str(REPO_ROOT / "assets" / "triangle.gltf")
    out = str(tmp_path / "x.glb")
    assert main(["bake", path, "--engine", "three", "--mode", "linear", "-o", out]) == 2
    assert main(["bake", path, "-o", out]) == 2
    assert main(["bake", path, "--engine", "three", "--keys", "-o", out]) == 2
    assert "--engine" in capsys.readouterr().err
