"""A small programmatic glTF 2.0 builder, so tests make their fixtures by code.

It writes what it is told, right or wrong: nothing is validated here, which is what lets tests build
broken files on purpose. Arrays go into one binary buffer (buffer 0), one bufferView per accessor
(4-byte aligned) unless ``add_interleaved`` packs several into one strided view.

Typical use::

    b = GltfBuilder()
    pos = b.add_accessor(np.zeros((3, 3), np.float32))
    mesh = b.add_mesh(positions=[[0, 0, 0], [1, 0, 0], [0, 1, 0]], indices=[0, 1, 2])
    node = b.add_node(mesh=mesh)
    b.add_animation([dict(node=node, path="translation", times=[0, 1], values=[[0, 0, 0], [1, 0, 0]])])
    b.add_scene([node])
    path = b.write_gltf(tmp_path, "model.gltf")           # or embed=True, or b.write_glb(tmp_path / "m.glb")

``minimal_animated()`` returns a builder holding a small valid file with a hierarchy, a morphed mesh,
a skin and an animation with one channel per path (LINEAR, CUBICSPLINE, STEP); tests break its dict.
Matrices are given in math convention, ``M[k][row][col]``; the builder stores them column-major.
"""
from __future__ import annotations

import base64
import copy
import json
import struct
from pathlib import Path
from typing import Any, Iterable, Sequence

import numpy as np

COMPONENT_TYPES = {np.dtype(np.int8): 5120, np.dtype(np.uint8): 5121, np.dtype(np.int16): 5122,
                   np.dtype(np.uint16): 5123, np.dtype(np.uint32): 5125, np.dtype(np.float32): 5126}
DTYPES = {code: dtype for dtype, code in COMPONENT_TYPES.items()}
VECTOR_TYPES = {1: "SCALAR", 2: "VEC2", 3: "VEC3", 4: "VEC4"}
MATRIX_TYPES = {2: "MAT2", 3: "MAT3", 4: "MAT4"}
PATH_TYPES = {"translation": "VEC3", "rotation": "VEC4", "scale": "VEC3", "weights": "SCALAR"}


