"""KHR_draco_mesh_compression: primitives whose attributes and indices come from Draco data.

A Draco primitive (the extension's README, "Conformance") names a bufferView of Draco data and, in its
``attributes``, the Draco attribute (by unique id) that holds each compressed glTF attribute. Its accessors
take their values from the decoded geometry, not from their bufferViews: each named attribute from its
Draco attribute, ``indices`` from the decoded triangles. Attributes the extension does not name are read
from their accessors as usual; morph targets are never compressed.

The decoded values are the accessors' values. Draco's own quantization (positions, normals, texcoords kept
in fewer bits) is undone by the decoder, so those come out as floats; integer attributes (joints,
normalized colours or weights) come out as integers and take the accessor's componentType, a normalized
one then dequantized like any other accessor. Vertex counts, index counts, component counts and integer
ranges are checked against the accessors first; a mismatch is a ``GltfError`` at the extension's pointer.

DracoPy is optional (``pip install 'animview[compressed]'``) and imported only when a file has a Draco
primitive. Without it, a file whose Draco primitives all carry uncompressed fallback data (the extension
not required, every accessor with a bufferView) loads from the fallback with a warning; any other file is
a ``GltfError`` naming the install command.
"""

from __future__ import annotations

import warnings
from pathlib import Path
from types import ModuleType

import numpy as np

from viewer.base.errors import GltfError, GltfWarning, pointer
from viewer.gltf.accessors import (
    COMPONENT_DTYPES,
    FLOAT,
    MATRIX_SIZES,
    TYPE_COMPONENTS,
    AccessorReader,
    dequantize,
    element_shape,
)

EXTENSION = "KHR_draco_mesh_compression"
INSTALL = "pip install 'animview[compressed]'"
_MODES = (4, 5)  # TRIANGLES, TRIANGLE_STRIP: the only modes the extension allows


class DecodedAccessorReader(AccessorReader):
    """An ``AccessorReader`` whose accessors filled from Draco data read as the decoded values.

    ``decoded`` (accessor index → read-only array, shaped and typed as ``read`` returns) is filled by
    ``decode_primitives``; every other accessor is read from its bufferView.
    """

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.decoded: dict[int, np.ndarray] = {}

    def read(self, index: int) -> np.ndarray:
        values = self.decoded.get(index)
        return super().read(index) if values is None else values


def draco_primitives(raw: dict) -> list[tuple[tuple, dict, dict]]:
    """``(path, primitive, extension)`` of every primitive with the extension, in file order."""
    found = []
    for m, mesh in enumerate(raw.get("meshes", [])):
        for p, primitive in enumerate(mesh["primitives"]):
            ext = primitive.get("extensions", {}).get(EXTENSION)
            if ext is not None:
                found.append((("meshes", m, "primitives", p), primitive, ext))
    return found


def decode_primitives(raw: dict, file: Path, reader: AccessorReader) -> None:
    """Decode every Draco primitive and give its accessors the decoded values (``reader.decoded``).

    Runs after bufferViews and accessors are validated, before the mesh rules that read indices and joints.

    Raises:
        GltfError: a malformed extension object, DracoPy missing (unless every Draco primitive has a
            fallback), undecodable data, or decoded data that does not fit the accessors.
    """
    found = draco_primitives(raw)
    if not found:
        return
    for here, primitive, ext in found:
        _check_extension(raw, here, primitive, ext, file)
    dracopy = _import_dracopy()
    if dracopy is None:
        required = EXTENSION in raw.get("extensionsRequired", [])
        lacking = [here for here, primitive, ext in found if required or not _has_fallback(raw, primitive, ext)]
        if lacking:
            raise GltfError(
                file,
                pointer(*lacking[0], "extensions", EXTENSION),
                f"{EXTENSION} needs DracoPy to decode this mesh, which is not installed: {INSTALL}",
            )
        warnings.warn(
            f"{file}: DracoPy is not installed, so {EXTENSION} meshes are read from their "
            f"uncompressed fallback data ({INSTALL} to decode them)",
            GltfWarning,
            stacklevel=5,
        )
        return
    decoded: dict[int, np.ndarray] = getattr(reader, "decoded")  # a DecodedAccessorReader (document.py makes one)
    for here, primitive, ext in found:
        for a, values, where in _decode(dracopy, raw, here, primitive, ext, file, reader):
            values.flags.writeable = False
            earlier = decoded.get(a)
            if earlier is not None and not (
                earlier.shape == values.shape and np.array_equal(earlier, values, equal_nan=True)
            ):
                raise GltfError(
                    file, pointer(*where), f"accessor {a} is filled by two Draco primitives with different values"
                )
            decoded[a] = values


