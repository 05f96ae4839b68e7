"""The one glTF 2.0 writer: numpy arrays packed as accessors into one binary buffer, and the files.

The demo generator (``viewer/demo``), the tests' fixture builder (``tests/gltf_builder.py``) and
``animview bake`` (``viewer/files/bake.py``) all write through here, so alignment, byte order, matrix layout
and the containers are decided once.

* Arrays go into buffer 0, each in its own bufferView at a 4-byte aligned offset (glTF 2.0 §3.6.2.4);
  the componentType follows the dtype, the type the shape; matrices are given in math convention
  (``M[k][row][col]``) and stored column-major, columns padded to 4 bytes as the spec requires.
* Items are pygltflib's model objects (``Accessor``, ``BufferView``, ``Buffer``, ``AnimationSampler``…);
  they become JSON the way pygltflib's own ``to_json`` does it (absent and empty properties left out).
  ``ModelWriter`` keeps a whole ``pygltflib.GLTF2``; ``JsonWriter`` keeps a plain dict, because the
  tests edit it directly and bake copies a file's JSON exactly (pygltflib's model drops ``node.weights``
  and empty values, so a round trip through it would change files). A dict given to ``add`` is written
  exactly as given: that is how tests write broken files on purpose.
* Containers: ``.gltf`` with an embedded base64 ``data:`` URI, ``.gltf`` + ``.bin``, or ``.glb``, whose
  chunks are written here: pygltflib's ``save`` replaces the ``asset`` with a default one, reads external
  buffers relative to the *destination* (dropping their data), writes a 0-byte buffer and an empty BIN
  chunk when there are no bufferViews, and always repacks the views (so it cannot write a layout it is
  told). Where it is right (one packed buffer) its bytes equal ours: ``tests/test_writer.py`` checks.

Output is deterministic: JSON keys keep insertion order, ``f32`` floats are the shortest text that reads
back to the same float32, and nothing depends on the clock or the machine.
"""

from __future__ import annotations

import base64
import copy
import json
import struct
from pathlib import Path
from typing import Any, Sequence

import numpy as np
import pygltflib

ARRAY_BUFFER = 34962  # bufferView.target for vertex attributes
ELEMENT_ARRAY_BUFFER = 34963  # bufferView.target for indices
FLOAT = 5126
COMPONENT_TYPES = {
    np.dtype(np.int8): 5120,
    np.dtype(np.uint8): 5121,
    np.dtype(np.int16): 5122,
    np.dtype(np.uint16): 5123,
    np.dtype(np.uint32): 5125,
    np.dtype(np.float32): FLOAT,
}
DTYPES = {code: dtype for dtype, code in COMPONENT_TYPES.items()}
VECTOR_TYPES = {1: "SCALAR", 2: "VEC2", 3: "VEC3", 4: "VEC4"}
MATRIX_TYPES = {2: "MAT2", 3: "MAT3", 4: "MAT4"}
PATH_TYPES = {"translation": "VEC3", "rotation": "VEC4", "scale": "VEC3", "weights": "SCALAR"}
DATA_URI_PREFIX = "data:application/octet-stream;base64,"
GLB_JSON, GLB_BIN = 0x4E4F534A, 0x004E4942  # chunk types "JSON" and "BIN\0"


def f32(value: float) -> float:
    """``value`` rounded to float32 and written with the fewest digits that round-trip (0.707, not 0.70700001)."""
    return float(str(np.float32(value)))


def f32_list(values: Sequence[float]) -> list[float]:
    return [f32(v) for v in values]


def gltf_array(array: Any, type: str | None = None, component_type: int | None = None) -> tuple[np.ndarray, str, int]:
    """Cast to the glTF dtype and work out ``(values, type, componentType)`` (float64 → float32).

    The type comes from the shape when not given: ``(count,)`` SCALAR, ``(count, n)`` VECn,
    ``(count, n, n)`` MATn.
    """
    values = np.asarray(array)
    if component_type is None:
        if values.dtype.kind == "f":
            values = values.astype(np.float32)
        if values.dtype not in COMPONENT_TYPES:
            raise ValueError(f"no glTF component type for dtype {values.dtype}; pass component_type")
        component_type = COMPONENT_TYPES[values.dtype]
    values = values.astype(DTYPES[component_type])
    if type is None:
        width = values.shape[1] if values.ndim > 1 else 1
        type = MATRIX_TYPES[width] if values.ndim == 3 else VECTOR_TYPES[width]
    return values, type, component_type


