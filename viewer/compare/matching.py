"""Which clip, node, channel and property of file A is which of file B, robust to re-export.

Exporters and optimizers reorder arrays, drop unused nodes and rename nothing, or rename and reorder nothing:
matching by index alone would compare a hip with an elbow after a harmless reorder. So clips match by the name
the file gives them, else by index; nodes by their path of names from the scene root (an unnamed node by its
place among its siblings), else by index; every pair says which rule made it, and whatever is left over on
one side is a structural difference, listed by ``diff``, never an error.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from viewer.animation.clip import Clip
from viewer.scene.scene import Scene


@dataclass(frozen=True)
class NodeMatch:
    """Pairs of node indices (``a[k]`` in A is ``b[k]`` in B) and what is on one side only."""

    a: np.ndarray  # (M,) node indices in A
    b: np.ndarray  # (M,) node indices in B
    by_path: np.ndarray  # (M,) bool: matched by name path (else by index)
    only_a: np.ndarray  # nodes of A with no partner
    only_b: np.ndarray
    paths_a: NodePaths
    paths_b: NodePaths

    def partner(self) -> dict[int, int]:
        """A's node index → B's, for the matched nodes."""
        return dict(zip(self.a.tolist(), self.b.tolist()))


def anchors(scene: Scene, own: np.ndarray) -> np.ndarray:
    """(N,) for each node, ``own[node]`` when it is not −1, else its nearest ancestor's (−1 when none has
    one). With ``own`` = each matched node's index in A, this says which node of A an unmatched node hangs
    from: gltfpack, for one, moves a mesh into a new child of its node."""
    out = np.asarray(own, dtype=np.int64).copy()
    parent = scene.nodes.parent
    for node in scene.nodes.order.tolist():
        if out[node] < 0 and parent[node] >= 0:
            out[node] = out[parent[node]]
    return out


def given_node_names(scene: Scene) -> list[str | None]:
    """The name the file gives each node (None when it gives none: ``node K`` labels are ours)."""
    raw = scene.document.raw.get("nodes") or []
    names = [n.get("name") if isinstance(n, dict) else None for n in raw]
    return [n if isinstance(n, str) and n else None for n in names] + [None] * (len(scene.nodes) - len(raw))


class NodePaths:
    """Each node's path of names from its root, ``"Armature/Hips/Spine"``. An unnamed node is ``#k``, its place
    among its parent's children (or among the roots); a path two nodes share gets ``~2``, ``~3`` … in node order.

    A path is held as a number, not as text: a 50 000-deep chain's paths written out would be 50 000 strings
    of up to 50 000 names each (gigabytes). Each node's path is its parent's number and its own name, interned
    in ``table`` — give two files the same table and equal numbers are equal paths. ``self[i]`` writes node
    i's path when a report needs it, the middle of one deeper than ``SHOWN`` names left out (``…``).
    """

    SHOWN = 64  # names written out of a path; deeper paths keep their first HEAD and last SHOWN - HEAD
    HEAD = 8

    def __init__(self, scene: Scene, table: dict | None = None) -> None:
        table = {} if table is None else table
        names = given_node_names(scene)
        raw = scene.document.raw.get("nodes") or []
        n, parent = len(scene.nodes), scene.nodes.parent
        place = np.zeros(n, dtype=np.int64)
        for node in raw:
            children = node.get("children") if isinstance(node, dict) else None
            for k, child in enumerate(children if isinstance(children, list) else []):
                if isinstance(child, int) and 0 <= child < n:
                    place[child] = k
        roots = [int(r) for r in scene.roots] + [int(r) for r in np.flatnonzero(parent < 0)]
        for k, root in enumerate(dict.fromkeys(roots)):
            place[root] = k
        self.parent, self.segments = parent, [""] * n
        base = np.zeros(n, dtype=np.int64)
        depth = np.zeros(n, dtype=np.int64)
        top = np.full(n, -1, dtype=np.int64)  # the ancestor at depth HEAD - 1, the last name of a deep path's head
        for node in scene.nodes.order.tolist():
            up = int(parent[node])
            self.segments[node] = segment = names[node] or f"#{place[node]}"
            base[node] = table.setdefault((int(base[up]) if up >= 0 else -1, segment), len(table))
            depth[node] = depth[up] + 1 if up >= 0 else 0
            top[node] = node if depth[node] == self.HEAD - 1 else (top[up] if up >= 0 else -1)
        order = np.argsort(base, kind="stable")  # nodes of one path, in node order: the 2nd is ``~2``
        sorted_base = base[order]
        starts = np.flatnonzero(np.r_[True, sorted_base[1:] != sorted_base[:-1]])
        rank = np.empty(n, dtype=np.int64)
        rank[order] = np.arange(n) - np.repeat(starts, np.diff(np.r_[starts, n]))
        self.keys = list(zip(base.tolist(), (rank + 1).tolist()))
        self.depth, self.top = depth, top

    def __len__(self) -> int:
        return len(self.segments)

    def __iter__(self):
        return (self[i] for i in range(len(self)))

    def __getitem__(self, node: int) -> str:
        names, up, depth = [], int(node), int(self.depth[node])
        while up >= 0 and len(names) < self.SHOWN - self.HEAD:
            names.append(self.segments[up])
            up = int(self.parent[up])
        if up >= 0:  # deeper than SHOWN: the first HEAD names, then how many are left out
            up, head = int(self.top[node]), []
            while up >= 0:
                head.append(self.segments[up])
                up = int(self.parent[up])
            names.append(f"…{depth + 1 - len(names) - len(head)} more…")
            names += head
        _, rank = self.keys[node]
        return "/".join(reversed(names)) + (f"~{rank}" if rank > 1 else "")


def node_paths(scene: Scene) -> NodePaths:
    """Every node's ``NodePaths`` path of one file."""
    return NodePaths(scene)


