"""How far apart two files' animations are, measured where it shows: in world space, chunk by chunk of times.

Both clips are posed for a batch of times at once (``pose.batch``), then per matched node the world position
distance and the rotation angle, per mesh the largest vertex displacement (``diff_meshes``), morph weights,
pointer values and visibility. Only running maxima and the per-time maximum are
kept, so a long clip is measured in bounded memory.
"""

from __future__ import annotations

import numpy as np

from viewer.animation.clip import Clip
from viewer.pose.batch import PoseBatch, pose_batch
from viewer.pose.pose import Pose

WORLD_FLOATS = 2_000_000  # world matrix floats per chunk of times and side (16 MB)


def rest_batch(pose: Pose) -> PoseBatch:
    """The rest pose as a one-time batch (files without animations, and the vertex correspondence)."""
    weights = pose.rest_weights[None].copy()
    world, visible = pose.world[None].copy(), pose.visible[None].copy()
    return PoseBatch(np.zeros(1), world, weights, pose.weight_start, pose.weight_count, visible, {})


def batch(pose: Pose, clip: Clip | None, times: np.ndarray, mode: str) -> PoseBatch:
    """``pose_batch``, or the rest pose repeated when there is no clip."""
    if clip is not None:
        return pose_batch(pose, clip, times, mode)
    rest, f = rest_batch(pose), len(times)
    world, weights, visible = (np.repeat(x, f, axis=0) for x in (rest.world, rest.weights_flat, rest.visible))
    return PoseBatch(times, world, weights, rest.weight_start, rest.weight_count, visible, {})


def rotation_angle(ma: np.ndarray, mb: np.ndarray) -> np.ndarray:
    """Angle (radians) between the rotations of two stacks of 4×4 world matrices, each column's scale divided
    out. Where most pairs are equal (an unchanged file: ``check --against``'s common case) only the others
    are worked out."""
    a, b = ma[..., :3, :3], mb[..., :3, :3]
    differ = ~(a == b).all(axis=(-1, -2))
    if differ.sum() > differ.size // 2:
        return _angles(a, b)
    out = np.zeros(differ.shape)
    out[differ] = _angles(a[differ], b[differ])
    return out


