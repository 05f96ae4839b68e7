"""The glTF Asset Object Model's animatable properties: what a KHR_animation_pointer pointer may name.

One table (``PROPERTIES``) says what a pointer may name, so the loader, the validator and the renderer agree on
it. The extension's rules for resolving a file's pointers against it are in ``pointer_rules``: the renderer
and the UI read the table (its fields, the texture slots) and need none of them. Sources: the glTF
specification repository's ``ObjectModel.adoc`` and the KHR_animation_pointer, KHR_node_visibility,
KHR_lights_punctual and KHR_materials_ior READMEs.

Decisions beyond the spec text (those about resolving a pointer are in ``pointer_rules``):

* Every Khronos property is sampled; those animview does not draw (KHR_node_selectability and _hoverability:
  interaction, not pictures) are ``shown=False`` under their own consumer "interaction", so no node code path
  meets them. Vendor (EXT_, ADOBE_) properties are left out.
* ``/meshes/{}/weights`` left the Object Model (KhronosGroup/glTF#2550, 2026), so it is not in the table.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

TYPES: dict[str, tuple[str, int | None]] = {  # Object Model type -> (accessor type, components)
    "float": ("SCALAR", 1),
    "float2": ("VEC2", 2),
    "float3": ("VEC3", 3),
    "float4": ("VEC4", 4),
    "float[]": ("SCALAR", None),  # one value per array element, laid end to end per key
    "bool": ("SCALAR", 1),
    "int": ("SCALAR", 1),
}

# Texture slots animview samples: name -> path of the textureInfo inside a material (render/materials.py SLOTS).
TEXTURE_SLOTS: dict[str, tuple[str, ...]] = {
    "base": ("pbrMetallicRoughness", "baseColorTexture"),
    "mr": ("pbrMetallicRoughness", "metallicRoughnessTexture"),
    "normal": ("normalTexture",),
    "occlusion": ("occlusionTexture",),
    "emissive": ("emissiveTexture",),
    "clearcoat": ("extensions", "KHR_materials_clearcoat", "clearcoatTexture"),
    "clearcoat_roughness": ("extensions", "KHR_materials_clearcoat", "clearcoatRoughnessTexture"),
    "clearcoat_normal": ("extensions", "KHR_materials_clearcoat", "clearcoatNormalTexture"),
    "sheen_color": ("extensions", "KHR_materials_sheen", "sheenColorTexture"),
    "sheen_roughness": ("extensions", "KHR_materials_sheen", "sheenRoughnessTexture"),
    "specular": ("extensions", "KHR_materials_specular", "specularTexture"),
    "specular_color": ("extensions", "KHR_materials_specular", "specularColorTexture"),
    "transmission": ("extensions", "KHR_materials_transmission", "transmissionTexture"),
    "thickness": ("extensions", "KHR_materials_volume", "thicknessTexture"),
    "anisotropy": ("extensions", "KHR_materials_anisotropy", "anisotropyTexture"),
    "iridescence": ("extensions", "KHR_materials_iridescence", "iridescenceTexture"),
    "iridescence_thickness": ("extensions", "KHR_materials_iridescence", "iridescenceThicknessTexture"),
    # KHR_materials_diffuse_transmission has no Object Model section; the textureInfo catch-all covers it.
    "diffuse_transmission": ("extensions", "KHR_materials_diffuse_transmission", "diffuseTransmissionTexture"),
    "diffuse_transmission_color": (
        "extensions",
        "KHR_materials_diffuse_transmission",
        "diffuseTransmissionColorTexture",
    ),
}


@dataclass(frozen=True)
class Property:
    """One animatable pointer template of the Object Model and who consumes its values."""

    template: str  # "{}" stands for an array index
    type: str  # a key of TYPES
    consumer: str  # "node" | "material" | "camera" | "light" | "interaction" (a node's undrawn states)
    field: str  # the consumer's name for it
    default: tuple[float, ...] | None  # schema default; None: animatable only where the file writes it
    shown: bool = True  # False: sampled and reported, but animview does not draw it


def _node(path: str, type_: str, field: str, default: tuple[float, ...] | None, shown: bool = True) -> Property:
    return Property("/nodes/{}/" + path, type_, "node", field, default, shown)


def _material(path: str, type_: str, field: str, default: tuple[float, ...] | None, shown: bool = True) -> Property:
    return Property("/materials/{}/" + path, type_, "material", field, default, shown)


def _transforms(slots: dict[str, tuple[str, ...]], shown: bool) -> tuple[Property, ...]:
    """KHR_texture_transform's offset, rotation (radians) and scale of each textureInfo slot."""
    out = []
    for name, path in slots.items():
        base = "/".join(path) + "/extensions/KHR_texture_transform/"
        out += [
            _material(base + "offset", "float2", f"{name}.offset", (0.0, 0.0), shown),
            _material(base + "rotation", "float", f"{name}.rotation", (0.0,), shown),
            _material(base + "scale", "float2", f"{name}.scale", (1.0, 1.0), shown),
        ]
    return tuple(out)


_EXT = "extensions/KHR_materials_"
_LIGHT = "/extensions/KHR_lights_punctual/lights/{}/"
_ONE, _ZERO = (1.0,), (0.0,)

