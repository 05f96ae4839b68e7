"""viewer/files/meshopt_pack.py: animation bufferViews written as EXT_meshopt_compression ATTRIBUTES streams.

Files are finished the way ``animview reduce --meshopt`` must finish them (``compress_views``, then
``packed_dict`` and ``writer.save``) and read back by the package's own loader: a reader must get exactly what
``decode_filtered`` promised, the file must load without a warning, and a long channel must shrink.
"""

from __future__ import annotations

import copy
import warnings
from pathlib import Path

import numpy as np
import pytest

import viewer
from tests.gltf_builder import GltfBuilder, minimal_animated
from viewer.files import writer
from viewer.files.bake import copy_document
from viewer.files.meshopt_pack import EXT, compress_views, decode_filtered, encode_filtered, packed_dict
from viewer.gltf.accessors import dequantize
from viewer.gltf.document import load_document

SHORT, FLOAT = 5122, 5126


def motion(n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Times, unit quaternions, translations and scales of a smooth ``n``-key motion."""
    t = np.arange(n, dtype=np.float32) / np.float32(30)
    angle = np.linspace(0, 6, n)
    axis = np.stack([np.sin(angle * 0.3), np.cos(angle * 0.2), np.full(n, 0.5)], axis=1)
    axis /= np.linalg.norm(axis, axis=1, keepdims=True)
    rotations = np.concatenate([axis * np.sin(angle / 2)[:, None], np.cos(angle / 2)[:, None]], axis=1)
    translations = np.stack([np.sin(angle), np.cos(angle) * 2, angle * 0.1], axis=1)
    scales = 1 + 0.2 * np.stack([np.sin(angle * 2)] * 3, axis=1)
    return t, rotations, translations, scales.astype(np.float32)


def animated(n: int, packed: bool) -> tuple[GltfBuilder, dict[int, str | None], dict[int, np.ndarray]]:
    """A mesh node moved by three samplers over ``n`` keys; with ``packed`` the rotation (12-bit QUATERNION) and
    translation (15-bit EXPONENTIAL) accessors hold the filters' encoded forms, else what a reader decodes.

    Returns the builder, the views to compress (times and scales with no filter) and each sampler output's
    expected values (accessor → what the loader must give).
    """
    times, rotations, translations, scales = motion(n)
    q_stored = encode_filtered(rotations, "QUATERNION", 12)
    t_stored = encode_filtered(translations, "EXPONENTIAL", 15)
    q_read, t_read = decode_filtered(q_stored, "QUATERNION"), decode_filtered(t_stored, "EXPONENTIAL")
    b = GltfBuilder()
    node = b.add_node(mesh=b.add_mesh([[0, 0, 0], [1, 0, 0], [0, 1, 0]], [0, 1, 2]), name="mover")
    inputs = b.add_accessor(times, min_max=True)
    rot = b.add_accessor(q_stored if packed else q_read, "VEC4", SHORT, normalized=True)
    tra = b.add_accessor(t_stored if packed else t_read, "VEC3", FLOAT)
    sca = b.add_accessor(scales)
    paths = {"rotation": rot, "translation": tra, "scale": sca}
    b.add(
        "animations",
        {
            "samplers": [{"input": inputs, "output": a} for a in paths.values()],
            "channels": [{"sampler": k, "target": {"node": node, "path": p}} for k, p in enumerate(paths)],
        },
    )
    b.add_scene([node])
    view = {a: b.doc["accessors"][a]["bufferView"] for a in (inputs, rot, tra, sca)}
    views = {view[inputs]: None, view[rot]: "QUATERNION", view[tra]: "EXPONENTIAL", view[sca]: None}
    expected = {inputs: times, rot: dequantize(q_read, SHORT), tra: t_read, sca: scales}
    return b, views, expected


def save(w: writer.JsonWriter, path: Path) -> Path:
    """What a caller does after ``compress_views``."""
    return writer.save(packed_dict(w), w.bin_bytes(), path)


def load_quietly(path: Path):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        load_document(path)
        return viewer.load(path)


@pytest.mark.parametrize("name", ["packed.glb", "packed.gltf"])
def test_readers_get_exactly_what_decode_filtered_said(tmp_path, name):
    b, views, expected = animated(2000, packed=True)
    total = compress_views(b, views)
    scene = load_quietly(save(b, tmp_path / name))
    raw = scene.document.raw
    assert 0 < total < sum(raw["bufferViews"][v]["byteLength"] for v in views)
    assert raw["extensionsUsed"] == [EXT] and raw["extensionsRequired"] == [EXT]
    assert raw["buffers"][1] == {"byteLength": raw["buffers"][1]["byteLength"], "extensions": {EXT: {"fallback": True}}}
    assert "uri" not in raw["buffers"][1]
    for accessor, values in expected.items():
        assert np.array_equal(scene.document.accessor(accessor), values), accessor
    for v, filt in views.items():
        ext = raw["bufferViews"][v]["extensions"][EXT]
        assert raw["bufferViews"][v]["buffer"] == 1 and ext["buffer"] == 0 and ext["mode"] == "ATTRIBUTES"
        assert ext.get("filter") == filt and ext["byteStride"] * ext["count"] == raw["bufferViews"][v]["byteLength"]
    strides = {raw["bufferViews"][v]["extensions"][EXT]["byteStride"] for v in views}
    assert strides == {4, 8, 12}
    curves = {ch.path: ch.curve for ch in scene.clips[0].channels}
    inputs, _, translations, scales = expected.values()
    assert np.array_equal(curves["translation"].times, inputs)
    assert np.array_equal(curves["translation"].values, translations)
    assert np.array_equal(curves["scale"].values, scales)


def test_a_long_channel_shrinks_and_plays_the_same(tmp_path):
    plain_builder, _, expected = animated(2000, packed=False)
    plain_path = writer.save(plain_builder.to_dict(), plain_builder.bin_bytes(), tmp_path / "plain.glb")
    b, views, _ = animated(2000, packed=True)
    compress_views(b, views)
    packed_path = save(b, tmp_path / "packed.glb")
    assert packed_path.stat().st_size < 0.6 * plain_path.stat().st_size
    plain, packed = viewer.load(plain_path), load_quietly(packed_path)
    for accessor in expected:
        assert np.array_equal(packed.document.accessor(accessor), plain.document.accessor(accessor))
    times = np.linspace(0, 70, 301)
    assert np.array_equal(packed.clips[0].sample(times), plain.clips[0].sample(times))


def test_views_left_plain_move_with_the_streams(tmp_path):
    """The mesh's views stay in buffer 0, behind or between the streams, and read the same."""
    b, views, expected = animated(50, packed=True)
    before = {a: bytes(b.bin[v["byteOffset"] : v["byteOffset"] + v["byteLength"]]) for a, v in _views(b).items()}
    compress_views(b, views)
    doc = load_quietly(save(b, tmp_path / "packed.gltf")).document
    for a, data in before.items():
        if doc.raw["accessors"][a]["bufferView"] not in views:
            assert doc.raw["bufferViews"][doc.raw["accessors"][a]["bufferView"]]["buffer"] == 0
            assert bytes(doc.buffer_view_bytes(doc.raw["accessors"][a]["bufferView"])) == data


def _views(b: GltfBuilder) -> dict[int, dict]:
    return {a: b.doc["bufferViews"][acc["bufferView"]] for a, acc in enumerate(b.doc["accessors"])}


def test_compressing_in_two_calls_equals_one_file(tmp_path):
    b, views, expected = animated(300, packed=True)
    first = dict(list(views.items())[:2])
    assert compress_views(b, first) > 0
    assert compress_views(b, {v: f for v, f in views.items() if v not in first}) > 0
    scene = load_quietly(save(b, tmp_path / "twice.glb"))
    for accessor, values in expected.items():
        assert np.array_equal(scene.document.accessor(accessor), values)
    assert [x["byteLength"] for x in scene.document.raw["buffers"]][1] == sum(
        scene.document.raw["bufferViews"][v]["byteLength"] for v in views
    )


def test_compressed_twice_or_nothing_asked_changes_nothing():
    b, views, _ = animated(100, packed=True)
    fresh = (copy.deepcopy(b.doc), bytes(b.bin))
    assert compress_views(b, {}) == 0
    assert (b.doc, bytes(b.bin)) == fresh
    compress_views(b, views)
    once = (copy.deepcopy(b.doc), bytes(b.bin))
    assert compress_views(b, views) == 0
    assert (b.doc, bytes(b.bin)) == once


@pytest.mark.parametrize(
    "which, filt",
    [("scale", "QUATERNION"), ("rotation", "EXPONENTIAL"), ("scale", "OCTAHEDRAL"), ("missing", None)],
)
def test_views_that_cannot_take_the_filter_are_refused_untouched(which, filt):
    """Nothing changes, not even the bounds of a good view (the times, EXPONENTIAL) planned before the bad one."""
    b, views, _ = animated(20, packed=True)
    by_filter = {f: v for v, f in views.items()}
    times, scale = sorted(v for v, f in views.items() if f is None)
    view = {"scale": scale, "rotation": by_filter["QUATERNION"]}.get(which, 99)
    fresh = (copy.deepcopy(b.doc), bytes(b.bin))
    with pytest.raises(ValueError):
        compress_views(b, {times: "EXPONENTIAL", by_filter["EXPONENTIAL"]: "EXPONENTIAL", view: filt})
    assert (b.doc, bytes(b.bin)) == fresh


def test_bounds_of_a_filtered_accessor_are_what_a_reader_decodes(tmp_path):
    """Times through EXPONENTIAL: the input's min/max (which a reader checks) follow the decoded keys."""
    times = np.arange(40, dtype=np.float32) / np.float32(7)
    stored = encode_filtered(times, "EXPONENTIAL", 10)
    b = GltfBuilder()
    node = b.add_node()
    inputs = b.add_accessor(stored, "SCALAR", FLOAT, min_max=True)
    output = b.add_accessor(np.zeros((40, 3), np.float32))
    b.add(
        "animations",
        {
            "samplers": [{"input": inputs, "output": output}],
            "channels": [{"sampler": 0, "target": {"node": node, "path": "translation"}}],
        },
    )
    b.add_scene([node])
    compress_views(b, {b.doc["accessors"][inputs]["bufferView"]: "EXPONENTIAL"})
    doc = load_quietly(save(b, tmp_path / "times.glb")).document
    decoded = decode_filtered(stored, "EXPONENTIAL")
    assert np.array_equal(doc.accessor(inputs), decoded)
    assert doc.raw["accessors"][inputs]["min"] == [writer.f32(decoded.min())]
    assert doc.raw["accessors"][inputs]["max"] == [writer.f32(decoded.max())]


def test_a_copied_file_compresses_every_animation_view(tmp_path):
    """The reduce path: ``copy_document`` of a file with LINEAR, CUBICSPLINE, STEP and weights samplers, every
    sampler view compressed with no filter (strides from the accessors), reads back byte for byte."""
    path = minimal_animated().write_glb(tmp_path / "minimal.glb")
    doc = load_document(path)
    w = copy_document(doc)
    accessors = {s[k] for a in w.doc["animations"] for s in a["samplers"] for k in ("input", "output")}
    views = {w.doc["accessors"][a]["bufferView"]: None for a in accessors}
    compress_views(w, views)
    packed = load_quietly(save(w, tmp_path / "packed.glb")).document
    for a in range(len(doc.raw["accessors"])):
        assert np.array_equal(packed.accessor(a), doc.accessor(a))


@pytest.mark.parametrize("bits", [4, 8, 12, 16])
def test_quaternion_stored_form_decodes_near_the_rotation(bits):
    _, rotations, _, _ = motion(200)
    read = dequantize(decode_filtered(encode_filtered(rotations, "QUATERNION", bits), "QUATERNION"), SHORT)
    error = np.minimum(np.abs(read - rotations).max(axis=1), np.abs(read + rotations).max(axis=1))
    assert error.max() < 2.0 / (2 ** (bits - 1) - 1) + 2.0 / 32767


@pytest.mark.parametrize("bits", [1, 8, 15, 23, 24])
def test_exponential_stored_form_decodes_within_its_mantissa(bits):
    values = np.concatenate([motion(200)[2], [[0.0, -0.0, 1 - 2.0**-24], [-(2.0**-30), 3e5, 1.0]]])
    read = decode_filtered(encode_filtered(values, "EXPONENTIAL", bits), "EXPONENTIAL")
    assert read.dtype == np.float32 and read.shape == values.shape
    assert np.all(np.abs(read - values) <= np.abs(values) * 2.0 ** (1 - bits))


@pytest.mark.parametrize(
    "values, filt, bits",
    [
        ([[0, 0, 0, 1.0]], "QUATERNION", 3),
        ([[0, 0, 0, 1.0]], "QUATERNION", 17),
        ([[0, 0, 0, 0.0]], "QUATERNION", 8),
        ([[1.0, 2.0, 3.0]], "QUATERNION", 8),
        ([1.0], "EXPONENTIAL", 0),
        ([1.0], "EXPONENTIAL", 25),
        ([np.nan], "EXPONENTIAL", 8),
        ([1.0], "COLOR", 8),
    ],
)
def test_encode_filtered_refuses_what_it_cannot_store(values, filt, bits):
    with pytest.raises(ValueError):
        encode_filtered(np.asarray(values), filt, bits)
