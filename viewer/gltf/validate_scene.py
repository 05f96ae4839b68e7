"""Validation of the node hierarchy, scenes, cameras, lights and skins (glTF 2.0 §3.5 "Scenes", §3.7 "Skins",
KHR_lights_punctual).

Runs after ``validate.check_structure`` (types and index ranges hold) and after ``validate_data``
(accessor data can be read safely).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from viewer.base.errors import GltfError, pointer
from viewer.gltf.accessors import FLOAT, AccessorReader
from viewer.gltf.schema import SPOT_DEFAULTS

TRS = ("translation", "rotation", "scale")


def check_nodes(raw: dict, file: Path) -> None:
    """Per-node rules, then the hierarchy: at most one parent each, no cycles, scene roots have no parent."""
    nodes = raw.get("nodes", [])
    for n, node in enumerate(nodes):
        _check_node(node, n, file)
    parents = _parents(nodes, file)
    _check_acyclic(parents, file)
    _check_scenes(raw, parents, file)


def _check_node(node: dict, n: int, file: Path) -> None:
    """A matrix excludes TRS (§3.5.3); skin and weights only make sense with a mesh."""
    if "matrix" in node:
        both = [key for key in TRS if key in node]
        if both:
            raise GltfError(
                file,
                pointer("nodes", n, "matrix"),
                f"node {n} has both matrix and {', '.join(both)}; a node uses one or the other",
            )
    for key in ("skin", "weights"):
        if key in node and "mesh" not in node:
            raise GltfError(file, pointer("nodes", n, key), f"node {n} has {key} but no mesh")


def _parents(nodes: list[dict], file: Path) -> list[tuple[int, int] | None]:
    """For each node, ``(parent, position in the parent's children)``, or None for a root.

    Raises:
        GltfError: at ``/nodes/P/children/K`` for a node that lists itself or a child with a parent already.
    """
    parents: list[tuple[int, int] | None] = [None] * len(nodes)
    for p, node in enumerate(nodes):
        for k, child in enumerate(node.get("children", [])):
            where = pointer("nodes", p, "children", k)
            if child == p:
                raise GltfError(file, where, f"node {p} lists itself as a child")
            if parents[child] is not None:
                other = parents[child][0]  # type: ignore[index]
                reason = "twice" if other == p else f"but node {child} is already a child of node {other}"
                raise GltfError(file, where, f"node {p} lists child {child} {reason}; a node has at most one parent")
            parents[child] = (p, k)
    return parents


def _check_acyclic(parents: list[tuple[int, int] | None], file: Path) -> None:
    """With one parent each, a node not reachable from a root lies on or below a cycle: find and report it."""
    children: list[list[int]] = [[] for _ in parents]
    for n, link in enumerate(parents):
        if link is not None:
            children[link[0]].append(n)
    reached = [False] * len(parents)
    stack = [n for n, link in enumerate(parents) if link is None]
    while stack:
        n = stack.pop()
        reached[n] = True
        stack.extend(children[n])
    if all(reached):
        return
    node = reached.index(False)
    seen: set[int] = set()
    while node not in seen:  # climb until the walk repeats: then `node` is on the cycle
        seen.add(node)
        node = parents[node][0]  # type: ignore[index]
    cycle = [node]
    while parents[cycle[-1]][0] != node:  # type: ignore[index]
        cycle.append(parents[cycle[-1]][0])  # type: ignore[index]
    parent, k = parents[node]  # type: ignore[misc]
    chain = " → ".join(str(c) for c in [node, *cycle[1:], node])
    raise GltfError(
        file,
        pointer("nodes", parent, "children", k),
        f"node hierarchy has a cycle: node {node} is its own ancestor (child → parent: {chain})",
    )


def _check_scenes(raw: dict, parents: list[tuple[int, int] | None], file: Path) -> None:
    """Scene nodes are roots (§3.5.1), each listed once."""
    for s, scene in enumerate(raw.get("scenes", [])):
        seen: set[int] = set()
        for k, n in enumerate(scene.get("nodes", [])):
            where = pointer("scenes", s, "nodes", k)
            if parents[n] is not None:
                raise GltfError(
                    file, where, f"scene {s} lists node {n} as a root but it is a child of node {parents[n][0]}"
                )  # type: ignore[index]
            if n in seen:
                raise GltfError(file, where, f"scene {s} lists node {n} twice")
            seen.add(n)


def check_cameras(raw: dict, file: Path) -> None:
    """A camera carries the object its type names; a finite far plane lies beyond the near one."""
    for c, camera in enumerate(raw.get("cameras", [])):
        kind = camera["type"]
        if kind not in camera:
            raise GltfError(file, pointer("cameras", c, kind), f"camera {c} has type {kind} but no {kind} object")
        projection = camera[kind]
        if "zfar" in projection and projection["zfar"] <= projection["znear"]:
            raise GltfError(
                file,
                pointer("cameras", c, kind, "zfar"),
                f"camera {c} zfar {projection['zfar']} must be greater than znear {projection['znear']}",
            )


def check_lights(raw: dict, file: Path) -> None:
    """A light has a spot object exactly when its type is spot; the inner cone lies strictly inside the outer
    one (defaults applied), or the cone's falloff would divide by zero."""
    ext = raw.get("extensions", {}).get("KHR_lights_punctual", {})
    for k, light in enumerate(ext.get("lights", [])):
        where = ("extensions", "KHR_lights_punctual", "lights", k)
        kind = light["type"]
        if kind == "spot" and "spot" not in light:
            raise GltfError(file, pointer(*where, "spot"), f"light {k} has type spot but no spot object")
        if kind != "spot" and "spot" in light:
            raise GltfError(
                file,
                pointer(*where, "spot"),
                f"light {k} has type {kind} and a spot object, which only spot lights have",
            )
        if kind != "spot":
            continue
        spot = light["spot"]
        inner = spot.get("innerConeAngle", SPOT_DEFAULTS["innerConeAngle"])
        outer = spot.get("outerConeAngle", SPOT_DEFAULTS["outerConeAngle"])
        if inner >= outer:
            key = "innerConeAngle" if "innerConeAngle" in spot else "outerConeAngle"
            raise GltfError(
                file,
                pointer(*where, "spot", key),
                f"light {k} innerConeAngle {inner} must be less than outerConeAngle {outer}",
            )


def check_skins(raw: dict, file: Path, reader: AccessorReader) -> None:
    """Joints are unique; inverseBindMatrices is MAT4 float with one matrix per joint at least;
    every JOINTS_n value of a mesh drawn with the skin indexes one of its joints."""
    accessors = raw.get("accessors", [])
    for s, skin in enumerate(raw.get("skins", [])):
        joints = skin["joints"]
        first_seen: dict[int, int] = {}
        for k, joint in enumerate(joints):
            if joint in first_seen:
                raise GltfError(
                    file,
                    pointer("skins", s, "joints", k),
                    f"skin {s} lists joint node {joint} twice (joints[{first_seen[joint]}] and [{k}])",
                )
            first_seen[joint] = k
        if "inverseBindMatrices" in skin:
            a = skin["inverseBindMatrices"]
            accessor = accessors[a]
            if accessor["type"] != "MAT4" or accessor["componentType"] != FLOAT:
                raise GltfError(
                    file,
                    pointer("skins", s, "inverseBindMatrices"),
                    f"skin {s} inverseBindMatrices accessor {a} must be MAT4 float (5126), got "
                    f"{accessor['type']} {accessor['componentType']}",
                )
            if accessor["count"] < len(joints):
                raise GltfError(
                    file,
                    pointer("skins", s, "inverseBindMatrices"),
                    f"skin {s} has {len(joints)} joints but inverseBindMatrices accessor {a} has "
                    f"{accessor['count']} matrices",
                )
    _check_joint_indices(raw, file, reader)


def _check_joint_indices(raw: dict, file: Path, reader: AccessorReader) -> None:
    """JOINTS_n values must be below the joint count of every skin the mesh is drawn with (§3.7.3)."""
    checked: set[tuple[int, int]] = set()
    for n, node in enumerate(raw.get("nodes", [])):
        if "skin" not in node or (node["mesh"], node["skin"]) in checked:
            continue
        checked.add((node["mesh"], node["skin"]))
        joint_count = len(raw["skins"][node["skin"]]["joints"])
        for p, primitive in enumerate(raw["meshes"][node["mesh"]]["primitives"]):
            for name, a in primitive["attributes"].items():
                if not name.startswith("JOINTS_"):
                    continue
                values = reader.read(a)
                bad = np.flatnonzero((values >= joint_count).any(axis=-1)) if values.size else np.empty(0)
                if bad.size:
                    vertex = int(bad[0])
                    raise GltfError(
                        file,
                        pointer("meshes", node["mesh"], "primitives", p, "attributes", name),
                        f"vertex {vertex} has joint index {int(values[vertex].max())} but skin "
                        f"{node['skin']} (used by node {n}) has {joint_count} joints",
                    )


def check_visibility(raw: dict, file: Path) -> None:
    """KHR_node_visibility's ``visible`` is a boolean (a number would read as a silent true or false)."""
    for i, node in enumerate(raw.get("nodes", [])):
        ext = (node.get("extensions") or {}).get("KHR_node_visibility")
        if ext is None:
            continue
        where = ("nodes", i, "extensions", "KHR_node_visibility")
        if not isinstance(ext, dict):
            raise GltfError(file, pointer(*where), "KHR_node_visibility must be an object")
        if "visible" in ext and not isinstance(ext["visible"], bool):
            raise GltfError(file, pointer(*where, "visible"), f"visible must be true or false, got {ext['visible']!r}")
