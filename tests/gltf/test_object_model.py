"""The Object Model table and KHR_animation_pointer resolution: pure JSON in, Target or one-line reason out."""

from __future__ import annotations

import math

import numpy as np
import pytest

from viewer.gltf.object_model import PROPERTIES, TEXTURE_SLOTS, TYPES, Property
from viewer.gltf.pointer_rules import Target, check_output, parse_pointer, resolve

LIGHTS = "/extensions/KHR_lights_punctual/lights"
TT = "extensions/KHR_texture_transform"


def asset() -> dict:
    """Nodes: 0 TRS, 1 matrix, 2 morphed mesh 0 with node weights, 3 morphed mesh 1 (mesh weights), 4 morphed mesh 2
    (no weights), 5 plain mesh 3, 6 visibility. Materials: 0 bare, 1 full. Cameras: 0 perspective (no zfar), 1
    orthographic. Lights: 0 spot, 1 point with range, 2 spot without its spot object."""
    targets = [{"POSITION": 0}, {"POSITION": 1}]
    return {
        "asset": {"version": "2.0"},
        "nodes": [
            {"translation": [1, 2, 3], "scale": [2, 2, 2]},
            {"matrix": [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]},
            {"mesh": 0, "weights": [0.25, 0.75]},
            {"mesh": 1},
            {"mesh": 2},
            {"mesh": 3},
            {"extensions": {"KHR_node_visibility": {"visible": False}, "KHR_node_selectability": {"selectable": True}}},
        ],
        "meshes": [
            {"primitives": [{"attributes": {"POSITION": 0}, "targets": targets}]},
            {"primitives": [{"attributes": {"POSITION": 0}, "targets": targets}], "weights": [0.5, 0.125]},
            {"primitives": [{"attributes": {"POSITION": 0}, "targets": targets}]},
            {"primitives": [{"attributes": {"POSITION": 0}}]},
        ],
        "materials": [
            {},
            {
                "pbrMetallicRoughness": {
                    "baseColorFactor": [0.5, 0.25, 1, 1],
                    "baseColorTexture": {"index": 0, "extensions": {"KHR_texture_transform": {"offset": [0.5, 0.5]}}},
                },
                "normalTexture": {"index": 0},
                "occlusionTexture": {"index": 0, "strength": 0.5},
                "extensions": {
                    "KHR_materials_ior": {"ior": 1.25},
                    "KHR_materials_clearcoat": {"clearcoatFactor": 0.75, "clearcoatNormalTexture": {"index": 0}},
                    "KHR_materials_volume": {"thicknessFactor": 0.5},
                    "KHR_materials_anisotropy": {
                        "anisotropyStrength": 0.5,
                        "anisotropyTexture": {"index": 0, "extensions": {"KHR_texture_transform": {}}},
                    },
                },
            },
        ],
        "cameras": [
            {"type": "perspective", "perspective": {"yfov": 0.8, "znear": 0.1}},
            {"type": "orthographic", "orthographic": {"xmag": 2, "ymag": 1, "znear": 0.5, "zfar": 50}},
        ],
        "extensions": {
            "KHR_lights_punctual": {
                "lights": [
                    {"type": "spot", "intensity": 5, "spot": {"outerConeAngle": 0.6}},
                    {"type": "point", "color": [1, 0.5, 0.25], "range": 10},
                    {"type": "spot"},
                ]
            }
        },
    }


def target(pointer: str, raw: dict | None = None) -> Target:
    found = resolve(asset() if raw is None else raw, pointer)
    assert isinstance(found, Target), found
    return found


def reason(pointer: str, raw: dict | None = None) -> str:
    found = resolve(asset() if raw is None else raw, pointer)
    assert isinstance(found, str), found
    assert found.startswith(f"{pointer}: ") and "\n" not in found
    return found


# --- the table ---------------------------------------------------------------------------------------------------


