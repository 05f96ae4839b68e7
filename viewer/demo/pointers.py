"""A demo of KHR_animation_pointer: one object per kind of animated property, side by side on a slab.

Left to right: a sphere whose baseColorFactor runs red → blue → red (LINEAR); an emissive sphere whose
KHR_materials_emissive_strength spikes once per loop (CUBICSPLINE, tangents making a steep rise and a slow
fall); a card whose checker scrolls sideways by its KHR_texture_transform offset (LINEAR, one whole texture
per loop, so the loop is seamless); a KHR_lights_punctual spot whose cone opens over an empty patch of floor
(inner and outer angles keyed together, inner < outer); a box carrying a sphere, hidden from 1.5 s to 3 s by
KHR_node_visibility (STEP) on the box alone, so the sphere disappears by inheritance. Camera 0 looks at the
row and zooms in and out (yfov, LINEAR). Each node and material is named for what it shows. None of the
extensions is required: a viewer without them draws the row at rest.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from pygltflib import (
    Attributes,
    Camera,
    Image,
    Material,
    Mesh,
    PbrMetallicRoughness,
    Perspective,
    Primitive,
    Sampler,
    Texture,
    TextureInfo,
)

from viewer.demo import shapes
from viewer.demo.builder import DemoWriter
from viewer.demo.materials import card_uvs, checker_image, png_bytes
from viewer.files.writer import ARRAY_BUFFER, ELEMENT_ARRAY_BUFFER, f32, f32_list

DURATION = 4.0
SPACING = 1.2  # between the slots along x; slot k sits at x = (k - 2) · SPACING
RADIUS = 0.4
SLAB = (6.2, 0.12, 2.4)  # width, height, depth; its top is y = 0
CARD = (1.0, 1.2, 0.04)
BOX, CHILD_RADIUS = 0.6, 0.22  # the visibility parent (a cube) and the sphere resting on it
SPOT = (SPACING, 1.4, 0.25)  # straight above the empty slot, a little forward
CAMERA = (0.0, 4.4, 8.6)  # camera 0, aimed at (0, 0.4, 0)
NEAREST = 9728

EXTENSIONS_USED = [
    "KHR_animation_pointer",
    "KHR_lights_punctual",
    "KHR_materials_emissive_strength",
    "KHR_node_visibility",
    "KHR_texture_transform",
]
SPOT_LIGHT = {
    "name": "opening spot",
    "type": "spot",
    "color": [1.0, 0.93, 0.8],
    "intensity": 8.0,
    "spot": {"innerConeAngle": 0.06, "outerConeAngle": 0.12},
}

# Keyed values (times in ``channels``); EMISSIVE_STRENGTH rows are CUBICSPLINE (in-tangent, value, out-tangent).
RED, BLUE = [0.8, 0.04, 0.03, 1.0], [0.03, 0.08, 0.85, 1.0]
EMISSIVE_STRENGTH = [[0.0, 0.05, 0.0], [0.1, 0.1, 0.1], [4.0, 1.4, -1.4], [0.0, 0.05, 0.0]]
CONE = {"outerConeAngle": [0.12, 0.42, 0.12], "innerConeAngle": [0.06, 0.34, 0.06]}
YFOV = [0.62, 0.45, 0.62]
VISIBLE = [1, 0, 1]
_LIGHT = "/extensions/KHR_lights_punctual/lights/0/spot/"
COLOUR, EMISSIVE = "colour: baseColorFactor red to blue", "emissive strength pulse (CUBICSPLINE)"
CHECKER = "checker scroll: KHR_texture_transform offset"


def slot_x(k: int) -> float:
    return (k - 2) * SPACING


def tilt_about_x(angle: float) -> tuple[float, float, float, float]:
    return (float(np.sin(0.5 * angle)), 0.0, 0.0, float(np.cos(0.5 * angle)))


def channels(colour: int, emissive: int, card: int, box: int) -> list[dict[str, Any]]:
    """The clip, every channel a pointer; the indices are passed in so the pointers follow the file's order."""
    half = [0.0, 0.5 * DURATION, DURATION]
    out = [
        dict(pointer=f"/materials/{colour}/pbrMetallicRoughness/baseColorFactor", times=half, values=[RED, BLUE, RED]),
        dict(
            pointer=f"/materials/{emissive}/extensions/KHR_materials_emissive_strength/emissiveStrength",
            interpolation="CUBICSPLINE",
            times=[0.0, 1.6, 2.0, DURATION],
            values=np.ravel(EMISSIVE_STRENGTH),
        ),
        dict(
            pointer=f"/materials/{card}/pbrMetallicRoughness/baseColorTexture/extensions/KHR_texture_transform/offset",
            times=[0.0, DURATION],
            values=[[0.0, 0.0], [1.0, 0.0]],
        ),
    ]
    out += [dict(pointer=_LIGHT + name, times=half, values=values) for name, values in CONE.items()]
    out.append(dict(pointer="/cameras/0/perspective/yfov", times=half, values=YFOV))
    out.append(
        dict(
            pointer=f"/nodes/{box}/extensions/KHR_node_visibility/visible",
            interpolation="STEP",
            times=[0.0, 1.5, 3.0],
            values=np.array(VISIBLE, np.uint8),
            component_type=5121,
        )
    )
    return out


