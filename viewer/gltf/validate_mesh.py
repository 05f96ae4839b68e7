"""Validation of meshes: attribute formats and counts, indices, morph targets (glTF 2.0 §3.7.2).

Runs after ``validate_data`` so accessor data can be read. Attribute formats follow the core spec's
table of vertex attributes; with ``KHR_mesh_quantization`` in ``extensionsUsed`` the wider set of
integer formats that extension allows is accepted too.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np

from viewer.base.errors import GltfError, pointer
from viewer.gltf import draco
from viewer.gltf.accessors import UNSIGNED_INT_TYPES, AccessorReader

Format = frozenset[tuple[int, bool]]  # (componentType, normalized) pairs

_FLOAT: Format = frozenset({(5126, False)})
_UNORM: Format = frozenset({(5121, True), (5123, True)})
_SNORM: Format = frozenset({(5120, True), (5122, True)})
_INTS: Format = frozenset({(5120, False), (5121, False), (5122, False), (5123, False)})

CORE_ATTRIBUTES: dict[str, tuple[tuple[str, ...], Format]] = {
    "POSITION": (("VEC3",), _FLOAT),
    "NORMAL": (("VEC3",), _FLOAT),
    "TANGENT": (("VEC4",), _FLOAT),
    "TEXCOORD": (("VEC2",), _FLOAT | _UNORM),
    "COLOR": (("VEC3", "VEC4"), _FLOAT | _UNORM),
    "JOINTS": (("VEC4",), frozenset({(5121, False), (5123, False)})),
    "WEIGHTS": (("VEC4",), _FLOAT | _UNORM),
}
QUANTIZED_EXTRA: dict[str, Format] = {  # KHR_mesh_quantization, "Extending Mesh Attributes"
    "POSITION": _INTS | _SNORM | _UNORM,
    "NORMAL": _SNORM,
    "TANGENT": _SNORM,
    "TEXCOORD": _INTS | _SNORM,
}
TARGET_ATTRIBUTES: dict[str, Format] = {"POSITION": _FLOAT, "NORMAL": _FLOAT, "TANGENT": _FLOAT}
QUANTIZED_TARGET_EXTRA: dict[str, Format] = {
    "POSITION": _SNORM | frozenset({(5120, False), (5122, False)}),
    "NORMAL": _SNORM,
    "TANGENT": _SNORM,
}
_SET_SEMANTIC = re.compile(r"(TEXCOORD|COLOR|JOINTS|WEIGHTS)_\d+")


def morph_target_count(mesh: dict) -> int:
    """Morph targets of a mesh (every primitive has the same number once ``check_meshes`` passed)."""
    return len(mesh["primitives"][0].get("targets", []))


def check_meshes(raw: dict, file: Path, reader: AccessorReader, quantized: bool) -> None:
    """Draco data decoded first (its accessors then read as the decoded values), then every primitive,
    then the mesh's and its nodes' default morph weights."""
    draco.decode_primitives(raw, file, reader)
    for m, mesh in enumerate(raw.get("meshes", [])):
        for p, primitive in enumerate(mesh["primitives"]):
            _check_primitive(raw, primitive, ("meshes", m, "primitives", p), file, reader, quantized)
        targets = [len(primitive.get("targets", [])) for primitive in mesh["primitives"]]
        for p, count in enumerate(targets):
            if count != targets[0]:
                raise GltfError(
                    file,
                    pointer("meshes", m, "primitives", p, "targets"),
                    f"mesh {m} primitive {p} has {count} morph targets but primitive 0 has {targets[0]}",
                )
        if "weights" in mesh and len(mesh["weights"]) != targets[0]:
            raise GltfError(
                file,
                pointer("meshes", m, "weights"),
                f"mesh {m} has {len(mesh['weights'])} weights but {targets[0]} morph targets",
            )
    for n, node in enumerate(raw.get("nodes", [])):
        if "weights" in node:
            expected = morph_target_count(raw["meshes"][node["mesh"]])
            if len(node["weights"]) != expected:
                raise GltfError(
                    file,
                    pointer("nodes", n, "weights"),
                    f"node {n} has {len(node['weights'])} "
                    f"weights but its mesh {node['mesh']} has {expected} morph targets",
                )


def _check_primitive(
    raw: dict, primitive: dict, here: tuple, file: Path, reader: AccessorReader, quantized: bool
) -> None:
    """POSITION present; formats per semantic; equal counts; indices and morph targets fit the vertices."""
    accessors = raw["accessors"]
    attributes = primitive["attributes"]
    if "POSITION" not in attributes:
        raise GltfError(file, pointer(*here, "attributes"), "primitive has no POSITION attribute")
    vertex_count = accessors[attributes["POSITION"]]["count"]
    for name, a in attributes.items():
        where = (*here, "attributes", name)
        _check_format(accessors[a], name, a, where, file, _allowed_format(name, quantized))
        if accessors[a]["count"] != vertex_count:
            raise GltfError(
                file,
                pointer(*where),
                f"attribute {name} accessor {a} has {accessors[a]['count']} elements but POSITION has {vertex_count}",
            )
    if "indices" in primitive:
        _check_indices(accessors, primitive["indices"], vertex_count, (*here, "indices"), file, reader)
    for t, target in enumerate(primitive.get("targets", [])):
        for name, a in target.items():
            where = (*here, "targets", t, name)
            allowed = TARGET_ATTRIBUTES.get(name)
            if allowed is not None:
                extra = QUANTIZED_TARGET_EXTRA[name] if quantized else frozenset()
                _check_format(accessors[a], name, a, where, file, (("VEC3",), allowed | extra))
            if accessors[a]["count"] != vertex_count:
                raise GltfError(
                    file,
                    pointer(*where),
                    f"morph target {t} {name} accessor {a} has "
                    f"{accessors[a]['count']} elements but POSITION has {vertex_count}",
                )


def _allowed_format(name: str, quantized: bool) -> tuple[tuple[str, ...], Format] | None:
    """The (types, formats) a semantic allows, or None for an application-specific one (``_FOO``)."""
    match = _SET_SEMANTIC.fullmatch(name)
    base = match.group(1) if match else name
    if base not in CORE_ATTRIBUTES:
        return None
    types, formats = CORE_ATTRIBUTES[base]
    if quantized:
        formats = formats | QUANTIZED_EXTRA.get(base, frozenset())
    return types, formats


def _check_format(
    accessor: dict, name: str, a: int, where: tuple, file: Path, allowed: tuple[tuple[str, ...], Format] | None
) -> None:
    if allowed is None:
        return
    types, formats = allowed
    found = (accessor["componentType"], accessor.get("normalized", False))
    if accessor["type"] not in types or found not in formats:
        wanted = ", ".join(f"{c}{' normalized' if norm else ''}" for c, norm in sorted(formats))
        raise GltfError(
            file,
            pointer(*where),
            f"{name} accessor {a} is {accessor['type']} of componentType {found[0]}"
            f"{' normalized' if found[1] else ''}; expected {' or '.join(types)} of {wanted}",
        )


def _check_indices(
    accessors: list[dict], a: int, vertex_count: int, where: tuple, file: Path, reader: AccessorReader
) -> None:
    """Indices are SCALAR unsigned byte/short/int, not normalized, each below the vertex count."""
    accessor = accessors[a]
    if (
        accessor["type"] != "SCALAR"
        or accessor["componentType"] not in UNSIGNED_INT_TYPES
        or accessor.get("normalized", False)
    ):
        raise GltfError(
            file,
            pointer(*where),
            f"indices accessor {a} must be SCALAR of componentType 5121, 5123 "
            f"or 5125, got {accessor['type']} {accessor['componentType']}",
        )
    values = reader.read(a)
    bad = np.flatnonzero(values >= vertex_count)
    if bad.size:
        k = int(bad[0])
        raise GltfError(
            file,
            pointer(*where),
            f"index {k} of accessor {a} is {int(values[k])} but the primitive has {vertex_count} vertices",
        )
