"""Materials on the GPU: texture orientation, sRGB decode/encode, factors × texture × vertex colour, the
sampler's wrap and filters (mipmaps), alpha modes, double-sided culling, KHR extensions.

Each test builds a small file with ``GltfBuilder``: a quad filling an orthographic front view
(``front_ortho_camera``), unlit where exact colours are checked, rendered without MSAA or overlays.
"""

from __future__ import annotations

import io

import numpy as np
from PIL import Image

from tests.gltf_builder import GltfBuilder
from tests.render.conftest import lit_quad_file, render_plain, srgb_decode, srgb_encode
from viewer.scene.scene import load

NEAREST, LINEAR, LINEAR_MIPMAP_LINEAR = 9728, 9729, 9987
REPEAT, CLAMP, MIRROR = 10497, 33071, 33648
QUAD = np.array([[-1, -1, 0], [1, -1, 0], [1, 1, 0], [-1, 1, 0]], np.float32)  # CCW seen from +Z
QUAD_UV = np.array([[0, 1], [1, 1], [1, 0], [0, 0]], np.float32)  # glTF UV (0, 0) = image top-left


def png(rgba: np.ndarray) -> bytes:
    buf = io.BytesIO()
    Image.fromarray(np.asarray(rgba, np.uint8)).save(buf, format="PNG")
    return buf.getvalue()


def quad_file(
    tmp_path,
    material: dict | None = None,
    image: np.ndarray | None = None,
    sampler: dict | None = None,
    uv_scale: float = 1.0,
    colors: np.ndarray | None = None,
    z: float = 0.0,
    winding=(0, 1, 2, 0, 2, 3),
    node: dict | None = None,
    extra_quads: list[tuple[float, dict]] = (),
    texture_info: dict | None = None,
):
    """A file with one quad (and optional extra quads at other depths, each with its own material).

    ``texture_info`` adds properties to the base colour textureInfo (e.g. its extensions)."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    b = GltfBuilder()
    used = set()
    nodes = []
    for depth, mat, img in [(z, material or {}, image)] + [(d, m, None) for d, m in extra_quads]:
        mat = dict(mat)
        if img is not None:
            image_index = b.add_image(png(img))
            tex = {"source": image_index}
            if sampler is not None:
                tex["sampler"] = b.add("samplers", sampler)
            texture_index = b.add("textures", tex)
            pbr = mat.setdefault("pbrMetallicRoughness", {})
            pbr["baseColorTexture"] = {"index": texture_index, **(texture_info or {})}
        mat.setdefault("extensions", {})["KHR_materials_unlit"] = {}
        used |= set(mat["extensions"]) | set(
            mat.get("pbrMetallicRoughness", {}).get("baseColorTexture", {}).get("extensions", {})
        )
        attrs = {"TEXCOORD_0": b.add_accessor(QUAD_UV * uv_scale, target=34962)}
        if colors is not None and depth == z:
            attrs["COLOR_0"] = b.add_accessor(colors, target=34962)
        position = b.add_accessor(QUAD + np.array([0, 0, depth], np.float32), target=34962, min_max=True)
        prim = {
            "attributes": {"POSITION": position, **attrs},
            "indices": b.add_accessor(np.array(winding, np.uint16), target=34963),
            "material": b.add("materials", mat),
        }
        mesh = b.add("meshes", {"primitives": [prim]})
        nodes.append(b.add_node(mesh=mesh, **(node or {})))
    b.doc["extensionsUsed"] = sorted(used)
    b.add_scene(nodes)
    return load(b.write_gltf(tmp_path, "quad.gltf"))


def test_texture_orientation_and_srgb_round_trip(gl, tmp_path):
    """Image top-left lands at the quad's top-left (UV 0,0); an sRGB texel comes out unchanged."""
    img = np.zeros((2, 2, 4), np.uint8)
    img[0, 0], img[0, 1], img[1, 0], img[1, 1] = (
        (200, 30, 30, 255),
        (30, 200, 30, 255),
        (30, 30, 200, 255),
        (128, 128, 128, 255),
    )
    scene = quad_file(
        tmp_path, image=img, sampler={"magFilter": NEAREST, "minFilter": NEAREST, "wrapS": CLAMP, "wrapT": CLAMP}
    )
    rgb = render_plain(gl, scene).astype(int)
    assert np.abs(rgb[16, 16] - (200, 30, 30)).max() <= 1  # top-left
    assert np.abs(rgb[16, 48] - (30, 200, 30)).max() <= 1  # top-right
    assert np.abs(rgb[48, 16] - (30, 30, 200)).max() <= 1  # bottom-left
    assert np.abs(rgb[48, 48] - (128, 128, 128)).max() <= 1


