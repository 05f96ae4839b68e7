"""EXT_meshopt_compression / KHR_meshopt_compression: compressed bufferViews read as their decoded bytes
(``viewer/gltf/meshopt.py``, hooked into ``AccessorReader.view_bytes``).

Streams come from two encoders: ``tools/meshopt_encode.py`` (written from the bitstream specification, every
bit width, control mode, channel mode, FIFO code and filter), and meshoptimizer's own C encoder, whose
output for a few small arrays is stored in ``data/meshopt/reference_streams.npz`` (``make_reference_streams.py``
there rebuilds it). Files are built from known arrays: loaded values must equal the originals exactly where
the codec is lossless and within the filter's quantisation step where it is not; malformed streams and
extension objects must be a ``GltfError`` at the right pointer, never another exception.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import numpy as np
import pytest

from tests.gltf_builder import GltfBuilder, write_glb, write_gltf
from tools.meshopt_encode import (
    encode_color,
    encode_exponential,
    encode_index_buffer,
    encode_index_sequence,
    encode_octahedral,
    encode_quaternion,
    encode_vertex_buffer,
    meshopt_file,
)
from viewer.base.errors import GltfError
from viewer.gltf import load_document, meshopt, meshopt_filters
from viewer.scene.scene import load

EXT, KHR = meshopt.EXTENSIONS
REFERENCE = Path(__file__).resolve().parents[1] / "data" / "meshopt" / "reference_streams.npz"


def mutate(stream: bytes, rng: np.random.Generator) -> bytearray:
    """``stream`` with 1–3 random bytes changed, inserted or deleted: a corruption the decoders must survive."""
    data = bytearray(stream)
    for _ in range(int(rng.integers(1, 4))):
        at = int(rng.integers(0, len(data)))
        action = rng.integers(0, 3)
        if action == 0:
            data[at] = int(rng.integers(0, 256))
        elif action == 1:
            data.insert(at, int(rng.integers(0, 256)))
        elif len(data) > 1:
            del data[at]
    return data


def rotations_equal(decoded: np.ndarray, original: np.ndarray) -> bool:
    """Same triangles with the same winding: each decoded triangle is a cyclic rotation of the original."""
    d, o = decoded.astype(np.int64).reshape(-1, 3), original.astype(np.int64).reshape(-1, 3)
    return bool(np.stack([(np.roll(d, r, axis=1) == o).all(axis=1) for r in range(3)]).any(axis=0).all())


def smooth_elements(count: int, stride: int, seed: int = 0) -> np.ndarray:
    """(count, stride) bytes that look like vertex data: floats on a random walk, quantized ints, constants."""
    rng = np.random.default_rng(seed)
    floats = np.cumsum(rng.normal(size=(count, stride // 4)), axis=0).astype("<f4").view(np.uint8)
    out = floats.reshape(count, stride).copy()
    out[:, 4:8:2] = np.cumsum(rng.integers(-3, 4, (count, 2)), axis=0).astype(np.uint8)[:, : len(out[0, 4:8:2])]
    if stride >= 12:
        out[:, 8:12] = 7
    return out


# -- the attribute codec ----------------------------------------------------------------------------------

VERTEX_OPTIONS = [
    (0, {}),
    (0, {"bits": 2}),
    (0, {"bits": 4}),
    (0, {"bits": 8}),
    (1, {}),
    (1, {"bits": 1}),
    (1, {"control": 0}),
    (1, {"control": 1}),
    (1, {"control": 3}),
    (1, {"channels": "mixed"}),
]


@pytest.mark.parametrize("version, options", VERTEX_OPTIONS)
@pytest.mark.parametrize("count, stride", [(1, 4), (16, 4), (17, 8), (300, 12), (700, 16), (40, 256)])
def test_vertex_codec_round_trips(version, options, count, stride):
    elements = smooth_elements(count, stride, seed=count + stride)
    if options.get("channels") == "mixed":  # byte deltas, 2-byte deltas, XOR with rotations 0 and 5
        options = {"channels": [(0, 1, 2, 2 | 5 << 4)[c % 4] for c in range(stride // 4)]}
    stream = encode_vertex_buffer(elements, version, **options)
    assert stream[0] == 0xA0 | version
    decoded = meshopt.decode_vertex_buffer(count, stride, stream)
    assert decoded.dtype == np.uint8 and np.array_equal(decoded, elements.reshape(-1))


def test_vertex_codec_random_bytes_need_sentinels_and_literals():
    elements = np.random.default_rng(5).integers(0, 256, (520, 20), dtype=np.uint8)
    elements[:, :4] = np.arange(520)[:, None] % 3  # tiny deltas next to incompressible bytes
    for version in (0, 1):
        for bits in (None, 1, 2, 4):
            stream = encode_vertex_buffer(elements, version, bits=bits)
            assert np.array_equal(meshopt.decode_vertex_buffer(520, 20, stream), elements.reshape(-1))


def test_vertex_codec_spec_example():
    """The README's 4-bit example: ``17 5f f0 bc 77 a9 21 00 34 b5`` holds the deltas
    -1 -4 -3 26 -91 0 -6 6 -4 -4 5 -5 1 -1 0 0 of one byte position (16 elements, a zero baseline)."""
    example = bytes.fromhex("175ff0bc77a9210034b5")
    stream = b"\xa0" + b"\x02" + example + b"\x00" * 3 + bytes(32)  # byte 0: one 4-bit group; bytes 1-3: zero
    decoded = meshopt.decode_vertex_buffer(16, 4, stream).reshape(16, 4)
    deltas = [-1, -4, -3, 26, -91, 0, -6, 6, -4, -4, 5, -5, 1, -1, 0, 0]
    assert decoded[:, 0].tolist() == (np.cumsum(deltas) % 256).tolist()
    assert not decoded[:, 1:].any()


@pytest.mark.parametrize("version", [0, 1])
def test_vertex_codec_reads_meshoptimizer_streams(version):
    ref = np.load(REFERENCE)
    decoded = meshopt.decode_vertex_buffer(300, 16, ref[f"vertex_v{version}"])
    assert np.array_equal(decoded, ref["vertices"].reshape(-1))


# -- the index codecs ---------------------------------------------------------------------------------------


def grid_triangles(n: int, shuffle: bool = False) -> np.ndarray:
    quads = (np.arange(n - 1)[:, None] * n + np.arange(n - 1)[None, :]).ravel()
    tris = np.stack([quads, quads + 1, quads + n, quads + 1, quads + n + 1, quads + n], axis=1).reshape(-1, 3)
    if shuffle:
        np.random.default_rng(n).shuffle(tris)
    return tris.reshape(-1).astype(np.uint32)


@pytest.mark.parametrize("version", [0, 1])
@pytest.mark.parametrize("fifo", [True, False])
@pytest.mark.parametrize("kind", ["grid", "shuffled", "random", "restart"])
def test_triangle_codec_round_trips(version, fifo, kind):
    rng = np.random.default_rng(3)
    indices = {
        "grid": grid_triangles(12),
        "shuffled": grid_triangles(9, shuffle=True),
        "random": rng.integers(0, 70000, 300).astype(np.uint32),
        "restart": np.concatenate([grid_triangles(5), [0, 1, 2], grid_triangles(4)]).astype(np.uint32),
    }[kind]
    stream = encode_index_buffer(indices, version, fifo)
    assert stream[0] == 0xE0 | version
    decoded = meshopt.decode_index_buffer(len(indices), 4, stream)
    assert decoded.dtype == np.uint32
    assert np.array_equal(decoded, indices) if not fifo else rotations_equal(decoded, indices)
    short = meshopt.decode_index_buffer(len(indices), 2, stream)  # 16-bit output wraps around
    assert short.dtype == np.uint16 and np.array_equal(short, decoded.astype(np.uint16))


def test_triangle_codec_reads_meshoptimizer_streams():
    ref = np.load(REFERENCE)
    for version in (0, 1):
        decoded = meshopt.decode_index_buffer(len(ref["triangles"]), 4, ref[f"triangles_v{version}"])
        assert np.array_equal(decoded, ref["triangles_decoded"])
        assert rotations_equal(decoded, ref["triangles"])


@pytest.mark.parametrize("bimodal", [False, True])
def test_index_sequence_round_trips(bimodal):
    wrap = [2**32 - 1, 0, 2**30 - 5]  # deltas wrap around 32 bits; they hold 31
    indices = np.concatenate([np.arange(50), np.arange(50)[::-1] * 1000, wrap]).astype(np.uint32)
    stream = encode_index_sequence(indices, 1, bimodal)
    assert np.array_equal(meshopt.decode_index_sequence(len(indices), 4, stream), indices)
    assert np.array_equal(meshopt.decode_index_sequence(len(indices), 2, stream), indices.astype(np.uint16))
    ref = np.load(REFERENCE)
    assert np.array_equal(meshopt.decode_index_sequence(len(ref["sequence"]), 4, ref["sequence_v1"]), ref["sequence"])


def test_index_sequence_spec_varints():
    """The README's varints 7f (0x7f) and 81 04 (0x201), read as baseline-1 zigzag deltas. Its third example,
    ff a0 05 => 0x1fd005, takes the groups most significant first; LEB128 and meshoptimizer's decoder take them
    least significant first, 0x1507f, and so does this one."""
    stream = bytes.fromhex("d17f8104ffa00500000000")
    assert meshopt.decode_index_sequence(3, 4, stream).tolist() == [2**32 - 32, 96, 2**32 + 96 - 0x5420]


# -- filters ------------------------------------------------------------------------------------------------


def unit_vectors(n: int, seed: int = 1) -> np.ndarray:
    v = np.random.default_rng(seed).normal(size=(n, 3))
    return v / np.linalg.norm(v, axis=1, keepdims=True)


@pytest.mark.parametrize("stride, bits", [(4, 8), (4, 6), (8, 16), (8, 10)])
def test_octahedral_filter(stride, bits):
    vectors = unit_vectors(500)
    w = np.random.default_rng(2).integers(-100, 100, 500)
    data = encode_octahedral(vectors, bits, stride, w).reshape(-1).copy()
    meshopt_filters.filter_octahedral(data, 500, stride)
    out = data.view(np.int8 if stride == 4 else "<i2").reshape(500, 4)
    top = 127 if stride == 4 else 32767
    assert np.array_equal(out[:, 3], w)  # the fourth component passes through
    step = 2.0 / (2 ** (bits - 1) - 1)  # the octahedral grid's spacing, worst case on the sphere
    assert np.abs(out[:, :3] / top - vectors).max() < 1.5 * step + 1.0 / top
    assert np.abs(np.linalg.norm(out[:, :3] / top, axis=1) - 1).max() < 2.0 / top


@pytest.mark.parametrize("bits", [16, 12, 8])
def test_quaternion_filter(bits):
    q = np.random.default_rng(4).normal(size=(400, 4))
    q /= np.linalg.norm(q, axis=1, keepdims=True)
    data = encode_quaternion(q, bits).reshape(-1).copy()
    meshopt_filters.filter_quaternion(data, 400, 8)
    out = data.view("<i2").reshape(400, 4) / 32767.0
    error = np.minimum(np.abs(out - q).max(axis=1), np.abs(out + q).max(axis=1))  # q and -q are one rotation
    assert error.max() < 2.0 / (2 ** (bits - 1) - 1) + 2.0 / 32767


def test_exponential_filter_is_exact():
    values = np.random.default_rng(6).normal(size=(300, 3)) * 10.0 ** np.arange(-6, 6, 0.04)[:300, None]
    for bits in (23, 15):
        raw = encode_exponential(values, bits)
        data = raw.reshape(-1).copy()
        meshopt_filters.filter_exponential(data, 300, 12)
        packed = raw.view("<i4").reshape(300, 3).astype(np.int64)
        exponent, mantissa = packed >> 24, ((packed & 0xFFFFFF) ^ 0x800000) - 0x800000
        assert np.array_equal(data.view("<f4").reshape(300, 3), (mantissa * 2.0**exponent).astype(np.float32))
        assert np.all(np.abs(data.view("<f4").reshape(300, 3) - values) <= np.abs(values) * 2.0 ** (1 - bits))


def color_reference(stored: np.ndarray, top: int) -> np.ndarray:
    """The README's colour decode, one element at a time in Python integers."""
    out = []
    for y, co, cg, alpha in stored.tolist():
        bits = (1 << alpha.bit_length()) - 1
        r, g, b = y + co - cg, y + cg, y - co - cg
        a = alpha & (bits >> 1)
        a = (a << 1) | (a & 1)
        scale = top / bits
        out.append([min(max(int(np.trunc(c * scale + 0.5)), 0), top) for c in (r, g, b, a)])
    return np.array(out)


