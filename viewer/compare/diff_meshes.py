"""Which mesh of B is which of A, which vertex is which, and how far the vertices move apart over time.

Meshes pair by the node of A they are on or hang from (``matching.anchors``), so a mesh a re-export moved
into a new child node is still measured. Vertices pair by index when both meshes hold the same positions,
else by nearest rest position (re-exports reorder, weld and quantize them). Every mesh is measured on an
even subset of its vertices: deforming ones (skinned or morphed) one by one through ``pose.batch.MeshPoints``,
rigid ones all together — their vertices gathered into one array with each one's node — so ten thousand
rigid meshes cost a few array operations per chunk of times, not ten thousand.
"""

from __future__ import annotations

import numpy as np

from viewer.compare.diff_measure import rest_batch
from viewer.compare.matching import NodeMatch, anchors
from viewer.pose.batch import MeshPoints, PoseBatch
from viewer.pose.pose import Pose

VERTEX_BUDGET = 2048  # vertices measured per deforming mesh; larger meshes are measured on an even subset
RIGID_BUDGET = 65536  # vertices measured over all rigid meshes together (at least RIGID_MIN each)
RIGID_MIN = 64
NEAREST_PAIRS = 4_000_000  # distance pairs per step of the nearest-vertex search
ROWS = 1 << 18  # vertex × time rows of rigid meshes worked out together


def even_subset(count: int, budget: int | None = None) -> np.ndarray:
    """At most ``budget`` (``VERTEX_BUDGET``) indices spread evenly over ``count`` (all of them when they fit)."""
    budget = VERTEX_BUDGET if budget is None else budget
    if count <= budget:
        return np.arange(count)
    return np.unique(np.linspace(0, count - 1, budget).round().astype(np.int64))


