"""CPU-side primitive preparation (``viewer.render.geometry``) and the shader preprocessor: no GL needed,
except for the morph delta textures and ``morph.glsl`` (the ``ctx`` fixture skips where no context can be made)."""

from __future__ import annotations

import moderngl
import numpy as np
import pytest

from viewer.render import closed, geometry
from viewer.render.shaders import normalize_defines, read_source, stage_source
from viewer.scene.scene import Primitive


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


def test_triangles_without_normals_are_flat_and_upload_none():
    # glTF: no NORMAL means flat shading (the shader takes face normals from derivatives) and no TANGENT
    p = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 1, 0.5]], np.float32)
    tan = np.tile(np.float32([1, 0, 0, 1]), (4, 1))
    uv = np.zeros((4, 2), np.float32)
    indexed = geometry.prepare(
        Primitive(
            {"POSITION": p, "TANGENT": tan, "TEXCOORD_0": uv}, np.array([0, 1, 2, 2, 1, 3], np.uint16), 4, None, ()
        ),
        tangent_uv_set=0,
    )
    assert indexed.flat and indexed.source_vertex is None and indexed.vertex_count == 4
    assert set(indexed.attributes) == {"in_position", "in_uv0"}
    assert indexed.indices.tolist() == [0, 1, 2, 2, 1, 3]
    unindexed = geometry.prepare(Primitive({"POSITION": p[[0, 1, 2, 2, 1, 3]]}, None, 4, None, ()))
    assert unindexed.flat and unindexed.indices is None and "in_normal" not in unindexed.attributes
    for mode in (geometry.TRIANGLE_STRIP, geometry.TRIANGLE_FAN):
        assert geometry.prepare(Primitive({"POSITION": p}, None, mode, None, ())).flat
    lines = geometry.prepare(Primitive({"POSITION": p}, None, 1, None, ()))
    assert not lines.flat and "in_normal" not in lines.attributes  # unlit
    with_normals = geometry.prepare(Primitive({"POSITION": p, "NORMAL": p}, None, 4, None, ()))
    assert not with_normals.flat and "in_normal" in with_normals.attributes


def test_prepare_uploads_both_uv_sets_and_colors():
    n = 3
    attrs = {
        "POSITION": np.zeros((n, 3), np.float32),
        "TEXCOORD_0": np.zeros((n, 2), np.float32),
        "TEXCOORD_1": np.ones((n, 2), np.float32),
        "COLOR_0": np.full((n, 3), 0.5, np.float32),
        "JOINTS_0": np.ones((n, 4), np.uint16),
        "WEIGHTS_0": np.full((n, 4), 0.25, np.float32),
    }
    data = geometry.prepare(Primitive(attrs, None, 4, None, ()))  # no material: the UVs still go up
    assert (data.attributes["in_uv0"] == 0).all() and (data.attributes["in_uv1"] == 1).all()
    assert "in_uv" not in data.attributes
    assert data.attributes["in_color"].shape == (n, 4) and (data.attributes["in_color"][:, 3] == 1).all()
    assert data.attributes["in_joints0"].dtype == np.float32 and "in_joints1" not in data.attributes
    only_one = geometry.prepare(
        Primitive({"POSITION": attrs["POSITION"], "TEXCOORD_1": attrs["TEXCOORD_1"]}, None, 4, None, ())
    )
    assert "in_uv1" in only_one.attributes and "in_uv0" not in only_one.attributes


def quad_with_normals(**extra):
    p = np.array([[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0]], np.float32)
    uv = np.array([[0, 1], [1, 1], [1, 0], [0, 0]], np.float32)  # upright texture: v runs down
    attrs = {
        "POSITION": p,
        "NORMAL": np.tile(np.float32([0, 0, 1]), (4, 1)),
        "TEXCOORD_0": uv,
        "TEXCOORD_1": uv[:, ::-1].copy(),
        **extra,
    }
    return Primitive(attrs, np.array([0, 1, 2, 0, 2, 3], np.uint8), 4, None, ())


