"""Pose on hierarchies of any depth and on values the GPU cannot draw (issue: hostile and extreme files).

World matrices are composed by a plan (``hierarchy.world_steps``): level by level, or by pointer jumping
for deep chains; both must give the same products. Transforms that overflow float32 or become NaN
are reported once per node with its JSON pointer, never silently.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from tests import extreme_files
from tests.gltf_builder import GltfBuilder, minimal_animated
from viewer import GltfWarning, Pose, load
from viewer.base import math3d
from viewer.pose.hierarchy import block_steps, compose_world, jump_steps, level_steps, world_steps


def _random_forest(rng, n: int) -> np.ndarray:
    """Parent of each node (−1 for roots); parents come in any index order, as in files."""
    perm = rng.permutation(n)
    parent = np.full(n, -1)
    for k in range(1, n):
        if rng.random() < 0.9:
            parent[perm[k]] = perm[rng.integers(0, k)]
    return parent


def _depths(parent: np.ndarray) -> np.ndarray:
    depth = np.zeros(len(parent), dtype=np.int64)
    for i in range(len(parent)):
        j = parent[i]
        while j >= 0:
            depth[i] += 1
            j = parent[j]
    return depth


def _world_by_walking(local: np.ndarray, parent: np.ndarray) -> np.ndarray:
    world = np.empty_like(local)
    for i in range(len(parent)):
        m, j = local[i], parent[i]
        while j >= 0:
            m, j = local[j] @ m, parent[j]
        world[i] = m
    return world


@pytest.mark.parametrize("seed", range(6))
def test_every_plan_gives_the_world_of_the_definition(seed):
    rng = np.random.default_rng(seed)
    parent = _random_forest(rng, int(rng.integers(1, 60)))
    depth = _depths(parent)
    n = len(parent)
    local = math3d.compose_trs(
        rng.normal(size=(n, 3)), math3d.quat_normalize(rng.normal(size=(n, 4))), rng.uniform(0.5, 1.5, size=(n, 3))
    )
    expected = _world_by_walking(local, parent)
    plans = {"chosen": world_steps(parent, depth), "levels": level_steps(parent, depth), "jumps": jump_steps(parent)}
    for block in (1, 2, 3, 5, 64):
        plans[f"blocks of {block}"] = block_steps(parent, depth, block)
    for name, plan in plans.items():
        np.testing.assert_allclose(compose_world(local, plan), expected, atol=1e-9, err_msg=name)
    # batch axes (F frames) are carried along
    batch = np.stack([local, local])
    np.testing.assert_allclose(compose_world(batch, plans["jumps"])[1], expected, atol=1e-9)
    np.testing.assert_allclose(compose_world(batch, plans["blocks of 3"])[1], expected, atol=1e-9)


def test_a_deep_chain_with_branches_is_composed_in_blocks():
    """Deep hierarchies take the blocked plan: about 2·√depth steps, each node touched about twice (a 54 000-deep
    chain took 226 ms a pose level by level, 139 ms by pointer jumping, 12 ms in blocks), with the same worlds."""
    rng = np.random.default_rng(7)
    n = 3000
    parent = np.arange(-1, n - 1)
    branch = rng.choice(np.arange(1, n), size=300, replace=False)
    parent[branch] = rng.integers(0, branch)  # side branches off the chain
    depth = _depths(parent)
    plan = world_steps(parent, depth)
    assert len(plan) < 4 * np.sqrt(depth.max() + 1), len(plan)
    assert sum(len(dst) for dst, _ in plan) < 3 * n
    local = math3d.compose_trs(
        rng.normal(size=(n, 3)) * 0.01, math3d.quat_normalize(rng.normal(size=(n, 4))), np.ones((n, 3))
    )
    np.testing.assert_allclose(compose_world(local, plan), _world_by_walking(local, parent), atol=1e-9)


def test_a_30000_deep_chain_loads_samples_and_poses(tmp_path):
    scene = load(extreme_files.chain(30000).write_gltf(tmp_path, "chain.gltf"))
    assert scene.nodes.depth.max() == 29999
    pose = Pose(scene)
    pose.set_time(scene.clips[0], 0.5)
    np.testing.assert_allclose(pose.world[-1][:3, 3], [2.5, 29999.0, 0.0], atol=1e-6)
    np.testing.assert_allclose(pose.world[1000][:3, 3], [2.5, 1000.0, 0.0], atol=1e-6)


def test_a_100000_node_file_loads_samples_and_poses(tmp_path):
    n = 100_000
    scene = load(extreme_files.wide(n).write_gltf(tmp_path, "wide.gltf"))
    pose = Pose(scene)
    pose.set_time(scene.clips[0], 1.0)
    np.testing.assert_allclose(pose.world[n - 1][:3, 3], [n - 1, 2.0, 0.0])


def _one_node(tmp_path, **node):
    b = GltfBuilder()
    root = b.add_node(children=[1], **node)
    b.add_node(mesh=b.add_mesh(positions=[[0, 0, 0], [1, 0, 0], [0, 1, 0]], indices=[0, 1, 2]))
    b.add_scene([root])
    return load(b.write_gltf(tmp_path, "one.gltf"))


@pytest.mark.parametrize(
    "node",
    [
        dict(translation=[1e300, 0, 0]),
        dict(translation=[3.5e38, 0, 0]),
        dict(scale=[1e200, 1e200, 1e200]),
        dict(matrix=[1e300] * 16),
    ],
)
def test_overflowing_world_matrices_are_warned_once_with_the_node(tmp_path, node):
    scene = _one_node(tmp_path, **node)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        pose = Pose(scene)
        pose.update_world()
        pose.update_world()
    messages = [str(w.message) for w in caught if issubclass(w.category, GltfWarning)]
    assert any(":/nodes/0:" in m for m in messages) and any(":/nodes/1:" in m for m in messages), messages
    assert len(messages) == len(set(messages)) == 2, messages  # once each, however often posed
    assert not [w for w in caught if issubclass(w.category, RuntimeWarning)]


def test_huge_rest_rotation_is_a_rotation(tmp_path):
    scene = _one_node(tmp_path, rotation=[0.0, 0.0, 1e300, 1e300])
    with warnings.catch_warnings():
        warnings.simplefilter("error", GltfWarning)
        pose = Pose(scene)
    np.testing.assert_allclose(pose.world[0][:3, :3] @ [1, 0, 0], [0, 1, 0], atol=1e-12)


def test_nan_inverse_bind_matrix_is_warned_with_its_pointer(tmp_path):
    b = minimal_animated()
    raw = b.to_dict()
    ibm_accessor = raw["accessors"][raw["skins"][0]["inverseBindMatrices"]]
    view = raw["bufferViews"][ibm_accessor["bufferView"]]
    data = bytearray(b.bin_bytes())
    data[view.get("byteOffset", 0) : view.get("byteOffset", 0) + 4] = np.float32(np.nan).tobytes()
    from tests.gltf_builder import write_gltf

    path = write_gltf(raw, bytes(data), tmp_path, "nan_ibm.gltf")
    with pytest.warns(GltfWarning, match="/skins/0/inverseBindMatrices"):
        scene = load(path)
    pose = Pose(scene)
    with pytest.warns(GltfWarning, match=":/skins/0: joint matrices are not finite"):
        pose.joint_matrices(0)
