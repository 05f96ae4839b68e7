"""The compiled frame kernel against the numpy reference: same values (to 1e-12 of their magnitude) for
sampling, TRS, weights, visibility, world and joint matrices and pointer properties, on every shared model
in every mode and on generated rigs of 1 to 10 000 nodes, 10 000 deep."""

from __future__ import annotations

import numpy as np
import pytest

from tests.conftest import khronos_model, khronos_model_names
from tests.gltf_builder import GltfBuilder, minimal_animated
from viewer import fast
from viewer.animation.modes import MODES
from viewer.pose.pose import Pose
from viewer.scene import scene as scene_mod

pytest.importorskip("numba")
TOLERANCE = 1e-12


@pytest.fixture
def kernel():
    """The kernels in use for one test, the numpy path again afterwards."""
    fast.use(True)
    assert fast.active() is not None, fast.state()
    yield fast.active()
    fast.use(False)


def _close(a, b) -> bool:
    a, b = np.asarray(a, np.float64), np.asarray(b, np.float64)
    scale = max(1.0, float(np.abs(a[np.isfinite(a)]).max(initial=0.0)))
    same_nan = np.array_equal(np.isnan(a), np.isnan(b))
    finite = np.isfinite(a) & np.isfinite(b)
    return (
        same_nan
        and np.array_equal(np.isinf(a), np.isinf(b))
        and bool(np.all(np.abs(a[finite] - b[finite]) <= TOLERANCE * scale))
    )


def _times(clip) -> np.ndarray:
    keys = clip.key_times
    mids = (keys[1:] + keys[:-1]) / 2 if len(keys) > 1 else keys
    return np.concatenate([[-1.0, 0.0], keys, mids, [clip.duration + 0.5]])


def _pose_state(pose: Pose, scene) -> dict:
    return {
        "trs": pose.trs.copy(),
        "weights": pose.weights_flat.copy(),
        "world": pose.world.copy(),
        "visible": pose.visible.copy(),
        "drawable": pose.drawable.copy(),
        "joints": [pose.joint_matrices(s).copy() for s in range(len(scene.skins))],
        "properties": {k: {f: v.copy() for f, v in d.items()} for k, d in pose.properties.items()},
    }


def _run(scene, clip, mode, times, on: bool) -> list[dict]:
    fast.use(on)
    pose = Pose(scene)
    out = []
    for t in times.tolist():
        pose.set_time(clip, t, mode)
        out.append(_pose_state(pose, scene))
    return out


def _assert_same(scene, clip, mode, times) -> None:
    reference = _run(scene, clip, mode, times, False)
    compiled = _run(scene, clip, mode, times, True)
    for t, a, b in zip(times, reference, compiled):
        for key in ("trs", "weights", "world"):
            assert _close(a[key], b[key]), (clip.name, mode, t, key)
        assert np.array_equal(a["visible"], b["visible"]) and np.array_equal(a["drawable"], b["drawable"])
        for ja, jb in zip(a["joints"], b["joints"]):
            assert _close(ja, jb), (clip.name, mode, t, "joints")
        assert a["properties"].keys() == b["properties"].keys()
        for k in a["properties"]:
            for f in a["properties"][k]:
                assert _close(a["properties"][k][f], b["properties"][k][f]), (k, f)
    # sampling alone: one time and many
    fast.use(False)
    ref_one, ref_many = [clip.sample(t, mode) for t in times.tolist()], clip.sample(times, mode)
    fast.use(True)
    for t, r in zip(times.tolist(), ref_one):
        assert _close(r, clip.sample(t, mode)), (clip.name, mode, t, "sample")
    assert _close(ref_many, clip.sample(times, mode)), (clip.name, mode, "batch")


@pytest.mark.parametrize("name", khronos_model_names())
def test_every_shared_model_in_every_mode(kernel, name):
    scene = scene_mod.load(khronos_model(name))
    assert scene.clips, name
    for clip in scene.clips:
        for mode in MODES:
            _assert_same(scene, clip, mode, _times(clip))


def test_minimal_file_with_skin_morph_and_every_interpolation(kernel, tmp_path):
    scene = scene_mod.load(minimal_animated().write_gltf(tmp_path))
    for mode in MODES:
        _assert_same(scene, scene.clips[0], mode, np.linspace(-0.5, 2.5, 61))


def _rig(n: int, depth: int, seed: int) -> GltfBuilder:
    """n nodes: a chain ``depth`` deep, the rest hung on random earlier nodes; random rest TRS, some nodes
    with a rest ``matrix``; rotation, translation and scale channels on a random subset (mixed
    interpolations and key times)."""
    rng = np.random.default_rng(seed)
    parent = np.full(n, -1)
    parent[1:depth] = np.arange(depth - 1)
    if n > depth:
        parent[depth:] = rng.integers(0, np.arange(depth, n))
    children = [[] for _ in range(n)]
    for c, p in enumerate(parent.tolist()):
        if p >= 0:
            children[p].append(c)
    b = GltfBuilder()
    for i in range(n):
        node = {"children": children[i]} if children[i] else {}
        if i % 7 == 3:
            m = np.eye(4)
            m[:3, 3] = rng.normal(size=3) * 0.1
            node["matrix"] = m.T.reshape(-1).tolist()
        else:
            q = rng.normal(size=4)
            node.update(
                translation=(rng.normal(size=3) * 0.1).tolist(),
                rotation=(q / np.linalg.norm(q)).tolist(),
                scale=(1.0 + 0.01 * rng.normal(size=3)).tolist(),
            )
        b.add_node(**node)
    channels = []
    trs_nodes = np.array([i for i in range(n) if i % 7 != 3])  # glTF animates only TRS nodes
    for i in rng.choice(trs_nodes, size=min(len(trs_nodes), 300), replace=False).tolist():
        keys = np.sort(rng.uniform(0, 2, size=int(rng.integers(1, 6))))
        keys = np.unique(np.round(keys, 3))
        q = rng.normal(size=(len(keys), 4))
        interpolation = ("LINEAR", "STEP", "CUBICSPLINE")[i % 3]
        for path, values in (
            ("rotation", q / np.linalg.norm(q, axis=1, keepdims=True)),
            ("translation", rng.normal(size=(len(keys), 3)) * 0.1),
            ("scale", 1.0 + 0.1 * rng.normal(size=(len(keys), 3))),
        ):
            if interpolation == "CUBICSPLINE":
                tangents = rng.normal(size=values.shape) * 0.1
                values = np.stack([tangents, values, tangents], axis=1).reshape(-1, values.shape[1])
            channels.append(
                dict(node=i, path=path, times=keys.tolist(), values=values.tolist(), interpolation=interpolation)
            )
    b.add_animation(channels, name="rig")
    b.add_scene([int(r) for r in np.flatnonzero(parent < 0)])
    return b


