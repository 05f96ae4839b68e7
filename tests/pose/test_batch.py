"""``pose.batch`` poses many times at once; it must be ``Pose.set_time`` + ``primitive_positions`` (the CPU
reference the GPU's skinning and morph pictures are tested against) at every one of them."""

from __future__ import annotations

import numpy as np
import pytest

from tests.conftest import khronos_model, khronos_model_names
from viewer.pose.batch import MeshPoints, pose_batch
from viewer.pose.pose import Pose
from viewer.scene.scene import load


@pytest.mark.parametrize("name", khronos_model_names())
def test_batch_equals_posing_one_time_after_another(name):
    scene = load(khronos_model(name))
    if not scene.clips:
        pytest.skip("no animation")
    pose = Pose(scene)
    for clip in scene.clips[:2]:
        times = np.linspace(0.0, clip.duration, 5)
        batch = pose_batch(pose, clip, times)
        meshes = [int(n) for n in np.flatnonzero(scene.nodes.mesh >= 0)]
        points = {n: MeshPoints(pose, n).at(batch) for n in meshes}
        for f, t in enumerate(times):
            pose.set_time(clip, t)
            np.testing.assert_allclose(batch.world[f], pose.world, rtol=1e-12, atol=1e-12 * np.abs(pose.world).max())
            assert (batch.visible[f] == pose.visible).all()
            for n in meshes:
                prims = scene.meshes[scene.nodes.mesh[n]].primitives
                ref = np.concatenate([pose.primitive_positions(n, p) for p in prims if "POSITION" in p.attributes])
                np.testing.assert_allclose(points[n][f], ref, rtol=0, atol=1e-9 * max(1.0, np.abs(ref).max()))
                if pose.weights[n] is not None:
                    np.testing.assert_array_equal(batch.node_weights(n)[f], pose.weights[n])


def test_a_subset_of_vertices_is_those_rows_of_the_whole():
    scene = load(khronos_model("Fox"))
    pose, clip = Pose(scene), scene.clips[1]
    node = int(np.flatnonzero(scene.nodes.mesh >= 0)[0])
    batch = pose_batch(pose, clip, np.array([0.1, 0.4]))
    pick = np.array([0, 7, 500, 1727])
    whole, part = MeshPoints(pose, node).at(batch), MeshPoints(pose, node, pick).at(batch)
    np.testing.assert_array_equal(part, whole[:, pick])
