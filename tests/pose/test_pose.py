"""Pose: world = parent × T·R·S (or the node's matrix), joint matrices, morph weights, skinned points, bounds.

Expected numbers are worked out by hand in the comments (column vectors, p' = M p).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from tests.conftest import khronos_model
from tests.gltf_builder import GltfBuilder, minimal_animated
from viewer import Pose, load
from viewer.base import math3d
from viewer.pose.bounds import clip_bounds, pose_bounds

QUARTER_Z = [0.0, 0.0, math.sqrt(0.5), math.sqrt(0.5)]
TRIANGLE = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0]], np.float32)


@pytest.fixture
def minimal(tmp_path):
    return load(minimal_animated().write_gltf(tmp_path, "minimal.gltf"))


def origin(m) -> np.ndarray:
    return np.asarray(m)[:3, 3]


# -- hierarchy ---------------------------------------------------------------------------------------


def test_parent_translation_rotation_scale_then_child(tmp_path):
    b = GltfBuilder()
    b.add_node(translation=[10.0, 0, 0], rotation=QUARTER_Z, scale=[2.0, 2.0, 2.0], children=[1])
    b.add_node(translation=[1.0, 0, 0])
    b.add_scene([0])
    pose = Pose(load(b.write_gltf(tmp_path)))
    # child point (1,0,0): + child T → (2,0,0); parent S → (4,0,0); parent R (+90° z) → (0,4,0); parent T → (10,4,0)
    np.testing.assert_allclose(math3d.transform_points(pose.world[1], [1, 0, 0]), [10, 4, 0], atol=1e-6)
    np.testing.assert_allclose(origin(pose.world[1]), [10, 2, 0], atol=1e-6)


def test_parent_translation_and_child_rotation(tmp_path):
    b = GltfBuilder()
    b.add_node(translation=[0, 0, 5.0], children=[1])
    b.add_node(rotation=QUARTER_Z)
    b.add_scene([0])
    pose = Pose(load(b.write_gltf(tmp_path)))
    # (1,0,0) rotated +90° about z → (0,1,0), then moved by the parent → (0,1,5)
    np.testing.assert_allclose(math3d.transform_points(pose.world[1], [1, 0, 0]), [0, 1, 5], atol=1e-6)


def test_node_matrix_used_in_hierarchy(tmp_path):
    m = np.eye(4)
    m[:3, :3] = [[0, -1, 0], [1, 0, 0], [0, 0, 1]]  # +90° about z
    m[:3, 3] = [3, 0, 0]
    b = GltfBuilder()
    b.add_node(matrix=m.T.reshape(-1).tolist(), children=[1])
    b.add_node(translation=[1.0, 0, 0])
    b.add_scene([0])
    pose = Pose(load(b.write_gltf(tmp_path)))
    np.testing.assert_allclose(pose.world[0], m, atol=1e-12)
    # child origin (1,0,0) in the parent's frame → rotated (0,1,0) → + (3,0,0)
    np.testing.assert_allclose(origin(pose.world[1]), [3, 1, 0], atol=1e-12)


def test_rest_pose_of_minimal(minimal):
    pose = Pose(minimal)
    np.testing.assert_allclose(origin(pose.world[2]), [0, 1, 0], atol=1e-12)
    np.testing.assert_allclose(origin(pose.world[3]), [0, 2, 0], atol=1e-12)
    for j in pose.joint_matrices(0):  # bind pose: world(joint) × IBM = identity
        np.testing.assert_allclose(j, np.eye(4), atol=1e-7)


def test_animated_world_at_t1(minimal):
    pose = Pose(minimal)
    pose.set_time(minimal.clips[0], 1.0)
    # t = 1: root scale 2, joint0 translation (1,1,0), joint1 rotation +90° z (the CUBICSPLINE's last key)
    np.testing.assert_allclose(pose.scale[0], [2, 2, 2], atol=1e-7)
    np.testing.assert_allclose(pose.translation[2], [1, 1, 0], atol=1e-7)
    np.testing.assert_allclose(np.abs(pose.rotation[3]), np.abs(QUARTER_Z), atol=1e-7)
    # joint1 origin: S2 · ((1,1,0) + (0,1,0)) = (2,4,0)
    np.testing.assert_allclose(origin(pose.world[3]), [2, 4, 0], atol=1e-6)
    # joint1's x axis after its +90° z rotation points along +y, scaled by 2
    np.testing.assert_allclose(pose.world[3][:3, 0], [0, 2, 0], atol=1e-6)


def test_set_time_none_and_reset_restore_rest(minimal):
    pose = Pose(minimal)
    rest = pose.world.copy()
    pose.set_time(minimal.clips[0], 1.0)
    assert not np.allclose(pose.world, rest)
    pose.set_time(None, 0.0)
    np.testing.assert_allclose(pose.world, rest, atol=1e-12)
    np.testing.assert_allclose(pose.node_weights(1), [0, 0])


def test_apply_starts_from_rest_each_time(minimal):
    """Values of an earlier time never leak into a later one (every set_time starts from the rest pose)."""
    clip = minimal.clips[0]
    a, b = Pose(minimal), Pose(minimal)
    a.set_time(clip, 1.0)
    a.set_time(clip, 0.25)
    b.set_time(clip, 0.25)
    np.testing.assert_allclose(a.world, b.world, atol=1e-12)


# -- skinning and morphs ------------------------------------------------------------------------------


def test_joint_matrices_are_world_times_inverse_bind(minimal):
    pose = Pose(minimal)
    pose.set_time(minimal.clips[0], 1.0)
    skin = minimal.skins[0]
    joints = pose.joint_matrices(0)
    for k, node in enumerate(skin.joints):
        np.testing.assert_allclose(joints[k], pose.world[node] @ skin.inverse_bind[k], atol=1e-12)
    # joint0: S2 · T(1,1,0) · T(0,−1,0) = S2 · T(1,0,0)
    expected0 = np.diag([2.0, 2.0, 2.0, 1.0])
    expected0[:3, 3] = [2, 0, 0]
    np.testing.assert_allclose(joints[0], expected0, atol=1e-6)


def test_skinned_positions_by_hand_and_mesh_node_transform_ignored(tmp_path):
    b = minimal_animated()
    b.doc["nodes"][4]["translation"] = [100.0, 0.0, 0.0]  # glTF §3.7.3: ignored for a skinned mesh
    scene = load(b.write_gltf(tmp_path))
    pose = Pose(scene)
    pose.set_time(scene.clips[0], 1.0)
    prim = scene.meshes[1].primitives[0]
    got = pose.primitive_positions(4, prim)
    # J0 v = S2·T(1,0,0) v;  J1 v = S2·T(1,1,0)·T(0,1,0)·Rz90·T(0,−2,0) v;  half of each.
    #   (0,0,0): J0 → (2,0,0), J1 → (6,4,0)  ⇒ (4,2,0)
    #   (1,0,0): J0 → (4,0,0), J1 → (6,6,0)  ⇒ (5,3,0)
    #   (0,1,0): J0 → (2,2,0), J1 → (4,4,0)  ⇒ (3,3,0)
    np.testing.assert_allclose(got, [[4, 2, 0], [5, 3, 0], [3, 3, 0]], atol=1e-5)


def test_skinned_positions_at_rest_are_bind_positions(minimal):
    pose = Pose(minimal)
    np.testing.assert_allclose(pose.primitive_positions(4, minimal.meshes[1].primitives[0]), TRIANGLE, atol=1e-6)


def test_morph_weights_animate_and_move_vertices(minimal):
    pose = Pose(minimal)
    clip = minimal.clips[0]
    prim = minimal.meshes[0].primitives[0]
    pose.set_time(clip, 0.5)  # STEP at exactly 0.5: key 1 → weights (1, 0)
    np.testing.assert_allclose(pose.node_weights(1), [1, 0])
    # position + 1 × (0.5 × position) = 1.5 × position; root scale at 0.5 is 1.5 → 2.25 × position
    np.testing.assert_allclose(pose.primitive_positions(1, prim), 2.25 * TRIANGLE, atol=1e-6)
    pose.set_time(clip, 0.25)
    np.testing.assert_allclose(pose.node_weights(1), [0, 0])
    np.testing.assert_allclose(pose.primitive_positions(1, prim), 1.25 * TRIANGLE, atol=1e-6)
    pose.set_time(clip, 1.0)  # weights (0, 1): position − 0.5 × position, root scale 2
    np.testing.assert_allclose(pose.primitive_positions(1, prim), 1.0 * TRIANGLE, atol=1e-6)


def test_node_weights_over_mesh_weights_in_pose(tmp_path):
    b = GltfBuilder()
    mesh = b.add_mesh(TRIANGLE, targets=[TRIANGLE, -TRIANGLE], weights=[0.25, 0.5])
    b.add_node(mesh=mesh, weights=[1.0, 0.0])
    b.add_node(mesh=mesh, translation=[10.0, 0, 0])
    b.add_scene([0, 1])
    scene = load(b.write_gltf(tmp_path))
    pose = Pose(scene)
    np.testing.assert_allclose(pose.node_weights(0), [1.0, 0.0])
    np.testing.assert_allclose(pose.node_weights(1), [0.25, 0.5])
    prim = scene.meshes[0].primitives[0]
    np.testing.assert_allclose(pose.primitive_positions(0, prim), 2.0 * TRIANGLE, atol=1e-6)
    np.testing.assert_allclose(pose.primitive_positions(1, prim), 0.75 * TRIANGLE + [10, 0, 0], atol=1e-6)
    # bounds over both: lo (0,0,0), hi (10.75, 2, 0)
    lo, hi = pose_bounds(pose)
    np.testing.assert_allclose(lo, [0, 0, 0], atol=1e-6)
    np.testing.assert_allclose(hi, [10.75, 2, 0], atol=1e-6)


def test_bounds_of_minimal_at_rest_and_t1(minimal):
    pose = Pose(minimal)
    lo, hi = pose_bounds(pose)
    np.testing.assert_allclose(lo, [0, 0, 0], atol=1e-6)
    np.testing.assert_allclose(hi, [1, 1, 0], atol=1e-6)
    pose.set_time(minimal.clips[0], 1.0)
    lo, hi = pose_bounds(pose)
    # morphed triangle back to unit size; skinned triangle at (4,2,0), (5,3,0), (3,3,0)
    np.testing.assert_allclose(lo, [0, 0, 0], atol=1e-5)
    np.testing.assert_allclose(hi, [5, 3, 0], atol=1e-5)


def test_clip_bounds_contain_every_sampled_pose(minimal):
    clip = minimal.clips[0]
    lo, hi = clip_bounds(minimal, clip)
    pose = Pose(minimal)
    for t in np.linspace(0, clip.duration, 17):
        pose.set_time(clip, float(t))
        a, b = pose_bounds(pose)
        assert np.all(lo <= a + 1e-9) and np.all(b <= hi + 1e-9), t


def test_bounds_of_a_scene_without_meshes(tmp_path):
    b = GltfBuilder()
    b.add_node()
    b.add_scene([0])
    lo, hi = pose_bounds(Pose(load(b.write_gltf(tmp_path))))
    np.testing.assert_array_equal(lo, [0, 0, 0])
    np.testing.assert_array_equal(hi, [0, 0, 0])


# -- a real model ----------------------------------------------------------------------------------


def _skinned_bounds(scene, pose):
    pts = []
    for node in np.flatnonzero(scene.nodes.skin >= 0):
        for prim in scene.meshes[scene.nodes.mesh[node]].primitives:
            pts.append(pose.primitive_positions(int(node), prim))
    pts = np.concatenate(pts)
    return pts.min(axis=0), pts.max(axis=0)


def test_fox_pose_at_one_second_is_finite_and_plausible():
    scene = load(khronos_model("Fox"))
    pose = Pose(scene)
    rest_lo, rest_hi = _skinned_bounds(scene, pose)
    rest_extent = rest_hi - rest_lo
    assert np.all(rest_extent > 10.0), rest_extent  # about 25 × 80 × 155 units in bind pose
    for clip in scene.clips:
        pose.set_time(clip, 1.0)
        assert np.all(np.isfinite(pose.world))
        joints = pose.joint_matrices(0)
        assert joints.shape == (24, 4, 4) and np.all(np.isfinite(joints))
        # rotations stay rotations: the upper 3×3 of every world matrix has a positive determinant
        assert np.all(np.linalg.det(pose.world[:, :3, :3]) > 0)
        lo, hi = _skinned_bounds(scene, pose)
        extent = hi - lo
        assert np.all(np.isfinite(extent))
        # the fox stays a fox-sized thing: no axis collapses or explodes against its bind pose
        assert np.all(extent > 0.3 * rest_extent), (clip.name, extent, rest_extent)
        assert np.all(extent < 3.0 * rest_extent + 1e-6), (clip.name, extent, rest_extent)