def test_templates_are_unique_and_typed():
    templates = [p.template for p in PROPERTIES]
    assert len(templates) == len(set(templates))
    for p in PROPERTIES:
        assert p.type in TYPES
        assert p.consumer in ("node", "material", "camera", "light", "interaction")
        assert p.template.startswith("/") and "{}" in p.template
        if p.default is not None:
            assert len(p.default) == TYPES[p.type][1]


def test_every_texture_slot_has_a_transform():
    fields = {p.field: p for p in PROPERTIES if p.consumer == "material"}
    for slot, path in TEXTURE_SLOTS.items():
        for part, kind in (("offset", "float2"), ("rotation", "float"), ("scale", "float2")):
            p = fields[f"{slot}.{part}"]
            assert p.template == "/materials/{}/" + "/".join(path) + f"/{TT}/{part}"
            assert p.type == kind and p.shown


def test_texture_slots_match_the_renderer():
    from viewer.render.materials import SLOTS

    assert TEXTURE_SLOTS == {name: path for name, (path, _) in SLOTS.items()}


def test_accessor_types():
    assert TYPES["float"] == ("SCALAR", 1) and TYPES["float4"] == ("VEC4", 4) and TYPES["float[]"] == ("SCALAR", None)
    assert TYPES["bool"] == TYPES["int"] == ("SCALAR", 1)


# --- parse_pointer -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, tokens",
    [
        ("/nodes/0/translation", ("nodes", "0", "translation")),
        ("/a~1b/c~0d", ("a/b", "c~d")),
        ("/~01", ("~1",)),  # "~0" first, so "~01" is "~" then "1", not "/"
        ("/", ("",)),
        ("", ()),
    ],
)
def test_parse_pointer(text, tokens):
    assert parse_pointer(text) == tokens


@pytest.mark.parametrize("text", ["nodes/0/translation", "/nodes/0/x~2", "/nodes~", "/a~", 5, None, b"/nodes/0"])
def test_parse_pointer_refuses_malformed(text):
    assert parse_pointer(text) is None


@pytest.mark.parametrize("text", ["nodes/0/translation", "/nodes/~2/translation", "/nodes/0/translation~"])
def test_malformed_pointer_reason(text):
    assert "not a valid JSON pointer" in reason(text)


def test_non_string_pointer_reason():
    found = resolve(asset(), 7)
    assert isinstance(found, str) and found.startswith("7: ") and "not a valid JSON pointer" in found


def test_escapes_reach_the_json():
    raw = asset()
    raw["nodes"][0]["extras"] = {"a/b": 1, "c~d": 2}
    assert "not animatable" in reason("/nodes/0/extras/a~1b", raw)
    assert "not animatable" in reason("/nodes/0/extras/c~0d", raw)
    assert "names no property" in reason("/nodes/0/extras/a~0b", raw)


# --- nodes -------------------------------------------------------------------------------------------------------


def test_node_trs_rest_from_file_or_default():
    t = target("/nodes/0/translation")
    assert (t.property.consumer, t.property.field, t.index, t.element, t.width) == ("node", "translation", 0, None, 3)
    assert t.pointer == "/nodes/0/translation" and t.property.type == "float3"
    assert t.rest.dtype == np.float64 and t.rest.tolist() == [1, 2, 3]
    assert target("/nodes/0/rotation").rest.tolist() == [0, 0, 0, 1]
    assert target("/nodes/0/scale").rest.tolist() == [2, 2, 2]
    assert target("/nodes/2/scale").rest.tolist() == [1, 1, 1]
    assert target("/nodes/2/translation").index == 2


def test_matrix_node_refuses_trs():
    for path in ("translation", "rotation", "scale"):
        assert "matrix" in reason(f"/nodes/1/{path}")