def test_file_tangents_win_generated_ones_only_when_asked():
    file_t = np.tile(np.float32([0, 1, 0, -1]), (4, 1))
    data = geometry.prepare(quad_with_normals(TANGENT=file_t), tangent_uv_set=0)
    np.testing.assert_array_equal(data.attributes["in_tangent"], file_t)
    assert "in_tangent" in geometry.prepare(quad_with_normals(TANGENT=file_t)).attributes  # whatever the material
    assert "in_tangent" not in geometry.prepare(quad_with_normals()).attributes
    assert "in_tangent" not in geometry.prepare(quad_with_normals(), tangent_uv_set=2).attributes  # no TEXCOORD_2
    t0 = geometry.prepare(quad_with_normals(), tangent_uv_set=0).attributes["in_tangent"]
    np.testing.assert_allclose(t0, np.tile([1, 0, 0, 1], (4, 1)), atol=1e-6)
    # TEXCOORD_1 swaps u and v: u now runs down the image (-Y) and the layout is mirrored
    t1 = geometry.prepare(quad_with_normals(), tangent_uv_set=1).attributes["in_tangent"]
    np.testing.assert_allclose(t1, np.tile([0, -1, 0, -1], (4, 1)), atol=1e-6)


@pytest.mark.parametrize("mode", [geometry.TRIANGLE_STRIP, geometry.TRIANGLE_FAN])
def test_strips_and_fans_get_tangents(mode):
    p = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 1, 0]], np.float32)
    order = [0, 1, 2, 3] if mode == geometry.TRIANGLE_STRIP else [0, 1, 3, 2]
    attrs = {
        "POSITION": p[order],
        "NORMAL": np.tile(np.float32([0, 0, 1]), (4, 1)),
        "TEXCOORD_0": (p[order, :2] * [1, -1]).astype(np.float32),
    }
    data = geometry.prepare(Primitive(attrs, None, mode, None, ()), tangent_uv_set=0)
    assert data.source_vertex is None and len(data.indices) == 6
    np.testing.assert_allclose(data.attributes["in_tangent"], np.tile([1, 0, 0, 1], (4, 1)), atol=1e-6)


def mirrored_strip_primitive(targets=()):
    """Two quads sharing the column x = 1, the right one's U mirrored: the column's 2 vertices split."""
    p = np.array([[0, 0, 0], [1, 0, 0], [2, 0, 0], [0, 1, 0], [1, 1, 0], [2, 1, 0]], np.float32)
    uv = np.stack([1 - np.abs(p[:, 0] - 1), 1 - p[:, 1]], axis=1).astype(np.float32)
    idx = np.array([0, 1, 4, 0, 4, 3, 1, 2, 5, 1, 5, 4, 3], np.uint16)  # and a partial triangle, never drawn
    attrs = {
        "POSITION": p,
        "NORMAL": np.tile(np.float32([0, 0, 1]), (6, 1)),
        "TEXCOORD_0": uv,
        "TEXCOORD_1": uv + 1,
        "COLOR_0": np.arange(24, dtype=np.float32).reshape(6, 4),
        "JOINTS_0": np.arange(24, dtype=np.uint16).reshape(6, 4),
        "WEIGHTS_0": np.full((6, 4), 0.25, np.float32),
    }
    return Primitive(attrs, idx, 4, None, targets)