def _import_dracopy() -> ModuleType | None:
    try:
        import DracoPy
    except ImportError:
        return None
    return DracoPy


def _has_fallback(raw: dict, primitive: dict, ext: dict) -> bool:
    """Every accessor the Draco data would fill has a bufferView of its own (uncompressed data)."""
    accessors = list(_compressed(primitive, ext).values())
    if "indices" in primitive:
        accessors.append(primitive["indices"])
    return all("bufferView" in raw["accessors"][a] for a in accessors)


def _compressed(primitive: dict, ext: dict) -> dict[str, int]:
    """Semantic → accessor of each attribute the Draco data fills (those the primitive has)."""
    return {name: primitive["attributes"][name] for name in ext["attributes"] if name in primitive["attributes"]}


def _check_extension(raw: dict, here: tuple, primitive: dict, ext: dict, file: Path) -> None:
    """The extension object: a bufferView index, attribute ids for attributes the primitive has, a mesh mode."""
    at = (*here, "extensions", EXTENSION)
    views = len(raw.get("bufferViews", []))
    for key in ("bufferView", "attributes"):
        if key not in ext:
            raise GltfError(file, pointer(*at, key), f"required property {key} is missing")
    view = ext["bufferView"]
    if not _is_index(view):
        raise GltfError(file, pointer(*at, "bufferView"), f"bufferView must be an integer >= 0, got {view!r:.40}")
    if view >= views:
        raise GltfError(
            file, pointer(*at, "bufferView"), f"bufferView {view} is out of range: the file has {views} bufferViews"
        )
    if not isinstance(ext["attributes"], dict):
        raise GltfError(file, pointer(*at, "attributes"), "attributes must be an object of attribute ids")
    for name, uid in ext["attributes"].items():
        if not _is_index(uid) or uid >= 2**32:
            raise GltfError(
                file,
                pointer(*at, "attributes", name),
                f"Draco attribute id of {name} must be an integer from 0 to 2^32 - 1, got {uid!r:.40}",
            )
        if name not in primitive["attributes"]:  # the README says "a subset"; Khronos's own Box (glTF-Draco) has one
            warnings.warn(
                f"{file}:{pointer(*at, 'attributes', name)}: the Draco data holds {name:.40} but the "
                f"primitive has no such attribute; it is ignored",
                GltfWarning,
                stacklevel=5,
            )
    mode = primitive.get("mode", 4)
    if mode not in _MODES:
        raise GltfError(
            file,
            pointer(*here, "mode"),
            f"a {EXTENSION} primitive must be TRIANGLES (4) or TRIANGLE_STRIP (5), got mode {mode}",
        )