def stored_order(values: np.ndarray, type: str) -> np.ndarray:
    """Matrices from ``M[k][row][col]`` to stored order ``[k][col][row]``; other types unchanged."""
    return values.swapaxes(1, 2) if type.startswith("MAT") else values


def element_bytes(values: np.ndarray, type: str) -> np.ndarray:
    """``(count, element bytes)`` uint8, little-endian, matrix columns padded to 4 bytes (§3.6.2.4)."""
    stored = np.ascontiguousarray(stored_order(values, type), dtype=values.dtype.newbyteorder("<"))
    if type.startswith("MAT"):
        n, item = stored.shape[1], stored.itemsize
        pad = (-(n * item) % 4) // item
        if pad:
            stored = np.concatenate([stored, np.zeros((len(stored), n, pad), stored.dtype)], axis=2)
    return stored.reshape(len(stored), -1).view(np.uint8).reshape(len(stored), -1)


def bounds(values: np.ndarray, type: str) -> tuple[list, list]:
    """Per-component ``min`` and ``max`` in stored order: floats as ``f32`` text, integers as ints."""
    flat = stored_order(values, type).reshape(len(values), -1)
    cast = f32 if values.dtype.kind == "f" else int
    return [cast(v) for v in flat.min(axis=0)], [cast(v) for v in flat.max(axis=0)]


def as_json(item: Any) -> Any:
    """A pygltflib object as JSON (None and empty properties left out, as its ``to_json`` does); dicts as given."""
    if isinstance(item, dict):
        return item
    return pygltflib.delete_empty_keys(pygltflib.gltf_asdict(item))