class GltfBuilder:
    """Accumulates glTF JSON (``self.doc``) and one binary buffer (``self.bin``)."""

    def __init__(self) -> None:
        self.doc: dict[str, Any] = {"asset": {"version": "2.0", "generator": "animview tests"}}
        self.bin = bytearray()

    # -- raw pieces -------------------------------------------------------------------------------

    def add(self, collection: str, item: dict) -> int:
        """Append ``item`` to the top-level array ``collection``; return its index."""
        items = self.doc.setdefault(collection, [])
        items.append(item)
        return len(items) - 1

    def add_buffer_view(self, data: bytes, byte_stride: int | None = None, target: int | None = None) -> int:
        """Append ``data`` to the buffer at a 4-byte aligned offset and add a bufferView over it."""
        self.bin.extend(b"\0" * (-len(self.bin) % 4))
        view: dict[str, Any] = {"buffer": 0, "byteOffset": len(self.bin), "byteLength": len(data)}
        if byte_stride is not None:
            view["byteStride"] = byte_stride
        if target is not None:
            view["target"] = target
        self.bin.extend(data)
        return self.add("bufferViews", view)

    def add_accessor(self, array: Any, type: str | None = None, component_type: int | None = None,
                     normalized: bool = False, target: int | None = None, byte_offset: int = 0,
                     byte_stride: int | None = None, min_max: bool = False) -> int:
        """Store ``array`` in its own bufferView and add an accessor for it.

        Args:
            array: ``(count,)`` scalars, ``(count, n)`` vectors or ``(count, n, n)`` matrices (math convention).
            type: glTF type; inferred from the shape when None.
            component_type: 5120…5126; inferred from the dtype when None (float64 → float32).
            normalized: set ``normalized: true`` (values must already be the stored integers).
            target: bufferView target (34962 vertices, 34963 indices).
            byte_offset: accessor byteOffset; that many zero bytes precede the data in the view.
            byte_stride: bufferView byteStride; elements are spaced that far apart (padding zeroed).
            min_max: write ``min``/``max`` (required by the spec for POSITION and animation inputs).
        """
        values, kind, ctype = _normalize_array(array, type, component_type)
        element = _element_bytes(values, kind)
        size = element.shape[1]
        if byte_stride is not None:
            padded = np.zeros((len(values), byte_stride), np.uint8)
            padded[:, :size] = element
            element = padded
        view = self.add_buffer_view(b"\0" * byte_offset + element.tobytes(), byte_stride, target)
        accessor: dict[str, Any] = {"bufferView": view, "componentType": ctype, "count": len(values), "type": kind}
        if byte_offset:
            accessor["byteOffset"] = byte_offset
        if normalized:
            accessor["normalized"] = True
        if min_max:
            flat = _column_major(values, kind).reshape(len(values), -1)
            cast = float if ctype == 5126 else int
            accessor["min"] = [cast(v) for v in flat.min(axis=0)]
            accessor["max"] = [cast(v) for v in flat.max(axis=0)]
        return self.add("accessors", accessor)

    def add_interleaved(self, arrays: Sequence[Any], target: int | None = 34962) -> list[int]:
        """Interleave several same-count arrays in one bufferView with a byteStride; return their accessors.

        Each attribute starts at a 4-byte aligned offset inside the element; the stride is the sum.
        """
        parts = [_normalize_array(a, None, None) for a in arrays]
        blocks = [_element_bytes(values, kind) for values, kind, _ in parts]
        widths = [b.shape[1] + (-b.shape[1] % 4) for b in blocks]
        stride, count = sum(widths), len(parts[0][0])
        packed = np.zeros((count, stride), np.uint8)
        offsets = np.concatenate([[0], np.cumsum(widths)[:-1]]).astype(int)
        for block, offset in zip(blocks, offsets):
            packed[:, offset:offset + block.shape[1]] = block
        view = self.add_buffer_view(packed.tobytes(), stride, target)
        return [self.add("accessors", {"bufferView": view, "byteOffset": int(offset), "componentType": ctype,
                                       "count": count, "type": kind})
                for (_, kind, ctype), offset in zip(parts, offsets)]

    def add_sparse_accessor(self, count: int, indices: Iterable[int], values: Any, type: str | None = None,
                            base: Any = None, index_component_type: int = 5125,
                            component_type: int | None = None, normalized: bool = False) -> int:
        """A sparse accessor: ``values`` replace elements at ``indices`` of ``base`` (zeros when None)."""
        vals, kind, ctype = _normalize_array(values, type, component_type)
        if base is not None:
            index = self.add_accessor(base, kind, ctype)
        else:
            index = self.add("accessors", {"componentType": ctype, "count": count, "type": kind})
        accessor = self.doc["accessors"][index]
        idx = np.asarray(list(indices), DTYPES[index_component_type])
        accessor["sparse"] = {
            "count": len(idx),
            "indices": {"bufferView": self.add_buffer_view(idx.tobytes()), "componentType": index_component_type},
            "values": {"bufferView": self.add_buffer_view(_element_bytes(vals, kind).tobytes())},
        }
        if normalized:
            accessor["normalized"] = True
        return index

    # -- scene objects ----------------------------------------------------------------------------

    def add_node(self, **properties: Any) -> int:
        """A node with the given glTF properties (``mesh=0, children=[1], translation=[…]``)."""
        return self.add("nodes", dict(properties))

    def add_mesh(self, positions: Any, indices: Any = None, targets: Sequence[Any] = (),
                 weights: Sequence[float] | None = None, attributes: dict[str, int] | None = None) -> int:
        """A one-primitive triangle mesh.

        Args:
            positions: ``(n, 3)`` vertex positions (float32).
            indices: triangle indices (uint16), or None for a non-indexed primitive.
            targets: morph targets, each a ``(n, 3)`` POSITION displacement array.
            weights: the mesh's default morph weights.
            attributes: more attributes, semantic → accessor index (e.g. JOINTS_0).
        """
        primitive: dict[str, Any] = {"attributes": {"POSITION": self.add_accessor(
            np.asarray(positions, np.float32), target=34962, min_max=True)}}
        primitive["attributes"].update(attributes or {})
        if indices is not None:
            primitive["indices"] = self.add_accessor(np.asarray(indices, np.uint16), target=34963)
        if targets:
            primitive["targets"] = [{"POSITION": self.add_accessor(np.asarray(t, np.float32))} for t in targets]
        mesh: dict[str, Any] = {"primitives": [primitive]}
        if weights is not None:
            mesh["weights"] = list(weights)
        return self.add("meshes", mesh)

    def add_skin(self, joints: Sequence[int], inverse_bind_matrices: Any = None, skeleton: int | None = None) -> int:
        """A skin; ``inverse_bind_matrices`` is ``(len(joints), 4, 4)`` in math convention, or None."""
        skin: dict[str, Any] = {"joints": list(joints)}
        if inverse_bind_matrices is not None:
            skin["inverseBindMatrices"] = self.add_accessor(np.asarray(inverse_bind_matrices, np.float32), "MAT4")
        if skeleton is not None:
            skin["skeleton"] = skeleton
        return self.add("skins", skin)

    def add_animation(self, channels: Sequence[dict], name: str | None = None) -> int:
        """An animation with one sampler per channel (sampler k serves channel k).

        Each channel dict: ``node``, ``path``, ``times`` (seconds), ``values`` (keyframe values; for
        CUBICSPLINE the in-tangent, value, out-tangent triplets in order; for weights a flat list or
        ``(keys, targets)`` array), optional ``interpolation`` (omitted → LINEAR default) and
        ``component_type`` / ``normalized`` for quantized outputs.
        """
        samplers, out_channels = [], []
        for k, ch in enumerate(channels):
            values = np.asarray(ch["values"])
            if ch["path"] == "weights":
                values = values.reshape(-1)
            if ch.get("component_type") is None:
                values = values.astype(np.float32)
            sampler: dict[str, Any] = {
                "input": self.add_accessor(np.asarray(ch["times"], np.float32), "SCALAR", min_max=True),
                "output": self.add_accessor(values, PATH_TYPES.get(ch["path"]), ch.get("component_type"),
                                            ch.get("normalized", False)),
            }
            if "interpolation" in ch:
                sampler["interpolation"] = ch["interpolation"]
            samplers.append(sampler)
            target: dict[str, Any] = {"path": ch["path"]}
            if ch.get("node") is not None:
                target["node"] = ch["node"]
            out_channels.append({"sampler": k, "target": target})
        animation: dict[str, Any] = {"channels": out_channels, "samplers": samplers}
        if name is not None:
            animation["name"] = name
        return self.add("animations", animation)

    def add_scene(self, nodes: Sequence[int], default: bool = True) -> int:
        """A scene with root ``nodes``; ``default`` makes it the file's ``scene``."""
        index = self.add("scenes", {"nodes": list(nodes)})
        if default:
            self.doc["scene"] = index
        return index

    def add_image(self, data: bytes, mime_type: str = "image/png") -> int:
        """An image stored in a bufferView."""
        return self.add("images", {"bufferView": self.add_buffer_view(data), "mimeType": mime_type})

    # -- output -----------------------------------------------------------------------------------

    def bin_bytes(self) -> bytes:
        """The buffer, zero-padded to a multiple of 4 bytes."""
        return bytes(self.bin) + b"\0" * (-len(self.bin) % 4)

    def to_dict(self) -> dict:
        """A deep copy of the JSON with ``buffers`` filled in (buffer 0 has no uri yet)."""
        doc = copy.deepcopy(self.doc)
        if self.bin:
            doc["buffers"] = [{"byteLength": len(self.bin_bytes())}]
        return doc

    def write_gltf(self, directory: Path, name: str = "model.gltf", embed: bool = False,
                   bin_name: str | None = None) -> Path:
        """Write ``name`` (+ a .bin file unless ``embed``) into ``directory``; see ``write_gltf``."""
        return write_gltf(self.to_dict(), self.bin_bytes(), directory, name, embed, bin_name)

    def write_glb(self, path: Path) -> Path:
        """Write a .glb with the buffer as its BIN chunk."""
        return write_glb(self.to_dict(), self.bin_bytes(), path)


