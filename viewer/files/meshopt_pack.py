"""EXT_meshopt_compression for a ``JsonWriter``: chosen bufferViews stored as ATTRIBUTES streams, the way
gltfpack ``-cc`` writes animation data, so ``animview reduce --meshopt`` can shrink a file without meshoptimizer.

Layout (the EXT README's fallback scheme, as gltfpack writes it): buffer 0 (``w.bin``, the GLB BIN chunk)
holds the views left plain and the compressed streams; buffer 1 is a fallback with no uri and no data, tagged
``fallback: true``, whose ``byteLength`` is the uncompressed size. A compressed view keeps ``buffer: 1`` and
its place in that uncompressed layout, and its extension object says where the stream is in buffer 0. As the
fallback holds nothing, the extension is required, not only used.

``JsonWriter.to_dict`` rebuilds ``buffers`` as the one buffer ``w.bin``, which would drop the fallback, so
the finished JSON comes from ``packed_dict(w)`` (``w.to_dict()`` with buffer 1 put back). Call
``compress_views`` last: ``prune`` refuses files using meshopt, and a view's bytes are no longer in ``w.bin``.

Filters are lossy and run before the codec, so the view must already hold their encoded form
(``encode_filtered``) and a reader sees ``decode_filtered`` of it; callers measure their error on that,
the package's own decoder filters, not on an estimate. Accessor ``min``/``max`` are recomputed from it.
"""

from __future__ import annotations

import copy

import numpy as np

from viewer.files.meshopt_encode import encode_vertex_buffer
from viewer.files.meshopt_filters_encode import encode_exponential, encode_quaternion
from viewer.files.writer import DTYPES, BufferWriter, JsonWriter, f32
from viewer.gltf import meshopt
from viewer.gltf.meshopt_codecs import decode_vertex_buffer
from viewer.gltf.meshopt_filters import FILTER_FUNCTIONS

EXT = "EXT_meshopt_compression"
FILTERS = (None, "NONE", "QUATERNION", "EXPONENTIAL")
_COMPONENTS = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4, "MAT2": 4, "MAT3": 9, "MAT4": 16}
_SHORT = 5122


def encode_filtered(values: np.ndarray, filter: str, bits: int) -> np.ndarray:
    """What a filtered view stores for ``values``: write it as the accessor's data, then compress the view.

    QUATERNION: unit quaternions (n, 4) xyzw, ``bits`` 4..16 → (n, 4) int16 (a SHORT normalized VEC4
    accessor). EXPONENTIAL: floats (n,) or (n, k), ``bits`` 1..24 of mantissa → the stored 32-bit words
    viewed as float32, same shape, so ``add_accessor`` writes them verbatim as a FLOAT accessor (they are not
    the values: never compute with them, and give the accessor no ``min``/``max`` until ``compress_views``).

    Raises:
        ValueError: an unknown filter, bits out of range, a wrong shape, or non-finite values.
    """
    v = np.asarray(values, np.float64)
    if not np.isfinite(v).all():
        raise ValueError(f"the {filter} filter needs finite values")
    if filter == "QUATERNION":
        if not 4 <= bits <= 16 or v.ndim != 2 or v.shape[1] != 4:
            raise ValueError(f"QUATERNION takes (n, 4) quaternions and 4 to 16 bits, got {v.shape}, {bits} bits")
        if len(v) and not (np.linalg.norm(v, axis=1) > 0).all():
            raise ValueError("QUATERNION needs quaternions of non-zero length")
        return encode_quaternion(v, bits).view("<i2").reshape(len(v), 4).astype(np.int16)
    if filter == "EXPONENTIAL":
        if not 1 <= bits <= 24 or v.ndim not in (1, 2):
            raise ValueError(f"EXPONENTIAL takes (n,) or (n, k) floats and 1 to 24 bits, got {v.shape}, {bits} bits")
        if len(v) and np.abs(v).max() >= 2.0 ** (100 + bits - 1):
            raise ValueError("EXPONENTIAL cannot hold values this large (its exponent stops at 100)")
        return encode_exponential(v.reshape(len(v), -1), bits).view("<f4").reshape(v.shape).astype(np.float32)
    raise ValueError(f"encode_filtered takes QUATERNION or EXPONENTIAL, got {filter!r}")


