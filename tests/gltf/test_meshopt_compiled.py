"""The compiled meshopt decoder (``viewer/gltf/meshopt_compiled.py``) against the numpy reference
(``meshopt_codecs``): the same bytes on every stream the meshopt tests have — every bit width, control and
channel mode, filter, triangle and index-sequence stream, meshoptimizer's own streams, the shared models'
compressed copies and a generated take — and the same ``ValueError`` (same words) on malformed ones.

Both paths are forced here (``meshopt_compiled.use``); how a load picks one by size, and the parallel batch,
are checked too. No timing: the speed is in docs/speed.md (``tools/bench_meshopt.py``).
"""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

from tests.conftest import KHRONOS_DIR, REPO_ROOT
from tests.gltf.test_meshopt import (
    REFERENCE,
    VERTEX_OPTIONS,
    corrupt,
    good_streams,
    grid_triangles,
    meshopt_animation,
    mutate,
    smooth_elements,
    write,
)
from tools.meshopt_encode import encode_index_buffer, encode_index_sequence, encode_vertex_buffer
from viewer.base.errors import GltfError
from viewer.gltf import load_document, meshopt_codecs, meshopt_compiled
from viewer.gltf.meshopt_filters import FILTER_FUNCTIONS

pytest.importorskip("numba")
FILTER_STRIDES = {
    "NONE": (4, 12, 256),
    "OCTAHEDRAL": (4, 8),
    "QUATERNION": (8,),
    "EXPONENTIAL": (4, 12),
    "COLOR": (4, 8),
}


@pytest.fixture
def compiled():
    """The kernels in use for one test; deciding by size again afterwards."""
    meshopt_compiled.use(True)
    assert meshopt_compiled.active(), meshopt_compiled.state()
    yield
    meshopt_compiled.use(None)


def both(mode: str, filter_name: str, count: int, stride: int, data: bytes):
    """(reference, compiled): each the decoded bytes or the ValueError's text."""
    out = []
    for decode in (meshopt_codecs.decode, meshopt_compiled.decode):
        try:
            out.append(decode(mode, filter_name, count, stride, data))
        except ValueError as exc:
            out.append(str(exc))
    return out


def assert_same(mode: str, filter_name: str, count: int, stride: int, data: bytes) -> None:
    reference, compiled = both(mode, filter_name, count, stride, data)
    if isinstance(reference, str):
        assert compiled == reference
    else:
        assert not isinstance(compiled, str), compiled
        assert compiled.dtype == reference.dtype == np.uint8 and np.array_equal(compiled, reference)