@pytest.mark.parametrize("stride, bits", [(4, 8), (4, 6), (8, 12), (8, 16)])
def test_color_filter(stride, bits):
    rgba = np.random.default_rng(8).uniform(size=(300, 4))
    raw = encode_color(rgba, bits, stride)
    data = raw.reshape(-1).copy()
    meshopt_filters.filter_color(data, 300, stride)
    top = 255 if stride == 4 else 65535
    out = data.view(np.uint8 if stride == 4 else "<u2").reshape(300, 4).astype(np.int64)
    signed = raw.view(np.int8 if stride == 4 else "<i2").reshape(300, 4).astype(np.int64)
    unsigned = raw.view(np.uint8 if stride == 4 else "<u2").reshape(300, 4).astype(np.int64)
    stored = np.stack([unsigned[:, 0], signed[:, 1], signed[:, 2], unsigned[:, 3]], axis=1)
    assert np.abs(out - color_reference(stored, top)).max() <= 1
    assert np.abs(out / top - rgba).max() < 2.5 / (2 ** (bits - 1) - 1)


# -- malformed streams --------------------------------------------------------------------------------------


def good_streams() -> dict[str, tuple]:
    elements = smooth_elements(100, 8)
    tris = grid_triangles(6)
    return {
        "vertex0": (meshopt.decode_vertex_buffer, 100, 8, encode_vertex_buffer(elements, 0)),
        "vertex1": (meshopt.decode_vertex_buffer, 100, 8, encode_vertex_buffer(elements, 1, channels=[1, 2 | 3 << 4])),
        "triangles": (meshopt.decode_index_buffer, len(tris), 4, encode_index_buffer(tris)),
        "sequence": (meshopt.decode_index_sequence, len(tris), 2, encode_index_sequence(tris, bimodal=True)),
    }