PROPERTIES: tuple[Property, ...] = (
    _node("translation", "float3", "translation", (0.0, 0.0, 0.0)),
    _node("rotation", "float4", "rotation", (0.0, 0.0, 0.0, 1.0)),
    _node("scale", "float3", "scale", (1.0, 1.0, 1.0)),
    _node("weights", "float[]", "weights", None),  # rest from node, mesh or zeros (pointer_rules)
    _node("weights/{}", "float", "weights", None),
    _node("extensions/KHR_node_visibility/visible", "bool", "visible", _ONE),
    # interaction states, not pictures: sampled and reported (``sample``), never drawn
    Property(
        "/nodes/{}/extensions/KHR_node_selectability/selectable", "bool", "interaction", "selectable", _ONE, False
    ),
    Property("/nodes/{}/extensions/KHR_node_hoverability/hoverable", "bool", "interaction", "hoverable", _ONE, False),
    _material("pbrMetallicRoughness/baseColorFactor", "float4", "baseColorFactor", (1.0, 1.0, 1.0, 1.0)),
    _material("pbrMetallicRoughness/metallicFactor", "float", "metallicFactor", _ONE),
    _material("pbrMetallicRoughness/roughnessFactor", "float", "roughnessFactor", _ONE),
    _material("emissiveFactor", "float3", "emissiveFactor", (0.0, 0.0, 0.0)),
    _material("alphaCutoff", "float", "alphaCutoff", (0.5,)),
    _material("normalTexture/scale", "float", "normalScale", _ONE),
    _material("occlusionTexture/strength", "float", "occlusionStrength", _ONE),
    _material(_EXT + "emissive_strength/emissiveStrength", "float", "emissiveStrength", _ONE),
    _material(_EXT + "ior/ior", "float", "ior", (1.5,)),
    _material(_EXT + "specular/specularFactor", "float", "specularFactor", _ONE),
    _material(_EXT + "specular/specularColorFactor", "float3", "specularColorFactor", (1.0, 1.0, 1.0)),
    _material(_EXT + "clearcoat/clearcoatFactor", "float", "clearcoatFactor", _ZERO),
    _material(_EXT + "clearcoat/clearcoatRoughnessFactor", "float", "clearcoatRoughnessFactor", _ZERO),
    _material(_EXT + "clearcoat/clearcoatNormalTexture/scale", "float", "clearcoatNormalScale", _ONE),
    _material(_EXT + "sheen/sheenColorFactor", "float3", "sheenColorFactor", (0.0, 0.0, 0.0)),
    _material(_EXT + "sheen/sheenRoughnessFactor", "float", "sheenRoughnessFactor", _ZERO),
    _material(_EXT + "transmission/transmissionFactor", "float", "transmissionFactor", _ZERO),
    _material(_EXT + "volume/thicknessFactor", "float", "thicknessFactor", _ZERO),
    _material(_EXT + "volume/attenuationDistance", "float", "attenuationDistance", None),  # undefined: infinite
    _material(_EXT + "volume/attenuationColor", "float3", "attenuationColor", (1.0, 1.0, 1.0)),
    *_transforms(TEXTURE_SLOTS, shown=True),
    _material(_EXT + "anisotropy/anisotropyStrength", "float", "anisotropyStrength", _ZERO),
    _material(_EXT + "anisotropy/anisotropyRotation", "float", "anisotropyRotation", _ZERO),
    _material(_EXT + "iridescence/iridescenceFactor", "float", "iridescenceFactor", _ZERO),
    _material(_EXT + "iridescence/iridescenceIor", "float", "iridescenceIor", (1.3,)),
    _material(_EXT + "iridescence/iridescenceThicknessMinimum", "float", "iridescenceThicknessMinimum", (100.0,)),
    _material(_EXT + "iridescence/iridescenceThicknessMaximum", "float", "iridescenceThicknessMaximum", (400.0,)),
    _material(_EXT + "dispersion/dispersion", "float", "dispersion", _ZERO),
    # Inferred (no Object Model text names them): KHR_materials_diffuse_transmission by analogy with the others.
    _material(
        _EXT + "diffuse_transmission/diffuseTransmissionFactor",
        "float",
        "diffuseTransmissionFactor",
        _ZERO,
    ),
    _material(
        _EXT + "diffuse_transmission/diffuseTransmissionColorFactor",
        "float3",
        "diffuseTransmissionColorFactor",
        (1.0, 1.0, 1.0),
    ),
    # Camera properties are required by the schema or optional without a default: none has a default.
    Property("/cameras/{}/perspective/yfov", "float", "camera", "yfov", None),
    Property("/cameras/{}/perspective/aspectRatio", "float", "camera", "aspectRatio", None),
    Property("/cameras/{}/perspective/znear", "float", "camera", "znear", None),
    Property("/cameras/{}/perspective/zfar", "float", "camera", "zfar", None),  # undefined: infinite projection
    Property("/cameras/{}/orthographic/xmag", "float", "camera", "xmag", None),
    Property("/cameras/{}/orthographic/ymag", "float", "camera", "ymag", None),
    Property("/cameras/{}/orthographic/znear", "float", "camera", "znear", None),
    Property("/cameras/{}/orthographic/zfar", "float", "camera", "zfar", None),
    Property(_LIGHT + "color", "float3", "light", "color", (1.0, 1.0, 1.0)),
    Property(_LIGHT + "intensity", "float", "light", "intensity", _ONE),
    Property(_LIGHT + "range", "float", "light", "range", None),  # undefined: infinite
    Property(_LIGHT + "spot/innerConeAngle", "float", "light", "innerConeAngle", _ZERO),
    Property(_LIGHT + "spot/outerConeAngle", "float", "light", "outerConeAngle", (math.pi / 4,)),
)

# What a channel writes, however the file named it: (consumer, object index, field, weight element or None)
PropertyKey = tuple[str, int, str, "int | None"]


def same_property(a: PropertyKey, b: PropertyKey) -> bool:
    """Whether two channels write the same values: one property, or a weights array and one of its elements
    (KHR_animation_pointer forbids both within one animation)."""
    return a[:3] == b[:3] and (a[3] is None or b[3] is None or a[3] == b[3])
