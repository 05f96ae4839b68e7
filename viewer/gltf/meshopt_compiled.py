"""The meshopt decoder compiled (numba), for files whose compressed data runs to megabytes: whether it is in use,
getting it ready, and decoding with it — many bufferViews at once, in parallel when there is enough to share.

Why: the numpy decoder (``meshopt_codecs``, the reference) reads attribute data at 25–80 MB/s, so a 200 MB
gltfpack file takes seconds to open; the kernels (``meshopt_kernels``, ``meshopt_index_kernels``) decode
the same streams to the same bytes at about 1 GB/s a core. They release the GIL, so large files decode on
every core (docs/speed.md has the figures).

Loading costs numba's import (0.2–0.4 s) plus, on a first run, a compile of a few seconds that numba then
caches beside the package (``cache=True``): nothing imports numba until a file is worth it. ``wanted(total)``
loads the kernels when a file's compressed views decode to ``WARM_AT`` bytes or more with the cache filled, or
``COLD_AT`` with it empty (``python -m viewer.gltf.meshopt_compiled`` fills it); once loaded they decode
everything. Malformed data is diagnosed by the reference: a kernel that stops early hands the stream to
``meshopt_codecs``, which raises its ``ValueError``, so both paths fail alike.

``ANIMVIEW_KERNEL=numpy`` keeps the numpy decoder (as for ``viewer.fast``), as does numba missing; tests
and benchmarks choose with ``use``.
"""

from __future__ import annotations

import importlib.util
import os
import threading
from concurrent.futures import ThreadPoolExecutor
from types import SimpleNamespace

import numpy as np

from viewer.gltf import meshopt_codecs, meshopt_index_kernels, meshopt_kernels
from viewer.gltf.meshopt_filters import FILTER_FUNCTIONS

WARM_AT = 16 * 1024 * 1024  # decoded bytes in one file: numpy takes 0.2–0.7 s, loading the cached kernels ~0.4 s
COLD_AT = 96 * 1024 * 1024  # ... where a first-run compile (4–6 s) costs less than decoding with numpy
PARALLEL_AT = 4 * 1024 * 1024  # decoded bytes in one batch before it is shared among threads
_SQRT_HALF = np.float32(1.0 / np.sqrt(2.0))  # as meshopt_filters computes it
KERNELS = [
    (meshopt_kernels, name)
    for name in ("round_clamp", "group", "undo_deltas", "vertex_blocks")
    + ("filter_octahedral", "filter_quaternion", "filter_exponential", "filter_color")
] + [(meshopt_index_kernels, name) for name in ("varint_index", "triangles", "index_sequence")]
_kernels: SimpleNamespace | None = None  # the compiled functions, when in use
_loaded: SimpleNamespace | None = None  # ... once compiled (``use(False)`` keeps them for later)
_forced: bool | None = None  # use(): True / False; None: by size (``wanted``)
_state, _detail = "not loaded", ""
_lock = threading.Lock()


def active() -> bool:
    """Whether decoding goes through the kernels now."""
    return _kernels is not None


def state() -> str:
    """ "not loaded", "ready", "numpy" (asked for, or numba missing) or "failed", with why."""
    return f"{_state} ({_detail})" if _detail else _state


def use(on: bool | None) -> None:
    """True: load the kernels and decode everything with them; False: the numpy decoder only; None: decide by
    size again (``wanted``). For tests and benchmarks, which compare both paths."""
    global _kernels, _forced
    _forced = on
    _kernels = _load() if on else (_loaded if on is None else None)


def wanted(total: int) -> bool:
    """Get the kernels ready if decoding ``total`` bytes pays for it; True when they are in use."""
    global _kernels
    if _kernels is None and _forced is None and total >= (WARM_AT if cache_looks_warm() else COLD_AT):
        _kernels = _load()
    return _kernels is not None