def test_node_weights_array():
    t = target("/nodes/2/weights")
    assert (t.property.type, t.property.field, t.element, t.width) == ("float[]", "weights", None, 2)
    assert t.rest.tolist() == [0.25, 0.75]
    assert target("/nodes/3/weights").rest.tolist() == [0.5, 0.125]  # from the mesh
    assert target("/nodes/4/weights").rest.tolist() == [0.0, 0.0]  # zeros


def test_node_weights_element():
    t = target("/nodes/2/weights/1")
    assert (t.property.type, t.property.field, t.index, t.element, t.width) == ("float", "weights", 2, 1, 1)
    assert t.rest.tolist() == [0.75]
    assert target("/nodes/3/weights/0").rest.tolist() == [0.5]
    assert target("/nodes/4/weights/1").rest.tolist() == [0.0]


def test_node_weights_element_out_of_range():
    found = reason("/nodes/2/weights/2")
    assert "out of range" in found and "2 morph targets" in found


@pytest.mark.parametrize("node", [0, 5])  # no mesh; a mesh without morph targets
def test_node_weights_need_morph_targets(node):
    assert "morph targets" in reason(f"/nodes/{node}/weights")
    assert "morph targets" in reason(f"/nodes/{node}/weights/0")


def test_node_weights_of_the_wrong_length():
    raw = asset()
    raw["nodes"][2]["weights"] = [1.0]
    assert "not 2 numbers" in reason("/nodes/2/weights", raw)


def test_visibility_is_a_bool():
    t = target("/nodes/6/extensions/KHR_node_visibility/visible")
    assert (t.property.type, t.property.field, t.width) == ("bool", "visible", 1)
    assert t.rest.tolist() == [0.0]
    raw = asset()
    raw["nodes"][0]["extensions"] = {"KHR_node_visibility": {}}
    assert target("/nodes/0/extensions/KHR_node_visibility/visible", raw).rest.tolist() == [1.0]


def test_visibility_needs_its_extension_object():
    found = reason("/nodes/0/extensions/KHR_node_visibility/visible")
    assert "has no extensions/KHR_node_visibility" in found


def test_node_selectability_and_hoverability_are_sampled_not_drawn():
    """Interaction states: targets of their own consumer (so no node path meets them), shown=False."""
    t = target("/nodes/6/extensions/KHR_node_selectability/selectable")
    assert (t.property.consumer, t.property.field, t.property.shown, t.index) == ("interaction", "selectable", False, 6)
    raw = asset()
    raw["nodes"][0]["extensions"] = {"KHR_node_hoverability": {"hoverable": False}}
    assert target("/nodes/0/extensions/KHR_node_hoverability/hoverable", raw).rest.tolist() == [0.0]
    assert "has no extensions/KHR_node_hoverability" in reason("/nodes/1/extensions/KHR_node_hoverability/hoverable")


def test_missing_node():
    found = reason("/nodes/7/translation")
    assert "node 7 does not exist" in found and "7 nodes" in found
    assert "the file has 0 nodes" in reason("/nodes/0/rotation", {"asset": {"version": "2.0"}})


# --- materials ---------------------------------------------------------------------------------------------------


def test_material_values_and_defaults():
    t = target("/materials/1/pbrMetallicRoughness/baseColorFactor")
    assert (t.property.consumer, t.property.field, t.index, t.width) == ("material", "baseColorFactor", 1, 4)
    assert t.rest.tolist() == [0.5, 0.25, 1, 1]
    assert target("/materials/1/pbrMetallicRoughness/metallicFactor").rest.tolist() == [1.0]  # default, AP example
    assert target("/materials/0/emissiveFactor").rest.tolist() == [0, 0, 0]
    assert target("/materials/0/alphaCutoff").rest.tolist() == [0.5]
    assert target("/materials/1/normalTexture/scale").property.field == "normalScale"
    assert target("/materials/1/occlusionTexture/strength").rest.tolist() == [0.5]


