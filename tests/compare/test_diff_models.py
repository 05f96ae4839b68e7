"""``animview diff`` on the shared Khronos models against their processed copies: what each process changes.

* ``animview bake`` at the keys in a Hermite, linear or step mode is exact everywhere: diffed in the baked mode,
  the copy stays within float32 storage (1e-6 of the scene size); so does a linear bake at 60 fps plus every key.
* Draco (``tools/compress_models.py``) changes no animation — every node exactly where it was — and moves
  vertices by their 14-bit position quantization only (matched by nearest rest position once quantized).
* meshopt's copies are lossless but for rotations through the 12-bit QUATERNION filter: geometry exact where no
  rotation channel moves it, nodes within a fraction of a degree.
* gltfpack (``tools/gltfpack_models.py``; its copies in ``tests/data/gltfpack``) quantizes animation and geometry
  and resamples at 30 Hz: the diff must still report the maxima recorded in ``tests/data/gltfpack_diffs.json``.

Skips cleanly when the shared models (``ANIMVIEW_KHRONOS``) or a copy are absent.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import REPO_ROOT, khronos_model, khronos_model_names
from viewer.compare.diff import diff_scenes
from viewer.files.bake import bake_file
from viewer.scene.scene import load

GLTFPACK_DIR = REPO_ROOT / "tests" / "data" / "gltfpack"
RECORD = json.loads((REPO_ROOT / "tests" / "data" / "gltfpack_diffs.json").read_text())
MODELS = khronos_model_names() or ["(no shared models)"]
FLOAT32 = 1e-6  # of the scene size: what storing a baked key as float32 may move a node or vertex
DRACO_REL = 1e-4  # of the scene size: 14-bit positions (1/16383 of the largest extent, halved, √3 per vertex)
MESHOPT_REL, MESHOPT_DEG = 1e-3, 0.2  # 12-bit quaternions, compounded down a chain of joints


def node_maxima(report: dict) -> tuple[float, float]:
    """The largest node distance and angle (degrees) over every clip."""
    nodes = [n for c in report["clips"] for n in c["nodes"]]
    return max((n["max_distance"] for n in nodes), default=0.0), max((n["max_angle_deg"] for n in nodes), default=0.0)


def vertex_max(report: dict) -> float:
    return max((c["vertices"]["max_distance"] for c in report["clips"] if c["vertices"]), default=0.0)


@pytest.mark.parametrize("name", MODELS)
def test_bakes_at_the_keys_are_exact_in_the_baked_mode(name, tmp_path):
    original = khronos_model(name)
    scene = load(original)
    if not scene.clips:
        pytest.skip(f"{name} has no clips")
    for mode, fps in (("cubicspline", None), ("catmull-rom", None), ("linear", None), ("step", None), ("linear", 60)):
        copy = tmp_path / f"{mode}-{fps}.glb"
        bake_file(scene, copy, mode, fps=fps, keys=fps is None)
        report = diff_scenes(scene, load(copy), mode=mode)
        assert report["max_distance_rel"] < FLOAT32, (mode, fps, report["max_distance"])
        assert not report["differs"], (mode, fps)
        assert not report["unmatched"]["clips_a"] and not report["unmatched"]["nodes_a"]


@pytest.mark.parametrize("name", MODELS)
def test_draco_moves_no_node_and_vertices_by_quantization_only(name, tmp_path):
    pytest.importorskip("DracoPy")
    from tools.compress_models import compress_file

    original = khronos_model(name)
    copy, _ = compress_file(original, tmp_path)
    report = diff_scenes(load(original), load(copy))
    assert node_maxima(report) == (0.0, 0.0)
    assert vertex_max(report) <= DRACO_REL * report["size"]
    for c in report["clips"]:
        assert not c["weights"] and not c["pointers"] and not c["visibility"]
        for m in c["meshes"]:
            assert m["measured"] == m["of"] and m["rest_gap"] <= DRACO_REL * report["size"]


@pytest.mark.parametrize("name", MODELS)
def test_meshopt_changes_rotations_by_the_filter_only(name, tmp_path):
    from tools.compress_models import compress_meshopt_file

    original = khronos_model(name)
    scene = load(original)
    copy, _ = compress_meshopt_file(original, tmp_path)
    report = diff_scenes(scene, load(copy))
    rotations = any(ch.path == "rotation" for clip in scene.clips for ch in clip.channels)
    distance, angle = node_maxima(report)
    if not rotations:
        assert report["max_distance"] == 0.0 and angle == 0.0
    assert report["max_distance_rel"] <= MESHOPT_REL and angle <= MESHOPT_DEG
    assert all(m["matched_by"] == "index" and m["rest_gap"] == 0.0 for c in report["clips"] for m in c["meshes"])


@pytest.mark.parametrize("name", sorted(RECORD["models"]))
def test_gltfpack_copies_keep_their_recorded_figures(name):
    original, copy = khronos_model(name), GLTFPACK_DIR / RECORD["models"][name]["copy"]
    if not copy.is_file():
        pytest.skip(f"no gltfpack copy {copy} (python tools/gltfpack_models.py writes it)")
    expected = RECORD["models"][name]
    report = diff_scenes(load(original), load(copy), mode=RECORD["mode"])
    tolerance = 1e-6 * expected["size"]
    assert report["size"] == pytest.approx(expected["size"], rel=1e-9)
    assert report["max_distance"] == pytest.approx(expected["max_distance"], abs=tolerance)
    assert report["differs"] == expected["differs"]
    assert [c["a"] for c in report["clips"]] == [c["clip"] for c in expected["clips"]]
    for got, want in zip(report["clips"], expected["clips"]):
        assert got["max_distance"] == pytest.approx(want["max_distance"], abs=tolerance), want["clip"]
        if want["max_distance"] > tolerance:  # a tie at zero names any node first
            assert got["worst"]["node"] == want["worst"]["node"] and got["worst"]["kind"] == want["worst"]["kind"]
            assert got["worst"]["t"] == pytest.approx(want["worst"]["t"], abs=1e-9)
        assert (got["vertices"] is None) == (want["vertex_max"] is None)
        if want["vertex_max"] is not None:
            assert got["vertices"]["max_distance"] == pytest.approx(want["vertex_max"], abs=tolerance)


def test_the_record_covers_every_shared_model():
    names = khronos_model_names()
    if not names:
        pytest.skip("no shared models")
    assert sorted(RECORD["models"]) == names
    assert RECORD["gltfpack"] == "gltfpack@1.3.0"
    assert all(Path(GLTFPACK_DIR / m["copy"]).suffix == ".glb" for m in RECORD["models"].values())
