"""The scene model built from a validated file: nodes, hierarchy, rest TRS / matrix, meshes, skins, clips."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

from tests.gltf_builder import GltfBuilder, minimal_animated
from viewer import GltfWarning, Scene, load
from viewer.base import math3d

QUARTER_Z = [0.0, 0.0, math.sqrt(0.5), math.sqrt(0.5)]


@pytest.fixture
def minimal(tmp_path) -> Scene:
    return load(minimal_animated().write_gltf(tmp_path, "minimal.gltf"))


def test_nodes_hierarchy_and_order(minimal):
    nodes = minimal.nodes
    assert len(nodes) == 5
    assert nodes.names == ("root", "morphed", "joint0", "joint1", "skinned")
    np.testing.assert_array_equal(nodes.parent, [-1, 0, 0, 2, -1])
    np.testing.assert_array_equal(nodes.depth, [0, 1, 1, 2, 0])
    position = {int(n): i for i, n in enumerate(nodes.order)}
    assert sorted(position) == [0, 1, 2, 3, 4]
    for child, parent in enumerate(nodes.parent):
        if parent >= 0:
            assert position[int(parent)] < position[child]
    np.testing.assert_array_equal(minimal.roots, [0, 4])
    assert minimal.name == "minimal.gltf"


def test_rest_trs_and_local_matrices(minimal):
    nodes = minimal.nodes
    np.testing.assert_array_equal(nodes.translation[2], [0, 1, 0])
    np.testing.assert_array_equal(nodes.rotation, np.tile([0, 0, 0, 1], (5, 1)))
    np.testing.assert_array_equal(nodes.scale, np.ones((5, 3)))
    assert not nodes.has_matrix.any()
    np.testing.assert_allclose(nodes.matrix[3][:3, 3], [0, 1, 0])
    np.testing.assert_array_equal(nodes.mesh, [-1, 0, -1, -1, 1])
    np.testing.assert_array_equal(nodes.skin, [-1, -1, -1, -1, 0])
    np.testing.assert_array_equal(nodes.camera, [-1] * 5)


def test_meshes_and_morph_weights(minimal):
    morphed, skinned = minimal.meshes
    assert morphed.target_count == 2 and skinned.target_count == 0
    prim = morphed.primitives[0]
    np.testing.assert_allclose(prim.attributes["POSITION"], [[0, 0, 0], [1, 0, 0], [0, 1, 0]])
    np.testing.assert_allclose(prim.targets[0]["POSITION"], [[0, 0, 0], [0.5, 0, 0], [0, 0.5, 0]])
    np.testing.assert_array_equal(prim.indices, [0, 1, 2])
    assert prim.mode == 4
    np.testing.assert_array_equal(morphed.weights, [0, 0])
    np.testing.assert_array_equal(minimal.nodes.weights[1], [0, 0])  # from the mesh
    assert minimal.nodes.weights[0] is None
    sp = skinned.primitives[0]
    np.testing.assert_array_equal(sp.attributes["JOINTS_0"], [[0, 1, 0, 0]] * 3)
    np.testing.assert_allclose(sp.attributes["WEIGHTS_0"], [[0.5, 0.5, 0, 0]] * 3)


def test_skin_inverse_bind_matrices_in_math_convention(minimal):
    (skin,) = minimal.skins
    np.testing.assert_array_equal(skin.joints, [2, 3])
    assert skin.skeleton == 2
    assert skin.inverse_bind.shape == (2, 4, 4)
    np.testing.assert_allclose(skin.inverse_bind[0][:3, 3], [0, -1, 0])  # translation in the last column
    np.testing.assert_allclose(skin.inverse_bind[1][:3, 3], [0, -2, 0])
    np.testing.assert_allclose(skin.inverse_bind[:, 3], [[0, 0, 0, 1]] * 2)


def test_clip_channels_and_cubicspline_split(minimal):
    (clip,) = minimal.clips
    assert clip.name == "Anim" and clip.index == 0
    assert [(c.node, c.path, c.curve.interpolation, c.sampler) for c in clip.channels] == [
        (2, "translation", "LINEAR", 0),
        (3, "rotation", "CUBICSPLINE", 1),
        (1, "weights", "STEP", 2),
        (0, "scale", "LINEAR", 3),
    ]
    assert clip.duration == pytest.approx(2.0)
    np.testing.assert_array_equal(clip.key_times, [0, 0.5, 1, 2])
    rot = clip.channels[1].curve
    assert rot.rotation and not clip.channels[0].curve.rotation
    np.testing.assert_allclose(rot.values, [[0, 0, 0, 1], QUARTER_Z], atol=1e-7)
    np.testing.assert_array_equal(rot.in_tangents, np.zeros((2, 4)))
    np.testing.assert_array_equal(rot.out_tangents, np.zeros((2, 4)))
    w = clip.channels[2].curve
    assert w.values.shape == (3, 2) and w.in_tangents is None
    np.testing.assert_array_equal(w.values, [[0, 0], [1, 0], [0, 1]])
    assert clip.channels[2].width == 2 and clip.channels[1].width == 4


def test_cubicspline_weights_layout_in_tangents_values_out_tangents(tmp_path):
    """glTF: per key, the in-tangents of every target, then the values, then the out-tangents."""
    b = GltfBuilder()
    tri = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0]], np.float32)
    mesh = b.add_mesh(tri, targets=[tri, tri])
    b.add_node(mesh=mesh)
    flat = np.arange(12, dtype=np.float32)  # 2 keys × (in a,b | value a,b | out a,b)
    b.add_animation([dict(node=0, path="weights", times=[0, 1], values=flat, interpolation="CUBICSPLINE")])
    b.add_scene([0])
    curve = load(b.write_gltf(tmp_path)).clips[0].channels[0].curve
    np.testing.assert_array_equal(curve.in_tangents, [[0, 1], [6, 7]])
    np.testing.assert_array_equal(curve.values, [[2, 3], [8, 9]])
    np.testing.assert_array_equal(curve.out_tangents, [[4, 5], [10, 11]])


def test_node_matrix_is_read_column_major(tmp_path):
    m = math3d.compose_trs([1.0, 2.0, 3.0], math3d.quat_from_axis_angle([0, 1, 0], 0.5), [2.0, 2.0, 2.0])
    b = GltfBuilder()
    b.add_node(matrix=m.T.reshape(-1).tolist(), children=[1])  # glTF stores matrices column-major
    b.add_node(translation=[1.0, 0.0, 0.0])
    b.add_scene([0])
    scene = load(b.write_gltf(tmp_path))
    nodes = scene.nodes
    assert nodes.has_matrix.tolist() == [True, False]
    np.testing.assert_allclose(nodes.matrix[0], m, atol=1e-12)
    np.testing.assert_allclose(nodes.translation[0], [1, 2, 3], atol=1e-12)
    np.testing.assert_allclose(nodes.scale[0], [2, 2, 2], atol=1e-12)
    np.testing.assert_allclose(np.abs(nodes.rotation[0] @ math3d.quat_from_axis_angle([0, 1, 0], 0.5)), 1.0, atol=1e-12)


def test_node_weights_over_mesh_weights(tmp_path):
    b = GltfBuilder()
    tri = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0]], np.float32)
    with_weights = b.add_mesh(tri, targets=[tri, tri], weights=[0.1, 0.2])
    without = b.add_mesh(tri, targets=[tri, tri, tri])
    b.add_node(mesh=with_weights, weights=[0.3, 0.7])
    b.add_node(mesh=with_weights)
    b.add_node(mesh=without)
    b.add_scene([0, 1, 2])
    scene = load(b.write_gltf(tmp_path))
    np.testing.assert_allclose(scene.nodes.weights[0], [0.3, 0.7])
    np.testing.assert_allclose(scene.nodes.weights[1], [0.1, 0.2])
    np.testing.assert_allclose(scene.nodes.weights[2], [0, 0, 0])
    np.testing.assert_allclose(scene.meshes[0].weights, [0.1, 0.2])
    assert scene.meshes[1].target_count == 3


def test_without_scenes_roots_are_parentless_nodes(tmp_path):
    b = GltfBuilder()
    b.add_node(children=[2])
    b.add_node()
    b.add_node()
    scene = load(b.write_gltf(tmp_path))
    np.testing.assert_array_equal(scene.roots, [0, 1])


def test_cameras(tmp_path):
    b = GltfBuilder()
    b.add("cameras", {"type": "perspective", "perspective": {"yfov": 0.9, "znear": 0.1, "aspectRatio": 1.5}})
    b.add(
        "cameras",
        {"type": "orthographic", "name": "top", "orthographic": {"xmag": 2.0, "ymag": 3.0, "znear": 0.5, "zfar": 50.0}},
    )
    b.add_node(camera=0)
    b.add_node(camera=1)
    b.add_scene([0, 1])
    scene = load(b.write_gltf(tmp_path))
    persp, ortho = scene.cameras
    assert (persp.type, persp.yfov, persp.aspect, persp.znear, persp.zfar) == ("perspective", 0.9, 1.5, 0.1, None)
    assert (ortho.name, ortho.type, ortho.xmag, ortho.ymag, ortho.znear, ortho.zfar) == (
        "top",
        "orthographic",
        2.0,
        3.0,
        0.5,
        50.0,
    )
    np.testing.assert_array_equal(scene.nodes.camera, [0, 1])


def test_glb_and_gltf_give_the_same_scene(tmp_path):
    b = minimal_animated()
    a = load(b.write_gltf(tmp_path, "m.gltf"))
    g = load(b.write_glb(tmp_path / "m.glb"))
    np.testing.assert_array_equal(a.nodes.matrix, g.nodes.matrix)
    ts = np.linspace(-0.5, 2.5, 31)
    np.testing.assert_array_equal(a.clips[0].sample(ts), g.clips[0].sample(ts))


def test_unnamed_animation_gets_a_name(tmp_path):
    b = GltfBuilder()
    b.add_node()
    b.add_animation([dict(node=0, path="translation", times=[0, 1], values=[[0, 0, 0], [1, 1, 1]])])
    b.add_animation([dict(node=0, path="scale", times=[0, 3], values=[[1, 1, 1], [2, 2, 2]])], name="Grow")
    b.add_scene([0])
    scene = load(b.write_gltf(tmp_path))
    assert [c.name for c in scene.clips] == ["animation 0", "Grow"]
    assert [c.index for c in scene.clips] == [0, 1]
    assert scene.clips[1].duration == pytest.approx(3.0)


def test_channel_without_node_is_skipped(tmp_path):
    b = GltfBuilder()
    b.add_node()
    b.add_animation(
        [
            dict(node=None, path="translation", times=[0, 5], values=[[0, 0, 0], [1, 1, 1]]),
            dict(node=0, path="scale", times=[0, 1], values=[[1, 1, 1], [2, 2, 2]]),
        ]
    )
    b.add_scene([0])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", GltfWarning)
        scene = load(b.write_gltf(tmp_path))
    assert [(c.node, c.path) for c in scene.clips[0].channels] == [(0, "scale")]


def test_duplicate_channel_warnings_agree_on_the_winner(tmp_path):
    """Later channel wins (the issue's rule); no warning may claim the winning channel is ignored."""
    b = GltfBuilder()
    b.add_node()
    b.add_animation(
        [
            dict(node=0, path="translation", times=[0, 1], values=[[0, 0, 0], [1, 1, 1]]),
            dict(node=0, path="translation", times=[0, 1], values=[[5, 5, 5], [6, 6, 6]]),
        ]
    )
    b.add_scene([0])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        scene = load(b.write_gltf(tmp_path))
    messages = [str(w.message) for w in caught if issubclass(w.category, GltfWarning)]
    assert messages, "a duplicate channel must warn"
    (channel,) = scene.clips[0].channels
    assert channel.sampler == 1
    np.testing.assert_allclose(scene.clips[0].sample(1.0)[0, :3], [6, 6, 6])
    contradicting = [m for m in messages if "/channels/1" in m and "ignored" in m]
    assert not contradicting, f"warning says the winning channel is ignored: {contradicting}"


@pytest.mark.parametrize(
    "extras, names",
    [
        ({"targetNames": ["a", "b"]}, ("a", "b")),
        ({"targetNames": ["a"]}, ()),  # not one name per target
        ({"targetNames": ["a", 2]}, ()),
        ("just text", ()),  # extras may hold anything
        (None, ()),
    ],
)
def test_morph_target_names_come_from_extras_only_when_sound(tmp_path, extras, names):
    b = GltfBuilder()
    mesh = b.add_mesh(
        positions=[[0, 0, 0], [1, 0, 0], [0, 1, 0]],
        indices=[0, 1, 2],
        targets=[[[0, 0, 1]] * 3, [[0, 1, 0]] * 3],
        weights=[0.0, 0.0],
    )
    if extras is not None:
        b.doc["meshes"][mesh]["extras"] = extras
    b.add_node(mesh=mesh)
    b.add_scene([0])
    assert load(b.write_gltf(tmp_path)).meshes[0].target_names == names
