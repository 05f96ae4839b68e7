"""Accessor data → numpy: component types, normalization, strides, offsets, sparse, matrices, containers."""

from __future__ import annotations

import base64
import json
import struct
from pathlib import Path

import numpy as np
import pytest

from tests.gltf_builder import GltfBuilder, minimal_animated, write_glb, write_gltf
from viewer.gltf import load_document


def load_one(tmp_path: Path, b: GltfBuilder, container: str = "gltf"):
    """Write ``b`` as .gltf (external .bin), embedded .gltf or .glb and load it."""
    if container == "glb":
        return load_document(b.write_glb(tmp_path / "m.glb"))
    return load_document(b.write_gltf(tmp_path, "m.gltf", embed=(container == "embedded")))


def raw_accessor_file(tmp_path: Path, data: bytes, accessor: dict, byte_stride: int | None = None) -> Path:
    """A file whose one bufferView holds exactly ``data``; the accessor is written verbatim (no builder)."""
    view = {"buffer": 0, "byteLength": len(data)}
    if byte_stride:
        view["byteStride"] = byte_stride
    doc = {
        "asset": {"version": "2.0"},
        "buffers": [{"byteLength": len(data)}],
        "bufferViews": [view],
        "accessors": [{"bufferView": 0, **accessor}],
    }
    return write_gltf(doc, data, tmp_path, "raw.gltf", embed=True)


@pytest.mark.parametrize(
    "dtype, code",
    [(np.int8, 5120), (np.uint8, 5121), (np.int16, 5122), (np.uint16, 5123), (np.uint32, 5125), (np.float32, 5126)],
)
def test_each_component_type_keeps_its_values_and_dtype(tmp_path: Path, dtype: type, code: int) -> None:
    info = np.finfo(dtype) if dtype == np.float32 else np.iinfo(dtype)
    values = np.array([[info.min, 0, 1, info.max]] * 3, dtype)
    b = GltfBuilder()
    a = b.add_accessor(values)
    doc = load_one(tmp_path, b)
    assert doc.raw["accessors"][a]["componentType"] == code
    out = doc.accessor(a)
    assert out.dtype == dtype and out.shape == (3, 4)
    np.testing.assert_array_equal(out, values)


@pytest.mark.parametrize(
    "dtype, stored, expected",
    [
        (np.int8, [-128, -127, 0, 64, 127], [-1.0, -1.0, 0.0, 64 / 127, 1.0]),
        (np.uint8, [0, 1, 128, 255], [0.0, 1 / 255, 128 / 255, 1.0]),
        (np.int16, [-32768, -32767, 0, 32767], [-1.0, -1.0, 0.0, 1.0]),
        (np.uint16, [0, 32768, 65535], [0.0, 32768 / 65535, 1.0]),
    ],
)
def test_normalized_integers_dequantize_by_the_spec_formula(
    tmp_path: Path, dtype: type, stored: list, expected: list
) -> None:
    b = GltfBuilder()
    a = b.add_accessor(np.array(stored, dtype), normalized=True)
    out = load_one(tmp_path, b).accessor(a)
    assert out.dtype == np.float32
    np.testing.assert_allclose(out, np.array(expected, np.float32), rtol=0, atol=1e-7)


def test_scalar_vec_and_mat_shapes(tmp_path: Path) -> None:
    b = GltfBuilder()
    ids = [
        b.add_accessor(np.zeros(5, np.float32)),
        b.add_accessor(np.zeros((5, 2), np.float32)),
        b.add_accessor(np.zeros((5, 3, 3), np.float32)),
        b.add_accessor(np.zeros((5, 4, 4), np.float32)),
    ]
    doc = load_one(tmp_path, b)
    assert [doc.accessor(i).shape for i in ids] == [(5,), (5, 2), (5, 3, 3), (5, 4, 4)]


def test_mat4_column_major_becomes_row_col(tmp_path: Path) -> None:
    """glTF stores a translation matrix as 1,0,0,0, 0,1,0,0, 0,0,1,0, tx,ty,tz,1 (columns)."""
    stored = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 7, 8, 9, 1, 2, 0, 0, 0, 0, 3, 0, 0, 0, 0, 4, 0, 0, 5, 0, 1]
    path = raw_accessor_file(
        tmp_path, struct.pack("<32f", *stored), {"componentType": 5126, "count": 2, "type": "MAT4"}
    )
    m = load_document(path).accessor(0)
    assert m.shape == (2, 4, 4)
    np.testing.assert_array_equal(m[0, :3, 3], [7, 8, 9])  # translation in the last column
    np.testing.assert_array_equal(m[0, 3], [0, 0, 0, 1])
    assert m[1, 1, 3] == 5 and m[1, 0, 0] == 2 and m[1, 2, 2] == 4


