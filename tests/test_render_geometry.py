"""CPU-side primitive preparation (``viewer.render.geometry``) and the shader preprocessor: no GL needed."""
from __future__ import annotations

import numpy as np
import pytest

from viewer.render import geometry
from viewer.render.shaders import normalize_defines, read_source, stage_source
from viewer.scene import Primitive


def signed_area_z(p: np.ndarray, tri: np.ndarray) -> np.ndarray:
    a, b, c = p[tri[:, 0]], p[tri[:, 1]], p[tri[:, 2]]
    return np.cross(b - a, c - a)[:, 2]


def test_strip_keeps_winding_of_every_triangle():
    # a zig-zag strip in the XY plane: all triangles must come out counter-clockwise
    p = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 1, 0], [0, 2, 0], [1, 2, 0]], float)
    idx = geometry.list_indices(geometry.TRIANGLE_STRIP, None, len(p)).reshape(-1, 3)
    assert idx.tolist() == [[0, 1, 2], [2, 1, 3], [2, 3, 4], [4, 3, 5]]
    assert (signed_area_z(p, idx) > 0).all()


def test_fan_and_indexed_fan():
    idx = geometry.list_indices(geometry.TRIANGLE_FAN, np.array([5, 6, 7, 8], np.uint8), 9)
    assert idx.dtype == np.uint32
    assert idx.reshape(-1, 3).tolist() == [[5, 6, 7], [5, 7, 8]]


def test_line_strip_and_loop_become_line_lists():
    assert geometry.list_indices(geometry.LINE_STRIP, None, 3).tolist() == [0, 1, 1, 2]
    assert geometry.list_indices(geometry.LINE_LOOP, None, 3).tolist() == [0, 1, 1, 2, 2, 0]


@pytest.mark.parametrize("dtype", [np.uint8, np.uint16, np.uint32])
def test_lists_keep_their_indices_as_uint32(dtype):
    idx = geometry.list_indices(geometry.TRIANGLES, np.array([2, 1, 0], dtype), 3)
    assert idx.dtype == np.uint32 and idx.tolist() == [2, 1, 0]
    assert geometry.list_indices(geometry.TRIANGLES, None, 3) is None


def test_degenerate_strips_give_no_triangles():
    assert len(geometry.list_indices(geometry.TRIANGLE_STRIP, None, 2)) == 0


def test_flat_normals_per_face():
    p = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 0], [0, 0, 1], [1, 0, 0]], np.float32)
    n = geometry.flat_normals(p)
    np.testing.assert_allclose(n[:3], [[0, 0, 1]] * 3)
    np.testing.assert_allclose(n[3:], [[0, 1, 0]] * 3)


def test_smooth_normals_are_area_weighted():
    # vertex 0 is shared by a big triangle facing +Z and a small one facing +X: the big one dominates
    p = np.array([[0, 0, 0], [4, 0, 0], [0, 4, 0], [0, 0, -1], [0, 1, 0]], float)
    tri = np.array([0, 1, 2, 0, 3, 4])
    n = geometry.smooth_normals(p, tri)
    expected = np.array([1.0 * 0.5, 0, 8.0])  # face cross products: 2·area × unit normal
    np.testing.assert_allclose(n[0], expected / np.linalg.norm(expected), rtol=1e-6)
    np.testing.assert_allclose(np.linalg.norm(n, axis=1), 1.0, rtol=1e-6)


def test_prepare_computes_normals_flat_when_unindexed_smooth_when_indexed():
    p = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 1, 0.5]], np.float32)
    flat = geometry.prepare(Primitive({"POSITION": p[[0, 1, 2, 2, 1, 3]]}, None, 4, None, ()), None)
    smooth = geometry.prepare(Primitive({"POSITION": p}, np.array([0, 1, 2, 2, 1, 3], np.uint16), 4, None, ()), None)
    n_flat, n_smooth = flat.attributes["in_normal"], smooth.attributes["in_normal"]
    assert flat.indices is None and np.allclose(n_flat[0], n_flat[1]) and not np.allclose(n_flat[0], n_flat[3])
    assert not np.allclose(n_smooth[1], [0, 0, 1])  # shared vertex 1 averages both faces
    lines = geometry.prepare(Primitive({"POSITION": p}, None, 1, None, ()), None)
    assert "in_normal" not in lines.attributes  # unlit