@pytest.mark.parametrize("name", ["vertex0", "vertex1", "triangles", "sequence"])
def test_malformed_streams_are_value_errors(name):
    decode, count, stride, stream = good_streams()[name]
    decode(count, stride, stream)
    bad_header = bytes([stream[0] ^ 0x40]) + stream[1:]
    newer = bytes([stream[0] | 0x0F]) + stream[1:]
    cases = {
        "empty": b"",
        "header only": stream[:1],
        "truncated": stream[:-9],
        "cut in half": stream[: len(stream) // 2],
        "wrong header": bad_header,
        "unknown version": newer,
        "extra bytes": stream[:-4] + bytes(9) + stream[-4:],
    }
    for label, data in cases.items():
        with pytest.raises(ValueError):
            decode(count, stride, data)
            pytest.fail(f"{label} decoded")
    with pytest.raises(ValueError):
        decode(count * 1000, stride, stream)  # far more than the stream holds


def test_varint_over_five_bytes_and_unwritten_fifo_entries():
    with pytest.raises(ValueError, match="longer than 5"):
        meshopt.decode_index_sequence(1, 4, bytes.fromhex("d1 ffffffffff01 00000000"))
    with pytest.raises(ValueError, match="never written"):  # code 0x10: edge 1 of an empty FIFO
        meshopt.decode_index_buffer(3, 4, b"\xe1\x10" + bytes(16))
    with pytest.raises(ValueError, match="never written"):  # 0xf1 with table entry 0x12: FIFO vertices 0 and 1
        meshopt.decode_index_buffer(3, 4, b"\xe1\xf1" + bytes([0, 0x12]) + bytes(14))
    with pytest.raises(ValueError, match="channel"):  # channel mode 3
        meshopt.decode_vertex_buffer(1, 4, b"\xa1\xaa" + bytes(19) + bytes(4) + b"\x03")


def test_huge_counts_are_refused_before_allocating():
    stream = encode_vertex_buffer(smooth_elements(16, 256), 1)
    with pytest.raises(ValueError, match="too few"):
        meshopt.decode_vertex_buffer(10**12, 256, stream)
    with pytest.raises(ValueError, match="too few"):
        meshopt.decode_index_buffer(3 * 10**12, 4, encode_index_buffer(grid_triangles(3)))
    with pytest.raises(ValueError, match="too few"):
        meshopt.decode_index_sequence(10**12, 4, encode_index_sequence([1, 2, 3]))


@pytest.mark.parametrize("name", ["vertex0", "vertex1", "triangles", "sequence"])
def test_random_corruptions_never_crash(name):
    """Flipped, inserted and deleted bytes: the decoder returns data or raises ValueError, nothing else."""
    decode, count, stride, stream = good_streams()[name]
    rng = np.random.default_rng(len(name))
    for _ in range(150):
        data = mutate(stream, rng)
        try:
            out = decode(count, stride, bytes(data))
        except ValueError:
            continue
        assert out.nbytes == count * stride


# -- files --------------------------------------------------------------------------------------------------

TIMES = np.linspace(0.0, 2.0, 41).astype(np.float32)


def original_animation() -> tuple[np.ndarray, np.ndarray]:
    """Translations (41, 3) and rotations (41, 4): turns under 90° about a wandering axis, so w > 0 is the
    largest component and the quaternion filter keeps every key's sign."""
    t = TIMES.astype(np.float64)
    translations = np.stack([np.sin(t) * 3.0, t * t - 1.5, np.cos(3 * t) * 0.01], axis=1).astype(np.float32)
    axis = np.stack([np.cos(t), np.sin(t), np.full_like(t, 0.5)], axis=1)
    axis /= np.linalg.norm(axis, axis=1, keepdims=True)
    half = 0.6 * np.sin(2 * t)[:, None] / 2
    rotations = np.concatenate([axis * np.sin(half), np.cos(half)], axis=1).astype(np.float32)
    return translations, rotations


def plain_animation_file(tmp_path: Path) -> Path:
    translations, rotations = original_animation()
    b = GltfBuilder()
    b.add_node(name="mover")
    b.add_animation(
        [
            dict(node=0, path="translation", times=TIMES, values=translations),
            dict(node=0, path="rotation", times=TIMES, values=rotations),
        ]
    )
    b.add_scene([0])
    return b.write_gltf(tmp_path, "plain.gltf")


def filtered(raw: np.ndarray, count: int, stride: int, filter_name: str) -> np.ndarray:
    """What the decoder makes of filter input ``raw``: the values an uncompressed fallback would hold."""
    data = raw.reshape(-1).copy()
    meshopt.FILTER_FUNCTIONS[filter_name](data, count, stride)
    return data


def meshopt_animation(
    extension: str = KHR, version: int = 1, fallback: str = "placeholder", tag: bool = True
) -> tuple[dict, bytes, bytes]:
    """The animation of ``plain_animation_file``: times ATTRIBUTES, rotations VEC4 SHORT normalized through
    the QUATERNION filter (12 bits), translations VEC3 float through the EXPONENTIAL filter (15 bits)."""
    translations, rotations = original_animation()
    q_raw, t_raw = encode_quaternion(rotations, 12), encode_exponential(translations, 15)
    n = len(TIMES)
    b = GltfBuilder()
    b.add_node(name="mover")
    times = b.add_accessor(TIMES, min_max=True)
    rot = b.add_accessor(filtered(q_raw, n, 8, "QUATERNION").view("<i2").reshape(n, 4), "VEC4", 5122, normalized=True)
    tra = b.add_accessor(filtered(t_raw, n, 12, "EXPONENTIAL").view("<f4").reshape(n, 3), "VEC3", 5126)
    b.add(
        "animations",
        {
            "samplers": [{"input": times, "output": tra}, {"input": times, "output": rot}],
            "channels": [
                {"sampler": 0, "target": {"node": 0, "path": "translation"}},
                {"sampler": 1, "target": {"node": 0, "path": "rotation"}},
            ],
        },
    )
    b.add_scene([0])
    doc = b.to_dict()
    view = [doc["accessors"][a]["bufferView"] for a in (times, rot, tra)]
    streams = {
        view[0]: dict(
            mode="ATTRIBUTES",
            stride=4,
            count=n,
            stream=encode_vertex_buffer(TIMES.view(np.uint8).reshape(n, 4), version),
        ),
        view[1]: dict(
            mode="ATTRIBUTES", filter="QUATERNION", stride=8, count=n, stream=encode_vertex_buffer(q_raw, version)
        ),
        view[2]: dict(
            mode="ATTRIBUTES",
            filter="EXPONENTIAL",
            stride=12,
            count=n,
            stream=encode_vertex_buffer(t_raw, version, channels=[2 | 2 << 4] * 3 if version else None),
        ),
    }
    return meshopt_file(doc, b.bin_bytes(), streams, extension, fallback, tag)


def write(
    tmp_path: Path, parts: tuple[dict, bytes, bytes], name: str = "meshopt.gltf", fallback_file: bool = False
) -> Path:
    doc, data, fallback = parts
    if fallback_file:
        (tmp_path / "fallback.bin").write_bytes(fallback)
    if name.endswith(".glb"):
        return write_glb(doc, data, tmp_path / name)
    return write_gltf(doc, data, tmp_path, name)


@pytest.mark.parametrize(
    "extension, version, name",
    [(KHR, 1, "meshopt.gltf"), (KHR, 0, "meshopt.glb"), (EXT, 0, "meshopt.glb"), (EXT, 0, "meshopt.gltf")],
)
def test_compressed_animation_samples_like_the_original(tmp_path, extension, version, name):
    plain = load(plain_animation_file(tmp_path))
    packed = load(write(tmp_path, meshopt_animation(extension, version), name))
    translations, rotations = original_animation()
    doc = load_document(tmp_path / name)
    assert np.array_equal(doc.accessor(0), TIMES)  # times: lossless
    np.testing.assert_allclose(doc.accessor(1), rotations, atol=1.5 / 2047 + 1 / 32767)
    np.testing.assert_allclose(doc.accessor(2), translations, rtol=2.0**-13, atol=0)
    times = np.linspace(-0.1, 2.1, 97)
    for mode in ("authored", "step", "cubic-zero"):
        a, b = plain.clips[0].sample(times, mode), packed.clips[0].sample(times, mode)
        np.testing.assert_allclose(b, a, atol=2e-3)


def test_v1_streams_are_read_under_the_ext_name_too(tmp_path):
    packed = load(write(tmp_path, meshopt_animation(EXT, 1)))
    plain = load(plain_animation_file(tmp_path))
    np.testing.assert_allclose(packed.clips[0].sample(TIMES), plain.clips[0].sample(TIMES), atol=2e-3)


def grid_mesh(n: int = 12) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    u, v = np.meshgrid(np.linspace(-1, 1, n), np.linspace(-1, 1, n))
    z = 0.4 * np.exp(-(u * u + v * v) * 2)
    positions = np.stack([u.ravel(), v.ravel(), z.ravel()], axis=1).astype(np.float32)
    dzdu, dzdv = -4 * u.ravel() * z.ravel(), -4 * v.ravel() * z.ravel()
    normals = np.stack([-dzdu, -dzdv, np.ones_like(dzdu)], axis=1)
    normals /= np.linalg.norm(normals, axis=1, keepdims=True)
    uv = np.stack([u.ravel(), v.ravel()], axis=1).astype(np.float32) * 0.5 + 0.5
    return positions, normals.astype(np.float32), uv, grid_triangles(n)


def grid_colours(n: int) -> np.ndarray:
    t = np.linspace(0, 1, n)
    return np.stack([t, 1 - t, np.sin(t * 9) * 0.5 + 0.5, np.full(n, 0.75)], axis=1)


def meshopt_mesh(extension: str = KHR, version: int = 1) -> tuple[dict, bytes, bytes]:
    """Two primitives: (0) POSITION float, NORMAL as VEC3 BYTE normalized through the OCTAHEDRAL filter
    (stride 4), COLOR_0 as VEC4 UNSIGNED_SHORT normalized through the COLOR filter (12 bits), uint16
    indices in the TRIANGLES codec; (1) POSITION and TEXCOORD_0 interleaved in one stride-20 view, uint32
    indices in the INDICES codec. Views 0-5 in that order (the colours last)."""
    positions, normals, uv, indices = grid_mesh()
    n = len(positions)
    oct_raw, colour_raw = encode_octahedral(normals, 8, 4), encode_color(grid_colours(n), 12, 8)
    b = GltfBuilder()
    pos = b.add_accessor(positions, target=34962, min_max=True)
    nrm = b.add_accessor(
        filtered(oct_raw, n, 4, "OCTAHEDRAL").view(np.int8).reshape(n, 4)[:, :3],
        "VEC3",
        5120,
        normalized=True,
        target=34962,
        byte_stride=4,
    )
    idx16 = b.add_accessor(indices.astype(np.uint16), target=34963)
    pos2, tex = b.add_interleaved([positions, uv])
    idx32 = b.add_accessor(indices.astype(np.uint32), target=34963)
    col = b.add_accessor(
        filtered(colour_raw, n, 8, "COLOR").view("<u2").reshape(n, 4), "VEC4", 5123, normalized=True, target=34962
    )
    b.add(
        "meshes",
        {
            "primitives": [
                {"attributes": {"POSITION": pos, "NORMAL": nrm, "COLOR_0": col}, "indices": idx16},
                {"attributes": {"POSITION": pos2, "TEXCOORD_0": tex}, "indices": idx32},
            ]
        },
    )
    b.add_node(mesh=0)
    b.add_scene([0])
    doc = b.to_dict()
    doc["extensionsUsed"] = doc["extensionsRequired"] = ["KHR_mesh_quantization"]
    view = {a: doc["accessors"][a]["bufferView"] for a in (pos, nrm, idx16, pos2, idx32, col)}
    interleaved = np.concatenate([positions.view(np.uint8).reshape(n, 12), uv.view(np.uint8).reshape(n, 8)], axis=1)
    streams = {
        view[pos]: dict(
            mode="ATTRIBUTES",
            stride=12,
            count=n,
            stream=encode_vertex_buffer(
                positions.view(np.uint8).reshape(n, 12), version, channels=[2 | 1 << 4, 1, 0] if version else None
            ),
        ),
        view[nrm]: dict(
            mode="ATTRIBUTES", filter="OCTAHEDRAL", stride=4, count=n, stream=encode_vertex_buffer(oct_raw, version)
        ),
        view[idx16]: dict(
            mode="TRIANGLES", stride=2, count=len(indices), stream=encode_index_buffer(indices, version=1)
        ),
        view[pos2]: dict(mode="ATTRIBUTES", stride=20, count=n, stream=encode_vertex_buffer(interleaved, version)),
        view[idx32]: dict(
            mode="INDICES", stride=4, count=len(indices), stream=encode_index_sequence(indices, bimodal=True)
        ),
        view[col]: dict(
            mode="ATTRIBUTES", filter="COLOR", stride=8, count=n, stream=encode_vertex_buffer(colour_raw, version)
        ),
    }
    return meshopt_file(doc, b.bin_bytes(), streams, extension)


@pytest.mark.parametrize("extension, version", [(KHR, 1), (EXT, 0)])
def test_compressed_mesh_matches_the_original(tmp_path, extension, version):
    positions, normals, uv, indices = grid_mesh()
    scene = load(write(tmp_path, meshopt_mesh(extension, version), "mesh.glb"))
    first, second = scene.meshes[0].primitives
    assert np.array_equal(first.attributes["POSITION"], positions)
    np.testing.assert_allclose(first.attributes["NORMAL"], normals, atol=2.5 / 127)
    assert first.indices.dtype == np.uint16 and rotations_equal(first.indices, indices)
    np.testing.assert_allclose(first.attributes["COLOR_0"], grid_colours(len(positions)), atol=2.5 / 2047)
    assert np.array_equal(second.attributes["POSITION"], positions)
    assert np.array_equal(second.attributes["TEXCOORD_0"], uv)
    assert second.indices.dtype == np.uint32 and np.array_equal(second.indices, indices)


def test_views_are_decoded_once_and_read_only(tmp_path):
    doc = load_document(write(tmp_path, meshopt_mesh()))
    first = doc.buffer_view_bytes(0)
    assert first.readonly and first.obj is doc.buffer_view_bytes(0).obj
    assert len(first) == doc.raw["bufferViews"][0]["byteLength"]


def test_a_copy_with_decoded_views_drops_the_extension(tmp_path):
    """What a writer of a copy does (``bake``): every view's decoded bytes in one buffer, then
    ``drop_compression``; the copy needs no meshopt support and holds the same values."""
    original = load_document(write(tmp_path, meshopt_mesh()))
    doc = copy.deepcopy(original.raw)
    data = bytearray()
    for v, view in enumerate(doc["bufferViews"]):
        view["buffer"], view["byteOffset"] = 0, len(data)
        data += bytes(original.buffer_view_bytes(v)) + bytes(-view["byteLength"] % 4)
    doc["buffers"] = [{"byteLength": len(data)}]
    meshopt.drop_compression(doc)
    assert KHR not in json.dumps(doc) and doc["extensionsRequired"] == ["KHR_mesh_quantization"]
    copied = load_document(write_gltf(doc, bytes(data), tmp_path, "copy.gltf"))
    for a in range(len(doc["accessors"])):
        assert np.array_equal(copied.accessor(a), original.accessor(a))


# -- fallback buffers ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "fallback, tag",
    [("placeholder", True), ("placeholder", False), ("missing", True), ("missing", False), ("data", True)],
)
def test_fallback_buffer_is_never_read(tmp_path, fallback, tag):
    """Placeholders without data, and fallback files that do not exist, load; a fallback file that does exist
    holds zeros here, and the values still come from the compressed streams."""
    doc, data, original = meshopt_animation(fallback=fallback, tag=tag)
    path = write(tmp_path, (doc, data, bytes(len(original))), fallback_file=fallback == "data")
    assert ("uri" in doc["buffers"][1]) == (fallback != "placeholder")
    assert np.array_equal(load_document(path).accessor(0), TIMES)
    np.testing.assert_allclose(load_document(path).accessor(2), original_animation()[0], rtol=2.0**-13)


