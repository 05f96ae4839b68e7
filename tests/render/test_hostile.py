"""Hostile but valid files in the renderer (issue 8): nothing the file says may crash a frame or put
inf / NaN on the GPU. A node the GPU cannot place is left out; everything else draws as it would alone.

Each test builds its file with ``GltfBuilder``; numpy's RuntimeWarnings are errors inside ``strict()``,
so an overflow reaching a cast counts as a failure too (the core's GltfWarnings about such nodes do not).
"""

from __future__ import annotations

import io
import math
import struct
import warnings
import zlib
from contextlib import contextmanager

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from tests.gltf_builder import GltfBuilder
from tests.render.conftest import gl_error, render_plain
from viewer.base.errors import GltfError, GltfWarning
from viewer.pose.pose import Pose
from viewer.render.camera import GltfCamera, OrbitCamera
from viewer.render.grid import grid_lines, nice_spacing
from viewer.render.image_decode import decode_image
from viewer.render.trails import trail_vertices
from viewer.scene.scene import Camera, load

F32_MAX = float(np.finfo(np.float32).max)
TRI = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0]], np.float32)
LEFT = [-0.9, -0.5, 0.0]  # the well-behaved triangle: x in [-0.9, 0.1], inside the front camera's square


@contextmanager
def strict():
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        yield


def load_scene(tmp_path, b: GltfBuilder, name: str = "h.gltf"):
    if "scenes" not in b.doc:
        b.add_scene(list(range(len(b.doc.get("nodes", [])))))
    return load(b.write_gltf(tmp_path, name))


def with_left_triangle(**bad_node) -> GltfBuilder:
    """Node 0: a plain triangle at LEFT; node 1 (when given properties): the same mesh on a hostile node."""
    b = GltfBuilder()
    mesh = b.add_mesh(TRI * 0.8, [0, 1, 2])
    b.add_node(mesh=mesh, translation=LEFT)
    if bad_node:
        b.add_node(mesh=mesh, **bad_node)
    return b


def drawable(matrix) -> bool:
    """Every entry finite and within float32 range (what a uniform can hold)."""
    return bool((np.abs(np.asarray(matrix, np.float64)) <= F32_MAX).all())


# -- 1. one morph target ------------------------------------------------------------------------------


def test_a_single_morph_target_draws_and_follows_its_weight(gl, tmp_path):
    """With one target the compiler folds k · u_morph_vertex_count to 0 and drops the uniform."""
    b = GltfBuilder()
    mesh = b.add_mesh(TRI, [0, 1, 2], targets=[TRI * 0.5], weights=[0.0])
    b.add_node(mesh=mesh)
    b.add_animation([dict(node=0, path="weights", times=[0, 1], values=[[0.0], [1.0]])])
    scene = load_scene(tmp_path, b)
    rest = render_plain(gl, scene, clip=scene.clips[0], t=0.0)
    full = render_plain(gl, scene, clip=scene.clips[0], t=1.0)
    # pixel (51, 12) is the point (0.61, 0.61): outside x + y <= 1, inside x + y <= 1.5 (weight 1)
    assert rest[12, 51].max() == 0 and full[12, 51].max() > 0
    assert rest[24, 40].max() > 0 and full[24, 40].max() > 0  # (0.27, 0.23): inside both


# -- 2. any bounds ------------------------------------------------------------------------------------

EXTREME_BOUNDS = [
    ([0, 0, 0], [0, 0, 0]),
    ([1e20, 0, 0], [1e20, 0, 0]),
    ([0, 0, 0], [1e-30] * 3),
    ([-1.7e308] * 3, [1.7e308] * 3),
    ([-1e200, 0, 0], [1e200, 1, 1]),
    ([-math.inf, 0, 0], [1, 1, 1]),
    ([0, 0, 0], [math.inf] * 3),
    ([math.nan] * 3, [1, 1, 1]),
    ([1, 1, 1], [-1, -1, -1]),
    ([1e26, -5, 1e26], [1e26, 5, 1e26]),
]