def test_material_extension_values():
    ext = "/materials/1/extensions/"
    assert target(ext + "KHR_materials_ior/ior").rest.tolist() == [1.25]
    assert target(ext + "KHR_materials_clearcoat/clearcoatFactor").rest.tolist() == [0.75]
    assert target(ext + "KHR_materials_clearcoat/clearcoatRoughnessFactor").rest.tolist() == [0.0]
    t = target(ext + "KHR_materials_clearcoat/clearcoatNormalTexture/scale")
    assert t.property.field == "clearcoatNormalScale" and t.rest.tolist() == [1.0]
    t = target(ext + "KHR_materials_volume/attenuationColor")
    assert t.property.field == "attenuationColor" and t.width == 3 and t.rest.tolist() == [1, 1, 1]


def test_material_enclosing_objects_must_be_present():
    assert "has no pbrMetallicRoughness object" in reason("/materials/0/pbrMetallicRoughness/metallicFactor")
    assert "has no normalTexture object" in reason("/materials/0/normalTexture/scale")
    assert "has no extensions/KHR_materials_emissive_strength object" in reason(
        "/materials/1/extensions/KHR_materials_emissive_strength/emissiveStrength"
    )
    assert "has no extensions/KHR_materials_sheen object" in reason(
        "/materials/0/extensions/KHR_materials_sheen/sheenColorFactor"
    )


def test_attenuation_distance_must_be_written():
    found = reason("/materials/1/extensions/KHR_materials_volume/attenuationDistance")
    assert "attenuationDistance" in found and "no default" in found
    raw = asset()
    raw["materials"][1]["extensions"]["KHR_materials_volume"]["attenuationDistance"] = 3
    assert target("/materials/1/extensions/KHR_materials_volume/attenuationDistance", raw).rest.tolist() == [3.0]


def test_ior_zero_is_not_animated():
    raw = asset()
    raw["materials"][1]["extensions"]["KHR_materials_ior"]["ior"] = 0
    found = reason("/materials/1/extensions/KHR_materials_ior/ior", raw)
    assert "ior 0" in found and "ignored" in found


def test_ior_default():
    raw = asset()
    raw["materials"][0]["extensions"] = {"KHR_materials_ior": {}}
    assert target("/materials/0/extensions/KHR_materials_ior/ior", raw).rest.tolist() == [1.5]


def test_texture_transform():
    base = f"/materials/1/pbrMetallicRoughness/baseColorTexture/{TT}/"
    t = target(base + "offset")
    assert (t.property.field, t.property.type, t.width) == ("base.offset", "float2", 2)
    assert t.rest.tolist() == [0.5, 0.5]
    assert target(base + "rotation").rest.tolist() == [0.0]
    assert target(base + "scale").rest.tolist() == [1.0, 1.0]


def test_texture_transform_needs_the_extension_object():
    assert "has no normalTexture/extensions/KHR_texture_transform object" in reason(
        f"/materials/1/normalTexture/{TT}/offset"
    )
    assert "has no emissiveTexture/extensions/KHR_texture_transform object" in reason(
        f"/materials/1/emissiveTexture/{TT}/scale"
    )


def test_texture_coordinate_set_is_not_animatable():
    raw = asset()
    raw["materials"][1]["pbrMetallicRoughness"]["baseColorTexture"]["extensions"]["KHR_texture_transform"][
        "texCoord"
    ] = 1
    assert "not animatable" in reason(f"/materials/1/pbrMetallicRoughness/baseColorTexture/{TT}/texCoord", raw)