def _is_index(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _decode(
    dracopy: ModuleType, raw: dict, here: tuple, primitive: dict, ext: dict, file: Path, reader: AccessorReader
) -> list[tuple[int, np.ndarray, tuple]]:
    """``(accessor, values, pointer parts)`` for each accessor one primitive's Draco data fills."""
    at = (*here, "extensions", EXTENSION)
    view = ext["bufferView"]
    try:
        mesh = dracopy.decode(bytes(reader.view_bytes(view)))
    except Exception as exc:  # DracoPy raises FileTypeException, TypeError, ValueError … for bad data
        raise GltfError(
            file, pointer(*at), f"cannot decode the Draco data in bufferView {view} ({type(exc).__name__}: {exc})"
        ) from None
    accessors = raw["accessors"]
    out = []
    for name, a in _compressed(primitive, ext).items():
        uid = ext["attributes"][name]
        where = (*at, "attributes", name)
        attribute = mesh.get_attribute_by_unique_id(uid)
        if attribute is None:
            ids = sorted(int(att["unique_id"]) for att in mesh.attributes)
            raise GltfError(
                file,
                pointer(*where),
                f"the Draco data has no attribute with id {uid} (its ids: {', '.join(map(str, ids)) or 'none'})",
            )
        data = np.asarray(attribute["data"])
        data = data.reshape(1, 1) if data.ndim == 0 else data
        data = data.reshape(data.shape[0], int(np.prod(data.shape[1:], dtype=np.int64)))  # (n, components)
        out.append((a, _accessor_values(data, accessors[a], a, f"Draco attribute {uid} ({name})", where, file), where))
    faces = np.asarray(getattr(mesh, "faces", np.zeros((0, 3), np.uint32))).reshape(-1)
    if "indices" in primitive:
        a = primitive["indices"]
        count = accessors[a]["count"]
        if len(faces) != count:
            raise GltfError(
                file,
                pointer(*at),
                f"the Draco data holds {len(faces)} indices ({len(faces) // 3} "
                f"triangles) but indices accessor {a} has count {count}",
            )
        out.append((a, _accessor_values(faces[:, None], accessors[a], a, "the Draco indices", at, file), at))
    elif not np.array_equal(faces, np.arange(len(faces))):
        raise GltfError(
            file,
            pointer(*at),
            "the Draco triangles do not take the vertices in order, and the "
            "primitive has no indices accessor to hold them",
        )
    return out


def _accessor_values(data: np.ndarray, accessor: dict, a: int, label: str, where: tuple, file: Path) -> np.ndarray:
    """Decoded ``(n, k)`` data as accessor ``a`` reads: its count and type checked, its componentType and
    normalization applied, shaped like ``AccessorReader.read`` (SCALAR ``(n,)``, VECk ``(n, k)``, MATk
    ``(n, k, k)`` in math convention)."""
    kind, ctype, count = accessor["type"], accessor["componentType"], accessor["count"]
    width = TYPE_COMPONENTS[kind]
    if data.shape[0] != count:
        raise GltfError(
            file, pointer(*where), f"{label} has {data.shape[0]} elements but accessor {a} has count {count}"
        )
    if data.shape[1] != width:
        raise GltfError(
            file,
            pointer(*where),
            f"{label} has {data.shape[1]} components per element but accessor {a} is {kind} ({width})",
        )
    dtype = COMPONENT_DTYPES[ctype].newbyteorder("=")
    if ctype == FLOAT:
        values = data.astype(np.float32)
    elif data.dtype.kind not in "iub":
        raise GltfError(
            file,
            pointer(*where),
            f"{label} holds {data.dtype} values but accessor {a} is componentType {ctype} (integers)",
        )
    else:
        info = np.iinfo(dtype)
        low, high = (int(data.min()), int(data.max())) if data.size else (0, 0)
        if low < info.min or high > info.max:
            bad = low if low < info.min else high
            span = f"accessor {a}'s componentType {ctype} ({info.min} to {info.max})"
            raise GltfError(file, pointer(*where), f"{label} holds the value {bad}, outside the range of {span}")
        values = data.astype(dtype)
    if kind in MATRIX_SIZES:  # stored column-major, like a bufferView
        n = MATRIX_SIZES[kind]
        values = values.reshape(count, n, n).swapaxes(1, 2)
    else:
        values = values.reshape((count, *element_shape(kind)))
    if accessor.get("normalized", False):
        values = dequantize(values, ctype)
    return np.ascontiguousarray(values)