@pytest.mark.parametrize("lo, hi", EXTREME_BOUNDS)
def test_grid_and_fitted_camera_cope_with_any_bounds(lo, hi):
    lo, hi = np.array(lo, np.float64), np.array(hi, np.float64)
    with strict():
        lines = grid_lines(lo, hi)
        cam = OrbitCamera().fit(lo, hi, 4 / 3)
        view, proj = cam.matrices(None, 4 / 3)
    assert len(lines) and np.isfinite(lines).all()
    assert drawable(view) and drawable(proj) and drawable(proj @ view)
    assert cam.distance > 0 and cam.radius > 0


@settings(max_examples=80, deadline=None)
@given(st.lists(st.floats(allow_nan=True, allow_infinity=True), min_size=6, max_size=6))
def test_any_six_floats_make_a_drawable_grid_and_camera(values):
    lo, hi = np.array(values[:3]), np.array(values[3:])
    with strict():
        lines = grid_lines(lo, hi)
        view, proj = OrbitCamera().fit(lo, hi, 1.5).matrices(None, 1.5)
    assert np.isfinite(lines).all() and drawable(proj @ view) and drawable(view)


@pytest.mark.parametrize("length", [0.0, -1.0, 5e-324, 1e308, math.inf, math.nan])
def test_nice_spacing_is_always_positive_and_finite(length):
    step = nice_spacing(length)
    assert math.isfinite(step) and step > 0


@pytest.mark.parametrize(
    "bad",
    [
        dict(translation=[1e20, 0, 0]),
        dict(scale=[1e200] * 3),
        dict(translation=[1e39, 0, 0]),
        dict(scale=[0.0, 0.0, 0.0]),
    ],
)
def test_offscreen_auto_camera_renders_extreme_scenes(gl, tmp_path, bad):
    from viewer.export import Offscreen, View

    scene = load_scene(tmp_path, with_left_triangle(**bad))
    off = Offscreen(scene, None, View(size=(64, 48), samples=0), ctx=gl.ctx, programs=gl.programs)
    try:
        with strict():
            rgb = off.frame(0.0)
        view, proj = off.camera.matrices(off.pose, 64 / 48)
    finally:
        off.release()
    assert rgb.shape == (48, 64, 3) and drawable(proj @ view)
    assert gl_error(gl) == "GL_NO_ERROR"


# -- 3. matrices the GPU cannot take ----------------------------------------------------------------


@pytest.mark.parametrize(
    "bad",
    [
        dict(scale=[1e200] * 3),
        dict(translation=[1e39, 0, 0]),
        dict(scale=[0.0, 0.0, 0.0]),
        dict(scale=[0.0, 1.0, 1.0]),
        dict(children=[2], scale=[1e200] * 3),
    ],
)
def test_a_node_the_gpu_cannot_place_is_left_out_and_the_rest_draws(gl, tmp_path, bad):
    b = with_left_triangle(**bad)
    if "children" in bad:
        b.add_node(mesh=0, scale=[1e200] * 3)  # world = 1e400: inf
        b.add_scene([0, 1])
    alone = render_plain(gl, load_scene(tmp_path, with_left_triangle(), "alone.gltf"))
    with strict():
        rgb = render_plain(gl, load_scene(tmp_path, b))
    assert alone.max() > 0 and (rgb == alone).all()


def skinned_file(ibm_value=None, joint_translation=(0.0, 0.0, 0.0)) -> GltfBuilder:
    """Node 0: skinned triangle (skin 0, joint node 1); node 2: plain triangle at LEFT;
    node 3: a second skinned triangle with a good skin (skin 1, joint node 4) that shares the joint texture."""
    b = GltfBuilder()
    joints = b.add_accessor(np.array([[0, 0, 0, 0]] * 3, np.uint8), target=34962)
    weights = b.add_accessor(np.array([[1, 0, 0, 0]] * 3, np.float32), target=34962)
    skinned = b.add_mesh(TRI * 0.8, [0, 1, 2], attributes={"JOINTS_0": joints, "WEIGHTS_0": weights})
    plain = b.add_mesh(TRI * 0.8, [0, 1, 2])
    b.add_node(mesh=skinned, skin=0)
    b.add_node(translation=list(joint_translation))
    b.add_node(mesh=plain, translation=LEFT)
    b.add_node(mesh=skinned, skin=1)
    b.add_node(translation=[0.1, -0.9, 0.0])
    ibm = np.eye(4, dtype=np.float32)[None].copy()
    if ibm_value is not None:
        ibm[0, 0, 3] = ibm_value
    b.add_skin([1], ibm)
    b.add_skin([4], np.eye(4, dtype=np.float32)[None])
    b.add_scene([0, 1, 2, 3, 4])
    return b