def _ext(view: dict) -> dict | None:
    found = meshopt.compression(view)
    return found[1] if found else None


def load_error(path: Path) -> GltfError:
    with pytest.raises(GltfError) as info:
        load(path)
    return info.value


def test_plain_view_on_a_fallback_buffer_is_an_error(tmp_path):
    doc, data, fallback = meshopt_animation()
    doc["bufferViews"].append({"buffer": 1, "byteLength": 4})
    err = load_error(write(tmp_path, (doc, data, fallback)))
    assert err.pointer == f"/bufferViews/{len(doc['bufferViews']) - 1}/buffer" and "fallback" in err.message


def test_compressed_data_in_a_fallback_buffer_is_an_error(tmp_path):
    doc, data, fallback = meshopt_animation()
    doc["bufferViews"][0]["extensions"][KHR]["buffer"] = 1
    err = load_error(write(tmp_path, (doc, data, fallback)))
    assert err.pointer == f"/bufferViews/0/extensions/{KHR}/buffer"


# -- malformed extension objects and data in files -----------------------------------------------------------


def edit_ext(key, value):
    def edit(doc, data):
        ext = doc["bufferViews"][0]["extensions"][KHR]
        if value is None:
            del ext[key]
        else:
            ext[key] = value

    return edit


def edit_view(view, key, value):
    def edit(doc, data):
        doc["bufferViews"][view][key] = value

    return edit


