"""How far a reduced clip moves what shows from where the original puts it, per node, over the whole clip.

Both clips are posed at the original's key times, the midpoints between them and a grid at ``GRID_FPS``, in
chunks of bounded size. Per node that the clip moves: the largest displacement of its origin and its box's
corners (``levers.Boxes``: an upper bound for every vertex the node carries or, as a joint, influences), plus
what the morph weights' errors move (each target's largest delta × the weight error × the mesh's scale).
Pointer properties are compared in their own units. The figures say which nodes are over budget, so the
channels above them can be tightened: a parent's error moves its children, and it shows on them.
"""

from __future__ import annotations

import numpy as np

from viewer.animation.clip import Clip
from viewer.pose.hierarchy import fold_down
from viewer.pose.pose import Pose
from viewer.reduce.evaluate import sample_curve
from viewer.reduce.levers import Boxes, column_scale

GRID_FPS = 60.0
VERIFY_FPS = 120.0  # the diff's own grid
INSIDE_MAX, EXTRA_MAX = 64, 2_000_000
SAME_TIME = 1e-6  # seconds
TOP, SPREAD = 8, 256  # morph vertices measured: each target's largest deltas, and an even spread
WORLD_FLOATS = 4_000_000  # world matrix floats per chunk and side


def dense_times(clip: Clip, fps: float = GRID_FPS) -> np.ndarray:
    """Every key time and, inside each interval longer than 1/``fps``, evenly spaced times at most that far apart
    (a 30 fps bake gets its midpoints; 60 fps keys are already that dense) — at most ``INSIDE_MAX`` in one
    interval and ``EXTRA_MAX`` in all, so a clip whose keys lie days apart stays a bounded measurement."""
    keys = np.asarray(clip.key_times, np.float64)
    if len(keys) < 2:
        return keys if len(keys) else np.zeros(1)
    gap = np.diff(keys)
    want = np.nan_to_num(np.floor(gap * fps - 1e-6), nan=0.0, posinf=INSIDE_MAX)
    inside = np.clip(want, 0, INSIDE_MAX).astype(np.int64)
    if inside.sum() > EXTRA_MAX:
        inside = np.floor(inside * (EXTRA_MAX / inside.sum())).astype(np.int64)
    if not inside.any():
        return keys
    which = np.repeat(np.arange(len(gap)), inside)
    first = np.cumsum(inside) - inside
    step = np.arange(len(which)) - first[which] + 1
    extra = keys[which] + gap[which] * step / (inside[which] + 1)
    return np.union1d(keys, extra)


def verify_times(clip: Clip) -> np.ndarray:
    """The times ``animview diff`` measures a clip at (every key, the midpoints, a 120 fps grid from 0 to the
    end), the grid thinned past ``EXTRA_MAX`` points and its times within ``SAME_TIME`` of a key or midpoint left
    out (60 fps keys in float32 and a 120 fps grid would otherwise measure every pose twice): the written file
    is checked where the command checks it."""
    keys = np.asarray(clip.key_times, np.float64)
    end = float(keys[-1]) if len(keys) else 0.0
    count = int(min(end * VERIFY_FPS, EXTRA_MAX)) if np.isfinite(end) and end > 0 else 0
    grid = np.linspace(0.0, end, count + 1) if count else np.zeros(1)
    mids = 0.5 * (keys[:-1] + keys[1:])
    near = np.union1d(keys, mids)
    grid = np.append(grid, end)
    if len(near):  # a grid time within a microsecond of a key or midpoint (k/60 s in float32) adds nothing
        at = np.clip(np.searchsorted(near, grid), 1, len(near) - 1) if len(near) > 1 else np.zeros(len(grid), int)
        gap = np.minimum(np.abs(grid - near[at]), np.abs(grid - near[np.maximum(at - 1, 0)]))
        grid = grid[gap > SAME_TIME]
    return np.union1d(near, grid)