def test_factor_times_texture_times_vertex_color_in_linear_space(gl, tmp_path):
    img = np.full((1, 1, 4), (128, 200, 64, 255), np.uint8)
    factor = [0.5, 1.0, 0.25, 1.0]
    colors = np.tile(np.array([[1.0, 0.5, 1.0]], np.float32), (4, 1))
    scene = quad_file(
        tmp_path,
        material={"pbrMetallicRoughness": {"baseColorFactor": factor}},
        image=img,
        colors=colors,
        sampler={"magFilter": NEAREST, "minFilter": NEAREST},
    )
    rgb = render_plain(gl, scene)[32, 32].astype(float)
    expected = srgb_encode(srgb_decode(np.array([128, 200, 64])) * np.array(factor[:3]) * colors[0])
    np.testing.assert_allclose(rgb, expected, atol=1.01)


def stripe(gl, tmp_path, wrap: int, uv_scale: float = 2.0, texture_info: dict | None = None) -> list[int]:
    """A 2×1 black|white texture across u ∈ [0, uv_scale]: 1 where 8 evenly spaced samples see white."""
    img = np.array([[[0, 0, 0, 255], [255, 255, 255, 255]]], np.uint8)
    scene = quad_file(
        tmp_path,
        image=img,
        uv_scale=uv_scale,
        texture_info=texture_info,
        sampler={"magFilter": NEAREST, "minFilter": NEAREST, "wrapS": wrap, "wrapT": wrap},
    )
    row = render_plain(gl, scene, size=(64, 8))[4]
    return (row[4::8, 0] > 127).astype(int).tolist()


def test_sampler_wrap_modes(gl, tmp_path):
    assert stripe(gl, tmp_path / "r", REPEAT) == [0, 0, 1, 1, 0, 0, 1, 1]
    assert stripe(gl, tmp_path / "c", CLAMP) == [0, 0, 1, 1, 1, 1, 1, 1]
    assert stripe(gl, tmp_path / "m", MIRROR) == [0, 0, 1, 1, 1, 1, 0, 0]


def test_khr_texture_transform_offset(gl, tmp_path):
    info = {"extensions": {"KHR_texture_transform": {"offset": [0.5, 0.0]}}}
    assert stripe(gl, tmp_path, REPEAT, uv_scale=1.0, texture_info=info) == [1, 1, 1, 1, 0, 0, 0, 0]


def test_mipmaps_average_in_linear_light_and_the_min_filter_is_honoured(gl, tmp_path):
    """A 1-pixel checkerboard seen 8× minified: trilinear mipmaps give the linear-light mean (sRGB 188,
    not 128); a NEAREST min filter gives no mipmaps, so pure black and white pixels remain."""
    checker = (np.indices((64, 64)).sum(axis=0) % 2 * 255).astype(np.uint8)
    img = np.dstack([checker] * 3 + [np.full((64, 64), 255, np.uint8)])
    mip = render_plain(
        gl,
        quad_file(
            tmp_path / "a", image=img, uv_scale=8.0, sampler={"minFilter": LINEAR_MIPMAP_LINEAR, "magFilter": LINEAR}
        ),
    )
    assert abs(float(mip[8:56, 8:56].mean()) - 188.0) < 6.0
    assert mip[8:56, 8:56].std() < 6.0
    raw = render_plain(
        gl, quad_file(tmp_path / "b", image=img, uv_scale=8.0, sampler={"minFilter": NEAREST, "magFilter": NEAREST})
    )
    assert set(np.unique(raw[8:56, 8:56])) <= {0, 255}


def test_alpha_mask_cuts_below_the_cutoff(gl, tmp_path):
    img = np.zeros((1, 2, 4), np.uint8)
    img[0, 0], img[0, 1] = (255, 0, 0, 100), (255, 0, 0, 160)  # alpha 0.39 | 0.63
    scene = quad_file(
        tmp_path,
        material={"alphaMode": "MASK", "alphaCutoff": 0.5},
        image=img,
        sampler={"magFilter": NEAREST, "minFilter": NEAREST},
    )
    rgb = render_plain(gl, scene, background=(0.0, 0.0, 1.0))
    assert tuple(rgb[32, 16]) == (0, 0, 255)  # cut: background shows
    assert tuple(rgb[32, 48]) == (255, 0, 0)  # kept, and drawn opaque