@pytest.mark.parametrize(
    "kind, ctype, column_bytes", [("MAT2", 5120, 4), ("MAT3", 5121, 4), ("MAT3", 5122, 8), ("MAT2", 5123, 4)]
)
def test_small_matrices_have_padded_columns(tmp_path: Path, kind: str, ctype: int, column_bytes: int) -> None:
    n = int(kind[-1])
    fmt = {5120: "b", 5121: "B", 5122: "h", 5123: "H"}[ctype]
    item = struct.calcsize(fmt)
    columns = [[10 * c + r + 1 for r in range(n)] for c in range(n)]  # column c, row r → 10c + r + 1
    data = b"".join(struct.pack(f"<{n}{fmt}", *col) + b"\xee" * (column_bytes - n * item) for col in columns)
    path = raw_accessor_file(tmp_path, data * 2, {"componentType": ctype, "count": 2, "type": kind})
    m = load_document(path).accessor(0)
    expected = np.array(columns).T
    np.testing.assert_array_equal(m[0], expected)
    np.testing.assert_array_equal(m[1], expected)


def test_builder_matrices_round_trip_with_padding(tmp_path: Path) -> None:
    b = GltfBuilder()
    mats = np.arange(2 * 9, dtype=np.int8).reshape(2, 3, 3)
    a = b.add_accessor(mats, "MAT3")
    np.testing.assert_array_equal(load_one(tmp_path, b).accessor(a), mats)


def test_interleaved_byte_stride(tmp_path: Path) -> None:
    b = GltfBuilder()
    pos = np.arange(12, dtype=np.float32).reshape(4, 3)
    uv = np.array([[0, 65535], [1, 2], [3, 4], [5, 6]], np.uint16)
    color = np.arange(16, dtype=np.uint8).reshape(4, 4)
    ids = b.add_interleaved([pos, uv, color])
    doc = load_one(tmp_path, b)
    assert doc.raw["bufferViews"][0]["byteStride"] == 12 + 4 + 4
    for i, expected in zip(ids, [pos, uv, color]):
        np.testing.assert_array_equal(doc.accessor(i), expected)


def test_byte_stride_with_padding_and_accessor_byte_offset(tmp_path: Path) -> None:
    b = GltfBuilder()
    b.add_accessor(np.ones(3, np.uint8))  # so the next bufferView has a non-zero byteOffset
    values = np.arange(9, dtype=np.float32).reshape(3, 3)
    a = b.add_accessor(values, byte_stride=20, byte_offset=8)
    doc = load_one(tmp_path, b)
    assert doc.raw["bufferViews"][1]["byteOffset"] > 0 and doc.raw["accessors"][a]["byteOffset"] == 8
    np.testing.assert_array_equal(doc.accessor(a), values)


def test_stride_reads_the_last_element_without_trailing_padding(tmp_path: Path) -> None:
    """The view may end right after the last element: offset + stride * (count - 1) + element size."""
    data = struct.pack("<f", 1.0) + b"\0" * 12 + struct.pack("<f", 2.0)
    path = raw_accessor_file(tmp_path, data, {"componentType": 5126, "count": 2, "type": "SCALAR"}, byte_stride=16)
    np.testing.assert_array_equal(load_document(path).accessor(0), [1.0, 2.0])


def test_sparse_without_buffer_view_substitutes_over_zeros(tmp_path: Path) -> None:
    b = GltfBuilder()
    a = b.add_sparse_accessor(6, [1, 4], np.array([[1, 2, 3], [4, 5, 6]], np.float32), index_component_type=5121)
    expected = np.zeros((6, 3), np.float32)
    expected[1], expected[4] = [1, 2, 3], [4, 5, 6]
    np.testing.assert_array_equal(load_one(tmp_path, b).accessor(a), expected)


def test_sparse_with_buffer_view_substitutes_over_base(tmp_path: Path) -> None:
    b = GltfBuilder()
    base = np.arange(5, dtype=np.float32)
    a = b.add_sparse_accessor(5, [0, 3], np.array([10, 30], np.float32), base=base, index_component_type=5123)
    np.testing.assert_array_equal(load_one(tmp_path, b).accessor(a), [10, 1, 2, 30, 4])


def test_sparse_normalized_values_are_dequantized_after_substitution(tmp_path: Path) -> None:
    b = GltfBuilder()
    a = b.add_sparse_accessor(3, [2], np.array([255], np.uint8), base=np.array([0, 51, 0], np.uint8), normalized=True)
    np.testing.assert_allclose(load_one(tmp_path, b).accessor(a), [0.0, 0.2, 1.0], atol=1e-7)


