"""The shape of glTF 2.0 JSON: each property's JSON type, whether it is required, its range, and which
top-level array an index points into (after the glTF 2.0 JSON schema, ``specification/2.0/schema``).

This is data only, written with ``schema_spec``'s builders; ``validate.check_structure`` walks it. Properties
not listed here (``name``, ``extras``, the contents of extensions the viewer does not read, …) are not checked;
every object's ``extensions`` must be an object of objects, as the schema's ``glTFProperty`` says. Rules that need
more than one property at a time (matrix vs TRS, counts that must agree, data in buffers) live in the other
``validate_*`` modules.
"""

from __future__ import annotations

import math

from viewer.gltf.accessors import COMPONENT_DTYPES, TYPE_COMPONENTS, UNSIGNED_INT_TYPES
from viewer.gltf.schema_spec import Spec, array, boolean, index, integer, mapping, number, obj, string

INTERPOLATIONS = ("LINEAR", "STEP", "CUBICSPLINE")
PRIMITIVE_MODES = tuple(range(7))  # POINTS … TRIANGLE_FAN


TEXTURE_TRANSFORM = obj(
    {  # KHR_texture_transform, read by the renderer
        "offset": array(number(), length=2),
        "rotation": number(),
        "scale": array(number(), length=2),
        "texCoord": integer(minimum=0),
    }
)


def _texture_info(**extra: Spec) -> Spec:
    """A textureInfo (§5.28); normal and occlusion textures add ``scale`` / ``strength``."""
    return obj(
        {
            "index": index("textures", required=True),
            "texCoord": integer(minimum=0),
            **extra,
            "extensions": obj({"KHR_texture_transform": TEXTURE_TRANSFORM}),
        }
    )


UNIT = {"minimum": 0.0, "maximum": 1.0}
RGB_UNIT = array(number(**UNIT), length=3)

# Material extensions the renderer reads, each after its Khronos schema (extensions/2.0/Khronos/…).
MATERIAL_EXTENSIONS = {
    "KHR_materials_emissive_strength": obj({"emissiveStrength": number(minimum=0.0)}),
    "KHR_materials_ior": obj({"ior": number(minimum=1.0, also=(0,))}),  # 0: the limit of a thin film
    "KHR_materials_specular": obj(
        {
            "specularFactor": number(**UNIT),
            "specularTexture": _texture_info(),
            "specularColorFactor": array(number(minimum=0.0), length=3),  # may exceed 1: it scales F0
            "specularColorTexture": _texture_info(),
        }
    ),
    "KHR_materials_clearcoat": obj(
        {
            "clearcoatFactor": number(**UNIT),
            "clearcoatTexture": _texture_info(),
            "clearcoatRoughnessFactor": number(**UNIT),
            "clearcoatRoughnessTexture": _texture_info(),
            "clearcoatNormalTexture": _texture_info(scale=number()),
        }
    ),
    "KHR_materials_sheen": obj(
        {
            "sheenColorFactor": RGB_UNIT,
            "sheenColorTexture": _texture_info(),
            "sheenRoughnessFactor": number(**UNIT),
            "sheenRoughnessTexture": _texture_info(),
        }
    ),
    "KHR_materials_transmission": obj({"transmissionFactor": number(**UNIT), "transmissionTexture": _texture_info()}),
    "KHR_materials_volume": obj(
        {
            "thicknessFactor": number(minimum=0.0),
            "thicknessTexture": _texture_info(),
            "attenuationDistance": number(positive=True),
            "attenuationColor": RGB_UNIT,
        }
    ),
    "KHR_materials_anisotropy": obj(
        {"anisotropyStrength": number(**UNIT), "anisotropyRotation": number(), "anisotropyTexture": _texture_info()}
    ),
    "KHR_materials_iridescence": obj(
        {
            "iridescenceFactor": number(**UNIT),
            "iridescenceTexture": _texture_info(),
            "iridescenceIor": number(minimum=1.0),
            "iridescenceThicknessMinimum": number(minimum=0.0),
            "iridescenceThicknessMaximum": number(minimum=0.0),
            "iridescenceThicknessTexture": _texture_info(),
        }
    ),
    "KHR_materials_dispersion": obj({"dispersion": number(minimum=0.0)}),
    "KHR_materials_diffuse_transmission": obj(
        {
            "diffuseTransmissionFactor": number(**UNIT),
            "diffuseTransmissionTexture": _texture_info(),
            "diffuseTransmissionColorFactor": array(number(minimum=0.0), length=3),
            "diffuseTransmissionColorTexture": _texture_info(),
        }
    ),
}

