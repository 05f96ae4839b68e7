"""animview bake (viewer/files/bake.py): the baked file plays, in any engine's authored mode, what --mode M showed.

Checked on the demo assets and the shared Khronos models, in every mode, at the keys (exact between
keys too) and at a frame rate (exact at the baked times); the rest of the file is kept and it is valid.
"""

from __future__ import annotations

import functools
import json
import re
import warnings
from pathlib import Path

import numpy as np
import pytest

import viewer
from tests.conftest import REPO_ROOT, khronos_model, khronos_model_names
from tests.gltf_builder import GltfBuilder, minimal_animated
from viewer.animation.modes import MODES
from viewer.base.errors import GltfWarning
from viewer.files.bake import bake_file, bake_times

DEMOS = sorted(p.name for p in (REPO_ROOT / "assets").glob("*.gltf"))
FPS = 24.0


def _load(path: Path) -> tuple[viewer.Scene, set[str]]:
    """The scene and its GltfWarning messages (without the file name, which differs between copies)."""
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always", GltfWarning)
        scene = viewer.load(path)
    return scene, {str(w.message).split(":", 1)[-1] for w in seen if issubclass(w.category, GltfWarning)}


@functools.lru_cache(maxsize=None)
def _original(path: Path) -> tuple[viewer.Scene, frozenset[str]]:
    scene, seen = _load(path)
    return scene, frozenset(seen)


def _source(name: str) -> Path:
    return REPO_ROOT / "assets" / name if name in DEMOS else khronos_model(name)


def _between(times: np.ndarray) -> np.ndarray:
    """The keys and three times inside every interval between them."""
    inside = times[:-1, None] + np.diff(times)[:, None] * np.array([0.2, 0.5, 0.9])
    return np.union1d(times, inside.ravel())


def assert_same_motion(baked: viewer.Scene, original: viewer.Scene, mode: str, times_of) -> None:
    """Every clip of ``baked`` (authored) equals ``original`` in ``mode`` at ``times_of(clip)``; q ~ −q."""
    assert [c.name for c in baked.clips] == [c.name for c in original.clips]
    for clip, source in zip(baked.clips, original.clips):
        assert [(c.node, c.path) for c in clip.channels] == [(c.node, c.path) for c in source.channels]
        times = times_of(source)
        got, want = clip.sample(times), source.sample(times, mode)
        for c, channel in enumerate(source.channels):
            g, w = got[:, c, : channel.width], want[:, c, : channel.width]
            if channel.path == "rotation":
                g = g * np.where(np.sum(g * w, axis=1, keepdims=True) < 0.0, -1.0, 1.0)
            np.testing.assert_allclose(g, w, rtol=1e-6, atol=1e-6, err_msg=f"{clip.name} {channel.path} {mode}")


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", DEMOS + khronos_model_names())
def test_baked_file_plays_the_chosen_mode(tmp_path: Path, name: str, mode: str) -> None:
    original, warned = _original(_source(name))
    at_keys = tmp_path / "keys.glb"
    summary = bake_file(original, at_keys, mode, keys=True)
    baked, seen = _load(at_keys)
    assert seen <= warned
    assert_same_motion(baked, original, mode, lambda clip: _between(clip.key_times))
    assert summary.path == at_keys and summary.size == at_keys.stat().st_size
    at_fps = tmp_path / "fps.gltf"
    bake_file(original, at_fps, mode, fps=FPS)
    baked, seen = _load(at_fps)
    assert seen <= warned
    assert_same_motion(baked, original, mode, lambda clip: bake_times(clip, FPS))
    for clip, source in zip(baked.clips, original.clips):
        for channel in clip.channels:
            if not channel.curve.discrete:  # booleans and integers keep their samplers (they step in every mode)
                np.testing.assert_array_equal(channel.curve.times, bake_times(source, FPS))


def test_keys_in_hermite_modes_become_cubicspline_with_the_modes_tangents(tmp_path: Path) -> None:
    original, _ = _original(REPO_ROOT / "assets" / "interpolation.gltf")
    bake_file(original, tmp_path / "b.glb", "cubicspline")
    baked, _ = _load(tmp_path / "b.glb")
    for channel, source in zip(baked.clips[0].channels, original.clips[0].channels):
        assert channel.curve.interpolation == "CUBICSPLINE"
        np.testing.assert_array_equal(channel.curve.times, source.curve.times)
        if source.curve.interpolation == "CUBICSPLINE":  # the authored tangents, except the two never used
            np.testing.assert_allclose(channel.curve.out_tangents[:-1], source.curve.out_tangents[:-1], atol=1e-7)
            np.testing.assert_allclose(channel.curve.in_tangents[1:], source.curve.in_tangents[1:], atol=1e-7)
    bake_file(original, tmp_path / "s.glb", "step", fps=10)
    assert {c.curve.interpolation for c in _load(tmp_path / "s.glb")[0].clips[0].channels} == {"STEP"}
    bake_file(original, tmp_path / "l.glb", "linear")
    assert {c.curve.interpolation for c in _load(tmp_path / "l.glb")[0].clips[0].channels} == {"LINEAR"}


