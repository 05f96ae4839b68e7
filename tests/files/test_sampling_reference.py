"""Every Khronos model loads, and samples like the reference (three.js, cross-checked with pygfx).

Reference files: ``<ANIMVIEW_REFERENCE>/<Model>.json`` (one setting: the environment variable
``ANIMVIEW_REFERENCE``, default ``../shared/reference`` next to the repository), in exactly the shape
``animview sample --json`` prints. Rotations compare as rotations: both normalized, then up to sign.
Tests skip cleanly when the models or the references are absent.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from tests.conftest import REPO_ROOT, khronos_model, khronos_model_names
from viewer import load
from viewer.files.sampling import sample_animations

REFERENCE_DIR = Path(os.environ.get("ANIMVIEW_REFERENCE", REPO_ROOT.parent / "shared" / "reference"))
TOLERANCE = 1e-4


def reference_names() -> list[str]:
    """Models with a reference file (empty when the folder is absent)."""
    if not REFERENCE_DIR.is_dir():
        return []
    return sorted(p.stem for p in REFERENCE_DIR.glob("*.json"))


def reference(name: str) -> dict:
    path = REFERENCE_DIR / f"{name}.json"
    if not path.is_file():
        pytest.skip(f"no reference samples for {name} in {REFERENCE_DIR} (set ANIMVIEW_REFERENCE)")
    return json.loads(path.read_text(encoding="utf-8"))


def _params(names: list[str], what: str):
    return names or [pytest.param("none", marks=pytest.mark.skip(reason=f"no {what} found"))]


def compare_animation(model: str, got: dict, ref: dict, scene) -> None:
    where = f"{model} animation {ref['index']}"
    assert got["index"] == ref["index"], where
    if scene.document.raw["animations"][ref["index"]].get("name"):
        assert got["name"] == ref["name"], where
    assert got["duration"] == pytest.approx(ref["duration"], abs=1e-6), where
    assert len(got["samples"]) == len(ref["samples"]), where
    for gs, rs in zip(got["samples"], ref["samples"]):
        assert gs["t"] == pytest.approx(rs["t"], abs=1e-9), where
        at = f"{where} t={rs['t']}"
        assert set(gs["nodes"]) == set(rs["nodes"]), at
        for node, paths in rs["nodes"].items():
            assert set(gs["nodes"][node]) == set(paths), f"{at} node {node}"
            for path, rv in paths.items():
                gv = np.asarray(gs["nodes"][node][path], float)
                rv = np.asarray(rv, float)
                assert gv.shape == rv.shape, f"{at} node {node} {path}"
                if path == "rotation":
                    assert abs(np.linalg.norm(gv) - 1.0) < 1e-6, f"{at} node {node}: not unit {gv.tolist()}"
                    rv = rv / np.linalg.norm(rv)
                    err = min(np.abs(gv - rv).max(), np.abs(gv + rv).max())
                else:
                    err = np.abs(gv - rv).max()
                assert err <= TOLERANCE, f"{at} node {node} {path}: got {gv.tolist()}, reference {rv.tolist()}"


@pytest.mark.parametrize("model", _params(khronos_model_names(), "Khronos models"))
def test_khronos_model_loads_and_samples_finite(model):
    scene = load(khronos_model(model))
    assert scene.clips, f"{model} has animations"
    doc = sample_animations(scene)
    assert len(doc["animations"]) == len(scene.clips)
    for anim, clip in zip(doc["animations"], scene.clips):
        assert anim["samples"], model
        for s in anim["samples"]:
            for paths in s["nodes"].values():
                for v in paths.values():
                    assert np.all(np.isfinite(v)), (model, clip.name, s["t"])


@pytest.mark.parametrize("model", _params(reference_names(), "reference files"))
def test_samples_match_reference(model):
    ref = reference(model)
    scene = load(khronos_model(model))
    assert len(ref["animations"]) == len(scene.clips), model
    for ra in ref["animations"]:
        times = [s["t"] for s in ra["samples"]]
        (got,) = sample_animations(scene, animation=ra["index"], times=times)["animations"]
        compare_animation(model, got, ra, scene)


@pytest.mark.parametrize("model", _params(reference_names(), "reference files"))
def test_default_times_are_the_reference_times(model):
    """Without --times the report samples every key time plus midpoints — the reference's times."""
    ref = reference(model)
    scene = load(khronos_model(model))
    doc = sample_animations(scene)
    for got, ra in zip(doc["animations"], ref["animations"]):
        np.testing.assert_allclose(
            [s["t"] for s in got["samples"]],
            [s["t"] for s in ra["samples"]],
            atol=1e-9,
            err_msg=f"{model} animation {ra['index']}",
        )


def _check_schema(doc: dict) -> None:
    """Exactly the shape DESIGN.md gives for ``sample --json``."""
    assert set(doc) == {"animations"}
    widths = {"translation": 3, "rotation": 4, "scale": 3}
    for anim in doc["animations"]:
        assert set(anim) - {"ignored"} == {"index", "name", "duration", "samples"}  # the oracle has no "ignored"
        assert isinstance(anim["index"], int) and isinstance(anim["name"], str)
        assert isinstance(anim["duration"], float)
        assert anim.get("ignored", {}) == {}  # the shared models apply every channel
        for s in anim["samples"]:
            assert set(s) == {"t", "nodes"}  # no KHR_animation_pointer channels to materials, cameras or lights
            assert isinstance(s["t"], (int, float))
            for node, paths in s["nodes"].items():
                assert node.isdigit() and str(int(node)) == node
                assert paths and set(paths) <= {"translation", "rotation", "scale", "weights"}
                for path, v in paths.items():
                    assert isinstance(v, list) and all(isinstance(x, (int, float)) for x in v)
                    assert len(v) == widths.get(path, len(v))


@pytest.mark.parametrize("model", ["BoxAnimated"])
def test_cli_sample_json_schema_and_values(model):
    path = khronos_model(model)
    ref = reference(model)
    proc = subprocess.run(
        [sys.executable, "-m", "viewer", "sample", str(path), "--json"],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    _check_schema(doc)
    _check_schema(ref)  # the reference itself is in the same shape
    scene = load(path)
    assert len(doc["animations"]) == len(ref["animations"])
    for got, ra in zip(doc["animations"], ref["animations"]):
        compare_animation(model, got, ra, scene)