def decode_many(jobs: list[tuple[str, str, int, int, bytes | memoryview]]) -> list[np.ndarray | ValueError]:
    """Decode compressed bufferViews ``(mode, filter, count, byteStride, data)``: each one's bytes, or the
    ``ValueError`` that says why it cannot be decoded, in the order given.

    Through the kernels, attribute views decode into slices of one array: numpy asks the kernel for huge pages
    on an allocation of 4 MiB or more, and first touching 4 KiB pages one by one costs as much as decoding
    them (a slice keeps the whole array alive, as the document keeps every view)."""
    total = sum(count * stride for _, _, count, stride, _ in jobs)
    if not wanted(total):
        return [_decode_one(job) for job in jobs]
    at, places = 0, []
    for mode, _, count, stride, _ in jobs:
        places.append(at if mode == "ATTRIBUTES" else -1)
        at += -(-count * stride // 64) * 64 if mode == "ATTRIBUTES" else 0
    arena = np.empty(at, np.uint8)
    outs = [arena[p : p + job[2] * job[3]] if p >= 0 else None for p, job in zip(places, jobs)]
    if total < PARALLEL_AT or len(jobs) < 2 or (os.cpu_count() or 1) < 2:
        return [_decode_one(job, out) for job, out in zip(jobs, outs)]
    order = sorted(range(len(jobs)), key=lambda j: -jobs[j][2] * jobs[j][3])  # largest first: even shares
    with ThreadPoolExecutor(max_workers=min(os.cpu_count() or 2, len(jobs))) as pool:
        done = dict(zip(order, pool.map(lambda j: _decode_one(jobs[j], outs[j]), order)))
    return [done[j] for j in range(len(jobs))]


def decode(
    mode: str, filter_name: str, count: int, stride: int, data: bytes | memoryview, out: np.ndarray | None = None
) -> np.ndarray:
    """``meshopt_codecs.decode``, through the kernels when they are in use (an ATTRIBUTES view into ``out``,
    ``count × stride`` bytes, when given).

    Raises:
        ValueError: as ``meshopt_codecs.decode`` does.
    """
    k = _kernels
    if k is None or filter_name not in meshopt_codecs.FILTERS:
        return meshopt_codecs.decode(mode, filter_name, count, stride, data)
    if mode == "ATTRIBUTES":
        out = _vertex_buffer(k, count, stride, data, out)
        _filter(k, filter_name, out, count, stride)
        return out
    if filter_name == "NONE" and stride in (2, 4) and mode in ("TRIANGLES", "INDICES"):
        values = (_triangles if mode == "TRIANGLES" else _sequence)(k, count, stride, data)
        if values is not None:
            return values.astype(np.dtype("<u2" if stride == 2 else "<u4")).view(np.uint8).reshape(-1)
    return meshopt_codecs.decode(mode, filter_name, count, stride, data)


def _decode_one(job: tuple, out: np.ndarray | None = None) -> np.ndarray | ValueError:
    try:
        return decode(*job, out)
    except ValueError as exc:
        return exc


def _readonly(data: bytes | memoryview | np.ndarray) -> np.ndarray:
    """The stream as the read-only uint8 array the kernels are compiled for (no copy)."""
    buf = np.frombuffer(data, np.uint8)
    buf.flags.writeable = False
    return buf


def _vertex_buffer(k: SimpleNamespace, count: int, stride: int, data, out: np.ndarray | None) -> np.ndarray:
    buf, limit, version, baseline, channels, block = meshopt_codecs.vertex_setup(count, stride, data)
    out = np.empty(count * stride, np.uint8) if out is None else out
    last, modes = baseline.copy(), np.array(channels, np.uint8)
    if k.vertex_blocks(_readonly(buf), limit, count, stride, version, block, last, modes, out) != limit:
        return meshopt_codecs.decode_vertex_buffer(count, stride, data)  # raises, with the reason
    return out


def _filter(k: SimpleNamespace, name: str, out: np.ndarray, count: int, stride: int) -> None:
    """The filter in place, compiled where the stride is one the filter takes (else the reference refuses)."""
    if name == "OCTAHEDRAL" and stride in (4, 8):
        k.filter_octahedral(
            out.view(np.int8 if stride == 4 else np.int16), count, np.float32(127 if stride == 4 else 32767)
        )
    elif name == "QUATERNION" and stride == 8:
        k.filter_quaternion(out.view(np.int16), count, _SQRT_HALF)
    elif name == "EXPONENTIAL" and stride % 4 == 0:
        k.filter_exponential(out.view(np.int32), out.view(np.float32))
    elif name == "COLOR" and stride in (4, 8):
        small = stride == 4
        u, s = out.view(np.uint8 if small else np.uint16), out.view(np.int8 if small else np.int16)
        k.filter_color(u, s, count, 255.0 if small else 65535.0)
    elif name != "NONE":
        FILTER_FUNCTIONS[name](out, count, stride)


def _triangles(k: SimpleNamespace, count: int, stride: int, data) -> np.ndarray | None:
    """The TRIANGLES codec's indices, or None where the reference must decide (it raises)."""
    buf = _readonly(data)
    if count < 0 or count % 3 or len(buf) < 1 + count // 3 + 16 or buf[0] not in (0xE0, 0xE1):
        return None
    out = np.empty(count, np.uint32)
    fec_max = 13 if buf[0] == 0xE1 else 15
    return out if k.triangles(buf, count, fec_max, out) == len(buf) - 16 else None


def _sequence(k: SimpleNamespace, count: int, stride: int, data) -> np.ndarray | None:
    """The INDICES codec's indices, or None where the reference must decide (it raises)."""
    buf = _readonly(data)
    if count < 0 or len(buf) < 1 + count + 4 or buf[0] not in (0xD0, 0xD1):
        return None
    out = np.empty(count, np.uint32)
    return out if k.index_sequence(buf, count, out) == len(buf) - 4 else None


def _load() -> SimpleNamespace | None:
    """The compiled functions (compiled or read from numba's cache once per process), or None."""
    global _loaded, _state, _detail
    with _lock:
        if _loaded is None and _state == "not loaded":
            if os.environ.get("ANIMVIEW_KERNEL", "").lower() == "numpy":
                _state, _detail = "numpy", "ANIMVIEW_KERNEL=numpy"
            elif importlib.util.find_spec("numba") is None:
                _state, _detail = "numpy", "numba not installed"
            else:
                try:
                    _loaded, _state = _compile(), "ready"
                except Exception as exc:  # a broken numba install must never stop a load: numpy goes on
                    _state, _detail = "failed", f"{type(exc).__name__}: {exc}"[:200]
        return _loaded


def _compile() -> SimpleNamespace:
    """Each kernel for exactly the types the wrappers pass; helpers first, so that their callers, compiled
    next, find them compiled among their module's globals."""
    import numba
    from numba import types as t

    stream, u8, i64, f32 = t.Array(t.uint8, 1, "C", readonly=True), t.uint8[::1], t.int64, t.float32

    def jit(module, name, *signatures, **options):
        options = dict(cache=True, nogil=True, error_model="numpy", **options)
        compiled = numba.njit(list(signatures), **options)(getattr(module, name))
        setattr(module, name, compiled)
        return compiled

    k, x = meshopt_kernels, meshopt_index_kernels
    jit(k, "round_clamp", f32(f32, f32, f32), inline="always")
    jit(k, "group", i64(stream, i64, i64, u8, i64, i64), inline="always")
    jit(k, "undo_deltas", t.none(u8, i64, i64, i64, u8, u8, u8))
    jit(x, "varint_index", t.UniTuple(i64, 2)(stream, i64, i64))
    none = t.none
    return SimpleNamespace(
        vertex_blocks=jit(k, "vertex_blocks", i64(stream, i64, i64, i64, i64, i64, u8, u8, u8)),
        filter_octahedral=jit(k, "filter_octahedral", none(t.int8[::1], i64, f32), none(t.int16[::1], i64, f32)),
        filter_quaternion=jit(k, "filter_quaternion", none(t.int16[::1], i64, f32)),
        filter_exponential=jit(k, "filter_exponential", none(t.int32[::1], t.float32[::1])),
        filter_color=jit(
            k,
            "filter_color",
            none(u8, t.int8[::1], i64, t.float64),
            none(t.uint16[::1], t.int16[::1], i64, t.float64),
        ),
        triangles=jit(x, "triangles", i64(stream, i64, i64, t.uint32[::1])),
        index_sequence=jit(x, "index_sequence", i64(stream, i64, t.uint32[::1])),
    )


def cache_looks_warm() -> bool:
    """numba's cache holds every kernel beside its module. (Whether it is current is numba's to judge: it keys
    entries by a hash of the source, so a stale entry is compiled afresh, once.) A cache elsewhere reads as
    cold, and the larger threshold then applies."""
    cache = os.path.join(os.path.dirname(os.path.abspath(__file__)), "__pycache__")
    try:
        names = os.listdir(cache)
    except OSError:
        return False
    found = {n.rsplit("-", 1)[0] for n in names if n.endswith(".nbi")}
    return all(f"{module.__name__.rsplit('.', 1)[1]}.{name}" in found for module, name in KERNELS)


if __name__ == "__main__":  # fill numba's cache (after installing, or in a build step)
    use(True)
    print(state())
