"""Bounds of what is drawn (``viewer/pose/bounds.py``): grouped instances give exactly the per-node answer.

The reference is the plain definition: every node's ``Pose.primitive_positions``, min and max.
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.gltf_builder import GltfBuilder, minimal_animated
from viewer import GltfWarning, Pose, load
from viewer.pose import bounds as bounds_module
from viewer.pose.bounds import clip_bounds, pose_bounds


def _by_definition(pose: Pose) -> tuple[np.ndarray, np.ndarray]:
    scene = pose.scene
    points = [
        pose.primitive_positions(int(n), p)
        for n in np.flatnonzero(scene.nodes.mesh >= 0)
        for p in scene.meshes[scene.nodes.mesh[n]].primitives
    ]
    points = np.concatenate(points)
    return points.min(axis=0), points.max(axis=0)


def _random_trs(rng) -> dict:
    q = rng.normal(size=4)
    return dict(
        translation=rng.normal(size=3).tolist(),
        rotation=(q / np.linalg.norm(q)).tolist(),
        scale=rng.uniform(0.5, 2, 3).tolist(),
    )


def test_rigid_instances(tmp_path):
    rng = np.random.default_rng(3)
    b = GltfBuilder()
    mesh = b.add_mesh(positions=rng.normal(size=(7, 3)), indices=[0, 1, 2, 3, 4, 5])
    for _ in range(500):
        b.add_node(mesh=mesh, **_random_trs(rng))
    b.add_scene(list(range(500)))
    pose = Pose(load(b.write_gltf(tmp_path, "instances.gltf")))
    np.testing.assert_allclose(pose_bounds(pose), _by_definition(pose), atol=1e-9)


def test_morphed_instances_with_their_own_weights(tmp_path):
    rng = np.random.default_rng(4)
    b = GltfBuilder()
    targets = [rng.normal(size=(4, 3)), rng.normal(size=(4, 3)) * 3]
    mesh = b.add_mesh(
        positions=rng.normal(size=(4, 3)), indices=[0, 1, 2, 1, 2, 3], targets=targets, weights=[0.5, 0.0]
    )
    for k in range(40):
        extra = {"weights": rng.uniform(-1, 1, 2).tolist()} if k % 3 else {}
        b.add_node(mesh=mesh, **_random_trs(rng), **extra)
    b.add_scene(list(range(40)))
    pose = Pose(load(b.write_gltf(tmp_path, "morphs.gltf")))
    np.testing.assert_allclose(pose_bounds(pose), _by_definition(pose), atol=1e-9)


def test_skinned_and_mixed_scene_at_several_times(tmp_path):
    scene = load(minimal_animated().write_gltf(tmp_path, "minimal.gltf"))
    pose = Pose(scene)
    for t in (0.0, 0.3, 0.75, 1.0, 2.0):
        pose.set_time(scene.clips[0], t)
        np.testing.assert_allclose(pose_bounds(pose), _by_definition(pose), atol=1e-9, err_msg=str(t))


def test_nodes_that_are_not_drawn_frame_nothing(tmp_path):
    b = GltfBuilder()
    mesh = b.add_mesh(positions=[[0, 0, 0], [1, 0, 0], [0, 1, 0]], indices=[0, 1, 2])
    b.add_node(mesh=mesh)
    b.add_node(mesh=mesh, translation=[1e200, 0, 0])
    b.add_scene([0, 1])
    scene = load(b.write_gltf(tmp_path, "far.gltf"))
    with pytest.warns(GltfWarning, match=":/nodes/1:"):
        lo, hi = pose_bounds(Pose(scene))
    np.testing.assert_allclose([lo, hi], [[0, 0, 0], [1, 1, 0]])


def test_clip_bounds_poses_an_even_subset_when_the_budget_is_small(tmp_path, monkeypatch):
    b = GltfBuilder()
    b.add_node(mesh=b.add_mesh(positions=[[0, 0, 0], [1, 0, 0], [0, 1, 0]], indices=[0, 1, 2]))
    times = np.linspace(0, 10, 101)
    b.add_animation([dict(node=0, path="translation", times=times, values=np.c_[times, np.zeros((101, 2))])])
    b.add_scene([0])
    scene = load(b.write_gltf(tmp_path, "long.gltf"))
    posed = []
    real = bounds_module.pose_bounds
    monkeypatch.setattr(bounds_module, "pose_bounds", lambda pose, **kw: posed.append(1) or real(pose, **kw))
    lo, hi = clip_bounds(scene, scene.clips[0])
    assert len(posed) == len(np.union1d(times, np.linspace(0, 10, 32)))  # every key, within the budget
    assert hi[0] == pytest.approx(11.0)
    posed.clear()
    monkeypatch.setattr(bounds_module, "POSE_BUDGET", 1)
    lo, hi = clip_bounds(scene, scene.clips[0])
    assert len(posed) == bounds_module.MIN_POSES
    np.testing.assert_allclose([lo[0], hi[0]], [0.0, 11.0])  # the first and last times are kept


@pytest.mark.parametrize("own_weights", [False, True])
def test_beyond_the_exact_budget_instances_give_boxes_that_hold_the_exact_bounds(tmp_path, monkeypatch, own_weights):
    rng = np.random.default_rng(5)
    b = GltfBuilder()
    mesh = b.add_mesh(
        positions=rng.normal(size=(30, 3)), indices=list(range(30)), targets=[rng.normal(size=(30, 3))], weights=[0.5]
    )
    for k in range(100):
        b.add_node(mesh=mesh, **_random_trs(rng), **({"weights": [float(rng.uniform(-1, 1))]} if own_weights else {}))
    b.add_scene(list(range(100)))
    pose = Pose(load(b.write_gltf(tmp_path, "many.gltf")))
    exact_lo, exact_hi = _by_definition(pose)
    monkeypatch.setattr(bounds_module, "EXACT_POINTS", 0)
    lo, hi = pose_bounds(pose)
    assert (lo <= exact_lo + 1e-9).all() and (hi >= exact_hi - 1e-9).all()
    assert (hi - lo < 2.0 * (exact_hi - exact_lo)).all()  # a box around each instance, not a wild guess


def test_beyond_the_exact_budget_unrotated_instances_are_still_exact(tmp_path, monkeypatch):
    rng = np.random.default_rng(6)
    b = GltfBuilder()
    mesh = b.add_mesh(positions=rng.normal(size=(30, 3)), indices=list(range(30)))
    for _ in range(50):
        b.add_node(mesh=mesh, translation=rng.normal(size=3).tolist(), scale=rng.uniform(0.5, 2, 3).tolist())
    b.add_scene(list(range(50)))
    pose = Pose(load(b.write_gltf(tmp_path, "boxes.gltf")))
    monkeypatch.setattr(bounds_module, "EXACT_POINTS", 0)
    np.testing.assert_allclose(pose_bounds(pose), _by_definition(pose), atol=1e-9)


def _exact_clip_bounds(scene, clip, times):
    pose, lo, hi = Pose(scene), np.full(3, np.inf), np.full(3, -np.inf)
    for t in times:
        pose.set_time(clip, t)
        a, b = pose_bounds(pose)
        lo, hi = np.minimum(lo, a), np.maximum(hi, b)
    return lo, hi


def _skinned_models():
    from tests.conftest import KHRONOS_DIR

    names = [
        "RiggedSimple/RiggedSimple.gltf",
        "RiggedFigure/RiggedFigure.gltf",
        "Fox/Fox.glb",
        "SimpleSkin/SimpleSkin.gltf",
    ]
    return [KHRONOS_DIR / n for n in names]


@pytest.mark.parametrize("path", _skinned_models(), ids=lambda p: p.parent.name)
def test_joint_boxes_hold_every_skinned_pose_and_stay_close(path, monkeypatch):
    if not path.exists():
        pytest.skip(f"shared model missing: {path}")
    scene = load(path)
    clip = scene.clips[0]
    times = np.union1d(clip.key_times, np.linspace(0.0, clip.duration, 32))
    exact_lo, exact_hi = _exact_clip_bounds(scene, clip, times)
    lo, hi = clip_bounds(scene, clip)  # within the budget: exact
    np.testing.assert_allclose([lo, hi], [exact_lo, exact_hi], atol=1e-9)
    monkeypatch.setattr(bounds_module, "POSE_BUDGET", 1)  # beyond it: joint boxes
    lo, hi = clip_bounds(scene, clip)
    size = np.max(exact_hi - exact_lo)
    assert (lo <= exact_lo + 1e-9 * size).all() and (hi >= exact_hi - 1e-9 * size).all()  # holds them all
    assert np.max((exact_lo - lo) + (hi - exact_hi)) <= 0.5 * size  # and frames them closely


def test_joint_boxes_hold_a_morphed_skin(tmp_path, monkeypatch):
    monkeypatch.setattr(bounds_module, "POSE_BUDGET", 1)
    scene = load(minimal_animated().write_gltf(tmp_path, "minimal.gltf"))
    clip = scene.clips[0]
    times = np.union1d(clip.key_times, np.linspace(0.0, clip.duration, 32))
    exact_lo, exact_hi = _exact_clip_bounds(scene, clip, times)
    lo, hi = clip_bounds(scene, clip)
    assert (lo <= exact_lo + 1e-9).all() and (hi >= exact_hi - 1e-9).all()


def test_beyond_the_budget_skinned_clip_bounds_skin_no_vertex(tmp_path, monkeypatch):
    monkeypatch.setattr(bounds_module, "POSE_BUDGET", 100)
    scene = load(minimal_animated().write_gltf(tmp_path, "minimal.gltf"))
    monkeypatch.setattr(Pose, "primitive_positions", lambda *a: pytest.fail("skinned a vertex on the CPU"))
    nodes = scene.nodes
    assert (nodes.skin[nodes.mesh >= 0] >= 0).any()
    clip_bounds(scene, scene.clips[0])
