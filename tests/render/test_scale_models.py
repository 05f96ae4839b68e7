"""``tools/stress_models.py``: the issue-14 stress files are deterministic, closed and outward (so the
viewer may cull their back faces), animated as promised (every morph weight non-zero and moving), and
drawable; tested on small versions of the same generators."""

from __future__ import annotations

import sys

import numpy as np
import pytest

from tests.conftest import REPO_ROOT
from viewer.pose.pose import Pose
from viewer.render import closed, geometry
from viewer.scene.scene import load

sys.path.insert(0, str(REPO_ROOT / "tools"))
import stress_models  # noqa: E402


def test_the_five_files_of_the_issue():
    assert list(stress_models.MODELS) == ["mesh_100k.glb", "mesh_1m.glb", "morph_8.glb", "morph_16.glb", "morph_64.glb"]


def test_files_are_byte_identical_run_to_run(tmp_path):
    for make in (lambda p: stress_models.lumpy_torus(p, 2000), lambda p: stress_models.rippling_torus(p, 3, rings=10)):
        assert make(tmp_path / "a.glb").read_bytes() == make(tmp_path / "b.glb").read_bytes()


@pytest.mark.parametrize("normals", [True, False])
def test_ripples_are_closed_outward_and_every_weight_moves(tmp_path, normals):
    scene = load(stress_models.rippling_torus(tmp_path / "r.glb", 5, normals=normals, rings=16))
    prim = scene.meshes[0].primitives[0]
    assert len(prim.targets) == 5 and all(("NORMAL" in t) == normals for t in prim.targets)
    deltas = geometry.morph_deltas(prim, "POSITION")
    assert closed.closed_outward(prim.attributes["POSITION"], prim.indices, deltas)
    pose = Pose(scene)
    rows = []
    for t in np.linspace(0.0, scene.clips[0].duration, 9):
        pose.set_time(scene.clips[0], t)
        rows.append(pose.node_weights(0).copy())
    w = np.array(rows)
    assert w.shape == (9, 5) and (w >= 0.2 - 1e-6).all() and (w <= 1.0 + 1e-6).all()
    assert (w.max(axis=0) - w.min(axis=0) > 0.5).all()


def test_lumpy_torus_is_closed_outward_and_turns(tmp_path):
    scene = load(stress_models.lumpy_torus(tmp_path / "t.glb", 5000))
    prim = scene.meshes[0].primitives[0]
    assert 4500 < len(prim.indices) // 3 < 5500 and "NORMAL" in prim.attributes
    assert closed.closed_outward(prim.attributes["POSITION"], prim.indices)
    pose = Pose(scene)
    pose.set_time(scene.clips[0], 1.0)  # a quarter turn about +Y
    np.testing.assert_allclose(pose.world[0][:3, :3], [[0, 0, 1], [0, 1, 0], [-1, 0, 0]], atol=1e-6)


def test_command_writes_the_named_files_and_refuses_others(tmp_path, capsys):
    assert stress_models.main([str(tmp_path / "out"), "mesh_100k.glb"]) == 0
    scene = load(tmp_path / "out" / "mesh_100k.glb")
    assert 99_000 < len(scene.meshes[0].primitives[0].indices) // 3 < 101_000
    with pytest.raises(SystemExit):
        stress_models.main([str(tmp_path), "mesh_2m.glb"])
