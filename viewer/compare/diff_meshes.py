"""Which mesh of B is which of A, which vertex is which, and how far the vertices move apart over time.

Meshes pair by the node of A they are on or hang from (``matching.anchors``), so a mesh a re-export moved
into a new child node is still measured. Vertices pair by index when both meshes hold the same positions,
else by nearest rest position (re-exports reorder, weld and quantize them). Every mesh is measured on an
even subset of its vertices: deforming ones (skinned or morphed) one by one through ``pose.batch.MeshPoints``,
rigid ones all together — their vertices gathered into one array with each one's node — so ten thousand
rigid meshes cost a few array operations per chunk of times, not ten thousand. A subset keeps each mesh's
outermost vertices along thirteen directions (``spread``): a rigid motion moves its farthest points most.
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


# The axes, the face diagonals and the body diagonals: the outermost vertex along each, both ways.
DIRECTIONS = np.array(
    [[1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 0], [1, -1, 0], [1, 0, 1], [1, 0, -1], [0, 1, 1], [0, 1, -1]]
    + [[1, 1, 1], [1, 1, -1], [1, -1, 1], [-1, 1, 1]],
    dtype=np.float64,
)


def spread(points: np.ndarray, budget: int | None = None) -> np.ndarray:
    """``even_subset`` of the points plus their outermost ones along ``DIRECTIONS`` (all when they fit). The
    largest displacement of a mesh moved rigidly is at a vertex of its convex hull; the extremes are such
    vertices, so a subset does not miss a far corner that an even spread happened to skip."""
    budget = VERTEX_BUDGET if budget is None else budget
    if len(points) <= budget:
        return np.arange(len(points))
    along = points @ DIRECTIONS.T
    return np.union1d(even_subset(len(points), budget), np.concatenate([along.argmin(axis=0), along.argmax(axis=0)]))


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

    def __init__(self, poses: tuple[Pose, Pose], rests: tuple[PoseBatch, PoseBatch], node_a, node_b, budget) -> None:
        (rest_a, rest_b), (batch_a, batch_b) = poses, rests
        full_a, full_b = MeshPoints(rest_a, node_a), MeshPoints(rest_b, node_b)
        pick = spread(full_a.base, budget)
        world_a, world_b = full_a.at(batch_a)[0], full_b.at(batch_b)[0]
        partner, rule, gap = correspond(full_a.base, full_b.base, world_a, world_b, pick)
        self.a, self.b = MeshPoints(rest_a, node_a, pick), MeshPoints(rest_b, node_b, partner)
        self.entries = [_entry(rest_a.scene, node_a, len(pick), full_a.count, rule, gap, True)]

    def displacement(self, ba: PoseBatch, bb: PoseBatch) -> np.ndarray:
        d = np.linalg.norm(self.a.at(ba) - self.b.at(bb), axis=-1)
        return np.nan_to_num(d, nan=np.inf).max(axis=1, initial=0.0)[:, None]


class RigidPairs:
    """Every rigid mesh pair at once: their picked vertices in one array, each with its node on both sides."""

    def __init__(self, rest_a: Pose, rest_b: Pose, pairs: list[tuple[int, int]], budget: int, least: int) -> None:
        per = max(least, budget // max(1, len(pairs)))
        sa, sb = rest_a.scene, rest_b.scene
        cache_a, cache_b = {}, {}
        groups: dict[tuple[int, int], list[int]] = {}  # instances of one mesh pair: one pick, one correspondence
        for k, (i, j) in enumerate(pairs):
            groups.setdefault((int(sa.nodes.mesh[i]), int(sb.nodes.mesh[j])), []).append(k)
        blocks: list = [None] * len(pairs)  # per pair: (A's points, B's points, rule, gap)
        for members in groups.values():
            i0, j0 = pairs[members[0]]
            base_a, base_b = _positions(sa, i0, cache_a), _positions(sb, j0, cache_b)
            pick = spread(base_a, per)
            for k in members:
                i, j = pairs[k]
                world_a, world_b = _place(rest_a.world[i], base_a), _place(rest_b.world[j], base_b)
                partner, rule, gap = correspond(base_a, base_b, world_a, world_b, pick)
                blocks[k] = (base_a[pick], base_b[partner], rule, gap)
                if rule == "index":  # the same positions: every instance pairs its vertices by index
                    for rest in members[members.index(k) + 1 :]:
                        blocks[rest] = blocks[k]
                    break
        counts = np.array([len(block[0]) for block in blocks], dtype=np.int64)
        self.entries = [
            _entry(sa, i, int(n), len(cache_a[int(sa.nodes.mesh[i])]), block[2], block[3], False)
            for (i, _), n, block in zip(pairs, counts.tolist(), blocks)
        ]
        self.buckets = []  # meshes of like vertex counts, padded to one count: (which, nodes A/B, points A/B)
        width = np.where(counts > 0, 1 << np.ceil(np.log2(np.maximum(counts, 1))).astype(np.int64), 0)
        nodes_a = np.array([i for i, _ in pairs], dtype=np.int64)
        nodes_b = np.array([j for _, j in pairs], dtype=np.int64)
        for w in np.unique(width[width > 0]).tolist():
            which = np.flatnonzero(width == w)
            # each mesh's points as homogeneous columns, its last point repeated up to w (the maximum is the same)
            fill = [np.minimum(np.arange(w), counts[m] - 1) for m in which.tolist()]
            pts_a = np.stack([_columns(blocks[m][0][f]) for m, f in zip(which.tolist(), fill)])
            pts_b = np.stack([_columns(blocks[m][1][f]) for m, f in zip(which.tolist(), fill)])
            self.buckets.append((which, nodes_a[which], nodes_b[which], pts_a, pts_b))

    def displacement(self, ba: PoseBatch, bb: PoseBatch) -> np.ndarray:
        """(F, meshes) each mesh's largest vertex displacement: per bucket, its nodes' matrices times its padded
        points in one batched product, no matrix gathered per vertex. An empty mesh moves nothing (0)."""
        f = len(ba.times)
        out = np.zeros((f, len(self.entries)))
        for which, na, nb, pts_a, pts_b in self.buckets:
            step = max(1, ROWS // pts_a.shape[0] // pts_a.shape[2])
            for lo in range(0, f, step):
                with np.errstate(invalid="ignore", over="ignore"):
                    pa = ba.world[lo : lo + step][:, na, :3, :] @ pts_a  # (f, M, 3, w)
                    pb = bb.world[lo : lo + step][:, nb, :3, :] @ pts_b
                    d = np.sqrt(((pa - pb) ** 2).sum(axis=2))
                out[lo : lo + step, which] = np.nan_to_num(d, nan=np.inf).max(axis=2)
        return out


def _columns(points: np.ndarray) -> np.ndarray:
    """(4, k) points as homogeneous columns."""
    return np.vstack([points.T, np.ones((1, len(points)))])


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


def mesh_pairs(a, b, nodes: NodeMatch, budget: tuple[int, int, int, int | None] | None = None) -> list:
    """The measured mesh groups: one ``MeshPair`` per deforming pair, one ``RigidPairs`` for the rest.
    ``budget``: vertices per deforming mesh, for all rigid ones together and at least per rigid one
    (``VERTEX_BUDGET``, ``RIGID_BUDGET``, ``RIGID_MIN``; ``spread`` adds each one's outermost), and how many
    deforming meshes are measured one by one (None: all) — past that, as rigid ones (their nodes' motion; the
    joints that skin them are measured as nodes), so a hundred thousand morphed instances stay affordable.

    A node of A with several meshes hanging from it in B (or the reverse) is left out: which vertex is which
    is then not a question of one mesh against one."""
    each, rigid_total, least, most = (VERTEX_BUDGET, RIGID_BUDGET, RIGID_MIN, None) if budget is None else budget
    rest_a, rest_b = Pose(a), Pose(b)
    rests = (rest_batch(rest_a), rest_batch(rest_b))
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
        if (_deforms(a, i) or _deforms(b, j)) and (most is None or len(deforming) < most):
            deforming.append(MeshPair((rest_a, rest_b), rests, i, j, each))
        else:
            rigid.append((i, j))
    return deforming + ([RigidPairs(rest_a, rest_b, rigid, rigid_total, least)] if rigid else [])


def _deforms(scene, node: int) -> bool:
    return bool(scene.nodes.skin[node] >= 0 or scene.meshes[scene.nodes.mesh[node]].target_count > 0)