@pytest.mark.parametrize("version, options", VERTEX_OPTIONS)
def test_attribute_streams_and_filters_decode_alike(compiled, version, options):
    for count, stride in [(1, 4), (16, 4), (17, 8), (300, 12), (700, 16), (40, 256), (3000, 8)]:
        elements = smooth_elements(count, stride, seed=count + stride)
        if options.get("channels") == "mixed":
            options = {"channels": [(0, 1, 2, 2 | 5 << 4)[c % 4] for c in range(stride // 4)]}
        stream = encode_vertex_buffer(elements, version, **options)
        for filter_name in meshopt_codecs.FILTERS:
            assert_same("ATTRIBUTES", filter_name, count, stride, stream)


def test_random_bytes_spec_example_and_meshoptimizer_streams(compiled):
    elements = np.random.default_rng(5).integers(0, 256, (520, 20), dtype=np.uint8)
    elements[:, :4] = np.arange(520)[:, None] % 3
    for version in (0, 1):
        for bits in (None, 1, 2, 4):
            assert_same("ATTRIBUTES", "NONE", 520, 20, encode_vertex_buffer(elements, version, bits=bits))
    example = b"\xa0\x02" + bytes.fromhex("175ff0bc77a9210034b5") + b"\x00" * 3 + bytes(32)
    assert_same("ATTRIBUTES", "NONE", 16, 4, example)
    ref = np.load(REFERENCE)
    for version in (0, 1):
        assert_same("ATTRIBUTES", "NONE", 300, 16, ref[f"vertex_v{version}"].tobytes())
        assert_same("TRIANGLES", "NONE", len(ref["triangles"]), 4, ref[f"triangles_v{version}"].tobytes())
    assert_same("INDICES", "NONE", len(ref["sequence"]), 4, ref["sequence_v1"].tobytes())


def test_filters_on_any_bytes(compiled):
    """Zeros, all-ones and random words: the float32 steps, NaN and infinity handling are the reference's."""
    rng = np.random.default_rng(1)
    for name, strides in FILTER_STRIDES.items():
        for stride in strides:
            for trial in range(12):
                count = int(rng.integers(0, 200))
                data = rng.integers(0, 256, count * stride, dtype=np.uint8)
                data[:: 3 + trial] = (0, 255)[trial % 2]
                a, b = data.copy(), data.copy()
                FILTER_FUNCTIONS[name](a, count, stride)
                meshopt_compiled._filter(meshopt_compiled._kernels, name, b, count, stride)
                assert np.array_equal(a, b), (name, stride, trial)


@pytest.mark.parametrize("version", [0, 1])
@pytest.mark.parametrize("fifo", [True, False])
def test_index_streams_decode_alike(compiled, version, fifo):
    rng = np.random.default_rng(3)
    lists = [
        grid_triangles(12),
        grid_triangles(9, shuffle=True),
        rng.integers(0, 70000, 300).astype(np.uint32),
        np.concatenate([grid_triangles(5), [0, 1, 2], grid_triangles(4)]).astype(np.uint32),
    ]
    for indices in lists:
        for size in (2, 4):
            assert_same("TRIANGLES", "NONE", len(indices), size, encode_index_buffer(indices, version, fifo))
            assert_same("INDICES", "NONE", len(indices), size, encode_index_sequence(indices, version, fifo))
    wrap = np.array([2**32 - 1, 0, 2**30 - 5], np.uint32)
    assert_same("INDICES", "NONE", 3, 4, encode_index_sequence(wrap, 1, True))


@pytest.mark.parametrize("name", ["vertex0", "vertex1", "triangles", "sequence"])
def test_malformed_streams_fail_alike(compiled, name):
    """The corruptions of ``test_meshopt``'s malformed-stream tests, and 300 random ones: the same bytes, or
    the same error in the same words."""
    decode, count, stride, stream = good_streams()[name]
    mode = {"vertex0": "ATTRIBUTES", "vertex1": "ATTRIBUTES", "triangles": "TRIANGLES", "sequence": "INDICES"}[name]
    fixed = [b"", stream[:1], stream[:-9], stream[: len(stream) // 2], bytes([stream[0] ^ 0x40]) + stream[1:]]
    fixed += [bytes([stream[0] | 0x0F]) + stream[1:], stream[:-4] + bytes(9) + stream[-4:]]
    for data in fixed:
        assert_same(mode, "NONE", count, stride, data)
    assert_same(mode, "NONE", count * 1000, stride, stream)
    rng = np.random.default_rng(len(name) + 7)
    for _ in range(300):
        data = mutate(stream, rng)
        assert_same(mode, "NONE", count, stride, bytes(data))


def _accessors(path) -> list[np.ndarray]:
    doc = load_document(path)
    return [doc.accessor(a) for a in range(len(doc.raw.get("accessors", [])))]


def _same_files(paths) -> None:
    for path in paths:
        meshopt_compiled.use(False)
        reference = _accessors(path)
        meshopt_compiled.use(True)
        for a, b in zip(reference, _accessors(path), strict=True):
            assert a.dtype == b.dtype and np.array_equal(a, b, equal_nan=True), path


def test_shared_models_compressed_copies_load_alike(compiled, tmp_path):
    """Every shared model's KHR_meshopt_compression copy (``tools/compress_models.py --meshopt``: v1 streams,
    triangles, index sequences, the quaternion filter): every accessor equal on both paths."""
    if not KHRONOS_DIR.is_dir():
        pytest.skip(f"the shared models are not in {KHRONOS_DIR}")
    from tools.compress_models import compress_meshopt_file, model_file

    models = [model_file(folder) for folder in sorted(p for p in KHRONOS_DIR.iterdir() if p.is_dir())]
    paths = [compress_meshopt_file(model, tmp_path)[0] for model in models]
    assert len(paths) >= 10
    _same_files(paths)


@pytest.mark.parametrize("meshopt_kind", ["plain", "filtered"])
def test_a_generated_take_loads_alike(compiled, tmp_path, meshopt_kind):
    from tools.mocap_clips import write_take

    _same_files([write_take(tmp_path / "take.glb", 6.0, fps=60.0, joints=9, meshopt=meshopt_kind)])


@pytest.mark.parametrize("view, how", [(0, "header"), (1, "garbage"), (2, "truncated")])
def test_bad_data_in_a_file_is_the_same_error(compiled, tmp_path, view, how):
    doc, data, fallback = meshopt_animation()
    data = bytearray(data)
    corrupt(view, how)(doc, data)
    path = write(tmp_path, (doc, bytes(data), fallback))
    errors = []
    for on in (False, True):
        meshopt_compiled.use(on)
        with pytest.raises(GltfError) as caught:
            load_document(path)
        errors.append((caught.value.pointer, caught.value.message))
    assert errors[0] == errors[1] and f"bufferView {view}" in errors[0][1]


def test_parallel_batch_equals_one_by_one(compiled, monkeypatch):
    """``decode_many`` on threads (into slices of one array) gives each view's bytes, or its error, in order."""
    monkeypatch.setattr(meshopt_compiled, "PARALLEL_AT", 0)
    jobs = []
    for k in range(12):
        count, stride = 500 + 97 * k, 4 * (1 + k % 5)
        stream = encode_vertex_buffer(smooth_elements(count, stride, seed=k), k % 2)
        jobs.append(("ATTRIBUTES", "NONE", count, stride, stream if k != 5 else stream[:-40]))
    tris = grid_triangles(8)
    jobs.append(("TRIANGLES", "NONE", len(tris), 2, encode_index_buffer(tris)))
    batch = meshopt_compiled.decode_many(jobs)
    for job, got in zip(jobs, batch, strict=True):
        try:
            expected = meshopt_codecs.decode(*job)
        except ValueError as exc:
            assert isinstance(got, ValueError) and str(got) == str(exc)
        else:
            assert np.array_equal(got, expected)


def test_small_files_stay_on_numpy_and_the_setting_is_kept():
    """Without being asked, a load of a few kilobytes never loads numba; ``ANIMVIEW_KERNEL=numpy`` keeps
    the reference even when asked (in fresh interpreters, as ``viewer.fast`` is checked)."""
    probe = (
        "import sys; from viewer.gltf import meshopt_compiled as m; "
        "print(m.wanted(4096), 'numba' in sys.modules); m.use(True); print(m.active(), m.state())"
    )
    env = dict(os.environ, ANIMVIEW_KERNEL="numpy")
    proc = subprocess.run([sys.executable, "-c", probe], cwd=REPO_ROOT, env=env, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["False", "False", "False", "numpy", "(ANIMVIEW_KERNEL=numpy)"]