@pytest.mark.parametrize("suffix", [".glb", ".gltf"])
def test_the_rest_of_the_file_is_kept_and_self_contained(tmp_path: Path, suffix: str) -> None:
    """External .bin and image, a channel without a node, node weights, extras: all survive, in one file."""
    b = minimal_animated()
    b.add_image(b"\x89PNG\r\n\x1a\n" + bytes(8))
    b.doc["images"].append({"uri": "tex.jpg"})
    b.doc["nodes"][1]["weights"] = [0.25, 0.75]
    b.doc["nodes"][0]["extras"] = {"keep": [1, None, {}]}
    b.doc["animations"][0]["channels"].append({"sampler": 0, "target": {"path": "translation"}})
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "tex.jpg").write_bytes(b"\xff\xd8\xff\xe0 not really a jpeg")
    source = b.write_gltf(tmp_path / "src", "model.gltf")
    original, warned = _load(source)
    out = tmp_path / f"out{suffix}"
    bake_file(original, out, "catmull-rom", fps=30)
    (tmp_path / "src" / "model.bin").unlink()
    (tmp_path / "src" / "tex.jpg").unlink()
    baked, seen = _load(out)
    assert seen == warned
    raw, before = baked.document.raw, original.document.raw
    assert len(raw["buffers"]) == 1 and raw["buffers"][0].get("uri", "data:").startswith("data:")
    assert [i["mimeType"] for i in raw["images"]] == ["image/png", "image/jpeg"]
    assert baked.document.image_bytes(1) == b"\xff\xd8\xff\xe0 not really a jpeg"
    for key in ("nodes", "meshes", "skins", "scenes", "asset"):
        assert raw[key] == before[key], key
    for a in (0, 1, 2):  # mesh data, joints, weights: the same numbers from the new buffer
        np.testing.assert_array_equal(baked.document.accessor(a), original.document.accessor(a))
    kept = raw["animations"][0]["channels"][-1]
    assert raw["animations"][0]["samplers"][kept["sampler"]] == before["animations"][0]["samplers"][0]


def test_only_the_chosen_animation_is_baked(tmp_path: Path) -> None:
    b = minimal_animated()
    b.add_animation([dict(node=0, path="translation", times=[0, 2], values=[[0, 0, 0], [2, 0, 0]])], name="Other")
    original, _ = _load(b.write_glb(tmp_path / "two.glb"))
    summary = bake_file(original, tmp_path / "out.gltf", "cubic-zero", animation=1)
    assert [row[:2] for row in summary.animations] == [(1, "Other")]
    assert "animation 1 'Other': 1 channels, 2 keys" in str(summary)
    raw = json.loads((tmp_path / "out.gltf").read_text())
    assert raw["animations"][0] == original.document.raw["animations"][0]
    assert raw["animations"][1]["samplers"][0]["interpolation"] == "CUBICSPLINE"


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(mode="smooth"), "unknown interpolation mode 'smooth'"),
        (dict(mode="linear", fps=0), "fps must be a finite number above 0, got 0"),
        (dict(mode="linear", fps=-5.0), "fps must be"),
        (dict(mode="linear", fps=float("nan")), "fps must be"),
        (dict(mode="linear", fps=float("inf")), "fps must be"),
        (dict(mode="linear", fps=30, keys=True), "not both"),
        (dict(mode="linear", animation=1), re.escape("no animation 1 in m.glb: it has 1 (indices 0 to 0)")),
        (dict(mode="linear", animation=-1), "no animation -1"),
        (dict(mode="linear", fps=1e9), "over the limit"),
        (dict(mode="linear", out="out.obj"), r"must end in \.glb or \.gltf"),
    ],
)
def test_bad_requests_are_one_line_value_errors_and_write_nothing(tmp_path: Path, kwargs: dict, message: str) -> None:
    original, _ = _load(minimal_animated().write_glb(tmp_path / "m.glb"))
    kwargs = dict(kwargs)
    out = tmp_path / kwargs.pop("out", "out.glb")
    with pytest.raises(ValueError, match=message) as info:
        bake_file(original, out, **kwargs)
    assert "\n" not in str(info.value) and not out.exists()


def test_a_file_without_animations_is_refused(tmp_path: Path) -> None:
    b = GltfBuilder()
    b.add_scene([b.add_node(mesh=b.add_mesh([[0, 0, 0], [1, 0, 0], [0, 1, 0]]))])
    original, _ = _load(b.write_glb(tmp_path / "still.glb"))
    with pytest.raises(ValueError, match="still.glb has no animations to bake"):
        bake_file(original, tmp_path / "out.glb", "linear")
