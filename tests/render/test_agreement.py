"""The GPU's skinning and morphing agree with the CPU reference (``pose.primitive_positions``), in pixels.

Method: the renderer's ``debug_vertex_ids`` pass draws every vertex as a 1-pixel point with the same
vertex shader as the picture (only the fragment stage differs: it writes the vertex index as a
colour). A 1-pixel point lands on the pixel whose square contains its projected position, so every
vertex found in the image must sit within half a pixel (per axis) of the CPU-skinned position
projected with the same camera. Vertices hidden behind others are simply not found; each test also
requires that enough are found, and that the check would catch a pose off by a fraction of a second.
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.conftest import khronos_model
from tests.gltf_builder import GltfBuilder
from tests.render.conftest import decode_vertex_ids, gl_error, project
from viewer import export
from viewer.render.renderer import RenderOptions
from viewer.render.shaders import read_source
from viewer.scene.scene import load

SIZE = (320, 240)
HALF_PIXEL = 0.5 + 1 / 128  # rasterizers snap vertices to a sub-pixel grid (llvmpipe: 1/256 px)


def gpu_vs_cpu(gl, scene, clip, t: float) -> list[dict]:
    """Per draw: vertices found, how many there are, and the largest pixel error against the CPU."""
    view = export.View(size=SIZE, samples=0, options=RenderOptions(debug_vertex_ids=True))
    off = export.Offscreen(scene, clip, view, gl.ctx, gl.programs)
    try:
        rgba = off.frame(t, components=4)
        v, p = off.camera.matrices(off.pose, SIZE[0] / SIZE[1])
        ys, xs, ids, draws = decode_vertex_ids(rgba)
        out = []
        for number, item in enumerate(off.renderer.items):
            cpu = off.pose.primitive_positions(item.node, item.primitive.source)
            sel = draws == number
            px = project(cpu, v, p, SIZE)[ids[sel]]
            err = np.abs(np.stack([xs[sel] + 0.5, ys[sel] + 0.5], axis=1) - px)
            out.append(
                dict(
                    found=len(np.unique(ids[sel])),
                    count=len(cpu),
                    max_err=float(err.max(initial=0.0)),
                    xs=xs[sel],
                    ys=ys[sel],
                    ids=ids[sel],
                    item=item,
                    view=v,
                    proj=p,
                    pose=off.pose,
                )
            )
        assert gl_error(gl) == "GL_NO_ERROR"
        return out
    finally:
        off.release()


def assert_agree(results: list[dict], min_found: int = 8) -> None:
    for r in results:
        assert r["found"] >= min(min_found, r["count"]), f"only {r['found']} of {r['count']} vertices visible"
        assert r["max_err"] <= HALF_PIXEL, f"GPU vertex {r['max_err']:.4f} px from the CPU position"


def test_debug_pass_uses_the_pictures_vertex_shader():
    """DEBUG_VERTEX_ID may switch only the fragment stage, so the check covers the picture's vertex code."""
    source = read_source("mesh.glsl")
    vertex_part = source.split("#elif defined FRAGMENT_SHADER")[0]
    assert "DEBUG_VERTEX_ID" not in vertex_part.split("#if defined VERTEX_SHADER", 1)[1]


@pytest.mark.parametrize("clip_name,t", [("Walk", 0.3), ("Survey", 1.9), ("Run", 0.55)])
def test_fox_skinning_gpu_matches_cpu(gl, clip_name, t):
    scene = load(khronos_model("Fox"))
    clip = next(c for c in scene.clips if c.name == clip_name)
    (r,) = gpu_vs_cpu(gl, scene, clip, t)
    assert r["found"] > 200
    assert_agree([r])


def test_rigged_figure_skinning_gpu_matches_cpu(gl):
    scene = load(khronos_model("RiggedFigure"))
    results = gpu_vs_cpu(gl, scene, scene.clips[0], 0.6)
    assert_agree(results, min_found=60)


def test_the_check_would_catch_a_wrong_pose(gl):
    """Against CPU positions 0.15 s later, most visible Fox vertices are off by more than a pixel."""
    scene = load(khronos_model("Fox"))
    clip = next(c for c in scene.clips if c.name == "Walk")
    (r,) = gpu_vs_cpu(gl, scene, clip, 0.3)
    pose = r["pose"]
    pose.set_time(clip, 0.45)
    other = project(pose.primitive_positions(r["item"].node, r["item"].primitive.source), r["view"], r["proj"], SIZE)
    err = np.abs(np.stack([r["xs"] + 0.5, r["ys"] + 0.5], axis=1) - other[r["ids"]]).max(axis=1)
    assert (err > 1.0).mean() > 0.3


@pytest.mark.parametrize(
    "model,clip_index,t",
    [
        ("AnimatedMorphCube", 0, 1.5),
        ("AnimatedMorphSphere", 0, 2.0),
        ("MorphStressTest", 0, 2.0),
        ("MorphStressTest", 1, 1.0),
        ("SimpleMorph", 0, 1.5),
    ],
)
def test_morph_targets_gpu_match_cpu(gl, model, clip_index, t):
    scene = load(khronos_model(model))
    results = gpu_vs_cpu(gl, scene, scene.clips[clip_index], t)
    assert_agree(results, min_found=3)
    weights = results[0]["pose"].node_weights(results[0]["item"].node)
    assert np.count_nonzero(weights) >= 1  # the time chosen really morphs


def _write(b: GltfBuilder, tmp_path) -> object:
    return load(b.write_gltf(tmp_path, "model.gltf"))