class BufferWriter:
    """One binary buffer (buffer 0) that arrays are packed into; subclasses keep the JSON (``add``)."""

    def __init__(self) -> None:
        self.bin = bytearray()

    def add(self, collection: str, item: Any) -> int:  # append to a top-level array; return the index
        raise NotImplementedError

    def append(self, data: bytes) -> int:
        """Append ``data`` to the buffer at a 4-byte aligned offset (zero padding before it); return the offset."""
        self.bin.extend(b"\0" * (-len(self.bin) % 4))
        self.bin.extend(data)
        return len(self.bin) - len(data)

    def add_buffer_view(self, data: bytes, byte_stride: int | None = None, target: int | None = None) -> int:
        """Append ``data`` to the buffer and add a bufferView over it."""
        offset = self.append(data)
        return self.add(
            "bufferViews",
            pygltflib.BufferView(
                buffer=0, byteOffset=offset, byteLength=len(data), byteStride=byte_stride, target=target
            ),
        )

    def add_accessor(
        self,
        array: Any,
        type: str | None = None,
        component_type: int | None = None,
        normalized: bool = False,
        target: int | None = None,
        byte_offset: int = 0,
        byte_stride: int | None = None,
        min_max: bool = False,
        name: str | None = None,
    ) -> int:
        """Store ``array`` in its own bufferView and add an accessor for it.

        Args:
            array: ``(count,)`` scalars, ``(count, n)`` vectors or ``(count, n, n)`` matrices (math convention).
            type: glTF type; inferred from the shape when None.
            component_type: 5120…5126; inferred from the dtype when None (float64 → float32).
            normalized: set ``normalized: true`` (values must already be the stored integers).
            target: bufferView target (``ARRAY_BUFFER`` vertices, ``ELEMENT_ARRAY_BUFFER`` indices; None for
                animation data and inverse bind matrices, as the spec advises).
            byte_offset: accessor byteOffset; that many zero bytes precede the data in the view.
            byte_stride: bufferView byteStride; elements are spaced that far apart (padding zeroed).
            min_max: write ``min``/``max`` (required for POSITION and animation inputs, §3.6.2.5, §3.11).
        """
        values, kind, ctype = gltf_array(array, type, component_type)
        element = element_bytes(values, kind)
        if byte_stride is not None:
            padded = np.zeros((len(values), byte_stride), np.uint8)
            padded[:, : element.shape[1]] = element
            element = padded
        view = self.add_buffer_view(b"\0" * byte_offset + element.tobytes(), byte_stride, target)
        low, high = bounds(values, kind) if min_max else (None, None)
        return self.add(
            "accessors",
            pygltflib.Accessor(
                bufferView=view,
                byteOffset=byte_offset or None,
                componentType=ctype,
                normalized=normalized or None,
                count=len(values),
                type=kind,
                max=high,
                min=low,
                name=name,
            ),
        )

    def add_sampler(
        self,
        times: Any,
        values: Any,
        path: str,
        interpolation: str | None = None,
        component_type: int | None = None,
        normalized: bool = False,
        inputs: dict[bytes, int] | None = None,
    ) -> pygltflib.AnimationSampler:
        """An animation sampler over new input and output accessors (not added to any animation yet).

        Args:
            values: keyframe values; CUBICSPLINE in-tangent, value, out-tangent triplets in order; for
                weights a flat list or ``(keys, targets)`` array. Stored as float32 unless ``component_type``.
            interpolation: written only when given (absent means LINEAR).
            inputs: key times bytes → input accessor, to share one input among samplers with equal times.
        """
        times = np.asarray(times, np.float32)
        key = times.tobytes()
        inputs = {} if inputs is None else inputs
        if key not in inputs:
            inputs[key] = self.add_accessor(times, "SCALAR", min_max=True)
        values = np.asarray(values)
        if path == "weights":
            values = values.reshape(-1)
        if component_type is None:
            values = values.astype(np.float32)
        output = self.add_accessor(values, PATH_TYPES.get(path), component_type, normalized)
        return pygltflib.AnimationSampler(input=inputs[key], interpolation=interpolation, output=output)

    def add_animation(self, channels: Sequence[dict], name: str | None = None, share_inputs: bool = False) -> int:
        """An animation with one sampler per channel (sampler k serves channel k).

        Each channel dict: ``node`` (None: no target node), ``path``, ``times`` (seconds), ``values``, optional
        ``interpolation`` (omitted → LINEAR default) and ``component_type`` / ``normalized`` for quantized
        outputs; or, instead of ``node`` and ``path``, a KHR_animation_pointer ``pointer`` (the output's type
        follows the values' shape: (keys,) SCALAR, (keys, n) VECn). ``share_inputs``: channels with equal key
        times share one input accessor.
        """
        inputs: dict[bytes, int] | None = {} if share_inputs else None
        samplers = [
            self.add_sampler(
                ch["times"],
                ch["values"],
                ch.get("path", "pointer"),
                ch.get("interpolation"),
                ch.get("component_type"),
                ch.get("normalized", False),
                inputs,
            )
            for ch in channels
        ]
        out = [pygltflib.AnimationChannel(sampler=k, target=_target(ch)) for k, ch in enumerate(channels)]
        return self.add("animations", pygltflib.Animation(name=name, channels=out, samplers=samplers))

    def bin_bytes(self) -> bytes:
        """The buffer, zero-padded to a multiple of 4 bytes."""
        return bytes(self.bin) + b"\0" * (-len(self.bin) % 4)

    def buffers(self) -> list[pygltflib.Buffer]:
        """The finished file's ``buffers``: the one buffer, without a uri (the container gives it one)."""
        return [pygltflib.Buffer(byteLength=len(self.bin_bytes()))] if self.bin else []


def _target(channel: dict) -> pygltflib.AnimationChannelTarget:
    if "pointer" in channel:
        return pygltflib.AnimationChannelTarget(
            path="pointer", extensions={"KHR_animation_pointer": {"pointer": channel["pointer"]}}
        )
    return pygltflib.AnimationChannelTarget(node=channel.get("node"), path=channel["path"])


class JsonWriter(BufferWriter):
    """A writer whose document is plain JSON (``self.doc``), which callers may edit directly."""

    def __init__(self, doc: dict | None = None, generator: str = "animview") -> None:
        super().__init__()
        self.doc: dict[str, Any] = doc if doc is not None else {"asset": {"version": "2.0", "generator": generator}}

    def add(self, collection: str, item: Any) -> int:
        items = self.doc.setdefault(collection, [])
        items.append(as_json(item))
        return len(items) - 1

    def to_dict(self) -> dict:
        """A deep copy of the JSON with ``buffers`` replaced by the one buffer (no uri yet) when it holds data."""
        doc = copy.deepcopy(self.doc)
        if self.bin:
            doc["buffers"] = [as_json(b) for b in self.buffers()]
        return doc