def pointers() -> str:
    """The row of animated properties, the slab under it, the spot and camera 0."""
    w = DemoWriter()
    sphere = _geometry(w, *shapes.uv_sphere(RADIUS, 24, 48))
    colour = _material(w, COLOUR, RED)
    emissive = _material(
        w,
        EMISSIVE,
        [0.05, 0.04, 0.04, 1.0],
        emissiveFactor=f32_list([1.0, 0.22, 0.02]),
        extensions={"KHR_materials_emissive_strength": {"emissiveStrength": 0.05}},
    )
    meshes = [w.add("meshes", _mesh(COLOUR, sphere, colour)), w.add("meshes", _mesh(EMISSIVE, sphere, emissive))]
    card, card_material = _card(w)
    nodes = [
        w.node(name, translation=(slot_x(k), RADIUS, 0.0), mesh=mesh)
        for k, (name, mesh) in enumerate(zip((COLOUR, EMISSIVE), meshes))
    ]
    nodes.append(w.node(CHECKER, translation=(slot_x(2), 0.0, 0.0), mesh=card))
    nodes.append(
        w.node(
            "floor slab",
            mesh=w.mesh(
                "floor slab",
                *shapes.box(SLAB, center=(0.0, -0.5 * SLAB[1], 0.0)),
                w.material("floor slab", (0.45, 0.45, 0.47, 1.0), roughness=0.8),
            ),
        )
    )
    box = _hidden_pair(w)
    nodes.append(box)
    nodes.append(
        w.node(
            "spot: cone angles open",
            translation=SPOT,
            rotation=tilt_about_x(-0.5 * np.pi),
            extensions={"KHR_lights_punctual": {"light": 0}},
        )
    )
    w.add(
        "cameras",
        Camera(
            name="camera 0: yfov zoom",
            type="perspective",
            perspective=Perspective(yfov=f32(YFOV[0]), znear=0.1, zfar=100.0),
        ),
    )
    aim = -np.arctan2(CAMERA[1] - 0.4, CAMERA[2])
    nodes.append(w.node("camera 0: yfov zoom", translation=CAMERA, rotation=tilt_about_x(aim), camera=0))
    w.animation("Animated properties", channels(colour, emissive, card_material, box))
    w.gltf.extensions = {"KHR_lights_punctual": {"lights": [{**SPOT_LIGHT, "color": f32_list(SPOT_LIGHT["color"])}]}}
    w.gltf.extensionsUsed = list(EXTENSIONS_USED)
    return w.dumps(nodes)


def _hidden_pair(w: DemoWriter) -> int:
    """The box whose visibility is keyed, and the sphere on it: its own flag stays true, so it hides by
    inheritance alone."""
    ball = w.mesh(
        "visibility: child (inherits)",
        *shapes.uv_sphere(CHILD_RADIUS, 16, 32),
        w.material("visibility: child (inherits)", (0.9, 0.75, 0.05, 1.0), roughness=0.4),
    )
    box = w.mesh(
        "visibility: parent (hidden 1.5-3 s)",
        *shapes.box((BOX, BOX, BOX)),
        w.material("visibility: parent (hidden 1.5-3 s)", (0.05, 0.6, 0.15, 1.0), roughness=0.5),
    )
    parent = w.node(
        "visibility: parent (hidden 1.5-3 s)",
        translation=(slot_x(4), 0.5 * BOX, 0.0),
        mesh=box,
        extensions={"KHR_node_visibility": {}},
    )
    child = w.node(
        "visibility: child (inherits)",
        translation=(0.0, 0.5 * BOX + CHILD_RADIUS, 0.0),
        mesh=ball,
        extensions={"KHR_node_visibility": {}},
    )
    w.gltf.nodes[parent].children = [child]
    return parent


def _card(w: DemoWriter) -> tuple[int, int]:
    """The checker card (mesh, material): 8 × 8 crisp cells, the hue running once along the diagonal, so that
    every shift of it looks different."""
    sampler = w.add("samplers", Sampler(magFilter=NEAREST, minFilter=NEAREST))
    image = w.add(
        "images",
        Image(name="checker", mimeType="image/png", bufferView=w.add_buffer_view(png_bytes(checker_image(8, 8)))),
    )
    texture = w.add("textures", Texture(name="checker", sampler=sampler, source=image))
    info = TextureInfo(index=texture, texCoord=None, extensions={"KHR_texture_transform": {"offset": [0.0, 0.0]}})
    material = _material(w, CHECKER, [1.0, 1.0, 1.0, 1.0], texture=info)
    positions, normals, indices = shapes.box(CARD, center=(0.0, 0.5 * CARD[1], 0.0))
    geometry = _geometry(w, positions, normals, indices, card_uvs(positions))
    return w.add("meshes", _mesh(CHECKER, geometry, material)), material


def _material(w: DemoWriter, name: str, colour: list[float], texture: TextureInfo | None = None, **other: Any) -> int:
    pbr = PbrMetallicRoughness(
        baseColorFactor=f32_list(colour), metallicFactor=0.0, roughnessFactor=0.45, baseColorTexture=texture
    )
    return w.add(
        "materials",
        Material(
            name=name, pbrMetallicRoughness=pbr, alphaMode=None, doubleSided=None, **{"emissiveFactor": None, **other}
        ),
    )


def _geometry(
    w: DemoWriter, positions: np.ndarray, normals: np.ndarray, indices: np.ndarray, uvs: np.ndarray | None = None
) -> tuple[dict[str, int], int]:
    attributes = {
        "POSITION": w.add_accessor(positions, target=ARRAY_BUFFER, min_max=True),
        "NORMAL": w.add_accessor(normals, target=ARRAY_BUFFER),
    }
    if uvs is not None:
        attributes["TEXCOORD_0"] = w.add_accessor(uvs, target=ARRAY_BUFFER)
    return attributes, w.add_accessor(np.asarray(indices, np.uint16).reshape(-1), target=ELEMENT_ARRAY_BUFFER)


def _mesh(name: str, geometry: tuple[dict[str, int], int], material: int) -> Mesh:
    attributes, indices = geometry
    return Mesh(
        name=name, primitives=[Primitive(attributes=Attributes(**attributes), indices=indices, material=material)]
    )


__all__ = ["pointers"]