def test_split_vertices_carry_every_attribute():
    prim = mirrored_strip_primitive()
    data = geometry.prepare(prim, tangent_uv_set=0)
    src = data.source_vertex
    assert src.dtype == np.int64 and src.tolist() == [0, 1, 2, 3, 4, 5, 1, 4] and data.vertex_count == 8
    names = {
        "POSITION": "in_position",
        "NORMAL": "in_normal",
        "TEXCOORD_0": "in_uv0",
        "TEXCOORD_1": "in_uv1",
        "COLOR_0": "in_color",
        "JOINTS_0": "in_joints0",
        "WEIGHTS_0": "in_weights0",
    }
    for semantic, name in names.items():
        assert len(data.attributes[name]) == 8
        np.testing.assert_array_equal(data.attributes[name], np.asarray(prim.attributes[semantic], np.float32)[src])
    assert data.indices.dtype == np.uint32 and data.indices[-1] == 3  # the partial triangle kept as it was
    # the same triangles are drawn, the mirrored quad from the copies
    pos = data.attributes["in_position"]
    np.testing.assert_array_equal(pos[data.indices], prim.attributes["POSITION"][prim.indices])
    w = data.attributes["in_tangent"][data.indices[:12], 3].reshape(4, 3)
    assert (w[:2] == 1).all() and (w[2:] == -1).all()
    assert geometry.prepare(prim).source_vertex is None  # no normal texture: nothing generated, nothing split


def test_morph_deltas_fill_missing_targets_with_zeros():
    p = np.zeros((2, 3), np.float32)
    prim = Primitive({"POSITION": p}, None, 4, None, ({"POSITION": np.ones((2, 3))}, {"NORMAL": np.ones((2, 3))}))
    pos = geometry.morph_deltas(prim, "POSITION")
    assert pos.shape == (2, 2, 3) and (pos[0] == 1).all() and (pos[1] == 0).all()
    assert geometry.morph_deltas(Primitive({"POSITION": p}, None, 4, None, ()), "NORMAL") is None
    assert geometry.morph_deltas(prim, "TANGENT") is None


def test_morph_deltas_of_tangents_gathered_through_split_vertices():
    tan = np.arange(18, dtype=np.float32).reshape(6, 3)
    prim = mirrored_strip_primitive(({"TANGENT": tan}, {"POSITION": np.ones((6, 3), np.float32)}))
    src = geometry.prepare(prim, tangent_uv_set=0).source_vertex
    d = geometry.morph_deltas(prim, "TANGENT", src)
    assert d.shape == (2, 8, 3) and (d[1] == 0).all()
    np.testing.assert_array_equal(d[0], tan[src])


def test_morph_textures_hold_the_gpu_vertices(ctx):
    from viewer.render.morph import MorphTargets

    tan = np.arange(18, dtype=np.float32).reshape(6, 3)
    prim = mirrored_strip_primitive(({"TANGENT": tan, "NORMAL": -tan}, {"POSITION": np.ones((6, 3), np.float32)}))
    src = geometry.prepare(prim, tangent_uv_set=0).source_vertex
    morph = MorphTargets(ctx, prim, src)
    try:
        assert morph.vertex_count == 8 and morph.defines() == {
            "MORPH_TARGETS": "2",
            "MORPH_NORMALS": "",
            "MORPH_TANGENTS": "",
        }
        texels = np.frombuffer(morph.tangents.read(), np.float32).reshape(-1, 4)[:16, :3]
        np.testing.assert_array_equal(texels, np.concatenate([tan[src], np.zeros((8, 3))]))
        normals = np.frombuffer(morph.normals.read(), np.float32).reshape(-1, 4)[:8, :3]
        np.testing.assert_array_equal(normals, -tan[src])
    finally:
        morph.release()
    plain = MorphTargets(ctx, mirrored_strip_primitive(({"POSITION": np.ones((6, 3), np.float32)},)))
    assert plain.tangents is None and "MORPH_TANGENTS" not in plain.defines() and plain.vertex_count == 6
    plain.release()