def decode_filtered(stored: np.ndarray, filter: str | None) -> np.ndarray:
    """What a reader's accessor holds for ``encode_filtered``'s output, through the package's decoder filters:
    QUATERNION (n, 4) int16 (normalized: divide by 32767), EXPONENTIAL float32 of ``stored``'s shape."""
    if filter in (None, "NONE"):
        return np.array(stored)
    kind = {"QUATERNION": "<i2", "EXPONENTIAL": "<f4"}.get(filter)
    if kind is None:
        raise ValueError(f"decode_filtered takes QUATERNION or EXPONENTIAL, got {filter!r}")
    values = np.ascontiguousarray(stored, kind)
    count = len(values)
    data = values.reshape(-1).view(np.uint8).copy()
    if count:
        FILTER_FUNCTIONS[filter](data, count, data.size // count)
    return data.view(kind).reshape(values.shape).astype(kind[1:])


def compress_views(w: JsonWriter, views: dict[int, str | None]) -> int:
    """Compress the given bufferViews of w (index -> filter: None, "QUATERNION", "EXPONENTIAL") in place with
    EXT_meshopt_compression mode ATTRIBUTES; returns the compressed bytes total.

    Every plain view must lie in ``w.bin`` (buffer 0, as ``bake.copy_document`` and the writers make
    them). Views already compressed are left as they are, so compressing twice changes nothing. The stride
    is the accessors' element size (the view's ``byteStride`` when it has one), else 4 bytes. Finish the
    file with ``packed_dict(w)`` and ``writer.save(doc, w.bin_bytes(), path)``.

    Raises:
        ValueError: a view that cannot be compressed as asked (nothing is changed then).
    """
    doc = w.doc
    all_views = doc.get("bufferViews", [])
    plan: dict[int, tuple[dict, bytes, list]] = {}
    for v, filt in sorted(views.items()):
        if not (isinstance(v, (int, np.integer)) and not isinstance(v, bool) and 0 <= v < len(all_views)):
            raise ValueError(f"no bufferView {v!r}: the file has {len(all_views)}")
        v = int(v)
        if meshopt.compression(all_views[v]) is None:
            plan[v] = _plan_view(w, v, filt)
    if not plan:
        return 0
    buffers = doc.get("buffers", [])
    fallback = buffers[1] if len(buffers) > 1 and _is_fallback(buffers[1]) else None
    if fallback is None and any(meshopt.compression(view) for view in all_views):
        raise ValueError("the file has compressed views but no fallback buffer 1 that compress_views made")
    fallback_end = fallback["byteLength"] if fallback else 0
    old, new = bytes(w.bin), BufferWriter()
    for v, view in enumerate(all_views):
        found = meshopt.compression(view)
        if v in plan:
            ext, stream, bounds = plan[v]
            for accessor, low, high in bounds:
                accessor["min"], accessor["max"] = low, high
            ext["byteOffset"] = new.append(stream)
            fallback_end += -fallback_end % 4
            view["buffer"], view["byteOffset"] = 1, fallback_end
            fallback_end += view["byteLength"]
            view.setdefault("extensions", {})[EXT] = ext
        elif found is not None:
            ext = found[1]
            start = ext.get("byteOffset", 0)
            ext["byteOffset"] = new.append(old[start : start + ext["byteLength"]])
        else:
            start = view.get("byteOffset", 0)
            view["byteOffset"] = new.append(old[start : start + view["byteLength"]])
    w.bin = new.bin
    tag = {"extensions": {EXT: {"fallback": True}}}
    doc["buffers"] = [{"byteLength": len(w.bin_bytes())}, {"byteLength": fallback_end, **tag}]
    for key in ("extensionsUsed", "extensionsRequired"):
        if EXT not in doc.setdefault(key, []):
            doc[key].append(EXT)
    return sum(ext["byteLength"] for ext, _, _ in plan.values())


def packed_dict(w: JsonWriter) -> dict:
    """``w.to_dict()`` with the fallback buffer kept: the JSON to save with ``w.bin_bytes()``.

    By hand: ``doc = w.to_dict(); doc["buffers"] += copy.deepcopy(w.doc["buffers"][1:])``.
    """
    doc = w.to_dict()
    extra = w.doc.get("buffers", [])[1:]
    if extra and doc.get("buffers"):
        doc["buffers"] = doc["buffers"][:1] + copy.deepcopy(extra)
    return doc


def _is_fallback(buffer: dict) -> bool:
    return bool((buffer.get("extensions") or {}).get(EXT, {}).get("fallback"))


def _plan_view(w: JsonWriter, v: int, filt: str | None) -> tuple[dict, bytes, list]:
    """The extension object (byteOffset to be placed), stream and new accessor bounds for view ``v``: all
    checked and computed before anything changes, so a refused view leaves ``w`` as it was."""
    view = w.doc["bufferViews"][v]
    if filt not in FILTERS:
        raise ValueError(f"bufferView {v}: filter {filt!r} is not one of None, QUATERNION, EXPONENTIAL")
    start, length = view.get("byteOffset", 0), view["byteLength"]
    if view.get("buffer", 0) != 0 or length < 1 or start + length > len(w.bin):
        raise ValueError(f"bufferView {v} does not lie in the writer's buffer 0")
    users = [a for a in w.doc.get("accessors", []) if a.get("bufferView") == v]
    sparse = any(
        part.get("bufferView") == v
        for a in w.doc.get("accessors", [])
        for part in ((a.get("sparse") or {}).get("indices", {}), (a.get("sparse") or {}).get("values", {}))
    )
    stride = _stride(view, users, sparse, length)
    if stride is None:
        raise ValueError(f"bufferView {v}: no ATTRIBUTES byteStride (a multiple of 4 up to 256) divides {length}")
    shapes = {(a["componentType"], a.get("normalized", False), a["type"]) for a in users}
    if filt == "QUATERNION" and (stride != 8 or sparse or shapes - {(_SHORT, True, "VEC4")}):
        raise ValueError(f"bufferView {v}: QUATERNION needs SHORT normalized VEC4 accessors only (byteStride 8)")
    if filt == "EXPONENTIAL" and (sparse or {c for c, _, _ in shapes} - {5126}):
        raise ValueError(f"bufferView {v}: EXPONENTIAL needs FLOAT accessors only")
    data = np.frombuffer(bytes(w.bin[start : start + length]), np.uint8).reshape(-1, stride)
    stream = encode_vertex_buffer(data, version=0)
    if not np.array_equal(decode_vertex_buffer(len(data), stride, stream), data.reshape(-1)):
        raise RuntimeError(f"bufferView {v}: the encoded stream does not decode to its bytes")  # an encoder bug
    ext = {"buffer": 0, "byteOffset": 0, "byteLength": len(stream), "byteStride": stride, "count": len(data)}
    ext["mode"] = "ATTRIBUTES"
    bounds = []
    if filt not in (None, "NONE"):
        ext["filter"] = filt
        decoded = data.reshape(-1).copy()
        FILTER_FUNCTIONS[filt](decoded, len(data), stride)
        bounds = [_bounds(a, decoded, view.get("byteStride")) for a in users if "min" in a or "max" in a]
    return ext, stream, bounds


def _element_size(accessor: dict) -> int:
    size = np.dtype(DTYPES[accessor["componentType"]]).itemsize
    kind = accessor["type"]
    if kind.startswith("MAT"):
        n = int(kind[3])
        return n * (n * size + (-(n * size) % 4))  # columns padded to 4 bytes
    return _COMPONENTS[kind] * size


def _stride(view: dict, users: list[dict], sparse: bool, length: int) -> int | None:
    """The view's own byteStride, else its accessors' one element size, else 4: the element the deltas run
    along (a byte delta against the same byte of the previous key is what makes animation data small)."""
    if "byteStride" in view:
        stride = view["byteStride"]
        return stride if stride % 4 == 0 and stride <= 256 and length % stride == 0 else None
    sizes = {_element_size(a) for a in users}
    if len(sizes) == 1 and not sparse:
        stride = sizes.pop()
        if stride % 4 == 0 and stride <= 256 and length % stride == 0:
            return stride
    return 4 if length % 4 == 0 else None


def _bounds(accessor: dict, decoded: np.ndarray, byte_stride: int | None) -> tuple[dict, list, list]:
    """``min``/``max`` of a filtered accessor from what a reader decodes (they were of the encoded form)."""
    dtype = np.dtype(DTYPES[accessor["componentType"]]).newbyteorder("<")
    width, count = _COMPONENTS[accessor["type"]], accessor["count"]
    rows = np.ndarray(
        (count, width),
        dtype,
        decoded,
        accessor.get("byteOffset", 0),
        (byte_stride or width * dtype.itemsize, dtype.itemsize),
    )
    cast = f32 if dtype.kind == "f" else int
    return accessor, [cast(x) for x in rows.min(axis=0)], [cast(x) for x in rows.max(axis=0)]