def _angles(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``rotation_angle`` of 3×3 stacks: atan2 of the axis length and the trace keeps it exact near 0 and
    near 180°."""
    na, nb = _column_lengths(a), _column_lengths(b)
    r = (a.swapaxes(-1, -2) @ b) / (na[..., :, None] * nb[..., None, :])  # Raᵀ·Rb
    axis = np.stack([r[..., 2, 1] - r[..., 1, 2], r[..., 0, 2] - r[..., 2, 0], r[..., 1, 0] - r[..., 0, 1]], -1)
    trace = r[..., 0, 0] + r[..., 1, 1] + r[..., 2, 2]
    return np.arctan2(np.sqrt((axis * axis).sum(axis=-1)), trace - 1.0)


def _column_lengths(m: np.ndarray) -> np.ndarray:
    """(…, 3) lengths of the matrices' columns; 1 where a column is zero (its angle is then meaningless)."""
    length = np.sqrt(m[..., 0, :] ** 2 + m[..., 1, :] ** 2 + m[..., 2, :] ** 2)
    length[length == 0] = 1.0
    return length


def chunk_length(nodes_a: int, nodes_b: int) -> int:
    """Times per chunk so both sides' world matrices stay within ``WORLD_FLOATS``."""
    return max(1, WORLD_FLOATS // (16 * max(1, nodes_a, nodes_b)))


ANGLE_FIELDS = ("yfov", "Angle", "rotation")  # pointer properties in radians: reported in degrees


def value_unit(target: str) -> str:
    """The unit a pointer property's difference is given in: degrees for angles, else the property's own."""
    return "deg" if any(f in target.rsplit("/", 1)[-1] for f in ANGLE_FIELDS) else "value"


class Accumulator:
    """Running maxima over chunks of times: nothing per time is kept but the overall maximum."""

    def __init__(self, nodes, meshes: list, a, b) -> None:
        self.ia, self.ib, self.meshes = nodes.a, nodes.b, meshes
        size = len(nodes.a)
        self.dist, self.dist_t = np.zeros(size), np.zeros(size)
        self.angle = np.zeros(size)
        self.entries = [e for group in meshes for e in group.entries]
        # A mesh node whose vertices are measured counts by them, not by its origin: an optimizer may move a
        # node's origin and counter-move its vertices (gltfpack does), and nothing on screen changes.
        self.counted = ~np.isin(nodes.a, [e["node_a"] for e in self.entries])
        self.mesh_max, self.mesh_t = np.zeros(len(self.entries)), np.zeros(len(self.entries))
        self.flips, self.flip_t = np.zeros(size, dtype=np.int64), np.full(size, np.nan)
        self.over_time: list[np.ndarray] = []
        self.weight_pairs = [
            (i, j)
            for i, j in zip(nodes.a.tolist(), nodes.b.tolist())
            if a.nodes.weights[i] is not None and b.nodes.weights[j] is not None
        ]
        self._weight_columns(a, b)
        self.weight_max, self.weight_t = np.zeros(len(self.weight_pairs)), np.zeros(len(self.weight_pairs))
        self.values: dict[str, tuple[float, float]] = {}
        self.pointers_a: set[str] = set()
        self.pointers_b: set[str] = set()
        self.target_counts = {(i, j): (len(a.nodes.weights[i]), len(b.nodes.weights[j])) for i, j in self.weight_pairs}

    def add(self, ba: PoseBatch, bb: PoseBatch, times: np.ndarray | None = None) -> None:
        """One chunk: both sides posed at the same clock ``times`` (default: A's batch times; an engine's player
        may have posed a side at other clip times, ``engines.Engine.player_time``)."""
        times = ba.times if times is None else times
        wa, wb = ba.world[:, self.ia], bb.world[:, self.ib]
        with np.errstate(invalid="ignore", over="ignore"):
            d = np.nan_to_num(np.linalg.norm(wa[..., :3, 3] - wb[..., :3, 3], axis=-1), nan=np.inf)
            ang = np.nan_to_num(rotation_angle(wa, wb), nan=np.pi)
        self._running(self.dist, self.dist_t, d, times)
        np.maximum(self.angle, ang.max(axis=0, initial=0.0), out=self.angle)
        per_time = d[:, self.counted].max(axis=1, initial=0.0)
        at = 0
        for group in self.meshes:
            dm = group.displacement(ba, bb)  # (F, k): each mesh's largest vertex displacement
            k = dm.shape[1]
            self._running(self.mesh_max[at : at + k], self.mesh_t[at : at + k], dm, times)
            np.maximum(per_time, dm.max(axis=1, initial=0.0), out=per_time)
            at += k
        self.over_time.append(np.stack([times, per_time], axis=1))
        flips = ba.visible[:, self.ia] != bb.visible[:, self.ib]
        if flips.any():
            first = np.where(flips.any(axis=0), times[flips.argmax(axis=0)], np.nan)
            self.flip_t = np.where(np.isnan(self.flip_t), first, self.flip_t)
            self.flips += flips.sum(axis=0)
        if len(self.columns_a):  # every pair's weights at once: columns side by side, a maximum per pair
            with np.errstate(invalid="ignore"):
                delta = np.abs(ba.weights_flat[:, self.columns_a] - bb.weights_flat[:, self.columns_b])
            delta[np.isnan(delta)] = np.inf  # NaN: infinitely different
            has = ~self._weightless
            best, best_t = self.weight_max[has], self.weight_t[has]
            self._running(best, best_t, np.maximum.reduceat(delta, self.pair_starts, axis=1), times)
            self.weight_max[has], self.weight_t[has] = best, best_t
        self.pointers_a |= set(ba.properties)
        self.pointers_b |= set(bb.properties)
        for target in ba.properties.keys() & bb.properties.keys():
            va, vb = ba.properties[target], bb.properties[target]
            k = min(va.shape[1], vb.shape[1])
            delta = np.degrees(va[:, :k] - vb[:, :k]) if value_unit(target) == "deg" else va[:, :k] - vb[:, :k]
            self.values[target] = self._worst(self.values.get(target, (0.0, 0.0)), delta, times)

    @property
    def weights(self) -> dict[tuple[int, int], tuple[float, float]]:
        """(A's node, B's node) → (largest weight difference, its time), for the pairs that both have weights."""
        return {p: (float(d), float(t)) for p, d, t in zip(self.weight_pairs, self.weight_max, self.weight_t)}

    def _weight_columns(self, a, b) -> None:
        """Columns of the batches' ``weights_flat`` compared pair by pair (as many as the pair's fewer targets),
        and where each pair's columns start — the layout of ``Pose.weight_start``, rebuilt from the scenes."""
        starts = []
        for scene in (a, b):
            counts = np.array([0 if w is None else len(w) for w in scene.nodes.weights], dtype=np.int64)
            starts.append(np.cumsum(counts) - counts)
        ia = np.array([i for i, _ in self.weight_pairs], dtype=np.int64)
        ib = np.array([j for _, j in self.weight_pairs], dtype=np.int64)
        k = np.array([min(len(a.nodes.weights[i]), len(b.nodes.weights[j])) for i, j in self.weight_pairs], np.int64)
        offsets = np.arange(int(k.sum())) - np.repeat(np.cumsum(k) - k, k)
        self.columns_a = np.repeat(starts[0][ia] if len(ia) else ia, k) + offsets
        self.columns_b = np.repeat(starts[1][ib] if len(ib) else ib, k) + offsets
        self.pair_starts = (np.cumsum(k) - k)[k > 0]
        self._weightless = k == 0

    @staticmethod
    def _running(best: np.ndarray, best_t: np.ndarray, d: np.ndarray, times: np.ndarray) -> None:
        """best/best_t (M,) ← the larger of themselves and d's (F, M) column maxima, with their times."""
        if not len(d):
            return
        idx = d.argmax(axis=0)
        cur = d[idx, np.arange(d.shape[1])]
        better = cur > best
        best[better] = cur[better]
        best_t[better] = times[idx[better]]

    @staticmethod
    def _worst(prev: tuple[float, float], delta: np.ndarray, times: np.ndarray) -> tuple[float, float]:
        """(largest |delta| so far, its time), NaN counted as infinitely different."""
        with np.errstate(invalid="ignore"):
            per_time = np.nan_to_num(np.abs(delta), nan=np.inf).max(axis=1, initial=0.0)
        if not len(per_time) or per_time.max() <= prev[0]:
            return prev
        k = int(per_time.argmax())
        return float(per_time[k]), float(times[k])
