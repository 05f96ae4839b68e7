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
* Containers (``.gltf`` with an embedded ``data:`` URI, ``.gltf`` + ``.bin``, ``.glb``) are written by
  ``containers`` from the finished JSON and ``bin_bytes``; their names are re-exported here.

Output is deterministic: JSON keys keep insertion order, ``f32`` floats are the shortest text that reads
back to the same float32, and nothing depends on the clock or the machine.
"""

from __future__ import annotations

import copy
from typing import Any, Sequence

import numpy as np
import pygltflib

from viewer.files.containers import GLB_BIN, GLB_JSON, glb_bytes, gltf_text, save, write_glb, write_gltf

# The containers' names stay part of this module's face (``writer.save``, ``writer.glb_bytes``…).
__all__ = [
    "ARRAY_BUFFER",
    "ELEMENT_ARRAY_BUFFER",
    "FLOAT",
    "COMPONENT_TYPES",
    "DTYPES",
    "VECTOR_TYPES",
    "MATRIX_TYPES",
    "PATH_TYPES",
    "f32",
    "f32_list",
    "gltf_array",
    "stored_order",
    "element_bytes",
    "bounds",
    "as_json",
    "BufferWriter",
    "JsonWriter",
    "ModelWriter",
    "GLB_JSON",
    "GLB_BIN",
    "gltf_text",
    "write_gltf",
    "glb_bytes",
    "write_glb",
    "save",
]

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
