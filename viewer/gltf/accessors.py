"""Accessor data → numpy arrays (glTF 2.0 §3.6 "Buffers, BufferViews, and Accessors").

Shapes: SCALAR → ``(count,)``; VECn → ``(count, n)``; MATn → ``(count, n, n)`` in math convention,
``M[k][row][col]`` (glTF stores matrices column-major, so the columns are read and the last two axes
swapped). Normalized integers become float32 by the spec's dequantization formulas; other integers
keep their dtype; floats are float32. Every read is a strided numpy view copied once, no loop per
element — or not copied at all where the elements lie tightly packed and aligned in the buffer (a read-only
window on the file's bytes, so a 200 MB animation is held once, not twice). This module trusts its input:
``validate`` has checked every range before anything is read.
A bufferView compressed with EXT_/KHR_meshopt_compression reads as its decoded bytes (``meshopt``,
decoded once); malformed compressed data is the one fault found here, a ``GltfError`` at the extension.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from viewer.base.errors import GltfError, pointer
from viewer.gltf import meshopt

COMPONENT_DTYPES: dict[int, np.dtype] = {
    5120: np.dtype("<i1"),
    5121: np.dtype("<u1"),
    5122: np.dtype("<i2"),
    5123: np.dtype("<u2"),
    5125: np.dtype("<u4"),
    5126: np.dtype("<f4"),
}
FLOAT = 5126
UNSIGNED_INT_TYPES = (5121, 5123, 5125)
TYPE_COMPONENTS: dict[str, int] = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4, "MAT2": 4, "MAT3": 9, "MAT4": 16}
MATRIX_SIZES: dict[str, int] = {"MAT2": 2, "MAT3": 3, "MAT4": 4}


def component_size(component_type: int) -> int:
    """Bytes per component: 1, 2 or 4."""
    return COMPONENT_DTYPES[component_type].itemsize


def column_stride(accessor_type: str, component_type: int) -> int:
    """Bytes from one matrix column to the next: columns start on 4-byte boundaries (§3.6.2.4).

    This only differs from ``n * component size`` for MAT2 of 1-byte, MAT3 of 1-byte and MAT3 of
    2-byte components.
    """
    n = MATRIX_SIZES[accessor_type]
    raw = n * component_size(component_type)
    return raw + (-raw % 4)


def element_size(accessor_type: str, component_type: int) -> int:
    """Bytes one element takes in a tightly packed bufferView, matrix column padding included."""
    if accessor_type in MATRIX_SIZES:
        return MATRIX_SIZES[accessor_type] * column_stride(accessor_type, component_type)
    return TYPE_COMPONENTS[accessor_type] * component_size(component_type)


def element_shape(accessor_type: str) -> tuple[int, ...]:
    """Shape of one element in the returned array: (), (n,) or (n, n)."""
    if accessor_type == "SCALAR":
        return ()
    if accessor_type in MATRIX_SIZES:
        n = MATRIX_SIZES[accessor_type]
        return (n, n)
    return (TYPE_COMPONENTS[accessor_type],)


def dequantize(values: np.ndarray, component_type: int) -> np.ndarray:
    """Normalized integers → float32 (glTF 2.0 §3.11, KHR_mesh_quantization).

    Signed: ``max(c / (2^(b-1) - 1), -1.0)``; unsigned: ``c / (2^b - 1)``.
    """
    info = np.iinfo(COMPONENT_DTYPES[component_type])
    scaled = values.astype(np.float32) / np.float32(info.max)
    if info.min < 0:
        np.maximum(scaled, np.float32(-1.0), out=scaled)
    return scaled


def strided_read(
    buffer: bytes | memoryview, offset: int, count: int, stride: int, accessor_type: str, component_type: int
) -> np.ndarray:
    """Copy ``count`` elements starting at ``offset``, ``stride`` bytes apart, out of ``buffer``.

    Returns:
        A new array of shape ``(count, *element_shape)`` in the component dtype (native byte order);
        matrices are transposed from glTF's column-major storage to ``M[k][row][col]``.
    """
    dtype = COMPONENT_DTYPES[component_type]
    item = dtype.itemsize
    if accessor_type in MATRIX_SIZES:
        n = MATRIX_SIZES[accessor_type]
        shape: tuple[int, ...] = (count, n, n)  # (element, column, row) as stored
        strides: tuple[int, ...] = (stride, column_stride(accessor_type, component_type), item)
    elif accessor_type == "SCALAR":
        shape, strides = (count,), (stride,)
    else:
        shape, strides = (count, TYPE_COMPONENTS[accessor_type]), (stride, item)
    view = np.ndarray(shape, dtype=dtype, buffer=buffer, offset=offset, strides=strides)
    if accessor_type in MATRIX_SIZES:
        view = view.swapaxes(1, 2)
    return np.array(view, dtype=dtype.newbyteorder("="), order="C", copy=True)


class AccessorReader:
    """Reads accessors of one validated document, caching each result as a read-only array.

    Args:
        raw: the glTF JSON as a dict (``accessors`` and ``bufferViews`` are used).
        buffers: bytes of each buffer, index for index with ``raw["buffers"]`` (a meshopt fallback buffer
            may stand for one that is never read).
        file: the .gltf/.glb, for errors in compressed bufferViews.
    """

    def __init__(self, raw: dict, buffers: list, file: str | Path = "") -> None:
        self._accessors: list[dict] = raw.get("accessors", [])
        self._views: list[dict] = raw.get("bufferViews", [])
        self._buffers = buffers
        self._file = file
        self._cache: dict[int, np.ndarray] = {}
        self._decoded: dict[int, np.ndarray] = {}

    def view_bytes(self, index: int) -> memoryview:
        """The bytes of bufferView ``index``: a zero-copy slice of its buffer, or its decoded bytes when
        it is meshopt-compressed (decoded on first use, then cached).

        Raises:
            GltfError: the compressed data of bufferView ``index`` cannot be decoded.
        """
        view = self._views[index]
        compressed = meshopt.compression(view)
        if compressed is not None:
            return memoryview(self._decoded_view(index, *compressed))
        start = view.get("byteOffset", 0)
        return memoryview(self._buffers[view["buffer"]])[start : start + view["byteLength"]]

    def _decoded_view(self, index: int, name: str, ext: dict) -> np.ndarray:
        """The decoded bytes of compressed bufferView ``index`` (read-only uint8). The first call decodes every
        compressed view at once (``meshopt.decode_many``: compiled and on all cores when the file is large);
        a view whose data is bad raises when it is asked for, as if it were decoded then."""
        if not self._decoded:
            self._decoded.update(zip(*self._compressed_jobs()))
        decoded = self._decoded.get(index)
        if decoded is None:  # not in the batch (an extension object no load would have let through)
            start = ext.get("byteOffset", 0)
            data = memoryview(self._buffers[ext["buffer"]])[start : start + ext["byteLength"]]
            decoded = meshopt.decode_many(
                [(ext["mode"], ext.get("filter", "NONE"), ext["count"], ext["byteStride"], data)]
            )[0]
            self._decoded[index] = decoded
        if isinstance(decoded, ValueError):
            raise GltfError(
                self._file,
                pointer("bufferViews", index, "extensions", name),
                f"cannot decode the compressed data of bufferView {index}: {decoded}",
            ) from None
        decoded.flags.writeable = False
        return decoded

    def _compressed_jobs(self) -> tuple[list[int], list]:
        """Every compressed view's index and its bytes decoded (or the ``ValueError``), in file order."""
        views, jobs = [], []
        for v, view in enumerate(self._views):
            found = meshopt.compression(view)
            if found is None:
                continue
            ext = found[1]
            try:
                start = ext.get("byteOffset", 0)
                data = memoryview(self._buffers[ext["buffer"]])[start : start + ext["byteLength"]]
                jobs.append((ext["mode"], ext.get("filter", "NONE"), ext["count"], ext["byteStride"], data))
            except (KeyError, TypeError, IndexError):
                continue
            views.append(v)
        return views, meshopt.decode_many(jobs)

    def read(self, index: int) -> np.ndarray:
        """The data of accessor ``index`` (see the module docstring for shapes and dtypes), read-only."""
        cached = self._cache.get(index)
        if cached is None:
            cached = self._read_uncached(index)
            cached.flags.writeable = False
            self._cache[index] = cached
        return cached

    def sparse_indices(self, index: int) -> np.ndarray:
        """The raw sparse indices of accessor ``index``, shape ``(sparse.count,)``; used by validation."""
        sparse = self._accessors[index]["sparse"]
        part = sparse["indices"]
        return strided_read(
            self.view_bytes(part["bufferView"]),
            part.get("byteOffset", 0),
            sparse["count"],
            component_size(part["componentType"]),
            "SCALAR",
            part["componentType"],
        )

    def _read_uncached(self, index: int) -> np.ndarray:
        accessor = self._accessors[index]
        kind, ctype, count = accessor["type"], accessor["componentType"], accessor["count"]
        if "bufferView" in accessor:
            view, offset = accessor["bufferView"], accessor.get("byteOffset", 0)
            values = None if "sparse" in accessor else self._window(view, offset, count, kind, ctype)
            if values is None:
                values = self._read_from_view(view, offset, count, kind, ctype)
        else:
            values = np.zeros((count, *element_shape(kind)), dtype=COMPONENT_DTYPES[ctype].newbyteorder("="))
        if "sparse" in accessor:
            self._apply_sparse(values, index)
        if accessor.get("normalized", False):
            values = dequantize(values, ctype)
        return values

    def _window(self, view_index: int, offset: int, count: int, kind: str, ctype: int) -> np.ndarray | None:
        """The accessor as a view of its buffer's bytes, without a copy, where that reads the same array: not a
        matrix (stored transposed), elements tightly packed, native byte order and aligned; else None."""
        dtype = COMPONENT_DTYPES[ctype]
        size = element_size(kind, ctype)
        if kind in MATRIX_SIZES or not dtype.isnative or self._views[view_index].get("byteStride", size) != size:
            return None
        values = np.frombuffer(self.view_bytes(view_index), dtype, count * (size // dtype.itemsize), offset)
        return values.reshape((count, *element_shape(kind))) if values.flags.aligned else None

    def _read_from_view(self, view_index: int, offset: int, count: int, kind: str, ctype: int) -> np.ndarray:
        stride = self._views[view_index].get("byteStride") or element_size(kind, ctype)
        return strided_read(self.view_bytes(view_index), offset, count, stride, kind, ctype)

    def _apply_sparse(self, values: np.ndarray, index: int) -> None:
        """Substitute the sparse values at the sparse indices, in place (§3.6.2.3)."""
        accessor = self._accessors[index]
        sparse, kind, ctype = accessor["sparse"], accessor["type"], accessor["componentType"]
        part = sparse["values"]
        substitutes = strided_read(
            self.view_bytes(part["bufferView"]),
            part.get("byteOffset", 0),
            sparse["count"],
            element_size(kind, ctype),
            kind,
            ctype,
        )
        values[self.sparse_indices(index)] = substitutes
