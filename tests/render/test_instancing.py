"""Instanced drawing (``viewer.render.instancing``) draws what the per-item path draws, in a few draws.

Method: each scene is rendered twice by the same renderer code — instanced (the default), and per item
(``MIN_INSTANCES`` patched to a huge number, so no primitive qualifies) — and the pictures compared.
Tolerance: no pixel differs by more than ``LEVELS`` (2/255) in any channel. The two paths send the
same float32 model matrices; only the normal matrix differs in rounding (float32 in the shader against
float64 on the CPU), which moves shading by at most a level. A wrong winding on a mirrored instance, a
lost morph weight or a misplaced instance changes whole faces, far beyond that.
"""

from __future__ import annotations

import math

import moderngl
import numpy as np
import pytest
from PIL import Image

from tests.gltf_builder import GltfBuilder
from tests.render.conftest import FixedCamera, decode_vertex_ids, gl_error, render_plain
from viewer.base import math3d
from viewer.pose.pose import Pose
from viewer.render import instancing
from viewer.render.renderer import Renderer, RenderOptions
from viewer.render.target import OffscreenTarget
from viewer.scene.scene import load

SIZE = (160, 120)
LEVELS = 2
BACKGROUND = (0.1, 0.1, 0.12)


def box() -> tuple[np.ndarray, np.ndarray]:
    """A unit-ish box, 24 vertices (flat faces), every triangle counter-clockwise seen from outside."""
    positions, indices = [], []
    for axis in range(3):
        for sign in (1.0, -1.0):
            n = np.zeros(3)
            n[axis] = sign
            u = np.roll(n, 1) if sign > 0 else -np.roll(n, 1)  # u × v = n for either sign
            v = np.cross(n, u)
            base = len(positions)
            positions += [0.4 * (n + a * u + b * v) for a, b in ((-1, -1), (1, -1), (1, 1), (-1, 1))]
            indices += [base, base + 1, base + 2, base, base + 2, base + 3]
    return np.array(positions, np.float32), np.array(indices)


def quat(axis, degrees: float) -> list[float]:
    return [float(x) for x in math3d.quat_from_axis_angle(np.asarray(axis, float), math.radians(degrees))]


