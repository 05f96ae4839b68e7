"""A demo of the PBR materials and lights: a row of spheres, one material each, under a sweeping spot light.

Seven spheres stand on a low slab, each named after what its material shows (the node, its mesh and its
material share the name): a rough dielectric, polished metal, a clearcoat over a rough base, glass (with a
checkered card behind it to see the refraction), sheen cloth, a high ior with a tinted specular, and an
emissive sphere. The "Turn and sweep" clip turns every sphere about +Y (so their striped textures and the
highlights on them move) while a ``KHR_lights_punctual`` spot slides along the row and back; a point light
stays put. Every extension it uses is in ``extensionsUsed``; none is required (a viewer without them still
draws plain spheres).

Textures are tiny PNGs made here from numpy arrays and written with stored (uncompressed) deflate blocks, so
the bytes do not depend on the zlib build at hand (zlib and zlib-ng compress the same pixels differently)
and the file regenerates byte for byte everywhere. Pillow decodes them like any other PNG.
"""

from __future__ import annotations

import struct
import zlib
from typing import Any

import numpy as np
from pygltflib import Attributes, Image, Material, Mesh, PbrMetallicRoughness, Primitive, Sampler, Texture, TextureInfo

from viewer.demo import shapes
from viewer.demo.builder import DemoWriter, quat_about
from viewer.files.writer import ARRAY_BUFFER, ELEMENT_ARRAY_BUFFER, f32, f32_list

Y_AXIS = (0.0, 1.0, 0.0)

RADIUS = 0.4
RINGS, SEGMENTS = 24, 48
SPACING = 1.05  # between sphere centres along x
SLAB = (7.8, 0.12, 2.6)  # width, height, depth; its top is y = 0
CARD = (1.3, 1.15, 0.04)  # the checkered card behind the glass sphere: width, height, thickness
CARD_Z = -0.95  # its centre's z (the spheres stand on z = 0; the camera looks from +z)

# Turning: one full turn about +Y in DURATION seconds, keyed every 60° (LINEAR slerp takes the short way).
DURATION = 6.0
TURN_TIMES = np.linspace(0.0, DURATION, 7)
TURN_ANGLES = np.linspace(0.0, 2.0 * np.pi, 7)

# The spot: in front of the row and above it, aimed down and back at the spheres; it slides from the left
# end to the right end and back (LINEAR), so it crosses each sphere twice per loop.
SPOT_HEIGHT, SPOT_Z = 2.7, 1.3
SPOT_TILT = -np.arctan2(SPOT_HEIGHT, SPOT_Z + 0.1)  # about x: local −Z turned to aim at z ≈ −0.1 on the floor
SPOT_X = 3.2
SWEEP_TIMES = np.array([0.0, 0.5 * DURATION, DURATION])
SWEEP_X = np.array([-SPOT_X, SPOT_X, -SPOT_X])

LIGHTS = [
    {
        "name": "sweeping spot",
        "type": "spot",
        "color": [1.0, 0.96, 0.9],
        "intensity": 40.0,
        "spot": {"innerConeAngle": 0.26, "outerConeAngle": 0.34},
    },
    {"name": "fixed point light", "type": "point", "color": [0.85, 0.9, 1.0], "intensity": 9.0},
]
POINT_POSITION = (-2.6, 2.8, 2.2)

# The textures' sampler: crisp texels up close (NEAREST), mipmaps far away (glTF's GL filter enums).
NEAREST, LINEAR_MIPMAP_LINEAR = 9728, 9987