def test_accessor_without_buffer_view_or_sparse_is_zeros(tmp_path: Path) -> None:
    b = GltfBuilder()
    a = b.add("accessors", {"componentType": 5123, "count": 4, "type": "VEC2"})
    b.add_accessor(np.zeros(1, np.float32))  # a buffer, so the file is not empty
    out = load_one(tmp_path, b).accessor(a)
    assert out.dtype == np.uint16 and out.shape == (4, 2) and not out.any()


def test_accessor_arrays_are_cached_and_read_only(tmp_path: Path) -> None:
    b = GltfBuilder()
    a = b.add_accessor(np.arange(4, dtype=np.float32))
    doc = load_one(tmp_path, b)
    first = doc.accessor(a)
    assert first is doc.accessor(a)
    assert not first.flags.writeable
    with pytest.raises(ValueError):
        first[0] = 5


def test_containers_give_identical_accessors(tmp_path: Path) -> None:
    b = minimal_animated()
    docs = []
    for container in ("gltf", "embedded", "glb"):
        (tmp_path / container).mkdir()
        docs.append(load_one(tmp_path / container, b, container))
    for i, accessor in enumerate(b.doc["accessors"]):
        assert docs[0].accessor(i).shape[0] == accessor["count"]
        for other in docs[1:]:
            np.testing.assert_array_equal(other.accessor(i), docs[0].accessor(i))
    np.testing.assert_array_equal(docs[0].accessor(b.doc["animations"][0]["samplers"][0]["input"]), [0, 1, 2])
    assert docs[0].accessor(b.doc["skins"][0]["inverseBindMatrices"])[1, 1, 3] == -2.0


def test_percent_encoded_buffer_uri(tmp_path: Path) -> None:
    b = GltfBuilder()
    a = b.add_accessor(np.array([1.5, 2.5], np.float32))
    path = b.write_gltf(tmp_path, "m.gltf", bin_name="my file.bin")
    assert json.loads(path.read_text())["buffers"][0]["uri"] == "my%20file.bin"
    assert (tmp_path / "my file.bin").is_file()
    np.testing.assert_array_equal(load_document(path).accessor(a), [1.5, 2.5])


def test_data_uri_buffer(tmp_path: Path) -> None:
    b = GltfBuilder()
    a = b.add_accessor(np.array([3, 4], np.uint16))
    path = b.write_gltf(tmp_path, "m.gltf", embed=True)
    assert json.loads(path.read_text())["buffers"][0]["uri"].startswith("data:application/octet-stream;base64,")
    assert not list(tmp_path.glob("*.bin"))
    np.testing.assert_array_equal(load_document(path).accessor(a), [3, 4])


def test_glb_round_trip_with_image_and_str_path(tmp_path: Path) -> None:
    b = minimal_animated()
    png = b"\x89PNG\r\n\x1a\n" + bytes(range(13))
    image = b.add_image(png)
    path = b.write_glb(tmp_path / "m.glb")
    doc = load_document(str(path))
    assert doc.path == path
    assert doc.image_bytes(image) == png
    assert bytes(doc.buffer_view_bytes(b.doc["images"][image]["bufferView"])) == png
    assert doc.gltf.binary_blob()[:4] == b.bin_bytes()[:4]


def test_glb_without_buffers_and_without_bin_chunk(tmp_path: Path) -> None:
    doc = {"asset": {"version": "2.0"}, "nodes": [{"name": "empty"}], "scenes": [{"nodes": [0]}]}
    loaded = load_document(write_glb(doc, None, tmp_path / "empty.glb"))
    assert loaded.gltf.nodes[0].name == "empty"


def test_image_bytes_from_file_and_data_uri(tmp_path: Path) -> None:
    (tmp_path / "tex ture.png").write_bytes(b"\x89PNG-file")
    data_uri = "data:image/png;base64," + base64.b64encode(b"\x89PNG-data").decode()
    doc = {"asset": {"version": "2.0"}, "images": [{"uri": "tex%20ture.png"}, {"uri": data_uri}]}
    loaded = load_document(write_gltf(doc, b"", tmp_path, "img.gltf"))
    assert loaded.image_bytes(0) == b"\x89PNG-file"
    assert loaded.image_bytes(1) == b"\x89PNG-data"


def test_glb_json_chunk_padded_with_nul_bytes_is_accepted(tmp_path: Path) -> None:
    """The spec pads with spaces; some writers used NUL bytes, which are not JSON. Padding is not data."""
    doc = json.dumps({"asset": {"version": "2.0"}, "nodes": [{"name": "n"}]}).encode()
    doc += b"\0" * (-len(doc) % 4 or 4)
    path = write_glb({}, None, tmp_path / "nul.glb", json_bytes=doc)
    assert load_document(path).gltf.nodes[0].name == "n"
