"""A small programmatic glTF 2.0 builder, so tests make their fixtures by code.

It writes what it is told, right or wrong: nothing is validated here, which is what lets tests build
broken files on purpose. A thin layer over ``viewer.files.writer`` (the project's one glTF writer): arrays go
into one binary buffer (buffer 0), one bufferView per accessor (4-byte aligned) unless
``add_interleaved`` packs several into one strided view; ``add_animation`` is the writer's (one sampler
per channel). Scene objects are plain dicts, written as given.

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

from pathlib import Path
from typing import Any, Iterable, Sequence

import numpy as np

from viewer.files import writer
from viewer.files.writer import DTYPES


class GltfBuilder(writer.JsonWriter):
    """Accumulates glTF JSON (``self.doc``, a plain dict) and one binary buffer (``self.bin``).

    ``add``, ``add_buffer_view``, ``add_accessor``, ``add_animation``, ``bin_bytes`` and ``to_dict`` come
    from ``viewer.files.writer.JsonWriter``; this class adds what only tests need: interleaved and sparse
    accessors, and scene objects written exactly as given.
    """

    def __init__(self) -> None:
        super().__init__(generator="animview tests")

    # -- raw pieces -------------------------------------------------------------------------------

    def add_interleaved(self, arrays: Sequence[Any], target: int | None = 34962) -> list[int]:
        """Interleave several same-count arrays in one bufferView with a byteStride; return their accessors.

        Each attribute starts at a 4-byte aligned offset inside the element; the stride is the sum.
        """
        parts = [writer.gltf_array(a) for a in arrays]
        blocks = [writer.element_bytes(values, kind) for values, kind, _ in parts]
        widths = [b.shape[1] + (-b.shape[1] % 4) for b in blocks]
        stride, count = sum(widths), len(parts[0][0])
        packed = np.zeros((count, stride), np.uint8)
        offsets = np.concatenate([[0], np.cumsum(widths)[:-1]]).astype(int)
        for block, offset in zip(blocks, offsets):
            packed[:, offset : offset + block.shape[1]] = block
        view = self.add_buffer_view(packed.tobytes(), stride, target)
        return [
            self.add(
                "accessors",
                {"bufferView": view, "byteOffset": int(offset), "componentType": ctype, "count": count, "type": kind},
            )
            for (_, kind, ctype), offset in zip(parts, offsets)
        ]

    def add_sparse_accessor(
        self,
        count: int,
        indices: Iterable[int],
        values: Any,
        type: str | None = None,
        base: Any = None,
        index_component_type: int = 5125,
        component_type: int | None = None,
        normalized: bool = False,
    ) -> int:
        """A sparse accessor: ``values`` replace elements at ``indices`` of ``base`` (zeros when None)."""
        vals, kind, ctype = writer.gltf_array(values, type, component_type)
        if base is not None:
            index = self.add_accessor(base, kind, ctype)
        else:
            index = self.add("accessors", {"componentType": ctype, "count": count, "type": kind})
        accessor = self.doc["accessors"][index]
        idx = np.asarray(list(indices), DTYPES[index_component_type])
        accessor["sparse"] = {
            "count": len(idx),
            "indices": {"bufferView": self.add_buffer_view(idx.tobytes()), "componentType": index_component_type},
            "values": {"bufferView": self.add_buffer_view(writer.element_bytes(vals, kind).tobytes())},
        }
        if normalized:
            accessor["normalized"] = True
        return index

    # -- scene objects ----------------------------------------------------------------------------

    def add_node(self, **properties: Any) -> int:
        """A node with the given glTF properties (``mesh=0, children=[1], translation=[…]``)."""
        return self.add("nodes", dict(properties))

    def add_mesh(
        self,
        positions: Any,
        indices: Any = None,
        targets: Sequence[Any] = (),
        weights: Sequence[float] | None = None,
        attributes: dict[str, int] | None = None,
    ) -> int:
        """A one-primitive triangle mesh.

        Args:
            positions: ``(n, 3)`` vertex positions (float32).
            indices: triangle indices (uint16), or None for a non-indexed primitive.
            targets: morph targets, each a ``(n, 3)`` POSITION displacement array.
            weights: the mesh's default morph weights.
            attributes: more attributes, semantic → accessor index (e.g. JOINTS_0).
        """
        primitive: dict[str, Any] = {
            "attributes": {"POSITION": self.add_accessor(np.asarray(positions, np.float32), target=34962, min_max=True)}
        }
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

    def write_gltf(
        self, directory: Path, name: str = "model.gltf", embed: bool = False, bin_name: str | None = None
    ) -> Path:
        """Write ``name`` (+ a .bin file unless ``embed``) into ``directory``; see ``write_gltf``."""
        return write_gltf(self.to_dict(), self.bin_bytes(), directory, name, embed, bin_name)

    def write_glb(self, path: Path) -> Path:
        """Write a .glb with the buffer as its BIN chunk."""
        return write_glb(self.to_dict(), self.bin_bytes(), path)


def write_gltf(
    doc: dict,
    bin_data: bytes,
    directory: Path,
    name: str = "model.gltf",
    embed: bool = False,
    bin_name: str | None = None,
) -> Path:
    """Write ``directory / name``; buffer 0 without a uri gets a data: URI when ``embed``, else a .bin file.

    Args:
        bin_name: file name of the buffer on disk (default: ``name`` with .bin); its uri is
            percent-encoded, so "my file.bin" is referenced as ``my%20file.bin``.
    """
    return writer.write_gltf(doc, bin_data, Path(directory) / name, embed, bin_name)


write_glb = writer.write_glb  # (doc, bin_data, path, json_bytes=None): json_bytes replaces the JSON chunk


def overwrite_accessor(doc: dict, bin_data: bytearray, index: int, values: Any) -> None:
    """Overwrite the stored elements of a tightly packed accessor in ``bin_data`` (e.g. to plant a NaN)."""
    accessor = doc["accessors"][index]
    view = doc["bufferViews"][accessor["bufferView"]]
    data = np.asarray(values, DTYPES[accessor["componentType"]]).tobytes()
    start = view.get("byteOffset", 0) + accessor.get("byteOffset", 0)
    bin_data[start : start + len(data)] = data


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
    b.add_animation(
        [
            dict(
                node=2,
                path="translation",
                interpolation="LINEAR",
                times=[0, 1, 2],
                values=[[0, 1, 0], [1, 1, 0], [0, 1, 0]],
            ),
            dict(
                node=3,
                path="rotation",
                interpolation="CUBICSPLINE",
                times=[0, 1],
                values=[[0, 0, 0, 0], [0, 0, 0, 1], [0, 0, 0, 0], [0, 0, 0, 0], quarter, [0, 0, 0, 0]],
            ),
            dict(node=1, path="weights", interpolation="STEP", times=[0, 0.5, 1], values=[[0, 0], [1, 0], [0, 1]]),
            dict(node=0, path="scale", times=[0, 1], values=[[1, 1, 1], [2, 2, 2]]),
        ],
        name="Anim",
    )
    b.add_scene([0, 4])
    return b


def morph_only() -> GltfBuilder:
    """One triangle with one morph target, and a clip that drives only its weight (no node moves)."""
    b = GltfBuilder()
    mesh = b.add_mesh(
        positions=[[0, 0, 0], [1, 0, 0], [0, 1, 0]],
        indices=[0, 1, 2],
        targets=[[[0, 0, 1], [0, 0, 1], [0, 0, 1]]],
        weights=[0.0],
    )
    b.add_node(mesh=mesh)
    b.add_animation([dict(node=0, path="weights", times=[0, 1], values=[[0.0], [1.0]])])
    b.add_scene([0])
    return b
