"""The Khronos material-extension sample models (``khronos-ext``) in pictures: what each one is made to show,
measured, and a golden of each under the golden rule of ``conftest`` (fewer than 1 % of pixels off by more than
8/255). Skipped where the shared models are absent.

Each baseline was looked at next to the screenshot the sample repository publishes (Khronos Sample Viewer, its own
camera and environment: compared by eye). AnisotropyStrengthTest: round highlights in the strength-0 row opening
into arcs along the tangent as strength rises, blurring to the right with roughness. IridescenceSuzanne: the
metal head green-teal with a violet crown, the dielectric heads pale with thin rainbow sheens. AnisotropyBarnLamp:
the brushed copper textures with highlights drawn out around the shade.
"""

from __future__ import annotations

import json
import math
import shutil
import struct
from pathlib import Path

import numpy as np
from PIL import Image

from tests.conftest import ext_model
from tests.render.conftest import FixedCamera, assert_matches_golden, cli_render, render_plain
from tests.render.test_lobes import highlight_shape
from viewer.render.camera import orthographic
from viewer.render.image_decode import decode_ktx2
from viewer.scene.scene import load

GOLDEN_SIZE = ("320x240",)


def glb_json(path: Path) -> tuple[dict, bytes]:
    """A GLB's JSON and its BIN chunk."""
    data = path.read_bytes()
    length = struct.unpack_from("<I", data, 12)[0]
    return json.loads(data[20 : 20 + length]), data[20 + length + 8 :]


def write_glb(path: Path, doc: dict, binary: bytes) -> Path:
    text = json.dumps(doc).encode()
    text += b" " * (-len(text) % 4)
    binary += b"\0" * (-len(binary) % 4)
    chunks = struct.pack("<II", len(text), 0x4E4F534A) + text + struct.pack("<II", len(binary), 0x004E4942) + binary
    path.write_bytes(struct.pack("<III", 0x46546C67, 2, 12 + len(chunks)) + chunks)
    return path


# --- AnisotropyStrengthTest: 7 × 7 spheres, roughness 0 → 1 along +x (x = -3 … 3), strength 0 → 1 up (y = 0 … 6)

GRID_SIZE = 592
HALF = 3.7  # world units from the picture's centre (0, 3) to its edges


def grid_picture(gl, path: Path) -> np.ndarray:
    """Front orthographic picture of the sphere grid lit by the studio key light only (no environment): a
    highlight is the light's reflection and nothing else."""
    view = np.eye(4)
    view[1, 3], view[2, 3] = -3.0, -10.0
    camera = FixedCamera(view, orthographic(HALF, HALF, 0.01, 20.0))
    rgb = render_plain(gl, load(path), camera, (GRID_SIZE, GRID_SIZE), environment=False, lights="studio")
    return rgb.astype(np.float64) / 255.0


def sphere_crop(rgb: np.ndarray, x: float, y: float) -> np.ndarray:
    scale = GRID_SIZE / (2 * HALF)
    cx, cy = (x + HALF) * scale, (HALF - (y - 3.0)) * scale
    r = int(0.45 * scale)
    return rgb[int(cy) - r : int(cy) + r, int(cx) - r : int(cx) + r]


def test_anisotropy_strength_test_highlights_stretch_with_strength_and_turn_with_rotation(gl, tmp_path):
    path = ext_model("AnisotropyStrengthTest")
    rgb = grid_picture(gl, path)
    column = -1.0  # roughness 1/3: a highlight with a shape to measure
    elongation = [highlight_shape(sphere_crop(rgb, column, row))[0] for row in range(7)]
    assert elongation[0] < 1.5  # strength 0: round
    assert elongation[6] > 2.5 * elongation[0]
    assert np.all(np.diff(elongation[::2]) > 0), elongation  # grows with strength (every other row)
    _, along = highlight_shape(sphere_crop(rgb, column, 6.0))

    doc, binary = glb_json(path)
    for m in doc["materials"]:
        if "KHR_materials_anisotropy" in m.get("extensions", {}):  # the labels' materials have none
            m["extensions"]["KHR_materials_anisotropy"]["anisotropyRotation"] = math.pi / 2
    turned_rgb = grid_picture(gl, write_glb(tmp_path / "turned.glb", doc, binary))
    _, turned = highlight_shape(sphere_crop(turned_rgb, column, 6.0))
    assert min(along, 180 - along) < 15.0  # along the tangent: across the picture
    assert abs(turned - 90.0) < 15.0  # turned a quarter: up the picture