def test_every_khronos_material_extension_is_sampled_and_drawn():
    """Issue 27: pointers into anisotropy, iridescence, dispersion and diffuse transmission are targets now."""
    ext = "/materials/1/extensions/KHR_materials_anisotropy/"
    strength = target(ext + "anisotropyStrength")
    assert (strength.property.field, strength.rest.tolist(), strength.property.shown) == (
        "anisotropyStrength",
        [0.5],
        True,
    )
    assert target(ext + "anisotropyRotation").rest.tolist() == [0.0]  # the default where the file omits it
    assert target(ext + f"anisotropyTexture/{TT}/rotation").property.field == "anisotropy.rotation"
    raw = asset()
    raw["materials"][0]["extensions"] = {
        "KHR_materials_dispersion": {},
        "KHR_materials_iridescence": {"iridescenceThicknessMaximum": 250},
        "KHR_materials_diffuse_transmission": {"diffuseTransmissionColorFactor": [1, 0.5, 0]},
    }
    assert target("/materials/0/extensions/KHR_materials_dispersion/dispersion", raw).rest.tolist() == [0.0]
    iri = "/materials/0/extensions/KHR_materials_iridescence/"
    assert target(iri + "iridescenceIor", raw).rest.tolist() == [1.3]
    assert target(iri + "iridescenceThicknessMaximum", raw).rest.tolist() == [250.0]
    dt = "/materials/0/extensions/KHR_materials_diffuse_transmission/diffuseTransmissionColorFactor"
    assert target(dt, raw).rest.tolist() == [1.0, 0.5, 0.0]
    assert all(p.shown for p in PROPERTIES if p.consumer == "material")


def test_vendor_extensions_are_not_in_the_table():
    raw = asset()
    raw["materials"][0]["extensions"] = {"ADOBE_materials_clearcoat_tint": {"clearcoatTintFactor": [1, 1, 1]}}
    assert "not animatable" in reason("/materials/0/extensions/ADOBE_materials_clearcoat_tint/clearcoatTintFactor", raw)


def test_missing_material():
    found = reason("/materials/3/pbrMetallicRoughness/baseColorFactor")
    assert found == (
        "/materials/3/pbrMetallicRoughness/baseColorFactor: material 3 does not exist (the file has 2 materials)"
    )


# --- cameras -----------------------------------------------------------------------------------------------------


def test_camera_perspective():
    t = target("/cameras/0/perspective/yfov")
    assert (t.property.consumer, t.property.field, t.index, t.width) == ("camera", "yfov", 0, 1)
    assert t.rest.tolist() == [0.8]
    assert target("/cameras/0/perspective/znear").rest.tolist() == [0.1]


def test_camera_orthographic():
    assert target("/cameras/1/orthographic/xmag").rest.tolist() == [2.0]
    assert target("/cameras/1/orthographic/ymag").property.field == "ymag"
    t = target("/cameras/1/orthographic/zfar")
    assert t.property.field == "zfar" and t.rest.tolist() == [50.0]


def test_camera_type_mismatch():
    found = reason("/cameras/0/orthographic/xmag")
    assert "perspective" in found and "orthographic" in found
    assert "orthographic" in reason("/cameras/1/perspective/yfov")


def test_camera_properties_without_default_must_be_written():
    assert "no default" in reason("/cameras/0/perspective/zfar")
    assert "no default" in reason("/cameras/0/perspective/aspectRatio")
    raw = asset()
    raw["cameras"][0]["perspective"]["zfar"] = 100
    assert target("/cameras/0/perspective/zfar", raw).rest.tolist() == [100.0]


def test_missing_camera():
    assert "camera 2 does not exist (the file has 2 cameras)" in reason("/cameras/2/perspective/yfov")


# --- lights ------------------------------------------------------------------------------------------------------


def test_light_values_and_defaults():
    t = target(f"{LIGHTS}/1/color")
    assert (t.property.consumer, t.property.field, t.index, t.width) == ("light", "color", 1, 3)
    assert t.rest.tolist() == [1, 0.5, 0.25]
    assert target(f"{LIGHTS}/0/color").rest.tolist() == [1, 1, 1]
    assert target(f"{LIGHTS}/0/intensity").rest.tolist() == [5.0]
    assert target(f"{LIGHTS}/1/intensity").rest.tolist() == [1.0]
    assert target(f"{LIGHTS}/1/range").rest.tolist() == [10.0]