class ModelWriter(BufferWriter):
    """A writer whose document is pygltflib's model (``self.gltf``), made of its typed objects."""

    def __init__(self, generator: str = "animview") -> None:
        super().__init__()
        self.gltf = pygltflib.GLTF2(asset=pygltflib.Asset(generator=generator))

    def add(self, collection: str, item: Any) -> int:
        items = getattr(self.gltf, collection)
        items.append(item)
        return len(items) - 1

    def to_dict(self) -> dict:
        """The document as JSON, keys in pygltflib's order, with the one buffer (no uri yet)."""
        gltf = copy.copy(self.gltf)  # shallow: only ``buffers`` differs
        gltf.buffers = self.buffers()
        return as_json(gltf)


def gltf_text(doc: dict, bin_data: bytes | None = None, indent: int | None = None) -> str:
    """The .gltf text: buffer 0 without a uri gets ``bin_data`` as a data: URI; ends in a newline.

    ASCII only (``\\u`` escapes), so any string a test plants, even a lone surrogate, can be written.
    """
    buffers = doc.get("buffers", [])
    if bin_data is not None and buffers and "uri" not in buffers[0]:
        doc = copy.deepcopy(doc)
        doc["buffers"][0]["uri"] = DATA_URI_PREFIX + base64.b64encode(bin_data).decode("ascii")
    return json.dumps(doc, indent=indent) + "\n"


def write_gltf(
    doc: dict,
    bin_data: bytes,
    path: str | Path,
    embed: bool = True,
    bin_name: str | None = None,
    indent: int | None = None,
) -> Path:
    """Write a .gltf. Buffer 0 without a uri gets one: a base64 data: URI when ``embed``, else a .bin file.

    Args:
        bin_name: file name of the buffer on disk (default: ``path`` with .bin); its uri is
            percent-encoded, so "my file.bin" is referenced as ``my%20file.bin``.
    """
    path = Path(path)
    buffers = doc.get("buffers", [])
    if not embed and buffers and "uri" not in buffers[0]:
        bin_name = bin_name or path.with_suffix(".bin").name
        (path.parent / bin_name).write_bytes(bin_data)
        doc = copy.deepcopy(doc)
        doc["buffers"][0]["uri"] = bin_name.replace("%", "%25").replace(" ", "%20")
    path.write_bytes(gltf_text(doc, bin_data if embed else None, indent).encode("utf-8"))
    return path


def glb_bytes(doc: dict, bin_data: bytes | None, json_bytes: bytes | None = None) -> bytes:
    """A .glb: 12-byte header, JSON chunk (space-padded), BIN chunk (zero-padded) when given (§4.4).

    Args:
        json_bytes: raw JSON chunk text to use instead of ``json.dumps(doc)`` (for invalid-JSON tests).
    """
    text = json_bytes if json_bytes is not None else json.dumps(doc, separators=(",", ":")).encode()
    body = _glb_chunk(GLB_JSON, text, b" ")
    if bin_data is not None:
        body += _glb_chunk(GLB_BIN, bin_data, b"\0")
    return b"glTF" + struct.pack("<II", 2, 12 + len(body)) + body


def write_glb(doc: dict, bin_data: bytes | None, path: str | Path, json_bytes: bytes | None = None) -> Path:
    """Write ``glb_bytes`` to ``path``."""
    Path(path).write_bytes(glb_bytes(doc, bin_data, json_bytes))
    return Path(path)


def save(doc: dict, bin_data: bytes, path: str | Path) -> Path:
    """Write a self-contained file: ``.glb`` (one BIN chunk) or ``.gltf`` (embedded data: URI), by suffix."""
    suffix = Path(path).suffix.lower()
    if suffix == ".glb":
        return write_glb(doc, bin_data if doc.get("buffers") else None, path)
    if suffix == ".gltf":
        return write_gltf(doc, bin_data, path, embed=True)
    raise ValueError(f"output file must end in .glb or .gltf, got {Path(path).name!r}")


def _glb_chunk(kind: int, payload: bytes, pad: bytes) -> bytes:
    padded = payload + pad * (-len(payload) % 4)
    return struct.pack("<II", len(padded), kind) + padded