def test_opaque_ignores_alpha(gl, tmp_path):
    scene = quad_file(tmp_path, material={"pbrMetallicRoughness": {"baseColorFactor": [1, 0, 0, 0.2]}})
    assert tuple(render_plain(gl, scene, background=(0.0, 0.0, 1.0))[32, 32]) == (255, 0, 0)


def test_blend_draws_back_to_front_over_opaque(gl, tmp_path):
    """Two half-transparent quads listed near-first in the file still composite far-first."""
    near = {"alphaMode": "BLEND", "pbrMetallicRoughness": {"baseColorFactor": [1, 0, 0, 0.5]}}
    far = {"alphaMode": "BLEND", "pbrMetallicRoughness": {"baseColorFactor": [0, 1, 0, 0.5]}}
    opaque = {"pbrMetallicRoughness": {"baseColorFactor": [0, 0, 1, 1]}}
    scene = quad_file(tmp_path, material=near, z=1.0, extra_quads=[(0.0, far), (-1.0, opaque)])
    rgb = render_plain(gl, scene).astype(float)[32, 32]
    # blending happens on the encoded values: blue, then green over it, then red over that
    expected = np.array([0.0, 0.0, 255.0])
    for color in ([0, 255, 0], [255, 0, 0]):
        expected = 0.5 * np.array(color) + 0.5 * expected
    np.testing.assert_allclose(rgb, expected, atol=1.5)


def test_back_faces_are_culled_unless_double_sided(gl, tmp_path):
    cw = (0, 2, 1, 0, 3, 2)  # the quad wound clockwise as the camera sees it: its back faces the camera
    single = quad_file(tmp_path / "a", material={"pbrMetallicRoughness": {"baseColorFactor": [1, 0, 0, 1]}}, winding=cw)
    double = quad_file(
        tmp_path / "b",
        material={"doubleSided": True, "pbrMetallicRoughness": {"baseColorFactor": [1, 0, 0, 1]}},
        winding=cw,
    )
    assert tuple(render_plain(gl, single)[32, 32]) == (0, 0, 0)
    assert tuple(render_plain(gl, double)[32, 32]) == (255, 0, 0)


def test_a_mirroring_node_transform_keeps_front_faces(gl, tmp_path):
    """scale -1 on x turns a CCW quad CW on screen; glTF 2.0 §3.7.4 says the front face flips with it."""
    scene = quad_file(
        tmp_path, material={"pbrMetallicRoughness": {"baseColorFactor": [1, 0, 0, 1]}}, node={"scale": [-1.0, 1.0, 1.0]}
    )
    assert tuple(render_plain(gl, scene)[32, 32]) == (255, 0, 0)


def test_lit_material_is_lit_and_emissive_adds(gl, tmp_path):
    dark = render_plain(
        gl,
        lit_quad_file(
            tmp_path / "a", {"pbrMetallicRoughness": {"baseColorFactor": [0, 0, 0, 1], "metallicFactor": 0.0}}
        ),
    )[32, 32]
    glow_file = lit_quad_file(
        tmp_path / "b",
        {"emissiveFactor": [1, 0, 0], "pbrMetallicRoughness": {"baseColorFactor": [0, 0, 0, 1], "metallicFactor": 0.0}},
    )
    glow = render_plain(gl, glow_file, tonemap="none")[32, 32]
    toned = render_plain(gl, glow_file)[32, 32]  # PBR Neutral's shoulder: 1.0 comes out a little under white
    grey = render_plain(
        gl,
        lit_quad_file(
            tmp_path / "c",
            {
                "pbrMetallicRoughness": {
                    "baseColorFactor": [0.5, 0.5, 0.5, 1],
                    "metallicFactor": 0.0,
                    "roughnessFactor": 1.0,
                }
            },
        ),
    )[32, 32]
    assert max(dark) < 40  # only a little specular on black
    assert glow[0] == 255 and glow[0] > dark[0]
    assert 225 < toned[0] < 255
    assert 60 < grey[0] < 250 and abs(int(grey[0]) - int(grey[2])) < 30  # lit, roughly neutral