def test_light_spot_angles():
    inner = target(f"{LIGHTS}/0/spot/innerConeAngle")
    assert inner.property.field == "innerConeAngle" and inner.rest.tolist() == [0.0]
    assert target(f"{LIGHTS}/0/spot/outerConeAngle").rest.tolist() == [0.6]
    raw = asset()
    del raw["extensions"]["KHR_lights_punctual"]["lights"][0]["spot"]["outerConeAngle"]
    assert target(f"{LIGHTS}/0/spot/outerConeAngle", raw).rest.tolist() == [pytest.approx(math.pi / 4)]


def test_light_spot_angles_need_spot():
    assert "only spot lights" in reason(f"{LIGHTS}/1/spot/innerConeAngle")
    assert "has no spot object" in reason(f"{LIGHTS}/2/spot/outerConeAngle")


def test_light_range_must_be_written():
    assert "no default" in reason(f"{LIGHTS}/0/range")


def test_missing_light():
    assert "light 3 does not exist (the file has 3 KHR_lights_punctual lights)" in reason(f"{LIGHTS}/3/color")
    assert "light 0 does not exist (the file has 0 KHR_lights_punctual lights)" in reason(
        f"{LIGHTS}/0/color", {"asset": {"version": "2.0"}}
    )


# --- pointers outside the table ----------------------------------------------------------------------------------


@pytest.mark.parametrize("pointer", ["/meshes/0/weights", "/meshes/1/weights/0"])
def test_mesh_weights_left_the_object_model(pointer):
    found = reason(pointer)
    assert "2026" in found and "/nodes/{}/weights" in found


@pytest.mark.parametrize(
    "pointer",
    [
        "/nodes/01/translation",
        "/nodes/-1/translation",
        "/nodes/1.0/translation",
        "/nodes/+0/translation",
        "/materials/00/alphaCutoff",
    ],
)
def test_index_tokens_must_be_canonical(pointer):
    assert "names no property" in reason(pointer)


def test_canonical_multi_digit_index():
    raw = asset()
    raw["nodes"] += [{} for _ in range(12)]
    assert target("/nodes/12/translation", raw).index == 12


@pytest.mark.parametrize(
    "pointer",
    [
        "/nodes/0/translation/1",
        "/nodes/0/rotation/3",
        "/materials/1/pbrMetallicRoughness/baseColorFactor/0",
        f"{LIGHTS}/1/color/2",
    ],
)
def test_single_components_are_refused(pointer):
    found = reason(pointer)
    assert "component" in found and "whole" in found


@pytest.mark.parametrize(
    "pointer",
    [
        "/nodes/0",
        "/nodes/2/mesh",
        "/materials/1/normalTexture/index",
        "/cameras/0/type",
        f"{LIGHTS}/0/type",
        "/asset/version",
    ],
)
def test_json_values_outside_the_object_model(pointer):
    assert "is not animatable (read-only or not in the glTF Object Model)" in reason(pointer)


@pytest.mark.parametrize("pointer", ["/nodes/0/position", "/nodes/0/matrix/3", "/skins/0/joints", "/nodes/0/"])
def test_pointers_to_nothing(pointer):
    assert "names no property of the glTF Object Model" in reason(pointer)


# --- check_output ------------------------------------------------------------------------------------------------


def accessor(type_: str, count: int, component: int = 5126, normalized: bool = False) -> dict:
    return {"type": type_, "componentType": component, "normalized": normalized, "count": count}


def bool_target() -> Target:
    return target("/nodes/6/extensions/KHR_node_visibility/visible")


def int_target() -> Target:
    """No ratified property is an int; one made up, as an extension might add."""
    prop = Property("/nodes/{}/extensions/X/level", "int", "node", "level", (0.0,))
    return Target("/nodes/0/extensions/X/level", prop, 0, None, 1, np.zeros(1))