def both_names(doc, data):
    view = doc["bufferViews"][0]
    view["extensions"][EXT] = view["extensions"][KHR]


def fallback_not_boolean(doc, data):
    doc["buffers"][1]["extensions"][KHR]["fallback"] = "yes"


HERE = f"/bufferViews/0/extensions/{KHR}"
BAD_OBJECTS = [
    (edit_ext("mode", None), f"{HERE}/mode", "missing"),
    (edit_ext("mode", "QUADS"), f"{HERE}/mode", "not one of"),
    (edit_ext("filter", "BLUR"), f"{HERE}/filter", "not one of"),
    (edit_ext("count", -1), f"{HERE}/count", "integer >= 1"),
    (edit_ext("count", True), f"{HERE}/count", "integer"),
    (edit_ext("count", 40), f"{HERE}/count", "bufferView 0 byteLength"),
    (edit_ext("count", 2**40), f"{HERE}/count", "limit"),
    (edit_ext("count", 2**28), f"{HERE}/count", "limit"),  # 1 GiB: over the limit for one view
    (edit_ext("byteStride", 6), f"{HERE}/byteStride", "multiple of 4"),
    (edit_ext("filter", "QUATERNION"), f"{HERE}/byteStride", "QUATERNION"),
    (edit_ext("buffer", 7), f"{HERE}/buffer", "out of range"),
    (edit_ext("byteOffset", 10**6), f"{HERE}/byteLength", "ends at byte"),
    (both_names, "/bufferViews/0/extensions", "only one"),
    (fallback_not_boolean, f"/buffers/1/extensions/{KHR}/fallback", "boolean"),
]