MATERIAL = obj(
    {
        "pbrMetallicRoughness": obj(
            {
                "baseColorFactor": array(number(**UNIT), length=4),
                "baseColorTexture": _texture_info(),
                "metallicFactor": number(**UNIT),
                "roughnessFactor": number(**UNIT),
                "metallicRoughnessTexture": _texture_info(),
            }
        ),
        "normalTexture": _texture_info(scale=number()),
        "occlusionTexture": _texture_info(strength=number(**UNIT)),
        "emissiveTexture": _texture_info(),
        "emissiveFactor": RGB_UNIT,
        "alphaMode": string(enum=("OPAQUE", "MASK", "BLEND")),
        "alphaCutoff": number(minimum=0.0),
        "doubleSided": boolean(),
        "extensions": obj(MATERIAL_EXTENSIONS),
    }
)

PRIMITIVE = obj(
    {
        "attributes": mapping(index("accessors"), required=True, min_items=1),
        "indices": index("accessors"),
        "material": index("materials"),
        "mode": integer(enum=PRIMITIVE_MODES),
        "targets": array(mapping(index("accessors"), min_items=1), min_items=1),
        # KHR_materials_variants: which material the primitive draws with under which variants
        "extensions": obj(
            {
                "KHR_materials_variants": obj(
                    {
                        "mappings": array(
                            obj(
                                {
                                    "variants": array(index("variants"), required=True, min_items=1),
                                    "material": index("materials", required=True),
                                }
                            ),
                            required=True,
                            min_items=1,
                        )
                    }
                )
            }
        ),
    }
)

MESH = obj({"primitives": array(PRIMITIVE, required=True, min_items=1), "weights": array(number(), min_items=1)})

NODE = obj(
    {
        "camera": index("cameras"),
        "children": array(index("nodes")),
        "skin": index("skins"),
        "matrix": array(number(), length=16),
        "mesh": index("meshes"),
        "rotation": array(number(), length=4),  # unit length is not enforced: exporters round
        "scale": array(number(), length=3),
        "translation": array(number(), length=3),
        "weights": array(number(), min_items=1),
        "extensions": obj({"KHR_lights_punctual": obj({"light": index("lights", required=True)})}),
    }
)

# KHR_lights_punctual (extensions/2.0/Khronos/KHR_lights_punctual): the root's lights. That a spot light has
# its spot object (and only it), and inner < outer, are checked in ``validate_scene.check_lights``.
LIGHT = obj(
    {
        "name": string(),
        "type": string(required=True, enum=("directional", "point", "spot")),
        "color": RGB_UNIT,
        "intensity": number(minimum=0.0),
        "range": number(positive=True),  # read for point and spot lights only
        "spot": obj(
            {
                "innerConeAngle": number(minimum=0.0, maximum=math.pi / 2),
                "outerConeAngle": number(positive=True, maximum=math.pi / 2),
            }
        ),
    }
)

SPOT_DEFAULTS = {"innerConeAngle": 0.0, "outerConeAngle": math.pi / 4}  # radians

# Arrays that indices point into but that live inside an extension: ref name → path from the root.
NESTED_ARRAYS = {
    "lights": ("extensions", "KHR_lights_punctual", "lights"),
    "variants": ("extensions", "KHR_materials_variants", "variants"),
}