def test_eight_influences_and_300_joints(gl, tmp_path):
    """JOINTS_0/WEIGHTS_0 + JOINTS_1/WEIGHTS_1 (normalized UNSIGNED_BYTE and UNSIGNED_SHORT weights),
    joint indices past 255, and a mesh node transform that skinning must ignore."""
    rng = np.random.default_rng(7)
    joints_n, verts = 300, 64
    b = GltfBuilder()
    grid = np.stack(np.meshgrid(np.linspace(-1, 1, 8), np.linspace(-1, 1, 8)), -1).reshape(-1, 2)
    positions = np.c_[grid, np.zeros(verts)].astype(np.float32)
    picks = np.stack([rng.choice(joints_n, 8, replace=False) for _ in range(verts)])
    w = rng.random((verts, 8))
    w /= w.sum(axis=1, keepdims=True)
    attrs = {
        "JOINTS_0": b.add_accessor(picks[:, :4].astype(np.uint16), target=34962),
        "WEIGHTS_0": b.add_accessor(np.round(w[:, :4] * 255).astype(np.uint8), normalized=True, target=34962),
        "JOINTS_1": b.add_accessor(picks[:, 4:].astype(np.uint16), target=34962),
        "WEIGHTS_1": b.add_accessor(np.round(w[:, 4:] * 65535).astype(np.uint16), normalized=True, target=34962),
    }
    mesh = b.add_mesh(positions, None, attributes=attrs)
    first_joint = 1
    b.add_node(name="skinned", mesh=mesh, skin=0, translation=[50.0, 50.0, 50.0], scale=[9.0, 9.0, 9.0])
    for j in range(joints_n):
        angle = rng.uniform(-0.5, 0.5)
        b.add_node(
            name=f"j{j}",
            translation=rng.uniform(-0.4, 0.4, 3).tolist(),
            rotation=[0.0, 0.0, float(np.sin(angle / 2)), float(np.cos(angle / 2))],
        )
    b.add_skin(list(range(first_joint, first_joint + joints_n)))
    b.add_scene([0] + list(range(first_joint, first_joint + joints_n)))
    scene = _write(b, tmp_path)
    (r,) = gpu_vs_cpu(gl, scene, None, 0.0)
    assert r["found"] >= 48
    assert_agree([r])


def test_many_morph_targets_with_node_weights_over_mesh_weights(gl, tmp_path):
    rng = np.random.default_rng(3)
    positions = np.c_[rng.uniform(-1, 1, (40, 2)), np.zeros(40)].astype(np.float32)
    targets = [rng.uniform(-0.3, 0.3, (40, 3)).astype(np.float32) for _ in range(12)]
    b = GltfBuilder()
    mesh = b.add_mesh(positions, None, targets=targets, weights=[1.0] * 12)
    node_weights = rng.uniform(-0.5, 1.0, 12).round(3).tolist()
    b.add_node(mesh=mesh, weights=node_weights)
    b.add_scene([0])
    scene = _write(b, tmp_path)
    (r,) = gpu_vs_cpu(gl, scene, None, 0.0)
    np.testing.assert_allclose(r["pose"].node_weights(0), node_weights)
    assert r["found"] >= 30
    assert_agree([r])


def test_skinned_normals_light_like_the_same_rigid_transform(gl, tmp_path):
    """One joint turning a quad (weight 1) must look exactly like a node turning it: positions and the
    lighting, which depends on the skinned normals."""
    from tests.render.conftest import FixedCamera, render_plain
    from viewer.base import math3d
    from viewer.base.math3d import perspective

    quad = np.array([[-1, -1, 0], [1, -1, 0], [1, 1, 0], [-1, 1, 0]], np.float32)
    normals = np.tile(np.array([[0, 0, 1]], np.float32), (4, 1))
    q = math3d.quat_multiply(
        math3d.quat_from_axis_angle([0, 1, 0], 0.6), math3d.quat_from_axis_angle([1, 0, 0], -0.9)
    ).tolist()
    move = dict(rotation=q, translation=[0.2, 0.1, -0.3])
    material = {
        "pbrMetallicRoughness": {"baseColorFactor": [0.7, 0.6, 0.5, 1], "metallicFactor": 0.2, "roughnessFactor": 0.4}
    }

    def build(skinned: bool, folder):
        b = GltfBuilder()
        attrs = {"NORMAL": b.add_accessor(normals, target=34962)}
        if skinned:
            attrs["JOINTS_0"] = b.add_accessor(np.zeros((4, 4), np.uint8), target=34962)
            attrs["WEIGHTS_0"] = b.add_accessor(np.tile(np.array([[1, 0, 0, 0]], np.float32), (4, 1)), target=34962)
        mesh = b.add_mesh(quad, [0, 1, 2, 0, 2, 3], attributes=attrs)
        b.doc["meshes"][mesh]["primitives"][0]["material"] = b.add("materials", material)
        if skinned:
            b.add_node(mesh=mesh, skin=0)
            b.add_node(name="joint", **move)
            b.add_skin([1])
            b.add_scene([0, 1])
        else:
            b.add_node(mesh=mesh, **move)
            b.add_scene([0])
        folder.mkdir()
        return load(b.write_gltf(folder))

    cam = FixedCamera(math3d.look_at([0.5, 1.0, 4.0], [0, 0, 0], [0, 1, 0]), perspective(0.8, 1.0, 0.1, 20.0))
    skinned = render_plain(gl, build(True, tmp_path / "s"), cam, size=(64, 64))
    rigid = render_plain(gl, build(False, tmp_path / "r"), cam, size=(64, 64))
    assert (skinned.max(axis=2) > 0).mean() > 0.1
    assert np.abs(skinned.astype(int) - rigid).max() <= 2