@pytest.mark.parametrize("edit, where, words", BAD_OBJECTS, ids=[w.split("/")[-1] + "-" + t for _, w, t in BAD_OBJECTS])
def test_malformed_extension_objects(tmp_path, edit, where, words):
    doc, data, fallback = meshopt_animation()
    edit(doc, data)
    err = load_error(write(tmp_path, (doc, data, fallback)))
    assert err.pointer == where and words in err.message


def test_decoded_total_is_bounded(tmp_path):
    """Three views of 384 MiB each, all claims of a placeholder buffer: refused before any is decoded."""
    doc, data, fallback = meshopt_animation()
    doc["buffers"][1]["byteLength"] = 2**31
    for v in range(3):
        doc["bufferViews"][v].update(byteOffset=v * 400 << 20, byteLength=384 << 20)
        stride = doc["bufferViews"][v]["extensions"][KHR]["byteStride"]
        doc["bufferViews"][v]["extensions"][KHR]["count"] = (384 << 20) // stride
        doc["bufferViews"][v].pop("byteStride", None)
    err = load_error(write(tmp_path, (doc, data, fallback)))
    assert err.pointer == f"/bufferViews/2/extensions/{KHR}/count" and "limit for one file" in err.message


def test_index_modes_take_no_filter_and_strides_of_2_or_4(tmp_path):
    for key, value, words in (
        ("filter", "EXPONENTIAL", "no filter"),
        ("byteStride", 8, "2 or 4"),
        ("count", 143, "multiple of 3"),
    ):
        doc, data, fallback = meshopt_mesh()
        doc["bufferViews"][2]["extensions"][KHR][key] = value
        err = load_error(write(tmp_path, (doc, data, fallback)))
        assert err.pointer == f"/bufferViews/2/extensions/{KHR}/{key}" and words in err.message