class Measure:
    """The original clip's side of every measurement, made once per clip."""

    def __init__(self, pose: Pose, clip: Clip, boxes: Boxes, times: np.ndarray | None = None) -> None:
        scene = pose.scene
        self.pose, self.clip, self.times = pose, clip, dense_times(clip) if times is None else times
        nodes = scene.nodes  # the clip moves its animated nodes' subtrees
        moving = fold_down(nodes.parent, nodes.depth, pose.binding(clip).animated, np.logical_or)
        self.nodes = np.flatnonzero(moving)
        corners = boxes.corners(self.nodes)  # (n, 9, 3) → homogeneous columns (n, 4, 9)
        self.points = np.concatenate([corners, np.ones(corners.shape[:2] + (1,))], axis=2).swapaxes(1, 2)
        self.weights = []  # (channel row, mesh node, target deltas at chosen vertices (T, S, 3), skin or -1)
        for c, ch in enumerate(clip.channels):
            if ch.consumer == "node" and ch.path == "weights" and scene.nodes.mesh[ch.node] >= 0:
                mesh = int(scene.nodes.mesh[ch.node])
                width = max(0, min(ch.width, scene.meshes[mesh].target_count - (ch.element or 0)))
                deltas = target_deltas(scene, mesh, ch.element or 0, width)
                self.weights.append((c, ch.node, deltas, int(scene.nodes.skin[ch.node])))
        self.pointers = [c for c, ch in enumerate(clip.channels) if ch.consumer != "node" and not ch.curve.discrete]
        self.step = max(1, WORLD_FLOATS // (16 * max(1, len(scene.nodes))))

    def errors(self, reduced: Clip, times: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
        """(N,) each node's largest displacement over the clip (0 where the clip moves nothing) and (C,) each
        pointer channel's largest difference (0 elsewhere). ``reduced`` has the original's channels in order.
        ``times``: measure at these instead of every time (``self.worst_t`` keeps each node's worst time)."""
        scene = self.pose.scene
        times = self.times if times is None else times
        node_err = np.zeros(len(scene.nodes))
        chan_err = np.zeros(len(self.clip.channels))
        self.worst_t = np.zeros(len(scene.nodes))
        for lo in range(0, len(times), self.step):
            t = times[lo : lo + self.step]
            va = self.clip.sample(t)
            vb = self._sample(reduced, t, va)
            wa = self.pose.world_at(self.clip, t, values=va)
            wb = self.pose.world_at(self.clip, t, values=vb)
            moved = (wa[:, self.nodes, :3, :] - wb[:, self.nodes, :3, :]) @ self.points  # (F, n, 3, 9)
            per_time = (moved**2).sum(axis=2).max(axis=2)  # (F, n) squared
            at = per_time.argmax(axis=0)
            d = np.sqrt(per_time[at, np.arange(len(self.nodes))])
            worse = d > node_err[self.nodes]
            node_err[self.nodes[worse]] = d[worse]
            self.worst_t[self.nodes[worse]] = t[at[worse]]
            self._morphs(node_err, va, vb, wa)
            for c in self.pointers:
                w = self.clip.channels[c].width
                chan_err[c] = max(chan_err[c], float(np.abs(va[:, c, :w] - vb[:, c, :w]).max(initial=0.0)))
        return node_err, chan_err

    def _sample(self, reduced: Clip, t: np.ndarray, va: np.ndarray) -> np.ndarray:
        """The reduced clip at ``t``: the original's values where a channel is the original's, each other channel
        evaluated from its own keys (``evaluate``: no table built for a channel a round changed)."""
        vb = va.copy()
        for c, (ch, orig) in enumerate(zip(reduced.channels, self.clip.channels)):
            if ch is not orig:
                vb[:, c, : ch.width] = sample_curve(ch.curve, t)
        return vb

    def _morphs(self, node_err: np.ndarray, va: np.ndarray, vb: np.ndarray, world: np.ndarray) -> None:
        """Add what the weights' errors move to each morphed node: |Σ_k Δw_k · δ_k(v)| over the vertices each
        target moves most and an even spread of the rest, scaled by the mesh's world scale (its own, or for a
        skinned mesh the largest of its joints' matrices). The written file's diff measures every vertex."""
        if not self.weights:
            return
        for c, node, deltas, skin in self.weights:
            k = len(deltas)
            dw = va[:, c, :k] - vb[:, c, :k]
            if not dw.any():
                continue
            move = np.sqrt((np.einsum("fk,ksc->fsc", dw, deltas) ** 2).sum(axis=2)).max(axis=1)
            if skin >= 0:
                s = self.pose.scene.skins[skin]
                scale = column_scale(world[:, s.joints] @ s.inverse_bind).max(axis=1)
            else:
                scale = column_scale(world[:, node])
            node_err[node] = max(node_err[node], float((move * scale).max(initial=0.0)))


def target_deltas(scene, mesh: int, first: int, width: int) -> np.ndarray:
    """(T, S, 3) the morph targets' position deltas at a subset of the mesh's vertices: each target's
    ``TOP`` largest and an even spread of ``SPREAD`` (all of them when the mesh is that small)."""
    m = scene.meshes[mesh]
    parts = []
    for k in range(first, first + width):
        rows = []
        for p in m.primitives:
            n = len(p.attributes.get("POSITION", ()))
            t = p.targets[k].get("POSITION") if k < len(p.targets) else None
            rows.append(np.zeros((n, 3)) if t is None else np.asarray(t, np.float64))
        parts.append(np.concatenate(rows + [np.zeros((0, 3))]))
    deltas = np.stack(parts) if parts else np.zeros((0, 0, 3))
    count = deltas.shape[1]
    if count <= SPREAD + TOP * len(deltas):
        return deltas
    size = np.sqrt((deltas**2).sum(axis=2))  # (T, V)
    top = np.argpartition(-size, TOP - 1, axis=1)[:, :TOP].reshape(-1)
    pick = np.union1d(top, np.linspace(0, count - 1, SPREAD).round().astype(np.int64))
    return deltas[:, pick]