SPARSE = obj(
    {
        "count": integer(required=True, minimum=1),
        "indices": obj(
            {
                "bufferView": index("bufferViews", required=True),
                "byteOffset": integer(minimum=0),
                "componentType": integer(required=True, enum=UNSIGNED_INT_TYPES),
            },
            required=True,
        ),
        "values": obj(
            {"bufferView": index("bufferViews", required=True), "byteOffset": integer(minimum=0)}, required=True
        ),
    }
)

ACCESSOR = obj(
    {
        "bufferView": index("bufferViews"),
        "byteOffset": integer(minimum=0),
        "componentType": integer(required=True, enum=tuple(COMPONENT_DTYPES)),
        "normalized": boolean(),
        "count": integer(required=True, minimum=1),
        "type": string(required=True, enum=tuple(TYPE_COMPONENTS)),
        "max": array(number(), min_items=1),
        "min": array(number(), min_items=1),
        "sparse": SPARSE,
    }
)

ANIMATION = obj(
    {
        "channels": array(
            obj(
                {
                    "sampler": integer(required=True, minimum=0),  # an index into this animation's samplers
                    "target": obj({"node": index("nodes"), "path": string(required=True)}, required=True),
                }
            ),
            required=True,
            min_items=1,
        ),
        "samplers": array(
            obj(
                {
                    "input": index("accessors", required=True),
                    "interpolation": string(enum=INTERPOLATIONS),
                    "output": index("accessors", required=True),
                }
            ),
            required=True,
            min_items=1,
        ),
    }
)

CAMERA = obj(
    {
        "type": string(required=True, enum=("perspective", "orthographic")),
        "perspective": obj(
            {
                "aspectRatio": number(positive=True),
                "yfov": number(required=True, positive=True),
                "zfar": number(positive=True),
                "znear": number(required=True, positive=True),
            }
        ),
        "orthographic": obj(
            {
                "xmag": number(required=True),
                "ymag": number(required=True),
                "zfar": number(required=True, positive=True),
                "znear": number(required=True, minimum=0.0),
            }
        ),
    }
)

GLTF = obj(
    {
        "asset": obj(
            {"version": string(required=True), "minVersion": string(), "generator": string(), "copyright": string()},
            required=True,
        ),
        "extensionsUsed": array(string()),
        "extensionsRequired": array(string()),
        # before nodes, which index its lights
        "extensions": obj(
            {
                "KHR_lights_punctual": obj({"lights": array(LIGHT, required=True)}),
                "KHR_materials_variants": obj(
                    {"variants": array(obj({"name": string(required=True)}), required=True, min_items=1)}
                ),
            }
        ),
        "scene": index("scenes"),
        "scenes": array(obj({"nodes": array(index("nodes"))})),
        "nodes": array(NODE),
        "meshes": array(MESH),
        "skins": array(
            obj(
                {
                    "inverseBindMatrices": index("accessors"),
                    "skeleton": index("nodes"),
                    "joints": array(index("nodes"), required=True, min_items=1),
                }
            )
        ),
        "animations": array(ANIMATION),
        "accessors": array(ACCESSOR),
        "bufferViews": array(
            obj(
                {
                    "buffer": index("buffers", required=True),
                    "byteOffset": integer(minimum=0),
                    "byteLength": integer(required=True, minimum=1),
                    "byteStride": integer(minimum=4, maximum=252, multiple_of=4),
                    "target": integer(enum=(34962, 34963)),
                }
            )
        ),
        "buffers": array(obj({"uri": string(), "byteLength": integer(required=True, minimum=1)})),
        "materials": array(MATERIAL),
        "textures": array(obj({"sampler": index("samplers"), "source": index("images")})),
        "images": array(obj({"uri": string(), "mimeType": string(), "bufferView": index("bufferViews")})),
        "samplers": array(
            obj(
                {
                    "magFilter": integer(enum=(9728, 9729)),
                    "minFilter": integer(enum=(9728, 9729, 9984, 9985, 9986, 9987)),
                    "wrapS": integer(enum=(33071, 33648, 10497)),
                    "wrapT": integer(enum=(33071, 33648, 10497)),
                }
            )
        ),
        "cameras": array(CAMERA),
    }
)