def write_gltf(doc: dict, bin_data: bytes, directory: Path, name: str = "model.gltf", embed: bool = False,
               bin_name: str | None = None) -> Path:
    """Write a .gltf. Buffer 0 without a uri gets one: a base64 data: URI when ``embed``, else a file.

    Args:
        bin_name: file name of the buffer on disk (default: ``name`` with .bin); its uri is
            percent-encoded, so "my file.bin" is referenced as ``my%20file.bin``.
    """
    doc = copy.deepcopy(doc)
    directory = Path(directory)
    buffers = doc.get("buffers", [])
    if buffers and "uri" not in buffers[0]:
        if embed:
            buffers[0]["uri"] = "data:application/octet-stream;base64," + base64.b64encode(bin_data).decode()
        else:
            bin_name = bin_name or Path(name).with_suffix(".bin").name
            (directory / bin_name).write_bytes(bin_data)
            buffers[0]["uri"] = bin_name.replace("%", "%25").replace(" ", "%20")
    path = directory / name
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


def write_glb(doc: dict, bin_data: bytes | None, path: Path, json_bytes: bytes | None = None) -> Path:
    """Write a .glb: 12-byte header, JSON chunk (space-padded), BIN chunk (zero-padded) when given.

    Args:
        json_bytes: raw JSON chunk text to use instead of ``json.dumps(doc)`` (for invalid-JSON tests).
    """
    text = json_bytes if json_bytes is not None else json.dumps(doc).encode()
    body = _glb_chunk(0x4E4F534A, text, b" ")
    if bin_data is not None:
        body += _glb_chunk(0x004E4942, bin_data, b"\0")
    Path(path).write_bytes(b"glTF" + struct.pack("<II", 2, 12 + len(body)) + body)
    return Path(path)