# Per sphere, left to right: node name, pbrMetallicRoughness fields, other material fields, extensions.
# Colours are linear RGB(A). "stripes" is the greyscale meridian-band texture (it multiplies the factor).
SPHERES: list[tuple[str, dict[str, Any], dict[str, Any], dict[str, Any]]] = [
    (
        "rough dielectric",
        {
            "baseColorFactor": [0.8, 0.06, 0.05, 1.0],
            "metallicFactor": 0.0,
            "roughnessFactor": 0.8,
            "baseColorTexture": "stripes",
        },
        {},
        {},
    ),
    (
        "polished metal",
        {"baseColorFactor": [1.0, 0.766, 0.336, 1.0], "metallicFactor": 1.0, "roughnessFactor": 0.15},
        {},
        {},
    ),
    (
        "clearcoat",
        {
            "baseColorFactor": [0.8, 0.06, 0.05, 1.0],
            "metallicFactor": 0.0,
            "roughnessFactor": 0.8,
            "baseColorTexture": "stripes",
        },
        {},
        {"KHR_materials_clearcoat": {"clearcoatFactor": 1.0, "clearcoatRoughnessFactor": 0.03}},
    ),
    (
        "glass",
        {"baseColorFactor": [1.0, 1.0, 1.0, 1.0], "metallicFactor": 0.0, "roughnessFactor": 0.0},
        {},
        {
            "KHR_materials_transmission": {"transmissionFactor": 1.0},
            "KHR_materials_ior": {"ior": 1.5},
            "KHR_materials_volume": {
                "thicknessFactor": 2.0 * RADIUS,
                "attenuationDistance": 0.8,
                "attenuationColor": [0.75, 0.95, 0.9],
            },
        },
    ),
    (
        "sheen cloth",
        {
            "baseColorFactor": [0.02, 0.04, 0.22, 1.0],
            "metallicFactor": 0.0,
            "roughnessFactor": 0.9,
            "baseColorTexture": "stripes",
        },
        {},
        {"KHR_materials_sheen": {"sheenColorFactor": [0.55, 0.65, 1.0], "sheenRoughnessFactor": 0.35}},
    ),
    (
        "ior 2.4, tinted specular",
        {"baseColorFactor": [0.02, 0.02, 0.02, 1.0], "metallicFactor": 0.0, "roughnessFactor": 0.12},
        {},
        {
            "KHR_materials_ior": {"ior": 2.4},
            "KHR_materials_specular": {"specularFactor": 1.0, "specularColorFactor": [0.35, 1.0, 0.55]},
        },
    ),
    (
        "emissive",
        {"baseColorFactor": [0.05, 0.05, 0.05, 1.0], "metallicFactor": 0.0, "roughnessFactor": 0.5},
        {"emissiveFactor": [0.3, 0.06, 0.006], "emissiveTexture": "stripes"},
        {"KHR_materials_emissive_strength": {"emissiveStrength": 4.0}},
    ),
]

EXTENSIONS_USED = sorted({"KHR_lights_punctual"} | {e for *_, ext in SPHERES for e in ext})


