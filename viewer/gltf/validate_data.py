"""Validation of where the bytes are: buffers, bufferViews, accessors (sparse included) and images.

Runs after ``validate.check_structure``, so every property has its JSON type and every index is in
range. Sizes are compared with exact integer arithmetic before anything is allocated from a count in
the file (glTF 2.0 §3.6.2.4 "Data Alignment", §3.6.2.3 "Sparse Accessors").
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from viewer.base.errors import GltfError, pointer
from viewer.gltf.accessors import FLOAT, TYPE_COMPONENTS, AccessorReader, component_size, element_size
from viewer.gltf.resources import FileAccess, check_uri_available

MAX_ACCESSOR_BYTES = 512 * 1024 * 1024  # refuse larger accessors rather than allocate them
MAX_ZERO_FILLED_BYTES = 1024 * 1024 * 1024  # all accessors without a bufferView together (no file data behind them)


def check_buffers(raw: dict, file: Path, buffers: list[bytes]) -> None:
    """Each buffer must have at least ``byteLength`` bytes of data (file, data: URI or BIN chunk)."""
    for k, (buffer, data) in enumerate(zip(raw.get("buffers", []), buffers)):
        if len(data) < buffer["byteLength"]:
            source = "uri" if "uri" in buffer else "GLB BIN chunk"
            raise GltfError(
                file,
                pointer("buffers", k, "byteLength"),
                f"buffer {k} byteLength is {buffer['byteLength']} but its {source} holds {len(data)} bytes",
            )


def check_buffer_views(raw: dict, file: Path) -> None:
    """Each bufferView must lie inside its buffer: ``byteOffset + byteLength <= buffer.byteLength``."""
    buffers = raw.get("buffers", [])
    for v, view in enumerate(raw.get("bufferViews", [])):
        offset, length = view.get("byteOffset", 0), view["byteLength"]
        available = buffers[view["buffer"]]["byteLength"]
        if offset + length > available:
            raise GltfError(
                file,
                pointer("bufferViews", v, "byteLength"),
                f"bufferView {v} ends at byte {offset + length} (byteOffset {offset} + byteLength "
                f"{length}) but buffer {view['buffer']} has {available}",
            )


def check_accessors(raw: dict, file: Path, reader: AccessorReader) -> None:
    """Sizes, alignment and ranges of every accessor, then its sparse indices' values."""
    views = raw.get("bufferViews", [])
    zero_filled = 0
    for a, accessor in enumerate(raw.get("accessors", [])):
        _check_accessor_format(accessor, a, file)
        if "bufferView" in accessor:
            _check_accessor_range(accessor, a, views, file)
        else:
            zero_filled += accessor["count"] * element_size(accessor["type"], accessor["componentType"])
            if zero_filled > MAX_ZERO_FILLED_BYTES:
                total = f"accessors without bufferView add up to {zero_filled} bytes at accessor {a},"
                raise _over_limit(a, file, total, MAX_ZERO_FILLED_BYTES)
        if "sparse" in accessor:
            _check_sparse(accessor, a, views, file, reader)


def _over_limit(a: int, file: Path, total: str, limit: int) -> GltfError:
    """The error for accessor ``a`` whose count brings a byte total over ``limit``; ``total`` says what it came to."""
    return GltfError(file, pointer("accessors", a, "count"), f"{total} over the {limit} byte limit")


def _check_accessor_format(accessor: dict, a: int, file: Path) -> None:
    kind, ctype, count = accessor["type"], accessor["componentType"], accessor["count"]
    if accessor.get("normalized", False) and ctype in (FLOAT, 5125):
        raise GltfError(
            file,
            pointer("accessors", a, "normalized"),
            f"accessor {a} is normalized but componentType {ctype} cannot be (only 8- and 16-bit ints)",
        )
    size = count * element_size(kind, ctype)
    if size > MAX_ACCESSOR_BYTES:
        total = f"accessor {a} count {count} × {element_size(kind, ctype)} bytes = {size} bytes is"
        raise _over_limit(a, file, total, MAX_ACCESSOR_BYTES)
    for bound in ("min", "max"):
        if bound in accessor and len(accessor[bound]) != TYPE_COMPONENTS[kind]:
            raise GltfError(
                file,
                pointer("accessors", a, bound),
                f"accessor {a} {bound} has "
                f"{len(accessor[bound])} values but a {kind} has {TYPE_COMPONENTS[kind]} components",
            )


