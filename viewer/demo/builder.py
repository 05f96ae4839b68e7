"""A minimal, deterministic glTF 2.0 writer for the built-in demo scenes.

Every array goes into one binary buffer (buffer 0), in its own bufferView, at a 4-byte aligned
offset (glTF 2.0 §3.6.2.4 "Data Alignment"); the buffer is embedded as a base64 ``data:`` URI so
each demo is a single self-contained ``.gltf`` file. Output is byte-for-byte reproducible: JSON keys
keep insertion order, floats are written as the shortest text that reads back to the same float32,
and nothing depends on the clock or the machine.

Matrices are given in math convention (``M[row][col]``, column vectors) and stored column-major,
as glTF requires. Quaternions are ``[x, y, z, w]``.
"""
from __future__ import annotations

import base64
import json
from typing import Any, Sequence

import numpy as np

GENERATOR = "animview demo_assets"
ARRAY_BUFFER = 34962  # bufferView.target for vertex attributes
ELEMENT_ARRAY_BUFFER = 34963  # bufferView.target for indices
COMPONENT_TYPES = {np.dtype(np.uint8): 5121, np.dtype(np.uint16): 5123, np.dtype(np.uint32): 5125,
                   np.dtype(np.float32): 5126}
TYPES = {(1,): "SCALAR", (2,): "VEC2", (3,): "VEC3", (4,): "VEC4", (4, 4): "MAT4"}
# Top-level properties in the order they are written (only the non-empty ones appear).
TOP_LEVEL = ("asset", "scene", "scenes", "nodes", "meshes", "materials", "skins", "animations",
             "accessors", "bufferViews", "buffers")


def f32(value: float) -> float:
    """``value`` rounded to float32 and written with the fewest digits that round-trip (0.707, not 0.70700001)."""
    return float(str(np.float32(value)))


def f32_list(values: Sequence[float]) -> list[float]:
    return [f32(v) for v in values]


