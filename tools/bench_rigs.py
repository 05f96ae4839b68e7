"""Write two large animated rigs for speed comparisons (animview vs. peers such as three.js).

    python tools/bench_rigs.py OUT_DIR [--fox PATH] [--copies 50] [--tree-nodes 10000]

Writes into OUT_DIR (created if needed):

``foxes_50.glb``
    ``--copies`` copies of the Khronos Fox (``../shared/assets/khronos/Fox/Fox.glb``, 24 joints) side by side
    on a grid in one scene. Each copy is its own node tree (a placing node ``fox_K`` over the Fox's 26
    nodes, 27 per copy: 1 350 for 50) with its own skin (joints remapped, inverse bind matrices shared);
    the copies share one mesh (the Fox's positions, joints and weights; its texture and UVs dropped, so
    the file holds no image) and one plain material. ONE animation, the Fox's "Run" (or its first clip
    when it has no "Run"), whose channels animate every copy: each copy's channels target its own nodes
    with the same keys (times shared, each channel its own sampler and output accessor).
``tree_10000.glb``
    ``--tree-nodes`` nodes: a full binary tree of 12 levels (4 095 nodes) and chains hung from its leaves
    for the rest (5 of 1 000 nodes, 9 of 100, one of the remainder for 10 000). One animation: every node's
    rotation LINEAR, 30 keys over 2 s (a small sway about a per-node axis, same value at 0 s and 2 s);
    every 10th node also its translation, every 25th its scale. One small box mesh on a few nodes (the
    root, every 128th tree leaf, every 100th chain link and every chain's last node: 77 of 10 000) so the
    file can be looked at.

Both files are deterministic (no clock, no random state: same bytes on every run) and written through
``viewer.files.writer``; the Fox is read with ``viewer.gltf.load_document``. Licenses: the Fox copies keep the
Fox's own ``asset.copyright`` and carry its license note (from the Khronos INDEX.md / LICENSE.md) in
``asset.extras``; the tree is made by this script (MIT, as animview).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from viewer.demo import shapes  # noqa: E402
from viewer.files import writer  # noqa: E402
from viewer.files.writer import ARRAY_BUFFER, ELEMENT_ARRAY_BUFFER  # noqa: E402
from viewer.gltf import load_document  # noqa: E402

KHRONOS = Path(os.environ.get("ANIMVIEW_KHRONOS", REPO.parent / "shared" / "assets" / "khronos"))
FOX = KHRONOS / "Fox" / "Fox.glb"
GENERATOR = "animview tools/bench_rigs.py"
FOX_LICENSE = (
    "CC0 1.0 (model, PixelMannen) + CC BY 4.0 (rigging/animation, tomkranis) + CC BY 4.0 "
    "(glTF conversion, @AsoboStudio & @scurest); Khronos glTF-Sample-Models 2.0/Fox, see its "
    "LICENSE.md and README.md"
)
FOX_CHANGES = (
    "copies of the Khronos Fox placed side by side by animview tools/bench_rigs.py; the texture, "
    "its image and TEXCOORD_0 removed (plain material); only the Run animation kept, retargeted "
    "to every copy"
)
GRID_COLUMNS, FOX_SPACING = 10, (120.0, 200.0)  # Fox units: about 25 wide, 155 long

TREE_LEVELS = 12  # full binary tree: 2**12 - 1 = 4 095 nodes
CHAIN_LENGTHS = (1000,) * 5 + (100,) * 9  # then one chain of the remainder
TREE_KEYS, TREE_SECONDS = 30, 2.0
TRANSLATION_EVERY, SCALE_EVERY = 10, 25


def fox_copies(fox_path: str | Path = FOX, copies: int = 50) -> tuple[dict, bytes]:
    """(glTF JSON, binary buffer) of ``copies`` Fox copies animated by one clip."""
    fox = load_document(fox_path)
    raw = fox.raw
    out = writer.JsonWriter(generator=GENERATOR)
    out.doc["asset"]["copyright"] = raw["asset"].get("copyright", "")
    out.doc["asset"]["extras"] = {"license": FOX_LICENSE, "changes": FOX_CHANGES, "source": "Fox.glb"}

    clips = raw.get("animations", [])
    clip = next((a for a in clips if a.get("name") == "Run"), clips[0])
    # One shared mesh per Fox mesh: positions, normals if any, joints, weights; no texture coordinates.
    material = out.add(
        "materials",
        {
            "name": "fox_plain",
            "pbrMetallicRoughness": {
                "baseColorFactor": [0.8, 0.4, 0.15, 1.0],
                "metallicFactor": 0.0,
                "roughnessFactor": 0.58,
            },
        },
    )
    meshes = []
    for mesh in raw.get("meshes", []):
        prims = []
        for prim in mesh["primitives"]:
            attrs = {}
            for semantic, index in prim["attributes"].items():
                if semantic.startswith("TEXCOORD") or semantic.startswith("COLOR"):
                    continue
                values = fox.accessor(index)
                ctype = raw["accessors"][index]["componentType"] if values.dtype.kind != "f" else None
                attrs[semantic] = out.add_accessor(
                    values, component_type=ctype, target=ARRAY_BUFFER, min_max=semantic == "POSITION"
                )
            p = {"attributes": attrs, "material": material}
            if "indices" in prim:
                p["indices"] = out.add_accessor(
                    fox.accessor(prim["indices"]).astype(np.uint32), target=ELEMENT_ARRAY_BUFFER
                )
            prims.append(p)
        meshes.append(out.add("meshes", {"name": mesh.get("name", "fox"), "primitives": prims}))
    inverse_binds = [
        out.add_accessor(fox.accessor(s["inverseBindMatrices"])) if "inverseBindMatrices" in s else None
        for s in raw.get("skins", [])
    ]

    nodes = raw["nodes"]
    per_copy = len(nodes) + 1
    roots, channels = [], []
    for k in range(copies):
        base = k * per_copy + 1  # Fox node i is node base + i; node base - 1 places the copy

        def moved(i: int) -> int:
            return base + i

        col, row = k % GRID_COLUMNS, k // GRID_COLUMNS
        fox_roots = raw["scenes"][raw.get("scene", 0)]["nodes"]
        roots.append(
            out.add(
                "nodes",
                {
                    "name": f"fox_{k}",
                    "children": [moved(i) for i in fox_roots],
                    "translation": writer.f32_list(
                        [(col - (GRID_COLUMNS - 1) / 2) * FOX_SPACING[0], 0.0, -row * FOX_SPACING[1]]
                    ),
                },
            )
        )
        for i, node in enumerate(nodes):
            copy = {key: value for key, value in node.items() if key not in ("children", "mesh", "skin")}
            copy["name"] = f"{node.get('name', 'node')}_{k}"
            if "children" in node:
                copy["children"] = [moved(c) for c in node["children"]]
            if "mesh" in node:
                copy["mesh"] = meshes[node["mesh"]]
            if "skin" in node:
                skin = raw["skins"][node["skin"]]
                new_skin = {"name": f"fox_skin_{k}", "joints": [moved(j) for j in skin["joints"]]}
                if inverse_binds[node["skin"]] is not None:
                    new_skin["inverseBindMatrices"] = inverse_binds[node["skin"]]
                if "skeleton" in skin:
                    new_skin["skeleton"] = moved(skin["skeleton"])
                copy["skin"] = out.add("skins", new_skin)
            assert out.add("nodes", copy) == moved(i)
        for channel in clip["channels"]:
            sampler = clip["samplers"][channel["sampler"]]
            channels.append(
                {
                    "node": moved(channel["target"]["node"]),
                    "path": channel["target"]["path"],
                    "times": fox.accessor(sampler["input"]),
                    "values": fox.accessor(sampler["output"]),
                    "interpolation": sampler.get("interpolation"),
                }
            )
    out.add_animation(channels, name=clip.get("name", "clip"), share_inputs=True)
    out.doc["scene"] = 0
    out.doc["scenes"] = [{"name": f"foxes_{copies}", "nodes": roots}]
    return out.to_dict(), out.bin_bytes()


def tree_parents(total: int = 10_000) -> np.ndarray:
    """Parent index per node (-1 for the root), parents before children: the binary tree, then the chains."""
    tree = 2**TREE_LEVELS - 1
    if total < tree:
        raise ValueError(f"the tree needs at least {tree} nodes, got {total}")
    parent = np.full(total, -1, np.int64)
    parent[1:tree] = (np.arange(1, tree) - 1) // 2
    lengths = list(CHAIN_LENGTHS)
    while sum(lengths) > total - tree:
        lengths.pop()
    if total - tree - sum(lengths):
        lengths.append(total - tree - sum(lengths))
    first_leaf, leaves = tree // 2, tree - tree // 2
    node = tree
    for j, length in enumerate(lengths):
        above = first_leaf + (j * leaves) // len(lengths)  # spread the chains over the leaves
        for _ in range(length):
            parent[node] = above
            above = node
            node += 1
    return parent


def tree_rig(total: int = 10_000) -> tuple[dict, bytes]:
    """(glTF JSON, binary buffer) of the ``total``-node animated tree."""
    parent = tree_parents(total)
    tree = 2**TREE_LEVELS - 1
    level = np.zeros(total, np.int64)
    for i in range(1, total):
        level[i] = level[parent[i]] + 1
    children: list[list[int]] = [[] for _ in range(total)]
    for i in range(1, total):
        children[parent[i]].append(i)

    out = writer.JsonWriter(generator=GENERATOR)
    out.doc["asset"]["copyright"] = "animview contributors (MIT); generated by tools/bench_rigs.py"
    out.doc["asset"]["extras"] = {"license": "MIT (animview)", "nodes": total}
    material = out.add(
        "materials",
        {
            "name": "bark",
            "pbrMetallicRoughness": {
                "baseColorFactor": [0.45, 0.6, 0.3, 1.0],
                "metallicFactor": 0.0,
                "roughnessFactor": 0.7,
            },
        },
    )
    positions, normals, indices = shapes.box((0.5, 0.5, 0.5))
    mesh = out.add(
        "meshes",
        {
            "name": "box",
            "primitives": [
                {
                    "attributes": {
                        "POSITION": out.add_accessor(positions, target=ARRAY_BUFFER, min_max=True),
                        "NORMAL": out.add_accessor(normals, target=ARRAY_BUFFER),
                    },
                    "indices": out.add_accessor(
                        np.asarray(indices, np.uint16).reshape(-1), target=ELEMENT_ARRAY_BUFFER
                    ),
                    "material": material,
                }
            ],
        },
    )
    chain_ends = {i for i in range(tree, total) if not children[i]}
    with_mesh = {0} | chain_ends | set(range(tree // 2, tree, 128)) | set(range(tree + 99, total, 100))

    times = np.linspace(0.0, TREE_SECONDS, TREE_KEYS)
    phase_t = 2.0 * np.pi * times / TREE_SECONDS  # one full period: the last key equals the first
    channels = []
    for i in range(total):
        node: dict = {"name": f"n{i}"}
        if i == 0:
            rest = np.zeros(3)
        elif i < tree:  # branches: spread sideways, alternately in x and z, shrinking with depth
            side = 1.0 if i % 2 else -1.0
            width, height = 2.0 * 0.72 ** level[i], 1.2 * 0.8 ** level[i]
            rest = np.array([side * width, height, 0.0]) if level[i] % 2 else np.array([0.0, height, side * width])
        else:  # chain links
            rest = np.array([0.0, 0.03, 0.0])
        node["translation"] = writer.f32_list(rest)
        if children[i]:
            node["children"] = children[i]
        if i in with_mesh:
            node["mesh"] = mesh
        out.add("nodes", node)

        axis = np.array([np.sin(0.7 * i), 1.0 + 0.5 * np.cos(1.3 * i), np.cos(0.7 * i)])
        axis /= np.linalg.norm(axis)
        amplitude = 0.25 if i < tree else 0.004
        angles = amplitude * np.sin(phase_t + 0.37 * i)
        rotation = np.concatenate([np.sin(angles / 2)[:, None] * axis, np.cos(angles / 2)[:, None]], axis=1)
        channels.append({"node": i, "path": "rotation", "times": times, "values": rotation, "interpolation": "LINEAR"})
        if i % TRANSLATION_EVERY == 0:
            bob = rest + np.outer(np.sin(phase_t + 0.11 * i), [0.0, 0.05, 0.0])
            channels.append(
                {"node": i, "path": "translation", "times": times, "values": bob, "interpolation": "LINEAR"}
            )
        if i % SCALE_EVERY == 0:
            s = 1.0 + 0.1 * np.sin(phase_t + 0.23 * i)
            channels.append(
                {
                    "node": i,
                    "path": "scale",
                    "times": times,
                    "values": np.repeat(s[:, None], 3, 1),
                    "interpolation": "LINEAR",
                }
            )
    out.add_animation(channels, name="sway", share_inputs=True)
    out.doc["scene"] = 0
    out.doc["scenes"] = [{"name": f"tree_{total}", "nodes": [0]}]
    return out.to_dict(), out.bin_bytes()


def write_rigs(
    folder: str | Path, fox_path: str | Path = FOX, copies: int = 50, tree_nodes: int = 10_000
) -> list[Path]:
    """Write ``foxes_{copies}.glb`` and ``tree_{tree_nodes}.glb`` into ``folder``; return their paths."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    doc, data = fox_copies(fox_path, copies)
    written.append(writer.save(doc, data, folder / f"foxes_{copies}.glb"))
    doc, data = tree_rig(tree_nodes)
    written.append(writer.save(doc, data, folder / f"tree_{tree_nodes}.glb"))
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path, help="folder to write into")
    parser.add_argument("--fox", type=Path, default=FOX, help=f"the Khronos Fox.glb (default {FOX})")
    parser.add_argument("--copies", type=int, default=50, help="Fox copies (default 50)")
    parser.add_argument("--tree-nodes", type=int, default=10_000, help="nodes of the tree rig (default 10000)")
    args = parser.parse_args(argv)
    if not args.fox.is_file():
        print(f"bench_rigs: Fox not found at {args.fox} (set ANIMVIEW_KHRONOS or pass --fox)", file=sys.stderr)
        return 2
    for path in write_rigs(args.out, args.fox, args.copies, args.tree_nodes):
        print(f"{path}  {path.stat().st_size:,} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