def match_nodes(a: Scene, b: Scene) -> NodeMatch:
    """Nodes by name path, then the rest by index: only between nodes neither path rule took and whose own
    names agree (both unnamed, or the same name under a renamed or moved parent) — a node of A is never
    compared with an unrelated node that happens to sit at its index in B."""
    table: dict = {}
    paths_a, paths_b = NodePaths(a, table), NodePaths(b, table)
    where_b = {key: i for i, key in enumerate(paths_b.keys)}
    pairs = {i: where_b[key] for i, key in enumerate(paths_a.keys) if key in where_b}
    by_path = set(pairs)
    taken = set(pairs.values())
    names_a, names_b = given_node_names(a), given_node_names(b)
    for i in range(min(len(paths_a), len(paths_b))):
        if i not in pairs and i not in taken and names_a[i] == names_b[i]:
            pairs[i] = i
            taken.add(i)
    ia = np.array(sorted(pairs), dtype=np.int64)
    ib = np.array([pairs[i] for i in ia.tolist()], dtype=np.int64)
    only_a = np.setdiff1d(np.arange(len(paths_a)), ia)
    only_b = np.setdiff1d(np.arange(len(paths_b)), ib)
    return NodeMatch(ia, ib, np.isin(ia, list(by_path)), only_a, only_b, paths_a, paths_b)


def given_name(scene: Scene, clip: Clip) -> str | None:
    """The name the file gives a clip (None when it gives none: the ``animation K`` label is ours)."""
    anims = scene.document.raw.get("animations") or []
    name = anims[clip.index].get("name") if 0 <= clip.index < len(anims) else None
    return name if isinstance(name, str) and name else None


def match_clips(a: Scene, b: Scene, only: Clip | None = None) -> tuple[list[tuple[Clip, Clip, str]], list, list]:
    """(pairs (clip of A, clip of B, "name" | "index"), clips of A only, clips of B only).

    ``only``: match just that clip of A (``--animation``); the others are then neither matched nor listed.
    """
    names_b: dict[str, list[Clip]] = {}
    for clip in b.clips:
        name = given_name(b, clip)
        if name is not None:
            names_b.setdefault(name, []).append(clip)
    pairs, taken = [], set()
    wanted = a.clips if only is None else (only,)
    rest = []
    for clip in wanted:
        same = names_b.get(given_name(a, clip) or "", [])
        if len(same) == 1 and same[0].index not in taken:
            pairs.append((clip, same[0], "name"))
            taken.add(same[0].index)
        else:
            rest.append(clip)
    for clip in rest:
        if clip.index < len(b.clips) and clip.index not in taken:
            pairs.append((clip, b.clips[clip.index], "index"))
            taken.add(clip.index)
    paired = {id(p[0]) for p in pairs}
    only_a = [c for c in wanted if id(c) not in paired]
    only_b = [c for c in b.clips if c.index not in taken] if only is None else []
    pairs.sort(key=lambda p: p[0].index)
    return pairs, only_a, only_b