class GltfWriter:
    """Accumulates glTF JSON and one binary buffer; ``dumps()`` gives the finished file's text."""

    def __init__(self, copyright_note: str | None = None) -> None:
        asset: dict[str, Any] = {"version": "2.0", "generator": GENERATOR}
        if copyright_note:
            asset["copyright"] = copyright_note
        self.doc: dict[str, Any] = {"asset": asset}
        self.bin = bytearray()

    def add(self, collection: str, item: dict) -> int:
        """Append ``item`` to the top-level array ``collection``; return its index."""
        items = self.doc.setdefault(collection, [])
        items.append(item)
        return len(items) - 1

    # -- binary data ------------------------------------------------------------------------------

    def accessor(self, array: np.ndarray, target: int | None = None, min_max: bool = False,
                 name: str | None = None) -> int:
        """Store ``array`` in its own bufferView and add an accessor over it.

        Args:
            array: (count,) scalars, (count, n) vectors or (count, 4, 4) matrices in math convention;
                dtype float32, uint8, uint16 or uint32 (float64 is stored as float32).
            target: bufferView target (``ARRAY_BUFFER`` for vertices, ``ELEMENT_ARRAY_BUFFER`` for
                indices, None for animation data and inverse bind matrices, as the spec advises).
            min_max: write ``min``/``max`` (required for POSITION and animation inputs, §3.6.2.5, §3.11).
        """
        a = np.asarray(array)
        if a.dtype == np.float64:
            a = a.astype(np.float32)
        count, shape = a.shape[0], a.shape[1:] or (1,)
        if shape == (4, 4):
            a = np.swapaxes(a, 1, 2)  # math convention → column-major bytes
        data = np.ascontiguousarray(a, dtype=a.dtype.newbyteorder("<")).tobytes()
        acc: dict[str, Any] = {"bufferView": self._view(data, target), "componentType": COMPONENT_TYPES[a.dtype],
                               "count": int(count), "type": TYPES[shape]}
        if min_max:
            flat = a.reshape(count, -1)
            if a.dtype == np.float32:
                acc["min"], acc["max"] = f32_list(flat.min(axis=0)), f32_list(flat.max(axis=0))
            else:
                acc["min"], acc["max"] = [int(v) for v in flat.min(axis=0)], [int(v) for v in flat.max(axis=0)]
        if name:
            acc["name"] = name
        return self.add("accessors", acc)

    def _view(self, data: bytes, target: int | None) -> int:
        self.bin.extend(b"\0" * (-len(self.bin) % 4))
        view: dict[str, Any] = {"buffer": 0, "byteOffset": len(self.bin), "byteLength": len(data)}
        if target is not None:
            view["target"] = target
        self.bin.extend(data)
        return self.add("bufferViews", view)

    # -- scene objects ----------------------------------------------------------------------------

    def material(self, name: str, color: Sequence[float], double_sided: bool = False,
                 metallic: float = 0.0, roughness: float = 0.6) -> int:
        """A plain PBR material: ``color`` is linear RGBA baseColorFactor."""
        mat: dict[str, Any] = {"name": name, "pbrMetallicRoughness": {
            "baseColorFactor": [float(c) for c in color], "metallicFactor": metallic, "roughnessFactor": roughness}}
        if double_sided:
            mat["doubleSided"] = True
        return self.add("materials", mat)

    def mesh(self, name: str, positions: np.ndarray, normals: np.ndarray, indices: np.ndarray, material: int,
             extra_attributes: dict[str, int] | None = None, targets: list[dict[str, np.ndarray]] | None = None,
             weights: Sequence[float] | None = None, target_names: Sequence[str] | None = None) -> int:
        """A one-primitive triangle mesh. Morph ``targets`` are (n, 3) deltas keyed by semantic."""
        attributes = {"POSITION": self.accessor(np.asarray(positions, np.float32), ARRAY_BUFFER, min_max=True),
                      "NORMAL": self.accessor(np.asarray(normals, np.float32), ARRAY_BUFFER)}
        attributes.update(extra_attributes or {})
        index_type = np.uint16 if len(positions) < 65536 else np.uint32
        prim: dict[str, Any] = {"attributes": attributes,
                                "indices": self.accessor(np.asarray(indices, index_type).reshape(-1),
                                                         ELEMENT_ARRAY_BUFFER),
                                "material": material, "mode": 4}
        if targets:
            # POSITION deltas need min/max too (§3.7.2.2: "required for POSITION").
            prim["targets"] = [{k: self.accessor(np.asarray(v, np.float32), ARRAY_BUFFER, min_max=k == "POSITION")
                                for k, v in t.items()} for t in targets]
        mesh: dict[str, Any] = {"name": name, "primitives": [prim]}
        if weights is not None:
            mesh["weights"] = [float(w) for w in weights]
        if target_names:
            mesh["extras"] = {"targetNames": list(target_names)}
        return self.add("meshes", mesh)

    def node(self, name: str, translation: Sequence[float] | None = None, rotation: Sequence[float] | None = None,
             **extra: Any) -> int:
        """A node; ``extra`` may hold mesh, skin, children (written in the order given)."""
        node: dict[str, Any] = {"name": name}
        node.update(extra)
        if translation is not None:
            node["translation"] = f32_list(translation)
        if rotation is not None:
            node["rotation"] = f32_list(rotation)
        return self.add("nodes", node)

    def animation(self, name: str, channels: list[dict[str, Any]]) -> int:
        """One animation; each channel: node, path, times (k,), values (k·(3 if cubic), W), interpolation.

        Values are (k, W) vectors, or (k·W,) scalars for weights. Channels with equal key times share
        one input accessor.
        """
        inputs: dict[bytes, int] = {}
        samplers, out = [], []
        for ch in channels:
            times = np.asarray(ch["times"], np.float32)
            if times.tobytes() not in inputs:
                inputs[times.tobytes()] = self.accessor(times, min_max=True)
            samplers.append({"input": inputs[times.tobytes()], "interpolation": ch.get("interpolation", "LINEAR"),
                             "output": self.accessor(np.asarray(ch["values"], np.float32))})
            out.append({"sampler": len(samplers) - 1, "target": {"node": ch["node"], "path": ch["path"]}})
        return self.add("animations", {"name": name, "channels": out, "samplers": samplers})

    # -- output -----------------------------------------------------------------------------------

    def to_dict(self, roots: Sequence[int]) -> dict[str, Any]:
        """The finished glTF JSON with one scene of ``roots`` and the buffer as a data: URI."""
        self.doc["scene"] = 0
        self.doc["scenes"] = [{"nodes": list(roots)}]
        self.bin.extend(b"\0" * (-len(self.bin) % 4))
        uri = "data:application/octet-stream;base64," + base64.b64encode(bytes(self.bin)).decode("ascii")
        self.doc["buffers"] = [{"byteLength": len(self.bin), "uri": uri}]
        return {key: self.doc[key] for key in TOP_LEVEL if key in self.doc}

    def dumps(self, roots: Sequence[int]) -> str:
        """The file's text: indented JSON, keys in a fixed order, ending in a newline."""
        return json.dumps(self.to_dict(roots), indent=1, sort_keys=False, ensure_ascii=False) + "\n"


def quat_about(axis: Sequence[float], angles: np.ndarray) -> np.ndarray:
    """Quaternions [x, y, z, w] (k, 4) for rotations by ``angles`` (k,) radians about a unit ``axis``."""
    half = 0.5 * np.asarray(angles, dtype=np.float64)[:, None]
    return np.concatenate([np.sin(half) * np.asarray(axis, np.float64), np.cos(half)], axis=1)


def quat_about_rate(axis: Sequence[float], angles: np.ndarray, rates: np.ndarray) -> np.ndarray:
    """d/dt of ``quat_about(axis, θ(t))`` where θ = ``angles`` and dθ/dt = ``rates`` (rad/s): (k, 4) per second.

    CUBICSPLINE rotation tangents are component-wise quaternion derivatives (glTF 2.0 Appendix C).
    """
    half = 0.5 * np.asarray(angles, dtype=np.float64)[:, None]
    d = np.concatenate([np.cos(half) * np.asarray(axis, np.float64), -np.sin(half)], axis=1)
    return 0.5 * np.asarray(rates, dtype=np.float64)[:, None] * d