def test_output_fits():
    assert check_output(target("/nodes/0/translation"), accessor("VEC3", 4), "LINEAR", 4) is None
    assert check_output(target("/nodes/0/rotation"), accessor("VEC4", 4, 5122, True), "LINEAR", 4) is None
    assert check_output(target("/materials/0/alphaCutoff"), accessor("SCALAR", 2, 5121), "STEP", 2) is None
    assert check_output(target("/materials/0/alphaCutoff"), accessor("SCALAR", 2, 5125), "STEP", 2) is None
    assert check_output(bool_target(), accessor("SCALAR", 3, 5121), "STEP", 3) is None
    assert check_output(int_target(), accessor("SCALAR", 3, 5125), "STEP", 3) is None


def test_output_type_must_match():
    found = check_output(target("/nodes/0/translation"), accessor("VEC4", 4), "LINEAR", 4)
    assert found.startswith("/nodes/0/translation: ") and "VEC3" in found and "VEC4" in found
    found = check_output(
        target("/materials/1/pbrMetallicRoughness/baseColorTexture/extensions/KHR_texture_transform/offset"),
        accessor("VEC3", 2),
        "LINEAR",
        2,
    )
    assert "VEC2" in found


def test_float_output_refuses_bad_component_types():
    alpha = target("/materials/0/alphaCutoff")
    assert "5126 normalized" in check_output(alpha, accessor("SCALAR", 2, 5126, True), "LINEAR", 2)
    assert "5125 normalized" in check_output(alpha, accessor("SCALAR", 2, 5125, True), "LINEAR", 2)
    assert "componentType 5130" in check_output(alpha, accessor("SCALAR", 2, 5130), "LINEAR", 2)


@pytest.mark.parametrize("component, normalized", [(5126, False), (5121, True), (5120, False), (5123, False)])
def test_bool_output_needs_unsigned_byte(component, normalized):
    found = check_output(bool_target(), accessor("SCALAR", 3, component, normalized), "STEP", 3)
    assert "unsigned byte" in found and str(component) in found


@pytest.mark.parametrize("component, normalized", [(5126, False), (5121, True), (5122, True)])
def test_int_output_needs_plain_integers(component, normalized):
    found = check_output(int_target(), accessor("SCALAR", 3, component, normalized), "STEP", 3)
    assert "non-normalized integer" in found and str(component) in found


@pytest.mark.parametrize("interpolation", ["LINEAR", "CUBICSPLINE"])
def test_bool_and_int_need_step(interpolation):
    count = 9 if interpolation == "CUBICSPLINE" else 3
    for t in (bool_target(), int_target()):
        found = check_output(t, accessor("SCALAR", count, 5121), interpolation, 3)
        assert "STEP" in found and interpolation in found


def test_unknown_interpolation():
    assert "SMOOTH" in check_output(target("/nodes/0/scale"), accessor("VEC3", 2), "SMOOTH", 2)


def test_output_count():
    t = target("/nodes/0/translation")
    assert check_output(t, accessor("VEC3", 12), "CUBICSPLINE", 4) is None
    found = check_output(t, accessor("VEC3", 4), "CUBICSPLINE", 4)
    assert "4 elements" in found and "expected 12" in found and "CUBICSPLINE" in found
    assert "expected 4" in check_output(t, accessor("VEC3", 5), "STEP", 4)


def test_output_count_of_weights():
    weights = target("/nodes/2/weights")
    assert check_output(weights, accessor("SCALAR", 8), "LINEAR", 4) is None
    assert check_output(weights, accessor("SCALAR", 24), "CUBICSPLINE", 4) is None
    found = check_output(weights, accessor("SCALAR", 4), "LINEAR", 4)
    assert "expected 8" in found and "2 values" in found
    one = target("/nodes/2/weights/1")
    assert check_output(one, accessor("SCALAR", 4), "LINEAR", 4) is None
    assert "expected 12" in check_output(one, accessor("SCALAR", 24), "CUBICSPLINE", 4)