def test_ext_byte_stride_must_match_the_view(tmp_path):
    doc, data, fallback = meshopt_mesh(EXT, 0)
    doc["bufferViews"][1]["byteStride"] = 8
    err = load_error(write(tmp_path, (doc, data, fallback)))
    assert err.pointer == "/bufferViews/1/byteStride"


def corrupt(view: int, how: str):
    def edit(doc, data):
        ext = _ext(doc["bufferViews"][view])
        start, length = ext["byteOffset"], ext["byteLength"]
        if how == "header":
            data[start] ^= 0x30
        elif how == "truncated":
            ext["byteLength"] = length - 5
        elif how == "garbage":  # the stream's middle overwritten
            data[start + 1 : start + length - 20] = b"\xff" * (length - 21)

    return edit


@pytest.mark.parametrize(
    "view, how", [(0, "header"), (0, "truncated"), (1, "garbage"), (2, "truncated"), (2, "header")]
)
def test_malformed_data_in_animation_views(tmp_path, view, how):
    doc, data, fallback = meshopt_animation()
    data = bytearray(data)
    corrupt(view, how)(doc, data)
    err = load_error(write(tmp_path, (doc, bytes(data), fallback)))
    assert err.pointer == f"/bufferViews/{view}/extensions/{KHR}" and f"bufferView {view}" in err.message