def test_prepare_uploads_the_material_uv_set_and_colors():
    n = 3
    attrs = {"POSITION": np.zeros((n, 3), np.float32), "TEXCOORD_0": np.zeros((n, 2), np.float32),
             "TEXCOORD_1": np.ones((n, 2), np.float32), "COLOR_0": np.full((n, 3), 0.5, np.float32),
             "JOINTS_0": np.ones((n, 4), np.uint16), "WEIGHTS_0": np.full((n, 4), 0.25, np.float32)}
    data = geometry.prepare(Primitive(attrs, None, 4, 0, ()), uv_set=1)
    assert (data.attributes["in_uv"] == 1).all()
    assert data.attributes["in_color"].shape == (n, 4) and (data.attributes["in_color"][:, 3] == 1).all()
    assert data.attributes["in_joints0"].dtype == np.float32 and "in_joints1" not in data.attributes
    assert "in_uv" not in geometry.prepare(Primitive(attrs, None, 4, 0, ()), uv_set=None).attributes


def test_morph_deltas_fill_missing_targets_with_zeros():
    p = np.zeros((2, 3), np.float32)
    prim = Primitive({"POSITION": p}, None, 4, None, ({"POSITION": np.ones((2, 3))}, {"NORMAL": np.ones((2, 3))}))
    pos = geometry.morph_deltas(prim, "POSITION")
    assert pos.shape == (2, 2, 3) and (pos[0] == 1).all() and (pos[1] == 0).all()
    assert geometry.morph_deltas(Primitive({"POSITION": p}, None, 4, None, ()), "NORMAL") is None


def test_shader_includes_and_defines():
    src = read_source("mesh.glsl")
    assert "#include" not in src
    assert "mat4 skin_matrix()" in src and "void apply_morph(" in src and "vec3 srgb_encode(" in src
    vert = stage_source(src, "VERTEX_SHADER", normalize_defines({"SKIN": "", "MORPH_TARGETS": 8}))
    lines = vert.splitlines()
    assert lines[0].startswith("#version") and lines[1] == "#define VERTEX_SHADER"
    assert "#define MORPH_TARGETS 8" in lines and "#define SKIN" in lines
    assert normalize_defines(["B", "A"]) == (("A", ""), ("B", ""))


def cube(inward: bool = False, split: bool = False):
    """Unit cube triangles (outward CCW); ``split`` duplicates vertices per face (as flat normals do)."""
    c = np.array([[x, y, z] for x in (0, 1) for y in (0, 1) for z in (0, 1)], float)
    quads = [(0, 1, 3, 2), (4, 6, 7, 5), (0, 4, 5, 1), (2, 3, 7, 6), (0, 2, 6, 4), (1, 5, 7, 3)]
    tris = np.array([[q[0], q[1], q[2], q[0], q[2], q[3]] for q in quads]).reshape(-1, 3)
    if inward:
        tris = tris[:, ::-1]
    if split:
        return c[tris.reshape(-1)], np.arange(tris.size)
    return c, tris.reshape(-1)


def test_closed_outward_surfaces():
    p, t = cube()
    assert geometry.closed_outward(p, t)
    assert geometry.closed_outward(*cube(split=True))              # welded by position
    assert not geometry.closed_outward(*cube(inward=True))         # inside out
    assert not geometry.closed_outward(p, t[:-3])                  # a hole
    flipped = t.copy().reshape(-1, 3)
    flipped[0] = flipped[0, ::-1]
    assert not geometry.closed_outward(p, flipped.reshape(-1))     # one triangle wound the other way
    moving = np.zeros((1, len(p), 3))
    assert geometry.closed_outward(p, t, moving)
    ps, ts = cube(split=True)
    crack = np.zeros((1, len(ps), 3))
    crack[0, 0] = 0.1                                              # one copy of a corner moves alone
    assert not geometry.closed_outward(ps, ts, crack)
    flip = np.zeros((1, len(p), 3))
    flip[0, :, 0] = -2 * p[:, 0]                                   # the target mirrors the cube: inside out
    assert not geometry.closed_outward(p, t, flip)
