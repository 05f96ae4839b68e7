"""The PBR material extensions the renderer reads are validated at load: a sound file loads silently, one bad
value gives its pointer; extensions the viewer does not read still only warn."""

from __future__ import annotations

import warnings

import pytest

from tests.gltf_builder import GltfBuilder
from viewer.base.errors import GltfError, GltfWarning
from viewer.gltf import SUPPORTED_EXTENSIONS, load_document

MAT = "/materials/0/extensions"


def texture(tex_coord: int = 0, **extra) -> dict:
    """A textureInfo using set ``tex_coord``, moved by KHR_texture_transform."""
    transform = {"offset": [0.5, 0], "rotation": 0.25, "scale": [2, 2], "texCoord": tex_coord}
    return {"index": 0, "texCoord": tex_coord, **extra, "extensions": {"KHR_texture_transform": transform}}


MATERIAL_EXTENSIONS = {
    "KHR_materials_ior": {"ior": 1.33},
    "KHR_materials_specular": {
        "specularFactor": 0.5,
        "specularTexture": texture(),
        "specularColorFactor": [2, 1, 0],
        "specularColorTexture": texture(1),
    },
    "KHR_materials_clearcoat": {
        "clearcoatFactor": 1,
        "clearcoatTexture": texture(),
        "clearcoatRoughnessFactor": 0.1,
        "clearcoatRoughnessTexture": texture(1),
        "clearcoatNormalTexture": texture(scale=-1.5),
    },
    "KHR_materials_sheen": {
        "sheenColorFactor": [1, 0.5, 0],
        "sheenColorTexture": texture(),
        "sheenRoughnessFactor": 0.3,
        "sheenRoughnessTexture": texture(1),
    },
    "KHR_materials_transmission": {"transmissionFactor": 0.9, "transmissionTexture": texture()},
    "KHR_materials_volume": {
        "thicknessFactor": 2.5,
        "thicknessTexture": texture(1),
        "attenuationDistance": 0.1,
        "attenuationColor": [1, 0.9, 0.8],
    },
    "KHR_materials_anisotropy": {"anisotropyStrength": 0.6, "anisotropyRotation": -7.5, "anisotropyTexture": texture()},
    "KHR_materials_iridescence": {
        "iridescenceFactor": 1,
        "iridescenceTexture": texture(),
        "iridescenceIor": 1.8,
        "iridescenceThicknessMinimum": 0,
        "iridescenceThicknessMaximum": 1200,
        "iridescenceThicknessTexture": texture(1),
    },
    "KHR_materials_dispersion": {"dispersion": 0.3},
    "KHR_materials_diffuse_transmission": {
        "diffuseTransmissionFactor": 0.25,
        "diffuseTransmissionTexture": texture(),
        "diffuseTransmissionColorFactor": [1, 2, 0.5],  # > 1 allowed: the schema sets only a minimum
        "diffuseTransmissionColorTexture": texture(1),
    },
}


def material_file(extensions: dict) -> GltfBuilder:
    b = GltfBuilder()
    b.add_mesh(positions=[[0, 0, 0], [1, 0, 0], [0, 1, 0]], indices=[0, 1, 2])
    b.doc["meshes"][0]["primitives"][0]["material"] = 0
    b.add("images", {"bufferView": b.add_buffer_view(b"\x89PNG not decoded at load"), "mimeType": "image/png"})
    b.add("textures", {"source": 0})
    b.add("materials", {"extensions": extensions})
    b.doc["extensionsUsed"] = sorted(extensions) + ["KHR_texture_transform"]
    b.add_node(mesh=0)
    b.add_scene([0])
    return b


def load_silently(b: GltfBuilder, tmp_path) -> list:
    path = b.write_gltf(tmp_path)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        load_document(path)
    return [w for w in caught if issubclass(w.category, GltfWarning)]


def test_new_extensions_are_supported():
    assert set(MATERIAL_EXTENSIONS) | {"KHR_lights_punctual"} <= SUPPORTED_EXTENSIONS


def test_sound_material_extensions_load_without_warning(tmp_path):
    assert load_silently(material_file(MATERIAL_EXTENSIONS), tmp_path) == []