def overwrite_accessor(doc: dict, bin_data: bytearray, index: int, values: Any) -> None:
    """Overwrite the stored elements of a tightly packed accessor in ``bin_data`` (e.g. to plant a NaN)."""
    accessor = doc["accessors"][index]
    view = doc["bufferViews"][accessor["bufferView"]]
    data = np.asarray(values, DTYPES[accessor["componentType"]]).tobytes()
    start = view.get("byteOffset", 0) + accessor.get("byteOffset", 0)
    bin_data[start:start + len(data)] = data


def minimal_animated() -> GltfBuilder:
    """A small valid animated file, for tests to use or break.

    Contents (indices are stable, tests rely on them):
        nodes: 0 root (children 1, 2; animated scale), 1 morphed triangle (mesh 0, 2 targets),
            2 joint0 (child 3), 3 joint1, 4 skinned triangle (mesh 1, skin 0); scene 0 = [0, 4].
        skin 0: joints [2, 3] with inverse bind matrices.
        animation 0 "Anim", sampler k serves channel k:
            0 node 2 translation LINEAR, keys 0, 1, 2 s;  1 node 3 rotation CUBICSPLINE, keys 0, 1 s;
            2 node 1 weights STEP, keys 0, 0.5, 1 s;      3 node 0 scale, no interpolation (LINEAR).
    """
    b = GltfBuilder()
    triangle = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0]], np.float32)
    b.add_mesh(triangle, [0, 1, 2], targets=[triangle * 0.5, triangle * -0.5], weights=[0.0, 0.0])
    joints = b.add_accessor(np.array([[0, 1, 0, 0]] * 3, np.uint8), target=34962)
    weights = b.add_accessor(np.array([[0.5, 0.5, 0, 0]] * 3, np.float32), target=34962)
    b.add_mesh(triangle, [0, 1, 2], attributes={"JOINTS_0": joints, "WEIGHTS_0": weights})
    b.add_node(name="root", children=[1, 2])
    b.add_node(name="morphed", mesh=0)
    b.add_node(name="joint0", children=[3], translation=[0.0, 1.0, 0.0])
    b.add_node(name="joint1", translation=[0.0, 1.0, 0.0])
    b.add_node(name="skinned", mesh=1, skin=0)
    ibm = np.stack([np.eye(4), np.eye(4)]).astype(np.float32)
    ibm[0, 1, 3], ibm[1, 1, 3] = -1.0, -2.0
    b.add_skin([2, 3], ibm, skeleton=2)
    quarter = [0.0, 0.0, np.sqrt(0.5), np.sqrt(0.5)]
    b.add_animation([
        dict(node=2, path="translation", interpolation="LINEAR", times=[0, 1, 2],
             values=[[0, 1, 0], [1, 1, 0], [0, 1, 0]]),
        dict(node=3, path="rotation", interpolation="CUBICSPLINE", times=[0, 1],
             values=[[0, 0, 0, 0], [0, 0, 0, 1], [0, 0, 0, 0], [0, 0, 0, 0], quarter, [0, 0, 0, 0]]),
        dict(node=1, path="weights", interpolation="STEP", times=[0, 0.5, 1], values=[[0, 0], [1, 0], [0, 1]]),
        dict(node=0, path="scale", times=[0, 1], values=[[1, 1, 1], [2, 2, 2]]),
    ], name="Anim")
    b.add_scene([0, 4])
    return b