@pytest.mark.parametrize(
    "view, how", [(0, "truncated"), (1, "header"), (2, "truncated"), (3, "garbage"), (4, "truncated")]
)
def test_malformed_data_in_mesh_views_fails_the_load(tmp_path, view, how):
    """Positions and texcoords are read by no validation rule: their views are decoded at load all the same."""
    doc, data, fallback = meshopt_mesh()
    data = bytearray(data)
    corrupt(view, how)(doc, data)
    with pytest.raises(GltfError) as info:
        load_document(write(tmp_path, (doc, bytes(data), fallback)))
    assert info.value.pointer == f"/bufferViews/{view}/extensions/{KHR}"


def test_cli_reports_bad_data_in_one_line(tmp_path, capsys):
    from viewer.cli import main

    doc, data, fallback = meshopt_animation()
    data = bytearray(data)
    corrupt(0, "header")(doc, data)
    code = main(["inspect", str(write(tmp_path, (doc, bytes(data), fallback)))])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in err and KHR in err


def test_bake_of_a_meshopt_file_writes_a_copy_that_loads(tmp_path):
    from viewer.cli.main import main
    from viewer.scene.scene import load

    doc, data, _ = meshopt_animation(fallback="placeholder", tag=True)
    path = write(tmp_path, (doc, data, b""))
    out = tmp_path / "baked.glb"
    assert main(["bake", str(path), "--mode", "linear", "-o", str(out)]) == 0
    original, baked = load(path), load(out)
    t = np.linspace(0.0, original.clips[0].duration, 17)
    np.testing.assert_allclose(baked.clips[0].sample(t, "linear"), original.clips[0].sample(t, "linear"), atol=1e-6)
