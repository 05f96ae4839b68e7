"""Very wide and very deep files, built by code: for the linear-time tests and docs/hostile.md's figures.

``python tests/extreme_files.py OUTDIR`` writes ``chain_30000.gltf`` (a 30 000-deep parent chain) and
``wide_100000.gltf`` (100 000 nodes under one root), each with a small animation, for ``animview bench``.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from gltf_builder import GltfBuilder  # noqa: E402


def chain(depth: int) -> GltfBuilder:
    """Node k is the child of node k − 1, each one unit up; the root slides, the last node turns."""
    b = GltfBuilder()
    for i in range(depth):
        b.add_node(children=[i + 1] if i + 1 < depth else [], translation=[0.0, 1.0, 0.0])
    b.add_animation(
        [
            dict(node=0, path="translation", times=[0, 1], values=[[0, 0, 0], [5, 0, 0]]),
            dict(node=depth - 1, path="rotation", times=[0, 1], values=[[0, 0, 0, 1], [0, 0, 0.7071068, 0.7071068]]),
        ]
    )
    b.add_scene([0])
    return b


def wide(count: int) -> GltfBuilder:
    """``count`` nodes: one root and its children at x = 1, 2, …; the root rises 4 units over 2 s."""
    b = GltfBuilder()
    b.add_node(children=list(range(1, count)), translation=[0.0, 0.0, 1.0])
    for i in range(1, count):
        b.add_node(translation=[float(i), 0.0, 0.0])
    b.add_animation([dict(node=0, path="translation", times=[0, 2], values=[[0, 0, 0], [0, 4, 0]])])
    b.add_scene([0])
    return b


if __name__ == "__main__":
    out = Path(sys.argv[1] if len(sys.argv) > 1 else ".")
    out.mkdir(parents=True, exist_ok=True)
    for name, builder in (("chain_30000.gltf", chain(30000)), ("wide_100000.gltf", wide(100_000))):
        print(builder.write_gltf(out, name, embed=True))
