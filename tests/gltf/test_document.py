"""load_document on real Khronos models and on valid edge cases: warnings, ignored channels, extensions."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import numpy as np
import pygltflib
import pytest

from tests.conftest import khronos_model, khronos_model_names
from tests.gltf_builder import GltfBuilder, minimal_animated, write_gltf
from viewer.base.errors import GltfError, GltfWarning
from viewer.gltf import SUPPORTED_EXTENSIONS, Document, load_document


@pytest.mark.parametrize("name", khronos_model_names())
def test_every_khronos_model_loads_and_reads(name: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # none of these files should even warn
        doc = load_document(khronos_model(name))
    assert isinstance(doc, Document) and isinstance(doc.gltf, pygltflib.GLTF2)
    assert doc.path.name == khronos_model(name).name
    for i in range(len(doc.gltf.accessors)):
        assert not doc.accessor(i).flags.writeable
    for i in range(len(doc.gltf.images)):
        assert doc.image_bytes(i)[:2] in (b"\x89P", b"\xff\xd8")
    for animation in doc.gltf.animations:
        for sampler in animation.samplers:
            assert np.all(np.diff(doc.accessor(sampler.input)) > 0)
    assert doc.ignored_channels == {}


def test_khronos_dir_fixture_holds_the_models(khronos_dir: Path) -> None:
    assert (khronos_dir / "Fox").is_dir()


def test_fox_glb_skin_and_animations() -> None:
    doc = load_document(khronos_model("Fox"))
    assert [a.name for a in doc.gltf.animations] == ["Survey", "Walk", "Run"]
    skin = doc.gltf.skins[0]
    ibm = doc.accessor(skin.inverseBindMatrices)
    assert ibm.shape == (len(skin.joints), 4, 4)
    np.testing.assert_allclose(ibm[:, 3], np.tile([0, 0, 0, 1], (len(skin.joints), 1)), atol=1e-6)


def test_rotation_keys_are_unit_quaternions() -> None:
    doc = load_document(khronos_model("AnimatedTriangle"))
    sampler = doc.gltf.animations[0].samplers[0]
    rotations = doc.accessor(sampler.output)
    assert rotations.shape == (len(doc.accessor(sampler.input)), 4)
    np.testing.assert_allclose(np.linalg.norm(rotations, axis=1), 1.0, atol=1e-3)  # stored as 0.707


def test_interpolation_test_cubicspline_counts() -> None:
    doc = load_document(khronos_model("InterpolationTest"))
    for animation in doc.gltf.animations:
        sampler = animation.samplers[0]
        keys, values = len(doc.accessor(sampler.input)), len(doc.accessor(sampler.output))
        assert values == keys * (3 if sampler.interpolation == "CUBICSPLINE" else 1)


def test_minimal_animated_file_loads_without_warnings(tmp_path: Path) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        doc = load_document(minimal_animated().write_gltf(tmp_path))
    assert len(doc.gltf.animations[0].channels) == 4
    assert doc.gltf.animations[0].samplers[3].interpolation == "LINEAR"  # pygltflib's default, as the spec's
    assert doc.raw["animations"][0]["samplers"][3].get("interpolation") is None


def _load_with(tmp_path: Path, mutate) -> tuple[Document, list[warnings.WarningMessage]]:
    b = minimal_animated()
    doc = b.to_dict()
    mutate(doc)
    path = write_gltf(doc, b.bin_bytes(), tmp_path, "m.gltf")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        loaded = load_document(path)
    return loaded, [w for w in caught if issubclass(w.category, GltfWarning)]


def test_unknown_used_extension_warns_and_loads(tmp_path: Path) -> None:
    doc, caught = _load_with(tmp_path, lambda d: d.update(extensionsUsed=["EXT_fancy_thing"]))
    assert len(caught) == 1 and "EXT_fancy_thing" in str(caught[0].message)
    assert doc.ignored_channels == {}


def test_supported_required_extensions_load_silently(tmp_path: Path) -> None:
    names = sorted(SUPPORTED_EXTENSIONS)
    _, caught = _load_with(tmp_path, lambda d: d.update(extensionsUsed=names, extensionsRequired=names))
    assert caught == []


def _pointer_at_channel_3(text: str):
    def mutate(doc: dict) -> None:
        doc["extensionsUsed"] = ["KHR_animation_pointer"]
        doc["animations"][0]["channels"][3]["target"] = {
            "path": "pointer",
            "extensions": {"KHR_animation_pointer": {"pointer": text}},
        }

    return mutate


def test_animation_pointer_channel_to_a_node_property_is_kept(tmp_path: Path) -> None:
    doc, caught = _load_with(tmp_path, _pointer_at_channel_3("/nodes/0/scale"))
    assert doc.ignored_channels == {} and caught == []


def test_bad_animation_pointer_is_ignored_with_its_reason(tmp_path: Path) -> None:
    doc, caught = _load_with(tmp_path, _pointer_at_channel_3("/nodes/9/scale"))
    assert list(doc.ignored_channels) == [(0, 3)] and "/nodes/9/scale" in doc.ignored_channels[(0, 3)]
    messages = [str(w.message) for w in caught]
    assert any("/nodes/9/scale" in m and "/animations/0/channels/3" in m for m in messages)


def test_animation_pointer_may_be_required(tmp_path: Path) -> None:
    b = minimal_animated()
    doc = b.to_dict()
    doc["extensionsUsed"] = doc["extensionsRequired"] = ["KHR_animation_pointer"]
    assert load_document(write_gltf(doc, b.bin_bytes(), tmp_path, "m.gltf")).ignored_channels == {}


def test_channel_without_node_is_ignored_with_a_warning(tmp_path: Path) -> None:
    doc, caught = _load_with(tmp_path, lambda d: d["animations"][0]["channels"][0]["target"].pop("node"))
    assert list(doc.ignored_channels) == [(0, 0)]
    assert any("no target node" in str(w.message) for w in caught)


def test_repeated_target_keeps_the_last_channel(tmp_path: Path) -> None:
    def mutate(doc: dict) -> None:
        doc["animations"][0]["channels"].append({"sampler": 0, "target": {"node": 2, "path": "translation"}})

    doc, caught = _load_with(tmp_path, mutate)
    assert list(doc.ignored_channels) == [(0, 0)]
    messages = [str(w.message) for w in caught]
    assert any("/animations/0/channels/0:" in m and "later channel 4, which wins" in m for m in messages)


def test_quantized_rotation_output_and_positions(tmp_path: Path) -> None:
    b = GltfBuilder()
    positions = b.add_accessor(np.array([[0, 0, 0], [100, 0, 0], [0, 100, 0]], np.int16))
    b.add("meshes", {"primitives": [{"attributes": {"POSITION": positions}}]})
    node = b.add_node(mesh=0)
    b.add_animation(
        [
            dict(
                node=node,
                path="rotation",
                times=[0, 1],
                component_type=5122,
                normalized=True,
                values=np.array([[0, 0, 0, 32767], [0, 0, 32767, 0]], np.int16),
            )
        ]
    )
    b.doc["extensionsUsed"] = b.doc["extensionsRequired"] = ["KHR_mesh_quantization"]
    doc = load_document(b.write_gltf(tmp_path))
    np.testing.assert_allclose(doc.accessor(doc.gltf.animations[0].samplers[0].output)[1], [0, 0, 1, 0])
    assert doc.accessor(positions).dtype == np.int16


def test_quantized_positions_need_the_extension(tmp_path: Path) -> None:
    b = GltfBuilder()
    positions = b.add_accessor(np.zeros((3, 3), np.int16))
    b.add("meshes", {"primitives": [{"attributes": {"POSITION": positions}}]})
    with pytest.raises(GltfError) as info:
        load_document(b.write_gltf(tmp_path))
    assert info.value.pointer == "/meshes/0/primitives/0/attributes/POSITION"


def test_single_key_cubicspline_is_legal(tmp_path: Path) -> None:
    b = GltfBuilder()
    node = b.add_node()
    b.add_animation(
        [
            dict(
                node=node,
                path="translation",
                interpolation="CUBICSPLINE",
                times=[0.5],
                values=[[0, 0, 0], [1, 2, 3], [0, 0, 0]],
            )
        ]
    )
    doc = load_document(b.write_gltf(tmp_path))
    np.testing.assert_array_equal(doc.accessor(1)[1], [1, 2, 3])


def test_byte_order_mark_is_tolerated(tmp_path: Path) -> None:
    path = tmp_path / "bom.gltf"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps({"asset": {"version": "2.1"}}).encode())
    assert load_document(path).gltf.asset.version == "2.1"


def test_unexpected_internal_failure_still_comes_out_as_gltf_error(tmp_path: Path, monkeypatch) -> None:
    from viewer.gltf import document

    def explode(*_args: object) -> None:
        raise ZeroDivisionError("boom")

    monkeypatch.setattr(document, "check_content", explode)
    with pytest.raises(GltfError) as info:
        load_document(minimal_animated().write_gltf(tmp_path))
    assert info.value.pointer == "" and "boom" in info.value.message