def png_bytes(pixels: np.ndarray) -> bytes:
    """An 8-bit greyscale (h, w) or RGB (h, w, 3) PNG of ``pixels`` (uint8), every row unfiltered.

    The zlib stream holds stored deflate blocks (RFC 1951 §3.2.4), so the bytes depend on the pixels alone.
    """
    pixels = np.ascontiguousarray(pixels, np.uint8)
    h, w = pixels.shape[:2]
    colour_type = 2 if pixels.ndim == 3 else 0
    raw = b"".join(b"\0" + pixels[row].tobytes() for row in range(h))
    blocks = [raw[k : k + 65535] for k in range(0, len(raw), 65535)] or [b""]
    stream = bytearray(b"\x78\x01")  # deflate, 32 KiB window, no dictionary, "fastest" (FCHECK valid)
    for k, block in enumerate(blocks):
        stream += struct.pack("<BHH", k == len(blocks) - 1, len(block), 0xFFFF ^ len(block)) + block
    stream += struct.pack(">I", zlib.adler32(raw))

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    header = struct.pack(">IIBBBBB", w, h, 8, colour_type, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", bytes(stream)) + chunk(b"IEND", b"")


def stripes_image(bands: int = 8, width: int = 32) -> np.ndarray:
    """(2, width) greyscale: ``bands`` light and ``bands`` darker bands across u (meridian stripes on a sphere)."""
    light = (np.arange(width) * 2 * bands // width) % 2 == 0
    return np.tile(np.where(light, 255, 150).astype(np.uint8), (2, 1))


def checker_image(cells: int = 16, period: int = 8) -> np.ndarray:
    """(cells, cells, 3) RGB: light and dark cells alternating, the hue running through the rainbow every
    ``period`` cells along the diagonal (so a patch seen through the glass holds several colours)."""
    row, col = np.meshgrid(np.arange(cells), np.arange(cells), indexing="ij")
    hue = ((row + col) % period / period)[..., None]
    rgb = np.clip(np.abs((hue * 6.0 + [0.0, 4.0, 2.0]) % 6.0 - 3.0) - 1.0, 0.0, 1.0)  # HSV with s = v = 1
    light = ((row + col) % 2 == 0)[..., None]
    return np.round(255.0 * np.where(light, 0.35 + 0.65 * rgb, 0.08 + 0.25 * rgb)).astype(np.uint8)


def sphere_uvs(rings: int, segments: int) -> np.ndarray:
    """TEXCOORD_0 of ``shapes.uv_sphere``'s vertex grid: u around (east), v from the north pole down."""
    v, u = np.meshgrid(np.linspace(0.0, 1.0, rings + 1), np.linspace(0.0, 1.0, segments + 1), indexing="ij")
    return np.stack([u, v], axis=-1).reshape(-1, 2)


def card_uvs(positions: np.ndarray) -> np.ndarray:
    """The card's TEXCOORD_0: the image across its face in x and y (v down), edges taking the border texels."""
    lo, hi = positions.min(axis=0), positions.max(axis=0)
    u = (positions[:, 0] - lo[0]) / (hi[0] - lo[0])
    v = (hi[1] - positions[:, 1]) / (hi[1] - lo[1])
    return np.stack([u, v], axis=1)


def _texture(w: DemoWriter, name: str, pixels: np.ndarray, sampler: int) -> int:
    view = w.add_buffer_view(png_bytes(pixels))
    image = w.add("images", Image(name=name, mimeType="image/png", bufferView=view))
    return w.add("textures", Texture(name=name, sampler=sampler, source=image))


def _material(
    w: DemoWriter,
    name: str,
    pbr: dict[str, Any],
    other: dict[str, Any],
    extensions: dict[str, Any],
    textures: dict[str, int],
) -> int:
    """A material from the table's fields; a texture field names an entry of ``textures``."""

    def info(field: str, fields: dict[str, Any]) -> TextureInfo | None:
        key = fields.get(field)
        return None if key is None else TextureInfo(index=textures[key], texCoord=None)

    def factors(value: Any) -> Any:
        return f32_list(value) if isinstance(value, list) else f32(value)

    exts = {k: {f: factors(v) for f, v in e.items()} for k, e in extensions.items()}
    emissive = other.get("emissiveFactor")
    return w.add(
        "materials",
        Material(
            name=name,
            extensions=exts,
            pbrMetallicRoughness=PbrMetallicRoughness(
                baseColorFactor=f32_list(pbr["baseColorFactor"]),
                metallicFactor=f32(pbr["metallicFactor"]),
                roughnessFactor=f32(pbr["roughnessFactor"]),
                baseColorTexture=info("baseColorTexture", pbr),
            ),
            emissiveFactor=None if emissive is None else f32_list(emissive),
            emissiveTexture=info("emissiveTexture", other),
            alphaMode=None,
            doubleSided=None,
        ),
    )


def _mesh(w: DemoWriter, name: str, attributes: dict[str, int], indices: int, material: int) -> int:
    """A one-primitive mesh over accessors already written (the spheres share one set)."""
    return w.add(
        "meshes",
        Mesh(
            name=name, primitives=[Primitive(attributes=Attributes(**attributes), indices=indices, material=material)]
        ),
    )


def _geometry(
    w: DemoWriter, positions: np.ndarray, normals: np.ndarray, indices: np.ndarray, uvs: np.ndarray
) -> tuple[dict[str, int], int]:
    attributes = {
        "POSITION": w.add_accessor(positions, target=ARRAY_BUFFER, min_max=True),
        "NORMAL": w.add_accessor(normals, target=ARRAY_BUFFER),
        "TEXCOORD_0": w.add_accessor(uvs, target=ARRAY_BUFFER),
    }
    return attributes, w.add_accessor(np.asarray(indices, np.uint16).reshape(-1), target=ELEMENT_ARRAY_BUFFER)


def sphere_x(k: int) -> float:
    """x of sphere ``k`` (0 is the leftmost); the row is centred on x = 0."""
    return (k - 0.5 * (len(SPHERES) - 1)) * SPACING


def materials() -> str:
    """The material row: seven turning spheres, the slab, the card behind the glass, a sweeping spot, a point light."""
    w = DemoWriter()
    w.add("samplers", Sampler(magFilter=NEAREST, minFilter=LINEAR_MIPMAP_LINEAR))
    textures = {
        "stripes": _texture(w, "stripes", stripes_image(), 0),
        "checker": _texture(w, "checker", checker_image(), 0),
    }

    sphere = _geometry(w, *shapes.uv_sphere(RADIUS, RINGS, SEGMENTS), sphere_uvs(RINGS, SEGMENTS))
    nodes, channels = [], []
    turns = quat_about(Y_AXIS, TURN_ANGLES)
    for k, (name, pbr, other, extensions) in enumerate(SPHERES):
        mesh = _mesh(w, name, *sphere, _material(w, name, pbr, other, extensions, textures))
        node = w.node(name, translation=(sphere_x(k), RADIUS, 0.0), rotation=(0.0, 0.0, 0.0, 1.0), mesh=mesh)
        channels.append(dict(node=node, path="rotation", times=TURN_TIMES, values=turns))
        nodes.append(node)

    slab = shapes.box(SLAB, center=(0.0, -0.5 * SLAB[1], 0.0))
    slab_material = w.material("floor slab", (0.16, 0.16, 0.17, 1.0), roughness=0.7)
    nodes.append(w.node("floor slab", mesh=w.mesh("floor slab", *slab, slab_material)))

    card = shapes.box(CARD, divisions=1, center=(0.0, 0.5 * CARD[1], 0.0))
    card_material = _material(
        w,
        "checker card",
        {
            "baseColorFactor": [1.0, 1.0, 1.0, 1.0],
            "metallicFactor": 0.0,
            "roughnessFactor": 0.6,
            "baseColorTexture": "checker",
        },
        {},
        {},
        textures,
    )
    card_mesh = _mesh(w, "checker card", *_geometry(w, *card, card_uvs(card[0])), card_material)
    nodes.append(w.node("checker card (behind the glass)", translation=(sphere_x(3), 0.0, CARD_Z), mesh=card_mesh))

    spot_rotation = (float(np.sin(0.5 * SPOT_TILT)), 0.0, 0.0, float(np.cos(0.5 * SPOT_TILT)))
    spot = w.node(
        "sweeping spot",
        translation=(SWEEP_X[0], SPOT_HEIGHT, SPOT_Z),
        rotation=spot_rotation,
        extensions={"KHR_lights_punctual": {"light": 0}},
    )
    point = w.node("fixed point light", translation=POINT_POSITION, extensions={"KHR_lights_punctual": {"light": 1}})
    nodes += [spot, point]
    sweep = np.stack([SWEEP_X, np.full(3, SPOT_HEIGHT), np.full(3, SPOT_Z)], axis=1)
    channels.append(dict(node=spot, path="translation", times=SWEEP_TIMES, values=sweep))
    w.animation("Turn and sweep", channels)

    w.gltf.extensions = {"KHR_lights_punctual": {"lights": [_light(light) for light in LIGHTS]}}
    w.gltf.extensionsUsed = list(EXTENSIONS_USED)
    return w.dumps(nodes)


def _light(light: dict[str, Any]) -> dict[str, Any]:
    """A KHR_lights_punctual light as written: floats rounded to float32 text (see ``writer.f32``)."""
    out: dict[str, Any] = {}
    for key, value in light.items():
        if isinstance(value, dict):
            out[key] = {k: f32(v) for k, v in value.items()}
        elif isinstance(value, list):
            out[key] = f32_list(value)
        else:
            out[key] = f32(value) if isinstance(value, float) else value
    return out


__all__ = ["materials", "png_bytes"]