@pytest.mark.parametrize("n, depth", [(1, 1), (2, 2), (25, 5), (1350, 12), (10_000, 40), (10_000, 10_000)])
def test_generated_rigs_of_every_size_and_depth(kernel, tmp_path, n, depth):
    scene = scene_mod.load(_rig(n, depth, seed=n + depth).write_gltf(tmp_path, embed=True))
    clip = scene.clips[0]
    times = np.array([-0.1, 0.0, 0.37, 1.0, 1.51, 2.5])
    for mode in ("authored", "linear", "catmull-rom"):
        _assert_same(scene, clip, mode, times)


def test_overflow_is_undrawable_and_warned_as_on_the_numpy_path(kernel, tmp_path):
    b = GltfBuilder()
    b.add_node(children=[1], scale=[1e30, 1e30, 1e30])
    b.add_node(translation=[0.0, 0.0, 0.0])
    b.add_animation([dict(node=1, path="translation", times=[0, 1], values=[[0, 0, 0], [1e20, 0, 0]])])
    b.add_scene([0])
    scene = scene_mod.load(b.write_gltf(tmp_path))
    _assert_same(scene, scene.clips[0], "authored", np.array([0.0, 1.0]))
    fast.use(True)
    pose = Pose(scene_mod.load(tmp_path / "model.gltf"))  # warnings are once per scene: a fresh one
    with pytest.warns(Warning, match="/nodes/1"):
        pose.set_time(pose.scene.clips[0], 1.0)
    assert not pose.drawable[1]


def test_a_nonfinite_time_is_refused_as_on_the_numpy_path(kernel, tmp_path):
    scene = scene_mod.load(minimal_animated().write_gltf(tmp_path))
    with pytest.raises(ValueError, match="finite"):
        Pose(scene).set_time(scene.clips[0], float("nan"))


def test_not_started_means_numpy(tmp_path):
    fast.use(False)
    assert fast.active() is None


def _fresh(code: str, **env) -> str:
    import os
    import subprocess
    import sys

    from tests.conftest import REPO_ROOT

    proc = subprocess.run(
        [sys.executable, "-c", code],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, **env},
    )
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.strip()


def test_started_in_the_background_the_kernel_takes_over_the_pose(tmp_path):
    path = minimal_animated().write_gltf(tmp_path)
    out = _fresh(f"""
from viewer import fast
from viewer.scene import scene
from viewer.pose.pose import Pose
s = scene.load({str(path)!r}); pose = Pose(s)
print(fast.label())
pose.set_time(s.clips[0], 0.5)
assert not pose._plans  # numpy until started
fast.start()
assert fast.wait(600), fast.state()
pose.set_time(s.clips[0], 0.5)
print(fast.label(), len(pose._plans))
""")
    assert out.splitlines() == ["numpy", "compiled 1"]


def test_animview_kernel_numpy_keeps_the_numpy_path():
    out = _fresh(
        "from viewer import fast; fast.start(); fast.wait(); print(fast.label(), '|', fast.state())",
        ANIMVIEW_KERNEL="numpy",
    )
    assert out == "numpy | numpy (ANIMVIEW_KERNEL=numpy)"


def test_slerp_over_a_huge_key_span(kernel, tmp_path):
    b = GltfBuilder()
    b.add_node()
    b.add_animation([dict(node=0, path="rotation", times=[0.0, 3e38], values=[[0, 0, 0, 1], [0, 0, 1e-9, 1]])])
    b.add_scene([0])
    scene = scene_mod.load(b.write_gltf(tmp_path))
    _assert_same(scene, scene.clips[0], "authored", np.array([0.0, 1e20, 1.5e38, 3e38]))


def test_rotations_lerped_above_a_threshold_agree(kernel, tmp_path):
    """``Curve.lerp_above`` (engines that blend nearly equal keys component-wise) writes polynomial rows among
    slerp rows of one channel: the kernels read them as the numpy path does, one time and many."""
    from viewer.animation.clip import Channel, Clip
    from viewer.animation.modes import Curve
    from viewer.base import math3d

    scene = scene_mod.load(minimal_animated().write_gltf(tmp_path))
    turns = [math3d.quat_from_axis_angle([0, 0, 1], a) for a in (0.0, 0.1, 2.0, 2.05)]
    for threshold in (-1.0, 0.5, 0.99, 1.0):
        curve = Curve(np.array([0.0, 0.5, 1.0, 1.5]), np.stack(turns), None, None, True, "LINEAR", lerp_above=threshold)
        clip = Clip("lerped", 0, [Channel(3, "rotation", curve), *scene.clips[0].channels[:1]])
        _assert_same(scene, clip, "authored", _times(clip))