def test_apply_morph_moves_tangents(ctx):
    """morph.glsl on its own, through transform feedback: every delta texture read at the GPU vertex."""
    from viewer.render.morph import MorphTargets

    tan = np.arange(18, dtype=np.float32).reshape(6, 3)
    other = np.ones((6, 3), np.float32)
    prim = mirrored_strip_primitive(({"TANGENT": tan, "NORMAL": 2 * tan, "POSITION": 3 * tan}, {"TANGENT": other}))
    src = geometry.prepare(prim, tangent_uv_set=0).source_vertex
    morph = MorphTargets(ctx, prim, src)
    body = read_source("morph.glsl")
    vert = "\n".join(
        [
            "#version 330 core",
            *(f"#define {k} {v}" for k, v in morph.defines().items()),
            body,
            "out vec3 p; out vec3 n; out vec3 t;",
            "void main() { p = vec3(0); n = vec3(0); t = vec3(0); apply_morph(gl_VertexID, p, n, t); }",
        ]
    )
    prog = ctx.program(vertex_shader=vert, varyings=["p", "n", "t"])
    out = ctx.buffer(reserve=8 * 9 * 4)
    vao = ctx.vertex_array(prog, [])
    fbo = ctx.simple_framebuffer((1, 1))  # a surfaceless context has no default framebuffer to draw with
    fbo.use()
    try:
        prog["u_morph_weights"].value = (0.5, 0.25)
        prog["u_morph_vertex_count"].value = morph.vertex_count
        prog["u_morph_positions"].value, prog["u_morph_normals"].value, prog["u_morph_tangents"].value = 0, 1, 2
        morph.positions.use(0)
        morph.normals.use(1)
        morph.tangents.use(2)
        vao.transform(out, mode=moderngl.POINTS, vertices=8)
        got = np.frombuffer(out.read(), np.float32).reshape(8, 3, 3)
        np.testing.assert_allclose(got[:, 0], 1.5 * tan[src])
        np.testing.assert_allclose(got[:, 1], 1.0 * tan[src])
        np.testing.assert_allclose(got[:, 2], 0.5 * tan[src] + 0.25)
    finally:
        for r in (vao, out, prog, fbo, morph):
            r.release()


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
    assert closed.closed_outward(p, t)
    assert closed.closed_outward(*cube(split=True))  # welded by position
    assert not closed.closed_outward(*cube(inward=True))  # inside out
    assert not closed.closed_outward(p, t[:-3])  # a hole
    flipped = t.copy().reshape(-1, 3)
    flipped[0] = flipped[0, ::-1]
    assert not closed.closed_outward(p, flipped.reshape(-1))  # one triangle wound the other way
    moving = np.zeros((1, len(p), 3))
    assert closed.closed_outward(p, t, moving)
    ps, ts = cube(split=True)
    crack = np.zeros((1, len(ps), 3))
    crack[0, 0] = 0.1  # one copy of a corner moves alone
    assert not closed.closed_outward(ps, ts, crack)
    flip = np.zeros((1, len(p), 3))
    flip[0, :, 0] = -2 * p[:, 0]  # the target mirrors the cube: inside out
    assert not closed.closed_outward(p, t, flip)


def test_closed_outward_with_split_vertices():
    p, t = cube()
    uv = np.stack([p[:, 0] + p[:, 2], p[:, 1]], axis=1)  # opposite faces mirror each other: corners split
    target = np.zeros((len(p), 3), np.float32)
    target[:, 2] = p[:, 2]  # stretch along z: welded copies move together
    prim = Primitive(
        {"POSITION": p.astype(np.float32), "NORMAL": (p - 0.5).astype(np.float32), "TEXCOORD_0": uv.astype(np.float32)},
        t.astype(np.uint32),
        4,
        None,
        ({"POSITION": target},),
    )
    data = geometry.prepare(prim, tangent_uv_set=0)
    assert data.source_vertex is not None and data.vertex_count > len(p)
    pos, idx = data.attributes["in_position"], data.indices
    assert closed.closed_outward(pos, idx, geometry.morph_deltas(prim, "POSITION", data.source_vertex))
    with pytest.raises(ValueError, match="source_vertex"):
        closed.closed_outward(pos, idx, geometry.morph_deltas(prim, "POSITION"))
