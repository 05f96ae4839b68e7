"""viewer.files.writer, the one glTF writer: packing, JSON, containers, and agreement with pygltflib's GLB save."""

from __future__ import annotations

import json
import struct
from pathlib import Path

import numpy as np
import pygltflib
import pytest

import viewer
from viewer.files import writer


def _anim_writer() -> writer.JsonWriter:
    """A small valid file: a triangle node with a LINEAR translation clip and an inverse-bind-style MAT4."""
    w = writer.JsonWriter()
    pos = w.add_accessor(
        np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0]], np.float64), target=writer.ARRAY_BUFFER, min_max=True
    )
    w.add("meshes", {"primitives": [{"attributes": {"POSITION": pos}}]})
    w.add("nodes", {"mesh": 0})
    w.add("scenes", {"nodes": [0]})
    w.add_animation([dict(node=0, path="translation", times=[0.0, 0.5], values=[[0, 0, 0], [1, 2, 3]])], "Move")
    return w


# -- packing --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "dtype, code",
    [
        (np.int8, 5120),
        (np.uint8, 5121),
        (np.int16, 5122),
        (np.uint16, 5123),
        (np.uint32, 5125),
        (np.float32, 5126),
        (np.float64, 5126),
    ],
)
def test_component_type_follows_the_dtype(dtype, code) -> None:
    values, kind, ctype = writer.gltf_array(np.zeros((2, 3), dtype))
    assert (kind, ctype) == ("VEC3", code) and values.dtype == writer.DTYPES[code]


def test_type_follows_the_shape_and_unknown_dtypes_are_refused() -> None:
    shapes = {(5,): "SCALAR", (5, 2): "VEC2", (5, 4): "VEC4", (5, 2, 2): "MAT2", (5, 3, 3): "MAT3", (5, 4, 4): "MAT4"}
    for shape, kind in shapes.items():
        assert writer.gltf_array(np.zeros(shape, np.float32))[1] == kind
    with pytest.raises(ValueError, match="int64"):
        writer.gltf_array(np.zeros(3, np.int64))


def test_matrices_are_stored_column_major_and_read_back_in_math_convention(tmp_path: Path) -> None:
    w = _anim_writer()
    m = np.arange(32, dtype=np.float32).reshape(2, 4, 4)
    index = w.add_accessor(m)
    view = w.doc["bufferViews"][w.doc["accessors"][index]["bufferView"]]
    stored = np.frombuffer(bytes(w.bin[view["byteOffset"] : view["byteOffset"] + 128]), "<f4")
    np.testing.assert_array_equal(stored[:4], m[0, :, 0])  # the first column first
    scene = viewer.load(writer.write_gltf(w.to_dict(), w.bin_bytes(), tmp_path / "m.gltf"))
    np.testing.assert_array_equal(scene.document.accessor(index), m)


def test_small_matrix_columns_are_padded_to_four_bytes() -> None:
    m = np.array([[[1, 2], [3, 4]]], np.uint8)  # MAT2 of bytes: each 2-byte column padded to 4
    assert writer.element_bytes(m, "MAT2").tolist() == [[1, 3, 0, 0, 2, 4, 0, 0]]


def test_views_are_four_byte_aligned_and_optional_properties_only_when_asked() -> None:
    w = writer.JsonWriter()
    a = w.add_accessor(np.array([1, 2, 3], np.uint8))
    b = w.add_accessor(np.array([[0.1, 0.7]], np.float64), target=writer.ARRAY_BUFFER, min_max=True, name="b")
    c = w.add_accessor(np.array([[1, 2], [3, 4]], np.int16), normalized=True, byte_offset=4, byte_stride=8)
    views, accessors = w.doc["bufferViews"], w.doc["accessors"]
    assert [v["byteOffset"] for v in views] == [0, 4, 12]
    assert accessors[a] == {"bufferView": 0, "componentType": 5121, "count": 3, "type": "SCALAR"}
    assert views[1]["target"] == writer.ARRAY_BUFFER and "target" not in views[0]
    assert accessors[b]["min"] == [0.1, 0.7] == accessors[b]["max"] and accessors[b]["name"] == "b"  # f32 text
    assert accessors[c]["normalized"] is True and accessors[c]["byteOffset"] == 4 and views[2]["byteStride"] == 8
    assert bytes(w.bin[12:28]) == b"\0" * 4 + struct.pack("<hh4x", 1, 2) + struct.pack("<hh", 3, 4)
    assert len(w.bin_bytes()) % 4 == 0