@pytest.mark.parametrize(
    "bad", [dict(ibm_value=np.nan), dict(ibm_value=np.inf), dict(joint_translation=(1e300, 0.0, 0.0))]
)
def test_a_skin_with_bad_joint_matrices_is_left_out_without_poisoning_the_others(gl, tmp_path, bad):
    from viewer.render.renderer import Renderer

    reference = load_scene(tmp_path, skinned_file(joint_translation=(50.0, 0.0, 0.0)), "ref.gltf")  # off-screen
    expected = render_plain(gl, reference)
    scene = load_scene(tmp_path, skinned_file(**bad))
    rgb = render_plain(gl, scene)
    assert expected.max() > 0 and (rgb == expected).all()
    with gl.ctx:
        renderer = Renderer(gl.ctx, scene, gl.programs)
        try:
            renderer.joints.update(Pose(scene))
            texels = np.frombuffer(renderer.joints.texture.read(), np.float32)
            assert list(renderer.joints.ok) == [False, True]
        finally:
            renderer.release()
    assert np.isfinite(texels).all()


# -- 4. other hostile-but-valid content --------------------------------------------------------------


def test_triangle_indices_not_a_multiple_of_three_draw_the_whole_triangles(gl, tmp_path):
    b = GltfBuilder()
    b.add_node(mesh=b.add_mesh(TRI * 0.8, [0, 1, 2, 0]))
    assert render_plain(gl, load_scene(tmp_path, b)).max() > 0


def test_infinite_positions_do_not_warn_or_stop_the_other_meshes(gl, tmp_path):
    b = with_left_triangle()
    pos = b.add_accessor(np.array([[np.inf, 0, 0], [1, 0, 0], [0, 1, 0]], np.float32), target=34962)
    b.doc["accessors"][pos].update(min=[0.0, 0.0, 0.0], max=[1.0, 1.0, 0.0])  # what the file claims
    index = b.add_accessor(np.array([0, 1, 2], np.uint16), target=34963)
    b.add_node(mesh=b.add("meshes", {"primitives": [{"attributes": {"POSITION": pos}, "indices": index}]}))
    alone = render_plain(gl, load_scene(tmp_path, with_left_triangle(), "alone.gltf"))
    scene = load_scene(tmp_path, b)
    with strict():
        rgb = render_plain(gl, scene)
    assert (rgb == alone).all()


CAMERAS = [
    Camera("wide", "perspective", yfov=math.pi, znear=0.1),
    Camera("wider", "perspective", yfov=10.0, znear=0.1, zfar=100.0),
    Camera("needle", "perspective", yfov=1e-320, znear=0.1),
    Camera("tiny planes", "perspective", yfov=1.0, znear=1e-320, zfar=1e-319),
    Camera("far planes", "perspective", yfov=1.0, znear=1e300, zfar=1.0000000000000002e300),
    Camera("flat", "orthographic", xmag=0.0, ymag=0.0, znear=0.0, zfar=10.0),
    Camera("vast", "orthographic", xmag=1e308, ymag=-1e308, znear=0.0, zfar=1e308),
    Camera("thin", "orthographic", xmag=1.0, ymag=1.0, znear=0.0, zfar=1e-320),
]


@pytest.mark.parametrize("camera", CAMERAS, ids=[c.name for c in CAMERAS])
@pytest.mark.parametrize(
    "node",
    [
        dict(translation=[0, 0, 3]),
        dict(scale=[0, 0, 0]),
        dict(scale=[1e200] * 3),
        dict(translation=[1e300, 0, 0]),
        dict(matrix=[0.0] * 16),
    ],
)
def test_gltf_cameras_with_extreme_numbers_give_float32_matrices(tmp_path, camera, node):
    b = with_left_triangle()
    b.add_node(camera=0, **node)
    b.doc["cameras"] = [{"type": "perspective", "perspective": {"yfov": 1.0, "znear": 0.1}}]
    scene = load_scene(tmp_path, b)
    with strict():
        view, proj = GltfCamera(camera, 1).matrices(Pose(scene), 4 / 3)
    assert drawable(view) and drawable(proj) and drawable(proj @ view)