def _normalize_array(array: Any, type: str | None, component_type: int | None) -> tuple[np.ndarray, str, int]:
    """Cast to the glTF dtype and work out (values, type, componentType)."""
    values = np.asarray(array)
    if component_type is None:
        if values.dtype.kind == "f":
            values = values.astype(np.float32)
        if values.dtype not in COMPONENT_TYPES:
            raise ValueError(f"no glTF component type for dtype {values.dtype}; pass component_type")
        component_type = COMPONENT_TYPES[values.dtype]
    values = values.astype(DTYPES[component_type])
    if type is None:
        if values.ndim == 3:
            type = MATRIX_TYPES[values.shape[1]]
        else:
            type = VECTOR_TYPES[1 if values.ndim == 1 else values.shape[1]]
    return values, type, component_type


def _column_major(values: np.ndarray, kind: str) -> np.ndarray:
    """Matrices from ``M[k][row][col]`` to stored order ``[k][col][row]``; other types unchanged."""
    return values.swapaxes(1, 2) if kind.startswith("MAT") else values


def _element_bytes(values: np.ndarray, kind: str) -> np.ndarray:
    """``(count, element bytes)`` uint8, matrix columns padded to 4 bytes as the spec requires."""
    stored = np.ascontiguousarray(_column_major(values, kind))
    if kind.startswith("MAT"):
        n, item = stored.shape[1], stored.itemsize
        pad = (-(n * item) % 4) // item
        if pad:
            stored = np.concatenate([stored, np.zeros((len(stored), n, pad), stored.dtype)], axis=2)
    return stored.reshape(len(stored), -1).view(np.uint8).reshape(len(stored), -1)


def _glb_chunk(kind: int, payload: bytes, pad: bytes) -> bytes:
    padded = payload + pad * (-len(payload) % 4)
    return struct.pack("<II", len(padded), kind) + padded