def spot(k: int) -> list[float]:
    """Place k of a 6 × 4 grid on the ground, far enough apart that no two boxes overlap in the picture."""
    return [1.5 * (k % 6) - 3.75, 0.0, 1.5 * (k // 6) - 2.25]


def instances_file(tmp_path, far_node: bool = False, double_sided: bool = True):
    """12 lit boxes (turned, one mirrored, one flattened to zero thickness) and 10 morphed (double-sided)
    boxes, 8 sharing the mesh's weights and 2 with their own; optionally a box at 1e200 (undrawable)."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    b = GltfBuilder()
    pos, idx = box()
    solid = b.add_mesh(pos, idx)
    b.doc["meshes"][solid]["primitives"][0]["material"] = b.add(
        "materials", {"pbrMetallicRoughness": {"baseColorFactor": [0.8, 0.5, 0.3, 1.0], "metallicFactor": 0.1}}
    )
    stretch = np.zeros_like(pos)
    stretch[:, 1] = np.where(pos[:, 1] > 0, 0.5, 0.0)  # the top face moves up by 0.5 at weight 1
    morphed = b.add_mesh(pos, idx, targets=[stretch], weights=[0.6])
    b.doc["meshes"][morphed]["primitives"][0]["material"] = b.add(
        "materials",
        {
            "doubleSided": double_sided,
            "pbrMetallicRoughness": {"baseColorFactor": [0.3, 0.6, 0.9, 1.0], "roughnessFactor": 0.4},
        },
    )
    nodes = []
    for k in range(12):
        props = dict(mesh=solid, translation=spot(k), rotation=quat([0.3, 1.0, 0.2 * k], 17.0 * k))
        if k == 3:
            props["scale"] = [-1.0, 1.0, 1.0]  # mirrored: clockwise front faces
        if k == 8:
            props["rotation"] = quat([1.0, 0.0, 0.0], -60.0)  # facing the camera
            props["scale"] = [1.0, 1.0, 1e-30]  # flat: normals from the shader's cofactor must survive
        nodes.append(b.add_node(**props))
    for k in range(10):
        props = dict(mesh=morphed, translation=spot(12 + k), rotation=quat([1.0, 0.5, 0.0], 23.0 * k))
        if k in (2, 7):
            props["weights"] = [-0.5]  # a second weight group
        nodes.append(b.add_node(**props))
    if far_node:
        nodes.append(b.add_node(mesh=solid, translation=[1e200, 0.0, 0.0]))
    b.add_scene(nodes)
    return load(b.write_gltf(tmp_path, "instances.gltf"))


def camera() -> FixedCamera:
    view = math3d.look_at([0.0, 8.0, 5.0], [0.0, 0.0, 0.0], [0.0, 1.0, 0.0])
    return FixedCamera(view, math3d.perspective(math.radians(50.0), SIZE[0] / SIZE[1], 0.1, 50.0))


def per_item(monkeypatch, gl, scene) -> np.ndarray:
    with monkeypatch.context() as m:
        m.setattr(instancing, "MIN_INSTANCES", 10**9)
        return render_plain(gl, scene, camera(), SIZE, background=BACKGROUND)


def assert_same_picture(a: np.ndarray, b: np.ndarray) -> None:
    diff = np.abs(a.astype(np.int16) - b.astype(np.int16)).max(axis=-1)
    assert diff.max() <= LEVELS, f"{(diff > LEVELS).sum()} pixels differ by up to {diff.max()}/255"


def covered(rgb: np.ndarray) -> float:
    """Fraction of pixels not the background."""
    bg = np.asarray(BACKGROUND) * 255.0  # the clear colour is sRGB already
    return float((np.abs(rgb.astype(float) - bg).max(axis=-1) > 12).mean())


def test_instanced_picture_matches_the_per_item_path(gl, tmp_path, monkeypatch):
    scene = instances_file(tmp_path)
    with gl.ctx:
        r = Renderer(gl.ctx, scene, gl.programs)
        assert [len(nodes) for _, nodes in r.instancing.groups] == [12, 10] and r.instancing.single == []
        runs = r.instancing.prepare(Pose(scene))
        r.release()
    # boxes: plain + mirrored; morphed: 2 weight groups, none mirrored
    assert sorted((run.count, run.mirrored) for run in runs) == [(1, True), (2, False), (8, False), (11, False)]
    instanced = render_plain(gl, scene, camera(), SIZE, background=BACKGROUND)
    reference = per_item(monkeypatch, gl, scene)
    Image.fromarray(np.concatenate([instanced, reference], axis=1)).save(tmp_path / "instanced_vs_per_item.png")
    assert covered(reference) > 0.15
    assert_same_picture(instanced, reference)
    assert gl_error(gl) == "GL_NO_ERROR"


@pytest.mark.filterwarnings("ignore:.*world matrix is not finite")  # the core's warning about that node
def test_an_undrawable_instance_is_left_out_and_the_rest_draws(gl, tmp_path, monkeypatch):
    scene = instances_file(tmp_path, far_node=True)
    far = len(scene.nodes) - 1
    pose = Pose(scene)
    assert not pose.drawable[far]
    with gl.ctx:
        r = Renderer(gl.ctx, scene, gl.programs)
        runs = r.instancing.prepare(pose)
        r.release()
    assert sum(run.count for run in runs) == 22  # of the 23 instances, all but the far one
    instanced = render_plain(gl, scene, camera(), SIZE, background=BACKGROUND)
    assert_same_picture(instanced, per_item(monkeypatch, gl, scene))
    assert_same_picture(
        instanced, render_plain(gl, instances_file(tmp_path / "near"), camera(), SIZE, background=BACKGROUND)
    )
    assert gl_error(gl) == "GL_NO_ERROR"


def many_boxes(tmp_path, count: int):
    b = GltfBuilder()
    pos, idx = box()
    mesh = b.add_mesh(pos, idx)
    side = math.ceil(math.sqrt(count))
    b.add_scene(
        [
            b.add_node(mesh=mesh, translation=[float(k % side) - side / 2, float(k // side) - side / 2, 0.0])
            for k in range(count)
        ]
    )
    return load(b.write_gltf(tmp_path, "many.gltf"))


def test_five_thousand_instances_take_a_handful_of_draws(gl, tmp_path, monkeypatch):
    scene = many_boxes(tmp_path, 5000)
    calls = []
    render = moderngl.VertexArray.render

    def counting(self, *args, **kwargs):
        calls.append(kwargs.get("instances", -1))
        return render(self, *args, **kwargs)

    monkeypatch.setattr(moderngl.VertexArray, "render", counting)
    from tests.render.conftest import front_ortho_camera

    rgb = render_plain(gl, scene, front_ortho_camera(40.0), (128, 128), background=BACKGROUND)
    assert len(calls) <= 4, f"{len(calls)} draws"
    assert calls == [5000]
    assert covered(rgb) > 0.3
    assert gl_error(gl) == "GL_NO_ERROR"


def test_picking_pass_still_draws_every_item_alone(gl, tmp_path):
    """``debug_vertex_ids`` numbers each item's draw (click-to-select): no instancing there."""
    scene = many_boxes(tmp_path, 16)
    with gl.ctx:
        r = Renderer(gl.ctx, scene, gl.programs)
        target = OffscreenTarget(gl.ctx, (128, 128), 0)
        try:
            assert len(r.instancing.groups) == 1
            from tests.render.conftest import front_ortho_camera

            r.render(Pose(scene), front_ortho_camera(3.0), target.fbo, RenderOptions(debug_vertex_ids=True))
            _, _, ids, draws = decode_vertex_ids(target.read(4))
        finally:
            r.release()
            target.release()
    assert set(draws.tolist()) == set(range(16)) and ids.max() < 24
    assert gl_error(gl) == "GL_NO_ERROR"


@pytest.mark.parametrize("opacity", [0.4])
def test_ghosts_match_the_per_item_path(gl, tmp_path, monkeypatch, opacity):
    """Ghosts blend without depth writes, so draw order counts where they overlap (none do here), and
    closed double-sided meshes lose their back faces only on the per-item path: all single-sided here."""
    scene = instances_file(tmp_path, double_sided=False)

    def ghost() -> np.ndarray:
        with gl.ctx:
            r = Renderer(gl.ctx, scene, gl.programs)
            target = OffscreenTarget(gl.ctx, SIZE, 0)
            try:
                target.fbo.clear(*BACKGROUND, 1.0, depth=1.0)
                r.render_ghost(Pose(scene), camera(), target.fbo, opacity)
                return target.read(3).copy()
            finally:
                r.release()
                target.release()

    instanced = ghost()
    with monkeypatch.context() as m:
        m.setattr(instancing, "MIN_INSTANCES", 10**9)
        reference = ghost()
    assert covered(reference) > 0.1
    assert_same_picture(instanced, reference)
    assert gl_error(gl) == "GL_NO_ERROR"