def nearest(points: np.ndarray, pool: np.ndarray) -> tuple[np.ndarray, float]:
    """Index in ``pool`` of each point's nearest neighbour, and the largest such distance (brute force in
    steps of ``NEAREST_PAIRS`` pairs: the points are a bounded subset, the pool one mesh)."""
    out = np.zeros(len(points), dtype=np.int64)
    gap = 0.0
    step = max(1, NEAREST_PAIRS // max(1, len(pool)))
    for lo in range(0, len(points), step):
        d = ((points[lo : lo + step, None, :] - pool[None, :, :]) ** 2).sum(axis=-1)
        out[lo : lo + step] = d.argmin(axis=1)
        gap = max(gap, float(np.sqrt(d.min(axis=1).max(initial=0.0))))
    return out, gap


def correspond(base_a, base_b, rest_a, rest_b, pick) -> tuple[np.ndarray, str, float]:
    """B's vertex for each picked vertex of A: by index when both hold the same positions, else the nearest
    at rest in world space. Returns (B's indices, "index" | "nearest", the largest rest distance)."""
    extent = float(np.ptp(rest_a, axis=0).max(initial=0.0)) if len(rest_a) else 1.0
    if len(base_a) == len(base_b) and np.allclose(base_a, base_b, rtol=0, atol=1e-6 * extent):
        return pick, "index", 0.0
    partner, gap = nearest(rest_a[pick], rest_b)
    return partner, "nearest", gap


def _entry(scene, node_a: int, measured: int, total: int, rule: str, gap: float, deforms: bool) -> dict:
    mesh = scene.meshes[scene.nodes.mesh[node_a]]
    return dict(
        node_a=node_a,
        mesh=mesh.name,
        node=scene.nodes.names[node_a],
        measured=measured,
        of=total,
        matched_by=rule,
        rest_gap=gap,
        deforms=deforms,
    )


class MeshPair:
    """A deforming mesh node of A and its partner in B: one ``entries`` row, displacement (F, 1)."""

    def __init__(self, rest_a: Pose, rest_b: Pose, node_a: int, node_b: int) -> None:
        full_a, full_b = MeshPoints(rest_a, node_a), MeshPoints(rest_b, node_b)
        pick = even_subset(full_a.count)
        world_a, world_b = full_a.at(rest_batch(rest_a))[0], full_b.at(rest_batch(rest_b))[0]
        partner, rule, gap = correspond(full_a.base, full_b.base, world_a, world_b, pick)
        self.a, self.b = MeshPoints(rest_a, node_a, pick), MeshPoints(rest_b, node_b, partner)
        self.entries = [_entry(rest_a.scene, node_a, len(pick), full_a.count, rule, gap, True)]

    def displacement(self, ba: PoseBatch, bb: PoseBatch) -> np.ndarray:
        d = np.linalg.norm(self.a.at(ba) - self.b.at(bb), axis=-1)
        return np.nan_to_num(d, nan=np.inf).max(axis=1, initial=0.0)[:, None]


class RigidPairs:
    """Every rigid mesh pair at once: their picked vertices in one array, each with its node on both sides."""

    def __init__(self, rest_a: Pose, rest_b: Pose, pairs: list[tuple[int, int]]) -> None:
        per = max(RIGID_MIN, RIGID_BUDGET // max(1, len(pairs)))
        cache_a, cache_b = {}, {}
        parts_a, parts_b, own_a, own_b, counts = [], [], [], [], []
        self.entries = []
        for i, j in pairs:
            base_a, base_b = _positions(rest_a.scene, i, cache_a), _positions(rest_b.scene, j, cache_b)
            pick = even_subset(len(base_a), per)
            world_a, world_b = _place(rest_a.world[i], base_a), _place(rest_b.world[j], base_b)
            partner, rule, gap = correspond(base_a, base_b, world_a, world_b, pick)
            parts_a.append(base_a[pick])
            parts_b.append(base_b[partner])
            own_a.append(np.full(len(pick), i))
            own_b.append(np.full(len(pick), j))
            counts.append(len(pick))
            self.entries.append(_entry(rest_a.scene, i, len(pick), len(base_a), rule, gap, False))
        self.a, self.b = np.concatenate(parts_a + [np.zeros((0, 3))]), np.concatenate(parts_b + [np.zeros((0, 3))])
        self.own_a = np.concatenate(own_a + [np.zeros(0, np.int64)]).astype(np.int64)
        self.own_b = np.concatenate(own_b + [np.zeros(0, np.int64)]).astype(np.int64)
        self.starts = np.concatenate([[0], np.cumsum(counts)[:-1]]).astype(np.int64) if counts else np.zeros(0, int)

    def displacement(self, ba: PoseBatch, bb: PoseBatch) -> np.ndarray:
        f = len(ba.times)
        out = np.zeros((f, len(self.entries)))
        if not len(self.a):
            return out
        step = max(1, ROWS // len(self.a))
        for lo in range(0, f, step):
            pa = _place(ba.world[lo : lo + step, self.own_a], self.a)
            pb = _place(bb.world[lo : lo + step, self.own_b], self.b)
            d = np.nan_to_num(np.sqrt(((pa - pb) ** 2).sum(axis=-1)), nan=np.inf)
            out[lo : lo + step] = np.maximum.reduceat(d, self.starts, axis=1)
        return out


def _positions(scene, node: int, cache: dict) -> np.ndarray:
    """A mesh's POSITION of all its primitives, in order (object space), made once per mesh."""
    mesh = int(scene.nodes.mesh[node])
    if mesh not in cache:
        prims = [np.asarray(p.attributes["POSITION"], np.float64) for p in scene.meshes[mesh].primitives]
        cache[mesh] = np.concatenate([p for p in prims if len(p)] + [np.zeros((0, 3))])
    return cache[mesh]


def _place(m: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Points (…, 3) through matrices (…, 4, 4): the rotation-scale columns and translation, no 4×4 product."""
    x, y, z = points[..., 0:1], points[..., 1:2], points[..., 2:3]
    return m[..., :3, 0] * x + m[..., :3, 1] * y + m[..., :3, 2] * z + m[..., :3, 3]


def mesh_pairs(a, b, nodes: NodeMatch) -> list:
    """The measured mesh groups: one ``MeshPair`` per deforming pair, one ``RigidPairs`` for the rest.

    A node of A with several meshes hanging from it in B (or the reverse) is left out: which vertex is which
    is then not a question of one mesh against one."""
    rest_a, rest_b = Pose(a), Pose(b)
    own_a = np.full(len(a.nodes), -1, dtype=np.int64)
    own_a[nodes.a] = nodes.a
    own_b = np.full(len(b.nodes), -1, dtype=np.int64)
    own_b[nodes.b] = nodes.a
    groups: dict[int, tuple[list[int], list[int]]] = {}
    for side, (scene, own) in enumerate(((a, own_a), (b, own_b))):
        anchor = anchors(scene, own)
        for node in np.flatnonzero((scene.nodes.mesh >= 0) & (anchor >= 0)).tolist():
            groups.setdefault(int(anchor[node]), ([], []))[side].append(node)
    deforming, rigid = [], []
    for left, right in sorted(groups.values()):
        if len(left) != 1 or len(right) != 1:
            continue
        i, j = left[0], right[0]
        if _deforms(a, i) or _deforms(b, j):
            deforming.append(MeshPair(rest_a, rest_b, i, j))
        else:
            rigid.append((i, j))
    return deforming + ([RigidPairs(rest_a, rest_b, rigid)] if rigid else [])


def _deforms(scene, node: int) -> bool:
    return bool(scene.nodes.skin[node] >= 0 or scene.meshes[scene.nodes.mesh[node]].target_count > 0)
