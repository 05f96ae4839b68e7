"""KHR_texture_basisu: KTX2 images (ETC1S, UASTC; sRGB, linear; mips) transcoded and drawn, the KTX2 image
before a PNG fallback, and broken KTX2 data left out with a warning, never a refused file."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from tests.gltf_builder import GltfBuilder
from viewer import load
from viewer.base.errors import GltfError
from viewer.cli import main
from viewer.render.image_decode import decode_image, decode_ktx2

DATA = Path(__file__).resolve().parents[1] / "data" / "ktx2"
PNG = np.asarray(Image.open(DATA / "gradient.png").convert("RGBA"))
QUAD = np.array([[-1, -1, 0], [1, -1, 0], [1, 1, 0], [-1, 1, 0]], np.float32)
UV = np.array([[0, 1], [1, 1], [1, 0], [0, 0]], np.float32)


def textured_quad(tmp_path: Path, ktx2: bytes | None, png: bool, name: str) -> Path:
    """A unlit quad filling the view, its base colour from a texture: KTX2 (KHR_texture_basisu) and/or PNG."""
    b = GltfBuilder()
    uv = b.add_accessor(UV, target=34962)
    b.add_mesh(QUAD, [0, 1, 2, 0, 2, 3], attributes={"TEXCOORD_0": uv})
    b.doc["meshes"][0]["primitives"][0]["material"] = 0
    b.doc["materials"] = [
        {"pbrMetallicRoughness": {"baseColorTexture": {"index": 0}}, "extensions": {"KHR_materials_unlit": {}}}
    ]
    texture: dict = {"sampler": 0}
    if png:
        texture["source"] = b.add_image((DATA / "gradient.png").read_bytes())
    if ktx2 is not None:
        texture["extensions"] = {"KHR_texture_basisu": {"source": b.add_image(ktx2, "image/ktx2")}}
    b.doc["textures"] = [texture]
    b.doc["samplers"] = [{"magFilter": 9728, "minFilter": 9728}]  # NEAREST: texels compared one by one
    used = ["KHR_materials_unlit"] + (["KHR_texture_basisu"] if ktx2 is not None else [])
    b.doc["extensionsUsed"] = used
    if ktx2 is not None and not png:
        b.doc["extensionsRequired"] = ["KHR_texture_basisu"]
    b.add_node(name="quad", mesh=0)
    b.add_scene([0])
    return b.write_glb(tmp_path / f"{name}.glb")


@pytest.mark.parametrize(
    "name, tolerance", [("uastc_srgb", 6), ("uastc_linear", 6), ("etc1s_srgb", 40), ("etc1s_linear", 40)]
)
def test_each_codec_decodes_with_its_mips(tmp_path, name, tolerance):
    scene = load(textured_quad(tmp_path, (DATA / f"{name}.ktx2").read_bytes(), png=False, name=name))
    levels = decode_ktx2(scene, 0)
    assert [size for size, _ in levels] == [(16, 16), (8, 8), (4, 4), (2, 2), (1, 1)]
    top = np.frombuffer(levels[0][1], np.uint8).reshape(16, 16, 4)
    assert np.abs(top.astype(int) - PNG).mean() <= tolerance  # rows top first, as the PNG (ETC1S is lossier)
    assert np.array_equal(decode_image(scene, 0), top)
    assert [size for size, _ in decode_ktx2(scene, 0, max_size=4)] == [(4, 4), (2, 2), (1, 1)]


def test_broken_ktx2_is_a_one_line_error_for_the_image(tmp_path):
    data = (DATA / "uastc_srgb.ktx2").read_bytes()
    for broken in (data[:60], data[:12] + bytes(200)):
        scene = load(textured_quad(tmp_path, broken, png=False, name="broken"))
        with pytest.raises(GltfError, match="KTX2") as err:
            decode_ktx2(scene, 0)
        assert err.value.pointer == "/images/0" and "\n" not in str(err.value)


def render(path: Path, tmp_path: Path) -> np.ndarray:
    out = tmp_path / f"{path.stem}.png"
    assert main(["render", str(path), "-o", str(out), "--size", "96x96", "--no-grid"]) == 0
    return np.asarray(Image.open(out).convert("RGB")).astype(int)


def test_the_ktx2_texture_draws_as_its_png_does(tmp_path):
    png = render(textured_quad(tmp_path, None, png=True, name="png"), tmp_path)
    ktx2 = render(textured_quad(tmp_path, (DATA / "uastc_srgb.ktx2").read_bytes(), png=False, name="ktx2"), tmp_path)
    both = render(textured_quad(tmp_path, (DATA / "uastc_srgb.ktx2").read_bytes(), png=True, name="both"), tmp_path)
    assert png.std() > 20  # the gradient is there
    assert np.abs(ktx2 - png).mean() < 3.0 and np.array_equal(both, ktx2)  # the KTX2 image wins over the PNG


def test_a_broken_ktx2_falls_back_or_is_left_out_with_a_warning(tmp_path, capsys):
    broken = (DATA / "uastc_srgb.ktx2").read_bytes()[:60]
    png = render(textured_quad(tmp_path, None, png=True, name="png"), tmp_path)
    capsys.readouterr()
    fallback = render(textured_quad(tmp_path, broken, png=True, name="fallback"), tmp_path)
    alone = render(textured_quad(tmp_path, broken, png=False, name="alone"), tmp_path)
    said = capsys.readouterr().err
    assert said.count("/textures/0/extensions/KHR_texture_basisu") == 2 and "KTX2" in said
    assert np.array_equal(fallback, png)
    middle = (slice(32, 64), slice(32, 64))
    assert png[middle].std() > 20 and alone[middle].std() < 2  # the quad drawn, in one colour: no texture