def test_anisotropy_strength_test_golden(tmp_path):
    rgb = cli_render(
        ext_model("AnisotropyStrengthTest"), tmp_path / "a.png", "--size", *GOLDEN_SIZE, "--yaw", 0, "--pitch", 0
    )
    assert_matches_golden("ext_anisotropy_strength", rgb)


def test_iridescence_suzanne_shows_thin_film_colour_golden(tmp_path):
    path = ext_model("IridescenceSuzanne")
    rgb = cli_render(path, tmp_path / "i.png", "--size", *GOLDEN_SIZE, "--yaw", 0, "--pitch", 0, "--zoom", 1.3)
    doc, binary = glb_json(path)
    for m in doc["materials"]:
        m.get("extensions", {}).pop("KHR_materials_iridescence", None)
    doc["extensionsUsed"].remove("KHR_materials_iridescence")
    if "KHR_materials_iridescence" in doc.get("extensionsRequired", []):
        doc["extensionsRequired"].remove("KHR_materials_iridescence")
    plain_path = write_glb(tmp_path / "plain.glb", doc, binary)
    plain = cli_render(plain_path, tmp_path / "p.png", "--size", *GOLDEN_SIZE, "--yaw", 0, "--pitch", 0, "--zoom", 1.3)

    heads = np.abs(plain.astype(np.int16) - plain[0, 0]).max(axis=-1) > 12  # not the background

    def saturation(img):
        c = img[heads].astype(np.float64)
        return (c.max(axis=-1) - c.min(axis=-1)).mean()

    assert saturation(rgb) > 2.0 * saturation(plain)  # the grey heads take on the film's colours
    assert_matches_golden("ext_iridescence_suzanne", rgb)


# --- AnisotropyBarnLamp: every texture KTX2 only


def test_barn_lamp_ktx2_textures_draw_as_the_same_textures_in_png(gl, tmp_path):
    """The KTX2-only lamp against a copy whose textures a test transcoded to PNG (level 0, the same texels): the
    two pictures differ only where GL's own mip levels differ from the KTX2's."""
    path = ext_model("AnisotropyBarnLamp")
    doc = json.loads(path.read_text())
    scene = load(path)
    # the sample names its KTX2 images straight from each texture's source (no KHR_texture_basisu object)
    for texture in doc["textures"]:
        texture.pop("extensions", None)
    for k, image in enumerate(doc["images"]):
        (w, h), texels = decode_ktx2(scene, k)[0]
        Image.frombytes("RGBA", (w, h), texels).save(tmp_path / f"image{k}.png")
        doc["images"][k] = {"uri": f"image{k}.png"}
    for key in ("extensionsUsed", "extensionsRequired"):
        doc[key] = [e for e in doc.get(key, []) if e != "KHR_texture_basisu"]
    for buffer in doc.get("buffers", []):
        shutil.copy(path.parent / buffer["uri"], tmp_path / buffer["uri"])
    copy = tmp_path / "lamp_png.gltf"
    copy.write_text(json.dumps(doc))
    flags = ("--size", "240x240", "--yaw", 0, "--pitch", 0)
    ktx2 = cli_render(path, tmp_path / "k.png", *flags).astype(np.int16)
    png = cli_render(copy, tmp_path / "p.png", *flags).astype(np.int16)
    untextured = {**doc, "textures": [], "materials": [strip_textures(m) for m in doc["materials"]]}
    (tmp_path / "bare.gltf").write_text(json.dumps(untextured))
    bare = cli_render(tmp_path / "bare.gltf", tmp_path / "b.png", *flags).astype(np.int16)
    diff = np.abs(ktx2 - png).max(axis=-1)
    assert diff.mean() < 1.5 and np.percentile(diff, 99) < 16, (diff.mean(), np.percentile(diff, 99))
    assert np.abs(bare - png).max(axis=-1).mean() > 4 * diff.mean()  # the textures matter in the picture
    assert_matches_golden("ext_barn_lamp_ktx2", ktx2.astype(np.uint8))


def strip_textures(material: dict) -> dict:
    """A material with every textureInfo removed, at any depth (its factors kept)."""
    out = {}
    for key, value in material.items():
        if isinstance(value, dict):
            if "index" in value:
                continue
            out[key] = strip_textures(value)
        else:
            out[key] = value
    return out