def test_f32_is_the_shortest_text_that_round_trips_float32() -> None:
    assert writer.f32(0.707) == 0.707 and json.dumps(writer.f32(np.float32(0.1))) == "0.1"
    assert np.float32(writer.f32(1 / 3)) == np.float32(1 / 3)


def test_animation_samplers_share_inputs_only_when_asked() -> None:
    channels = [
        dict(node=0, path="translation", times=[0, 1], values=np.zeros((2, 3))),
        dict(node=0, path="weights", times=[0, 1], values=np.zeros((2, 2)), interpolation="STEP"),
    ]
    shared, separate = writer.JsonWriter(), writer.JsonWriter()
    shared.add_animation(channels, share_inputs=True)
    separate.add_animation(channels)
    assert [s["input"] for s in shared.doc["animations"][0]["samplers"]] == [0, 0]
    samplers = separate.doc["animations"][0]["samplers"]
    assert [s["input"] for s in samplers] == [0, 2] and "interpolation" not in samplers[0]
    assert separate.doc["accessors"][3]["count"] == 4  # weights flattened to scalars


def test_a_dict_is_written_as_given_even_when_wrong() -> None:
    w = writer.JsonWriter()
    w.add("animations", {"channels": [], "samplers": [], "name": ""})
    assert w.doc["animations"] == [{"channels": [], "samplers": [], "name": ""}]


# -- containers -----------------------------------------------------------------------------------


@pytest.mark.parametrize("form", ["embedded", "bin", "glb"])
def test_every_container_loads_with_the_same_data(tmp_path: Path, form: str) -> None:
    w = _anim_writer()
    doc, data = w.to_dict(), w.bin_bytes()
    if form == "glb":
        path = writer.save(doc, data, tmp_path / "m.glb")
    else:
        path = writer.write_gltf(doc, data, tmp_path / "my m.gltf", embed=form == "embedded")
    scene = viewer.load(path)
    raw = scene.document.raw
    if form == "bin":
        assert raw["buffers"][0]["uri"] == "my%20m.bin" and (tmp_path / "my m.bin").read_bytes() == data
    np.testing.assert_allclose(scene.clips[0].sample(0.25), [[0.5, 1.0, 1.5]])
    assert raw["accessors"] == doc["accessors"] and raw["bufferViews"] == doc["bufferViews"]


def test_glb_layout_header_chunks_and_padding(tmp_path: Path) -> None:
    w = _anim_writer()
    data = writer.glb_bytes(w.to_dict(), w.bin_bytes())
    magic, version, length = struct.unpack("<4sII", data[:12])
    assert (magic, version, length) == (b"glTF", 2, len(data))
    json_len, json_type = struct.unpack("<II", data[12:20])
    assert json_type == writer.GLB_JSON and json_len % 4 == 0
    text = data[20 : 20 + json_len]
    assert text == text.rstrip() + b" " * (len(text) - len(text.rstrip()))  # padded with spaces
    bin_len, bin_type = struct.unpack("<II", data[20 + json_len : 28 + json_len])
    assert bin_type == writer.GLB_BIN and bin_len == len(w.bin_bytes()) and (28 + json_len) % 4 == 0
    assert 28 + json_len + bin_len == len(data)


def test_glb_equals_pygltflib_save_for_a_well_formed_model() -> None:
    """Where pygltflib's GLB writer is right (one buffer, packed views) its bytes are ours."""
    w = writer.ModelWriter(generator="test")
    w.add_accessor(np.array([1, 2, 3], np.uint8))
    w.add_animation([dict(node=0, path="rotation", times=[0, 1], values=[[0, 0, 0, 1], [0, 0, 1, 0]])], "Turn")
    w.add("nodes", pygltflib.Node(name="n"))
    ours = writer.glb_bytes(w.to_dict(), w.bin_bytes())
    w.gltf.buffers = [pygltflib.Buffer(byteLength=len(w.bin_bytes()))]
    w.gltf.set_binary_blob(w.bin_bytes())
    assert b"".join(w.gltf.save_to_bytes()) == ours


def test_model_writer_leaves_out_absent_and_empty_properties() -> None:
    w = writer.ModelWriter(generator="g")
    w.add("nodes", pygltflib.Node(name="n"))
    assert w.to_dict() == {"asset": {"generator": "g", "version": "2.0"}, "nodes": [{"name": "n"}]}


def test_save_refuses_other_suffixes(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"\.glb or \.gltf"):
        writer.save({}, b"", tmp_path / "out.obj")
