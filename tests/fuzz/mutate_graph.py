"""Node-graph mutations: cycles, two parents, very deep chains and very many nodes.

The node hierarchy is walked by the validator, by the scene builder (depths, order) and by the pose
(world matrices level by level); each walk is a chance to loop forever, recurse too deep or go
quadratic. Chains of 2 000–30 000 nodes and up to 100 000 nodes are sizes a real exporter can emit
(a long rope rig, a particle bake), so they must load in bounded time or be refused.
"""

from __future__ import annotations

import random

CHAIN_LENGTHS = [2000, 5000, 10000, 30000]
NODE_COUNTS = [10000, 50000, 100000]
# Vertices of mesh instances a many_nodes mutation adds at most (100 000 instances of a 2 000-vertex sphere
# are 4·10⁸ triangles: about 13 s of software rasterization, whatever the viewer does).
MAX_INSTANCED_VERTICES = 20_000_000


def _nodes(m) -> list:
    """The node list, made usable: non-objects become empty nodes, and there are at least three."""
    nodes = m.doc.get("nodes")
    nodes = [n if isinstance(n, dict) else {} for n in nodes] if isinstance(nodes, list) else []
    nodes.extend({} for _ in range(3 - len(nodes)))
    m.doc["nodes"] = nodes
    return nodes


def _children(node: dict) -> list:
    if not isinstance(node.get("children"), list):
        node["children"] = []
    return node["children"]


def _scene_roots(m) -> list | None:
    scenes = m.doc.get("scenes")
    if isinstance(scenes, list) and scenes and isinstance(scenes[0], dict):
        if not isinstance(scenes[0].get("nodes"), list):
            scenes[0]["nodes"] = []
        return scenes[0]["nodes"]
    return None


def node_cycle(rng: random.Random, m) -> str:
    """A node its own child, a 2- or 3-node loop, a node with two parents, or a root that is also a child."""
    nodes = _nodes(m)
    n = len(nodes)
    a, b, c = rng.sample(range(n), 3)
    kind = rng.randrange(4)
    if kind == 0:
        _children(nodes[a]).append(a)
        return f"node {a} is its own child"
    if kind == 1:
        _children(nodes[a]).append(b)
        _children(nodes[b]).append(c if rng.random() < 0.5 else a)
        if b not in _children(nodes[a]) or a not in _children(nodes[b]):
            _children(nodes[c]).append(a)
            return f"loop {a} -> {b} -> {c} -> {a}"
        return f"loop {a} -> {b} -> {a}"
    if kind == 2:
        _children(nodes[a]).append(c)
        _children(nodes[b]).append(c)
        return f"node {c} has two parents {a} and {b}"
    roots = _scene_roots(m)
    if roots:
        root = roots[0] if isinstance(roots[0], int) and 0 <= roots[0] < n else a
        _children(nodes[b]).append(root)
        return f"scene root {root} is also a child of {b}"
    _children(nodes[a]).append(b)
    _children(nodes[b]).append(a)
    return f"loop {a} -> {b} -> {a} (no scene)"


def long_chain(rng: random.Random, m) -> str:
    """Append a chain of thousands of nodes, each the only child of the one before, under the scene."""
    nodes = _nodes(m)
    length = rng.choice(CHAIN_LENGTHS)
    first = len(nodes)
    mesh = 0 if isinstance(m.doc.get("meshes"), list) and m.doc["meshes"] and rng.random() < 0.5 else None
    for k in range(length):
        node: dict = {"translation": [0.0, 0.001, 0.0]}
        if k + 1 < length:
            node["children"] = [first + k + 1]
        nodes.append(node)
    if mesh is not None:
        nodes[-1]["mesh"] = mesh
    _attach(rng, m, first)
    retarget = _retarget_channel(rng, m, len(nodes) - 1)
    return f"chain of {length} nodes from {first}" + (" ending in mesh 0" if mesh is not None else "") + retarget


def many_nodes(rng: random.Random, m) -> str:
    """Append tens of thousands of nodes, all scene roots or all children of one node."""
    nodes = _nodes(m)
    count = rng.choice(NODE_COUNTS)
    first = len(nodes)
    has_mesh = isinstance(m.doc.get("meshes"), list) and bool(m.doc["meshes"])
    every = rng.choice([0, 1, 100]) if has_mesh else 0  # every k-th new node shows mesh 0
    if every:  # what llvmpipe can draw within the CPU limit: a hang must be the viewer's, not the rasterizer's
        every = max(every, -(-count * _mesh_vertices(m) // MAX_INSTANCED_VERTICES))
    nodes.extend(
        {"mesh": 0} if every and k % every == 0 else {"translation": [float(k % 7), 0.0, 0.0]} for k in range(count)
    )
    roots = _scene_roots(m)
    if roots is not None and rng.random() < 0.5:
        roots.extend(range(first, first + count))
        where = "scene 0 roots"
    else:
        parent = rng.randrange(first)
        _children(nodes[parent]).extend(range(first, first + count))
        where = f"children of node {parent}"
    retarget = _retarget_channel(rng, m, first + count - 1)
    return f"{count} nodes from {first} as {where}" + (f", every {every} with mesh 0" if every else "") + retarget


def _mesh_vertices(m) -> int:
    """Vertices of mesh 0 as the (possibly mutated) JSON declares them; 0 when it cannot tell."""
    try:
        accessors = m.doc["accessors"]
        return sum(int(accessors[p["attributes"]["POSITION"]]["count"]) for p in m.doc["meshes"][0]["primitives"])
    except (KeyError, IndexError, TypeError, ValueError):
        return 0


def _attach(rng: random.Random, m, first: int) -> None:
    roots = _scene_roots(m)
    if roots is not None and rng.random() < 0.5:
        roots.append(first)
    else:
        parent = rng.randrange(first)
        _children(m.doc["nodes"][parent]).append(first)


def _retarget_channel(rng: random.Random, m, node: int) -> str:
    """Half the time, point an animation channel at ``node`` so the deep/last node moves."""
    anims = m.doc.get("animations")
    if rng.random() < 0.5 or not isinstance(anims, list) or not anims or not isinstance(anims[0], dict):
        return ""
    channels = anims[0].get("channels")
    if not isinstance(channels, list) or not channels or not isinstance(channels[0], dict):
        return ""
    target = channels[0].get("target")
    if isinstance(target, dict) and target.get("path") != "weights":
        target["node"] = node
        return f"; animation 0 channel 0 retargeted to node {node}"
    return ""