def _check_accessor_range(accessor: dict, a: int, views: list[dict], file: Path) -> None:
    """Alignment, stride, and the last element ending inside the bufferView."""
    kind, ctype, count = accessor["type"], accessor["componentType"], accessor["count"]
    v = accessor["bufferView"]
    view = views[v]
    offset, item, size = accessor.get("byteOffset", 0), component_size(ctype), element_size(kind, ctype)
    if offset % item or (offset + view.get("byteOffset", 0)) % item:
        raise GltfError(
            file,
            pointer("accessors", a, "byteOffset"),
            f"accessor {a} byteOffset {offset} (+ bufferView {v} byteOffset {view.get('byteOffset', 0)}) "
            f"is not a multiple of its component size {item}",
        )
    stride = view.get("byteStride", size)
    if stride < size or stride % item:
        raise GltfError(
            file,
            pointer("accessors", a, "bufferView"),
            f"accessor {a} elements take {size} bytes but bufferView {v} byteStride is {stride}",
        )
    needed = offset + stride * (count - 1) + size
    if needed > view["byteLength"]:
        raise GltfError(
            file,
            pointer("accessors", a, "count"),
            f"accessor {a} needs {needed} bytes ({count} elements from byteOffset {offset}, stride "
            f"{stride}) but bufferView {v} has {view['byteLength']}",
        )


def _check_sparse(accessor: dict, a: int, views: list[dict], file: Path, reader: AccessorReader) -> None:
    """Sparse count, both sparse ranges, then indices strictly increasing and below ``count``."""
    sparse, count = accessor["sparse"], accessor["count"]
    here = ("accessors", a, "sparse")
    if sparse["count"] > count:
        raise GltfError(
            file, pointer(*here, "count"), f"accessor {a} sparse count {sparse['count']} is more than its count {count}"
        )
    index_size = component_size(sparse["indices"]["componentType"])
    _check_sparse_range(sparse, "indices", index_size, index_size, views, file, a)
    _check_sparse_range(
        sparse,
        "values",
        element_size(accessor["type"], accessor["componentType"]),
        component_size(accessor["componentType"]),
        views,
        file,
        a,
    )
    indices = reader.sparse_indices(a).astype(np.int64)
    too_big = np.flatnonzero(indices >= count)
    if too_big.size:
        k = int(too_big[0])
        raise GltfError(
            file,
            pointer(*here, "indices"),
            f"accessor {a} sparse index {k} is {indices[k]}, not below the accessor count {count}",
        )
    not_increasing = np.flatnonzero(np.diff(indices) <= 0)
    if not_increasing.size:
        k = int(not_increasing[0]) + 1
        raise GltfError(
            file,
            pointer(*here, "indices"),
            f"accessor {a} sparse indices must strictly increase: index {k} is {indices[k]} after {indices[k - 1]}",
        )


def _check_sparse_range(sparse: dict, part: str, size: int, align: int, views: list[dict], file: Path, a: int) -> None:
    """``byteOffset + sparse.count * size`` must fit in the part's bufferView, at an aligned offset.

    Args:
        part: "indices" or "values".
        size: bytes per sparse index or per value element.
        align: the component size the offset must be a multiple of.
    """
    where = ("accessors", a, "sparse", part)
    v, offset = sparse[part]["bufferView"], sparse[part].get("byteOffset", 0)
    if offset % align:
        raise GltfError(
            file,
            pointer(*where, "byteOffset"),
            f"accessor {a} sparse {part} byteOffset {offset} is not a multiple of {align}",
        )
    needed = offset + sparse["count"] * size
    if needed > views[v]["byteLength"]:
        raise GltfError(
            file,
            pointer(*where),
            f"accessor {a} sparse {part} needs {needed} bytes "
            f"({sparse['count']} × {size} from byteOffset {offset}) but bufferView {v} has "
            f"{views[v]['byteLength']}",
        )


def check_images(raw: dict, access: FileAccess) -> None:
    """Each image has exactly one source: a uri that resolves, or a bufferView with a mimeType."""
    file = access.model
    for i, image in enumerate(raw.get("images", [])):
        if ("uri" in image) == ("bufferView" in image):
            raise GltfError(file, pointer("images", i), f"image {i} must have exactly one of uri and bufferView")
        if "bufferView" in image and "mimeType" not in image:
            raise GltfError(file, pointer("images", i, "mimeType"), f"image {i} uses a bufferView but has no mimeType")
        if "uri" in image:
            check_uri_available(image["uri"], access, pointer("images", i, "uri"), f"image {i}")