def test_an_image_wider_than_the_gpu_allows_is_scaled_down_with_a_warning(gl, tmp_path):
    with gl.ctx:  # moderngl caches ``info`` on first read: read it with the context current
        width = int(gl.ctx.info["GL_MAX_TEXTURE_SIZE"]) + 100
    data = io.BytesIO()
    Image.new("RGB", (width, 1), (255, 0, 0)).save(data, "PNG")
    b = GltfBuilder()
    uv = b.add_accessor(np.full((3, 2), 0.5, np.float32), target=34962)
    mesh = b.add_mesh(TRI * 0.8, [0, 1, 2], attributes={"TEXCOORD_0": uv})
    b.doc["meshes"][mesh]["primitives"][0]["material"] = b.add(
        "materials", {"pbrMetallicRoughness": {"baseColorTexture": {"index": 0}}}
    )
    b.add("textures", {"source": b.add_image(data.getvalue())})
    b.add_node(mesh=mesh)
    scene = load_scene(tmp_path, b)
    with pytest.warns(GltfWarning, match="/images/0"):
        rgb = render_plain(gl, scene)  # asserts GL_NO_ERROR itself
    lit = rgb[rgb.max(axis=2) > 0]
    assert len(lit) and (lit[:, 0] > 2 * lit[:, 1]).all()  # red: the texture is there


def _png_header_only(width: int, height: int) -> bytes:
    """A PNG that claims ``width`` × ``height`` pixels in its header: a decompression bomb's first bytes."""

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"\0" * 64)) + chunk(b"IEND", b"")
    )


@pytest.mark.parametrize("side", [9000, 60000])  # ours refuses the first, Pillow's own guard the second
def test_an_image_with_too_many_pixels_is_refused_before_decoding(tmp_path, side):
    b = GltfBuilder()
    b.add("textures", {"source": b.add_image(_png_header_only(side, side))})
    b.add_node()
    scene = load_scene(tmp_path, b)
    with pytest.raises(GltfError) as err:
        decode_image(scene, 0)
    assert err.value.pointer == "/images/0" and "pixels" in err.value.message
    assert side > 10000 or f"{side}×{side}" in err.value.message


def test_overlay_lines_leave_out_nodes_beyond_float32(gl, tmp_path):
    from viewer.render.camera import OrbitCamera as Orbit
    from viewer.render.overlay_lines import OverlayLines
    from viewer.render.target import OffscreenTarget

    b = with_left_triangle(translation=[1e39, 0, 0], children=[2])
    b.add_node(translation=[1, 0, 0])
    b.add_scene([0, 1])
    scene = load_scene(tmp_path, b)
    pose = Pose(scene)
    view, proj = Orbit().fit(np.full(3, -1.0), np.ones(3)).matrices(pose, 1.0)
    with gl.ctx:
        lines = OverlayLines(gl.ctx, gl.programs, scene)
        target = OffscreenTarget(gl.ctx, (32, 32), 0)
        try:
            target.fbo.use()
            with strict():
                lines.draw(pose, proj @ view, skeleton=True, bounds=True, selected=1)
            written = np.frombuffer(lines.buffer.read(), np.float32)
        finally:
            lines.release()
            target.release()
    assert np.isfinite(written).all()
    assert gl_error(gl) == "GL_NO_ERROR"


def test_trail_samples_beyond_float32_are_cut_out():
    from viewer.compare.views import Trail

    points = np.array([[[0, 0, 0]], [[1, 0, 0]], [[np.inf, 0, 0]], [[2, 0, 0]], [[3, 0, 0]]], np.float64)
    trail = Trail(
        "linear", np.array([0]), np.arange(5.0), points, np.array([0.0, 2.0]), points[[0, 2]], np.zeros((4, 1), bool)
    )
    with strict():
        rows, strips, n_keys, n_markers = trail_vertices([trail], "linear", 2.0)
    assert np.isfinite(rows).all()
    assert strips == [(0, 2), (3, 2)] and n_keys == 1
