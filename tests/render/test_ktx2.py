"""KHR_texture_basisu: files that require it load; the fallback image is drawn where the texture names one,
and where it names only a KTX2 image the texture is left out with one warning at its JSON pointer."""

from __future__ import annotations

import io

import numpy as np
from PIL import Image

from tests.gltf_builder import GltfBuilder
from tests.render.conftest import cli_render

KTX2_MAGIC = b"\xabKTX 20\xbb\r\n\x1a\n"


def _quad_file(tmp_path, fallback: bool):
    b = GltfBuilder()
    quad = np.array([[-1, -1, 0], [1, -1, 0], [1, 1, 0], [-1, 1, 0]], np.float32)
    uv = np.array([[0, 1], [1, 1], [1, 0], [0, 0]], np.float32)
    prim = {
        "attributes": {
            "POSITION": b.add_accessor(quad, target=34962, min_max=True),
            "TEXCOORD_0": b.add_accessor(uv, target=34962),
        },
        "indices": b.add_accessor(np.array([0, 1, 2, 0, 2, 3], np.uint16), target=34963),
    }
    ktx = b.add_image(KTX2_MAGIC + bytes(64), mime_type="image/ktx2")
    texture = {"extensions": {"KHR_texture_basisu": {"source": ktx}}}
    if fallback:
        png = io.BytesIO()
        Image.new("RGB", (4, 4), (255, 0, 0)).save(png, format="PNG")
        texture["source"] = b.add_image(png.getvalue())
    b.add("textures", texture)
    prim["material"] = b.add("materials", {"pbrMetallicRoughness": {"baseColorTexture": {"index": 0}}})
    b.add_node(mesh=b.add("meshes", {"primitives": [prim]}))
    b.add_scene([0])
    b.doc["extensionsUsed"] = ["KHR_texture_basisu"]
    if not fallback:
        b.doc["extensionsRequired"] = ["KHR_texture_basisu"]
    return b.write_gltf(tmp_path, "ktx2.gltf")


def _render(path, out):
    return cli_render(path, out, "--size", "64x64", "--yaw", "0", "--pitch", "0").astype(int)


def test_a_required_ktx2_texture_without_fallback_loads_and_warns_once(tmp_path, capsys):
    path = _quad_file(tmp_path, fallback=False)
    rgb = _render(path, tmp_path / "x.png")
    warned = [line for line in capsys.readouterr().err.splitlines() if "warning" in line]
    assert len(warned) == 1 and ":/textures/0/extensions/KHR_texture_basisu: KTX2" in warned[0]
    centre = rgb[32, 32]
    assert abs(centre[0] - centre[1]) < 30  # untextured: grey-white, not the fallback's red


def test_the_fallback_image_is_drawn(tmp_path, capsys):
    path = _quad_file(tmp_path, fallback=True)
    rgb = _render(path, tmp_path / "x.png")
    assert "warning" not in capsys.readouterr().err
    r, g, _ = rgb[32, 32]
    assert r > 100 and r > 3 * g  # the red PNG the texture names beside its KTX2 image