@pytest.mark.parametrize("ior", [0, 1, 1.5, 2.4])
def test_ior_is_zero_or_at_least_one(tmp_path, ior):
    assert load_silently(material_file({"KHR_materials_ior": {"ior": ior}}), tmp_path) == []


@pytest.mark.parametrize(
    "name, key, value, where",
    [
        ("KHR_materials_ior", "ior", 0.5, "KHR_materials_ior/ior"),
        ("KHR_materials_ior", "ior", "1.5", "KHR_materials_ior/ior"),
        ("KHR_materials_specular", "specularFactor", 1.5, "KHR_materials_specular/specularFactor"),
        ("KHR_materials_specular", "specularColorFactor", [1, -1, 1], "KHR_materials_specular/specularColorFactor/1"),
        ("KHR_materials_specular", "specularTexture", {"index": 1}, "KHR_materials_specular/specularTexture/index"),
        (
            "KHR_materials_clearcoat",
            "clearcoatRoughnessFactor",
            -0.1,
            "KHR_materials_clearcoat/clearcoatRoughnessFactor",
        ),
        (
            "KHR_materials_clearcoat",
            "clearcoatNormalTexture",
            {"index": 0, "scale": "big"},
            "KHR_materials_clearcoat/clearcoatNormalTexture/scale",
        ),
        ("KHR_materials_sheen", "sheenColorFactor", [1, 1, 2], "KHR_materials_sheen/sheenColorFactor/2"),
        (
            "KHR_materials_sheen",
            "sheenRoughnessTexture",
            {"index": 0, "texCoord": -1},
            "KHR_materials_sheen/sheenRoughnessTexture/texCoord",
        ),
        ("KHR_materials_transmission", "transmissionFactor", 2, "KHR_materials_transmission/transmissionFactor"),
        (
            "KHR_materials_transmission",
            "transmissionTexture",
            {"index": 0, "extensions": {"KHR_texture_transform": {"scale": [1, 1, 1]}}},
            "KHR_materials_transmission/transmissionTexture/extensions/KHR_texture_transform/scale",
        ),
        ("KHR_materials_volume", "attenuationDistance", 0, "KHR_materials_volume/attenuationDistance"),
        ("KHR_materials_volume", "thicknessFactor", -1, "KHR_materials_volume/thicknessFactor"),
        ("KHR_materials_volume", "attenuationColor", [1, 1], "KHR_materials_volume/attenuationColor"),
        ("KHR_materials_anisotropy", "anisotropyStrength", 1.5, "KHR_materials_anisotropy/anisotropyStrength"),
        ("KHR_materials_anisotropy", "anisotropyRotation", "up", "KHR_materials_anisotropy/anisotropyRotation"),
        ("KHR_materials_iridescence", "iridescenceIor", 0.5, "KHR_materials_iridescence/iridescenceIor"),
        (
            "KHR_materials_iridescence",
            "iridescenceThicknessMinimum",
            -1,
            "KHR_materials_iridescence/iridescenceThicknessMinimum",
        ),
        ("KHR_materials_dispersion", "dispersion", -0.1, "KHR_materials_dispersion/dispersion"),
        (
            "KHR_materials_diffuse_transmission",
            "diffuseTransmissionColorFactor",
            [1, -1, 1],
            "KHR_materials_diffuse_transmission/diffuseTransmissionColorFactor/1",
        ),
    ],
)
def test_one_bad_value_gives_its_pointer(tmp_path, name, key, value, where):
    extensions = {n: dict(e) for n, e in MATERIAL_EXTENSIONS.items()}
    extensions[name][key] = value
    with pytest.raises(GltfError) as info:
        load_document(material_file(extensions).write_gltf(tmp_path))
    assert info.value.pointer == f"{MAT}/{where}"


def test_ior_message_names_both_allowed_ranges(tmp_path):
    with pytest.raises(GltfError, match="must be 0 or at least 1.0"):
        load_document(material_file({"KHR_materials_ior": {"ior": 0.9}}).write_gltf(tmp_path))


def test_other_material_extensions_still_only_warn(tmp_path):
    b = material_file({"KHR_materials_pbrSpecularGlossiness": {"glossinessFactor": "anything"}})
    caught = load_silently(b, tmp_path)
    assert len(caught) == 1 and "KHR_materials_pbrSpecularGlossiness" in str(caught[0].message)
