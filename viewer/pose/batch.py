"""A scene at many times at once: what ``Pose.set_time`` makes for one time, for F times in one pass.

``animview diff`` and the divergence strip measure two files over hundreds of times; posing them one time
after another costs a Python round per time and per mesh. Here the clip is sampled once for a batch of times
and world matrices, morph weights, visibility and pointer values come out as arrays with a leading time axis.
``MeshPoints`` then morphs and skins a chosen subset of a mesh node's vertices for all those times together,
by the same rule as ``Pose.primitive_positions`` (the CPU reference the GPU's pictures are tested against;
``tests/pose/test_batch.py`` holds the two equal).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from viewer import fast
from viewer.animation.clip import Clip
from viewer.pose.hierarchy import inherit_visibility
from viewer.pose.pose import Pose

ROWS = 1 << 15  # vertex × time rows posed together by ``MeshPoints.at``


@dataclass(frozen=True)
class PoseBatch:
    """A clip posed at F times: every array's first axis is time."""

    times: np.ndarray  # (F,) seconds
    world: np.ndarray  # (F, N, 4, 4) world matrices, math convention
    weights_flat: np.ndarray  # (F, W) every node's morph weights side by side, in ``Pose.weight_start``'s layout
    weight_start: np.ndarray  # (N,) a node's first column in ``weights_flat`` (−1: the node has no weights)
    weight_count: np.ndarray  # (N,) how many weights a node has
    visible: np.ndarray  # (F, N) bool, inherited (KHR_node_visibility)
    properties: dict[str, np.ndarray]  # KHR_animation_pointer target → (F, W) values (materials, cameras, lights)

    def node_weights(self, node: int) -> np.ndarray | None:
        """(F, T) the node's morph weights over the times; None for a node without weights. One array for all
        nodes, not one per node: a hundred thousand morphed instances are one copy per batch, not 10^5."""
        start = int(self.weight_start[node])
        return None if start < 0 else self.weights_flat[:, start : start + int(self.weight_count[node])]


def pose_batch(pose: Pose, clip: Clip, times: np.ndarray, mode: str = "authored") -> PoseBatch:
    """``clip`` posed at each of ``times`` (sampled once). With the compiled frame loaded (``fast``), world
    matrices come from one compiled ``set_time`` per time — about 1 ms for 10 000 nodes, where the numpy
    batch takes 7 — and ``pose`` is left at the last time; on numpy, ``pose`` is unchanged."""
    times = np.asarray(times, dtype=np.float64).reshape(-1)
    nodes, b, f = pose.scene.nodes, pose.binding(clip), len(times)
    compiled = fast.active() is not None
    # The compiled frame samples for itself: sample here only what it does not hand back.
    needed = not compiled or b.weight_channels or len(b.visible[0]) or b.properties
    values = clip.sample(times, mode) if needed else None  # (F, C, W)
    if compiled:
        world = np.empty((f, len(nodes), 4, 4))
        for k, t in enumerate(times.tolist()):
            pose.set_time(clip, t, mode)
            world[k] = pose.world
    else:
        world = pose.world_at(clip, times, mode, values=values)
    weights = np.repeat(pose.rest_weights[None, :], f, axis=0)
    for row, node, width, first in b.weight_channels:
        start = int(pose.weight_start[node])
        if start >= 0:
            target = weights[:, start + first : start + min(first + width, int(pose.weight_count[node]))]
            target[:] = values[:, row, : target.shape[1]]
    own = np.repeat(nodes.visible[None, :], f, axis=0)
    if len(b.visible[0]):
        own[:, b.visible[1]] = values[:, b.visible[0], 0] >= 0.5
    properties = {clip.channels[row].pointer: values[:, row, :width] for row, _, _, _, width in b.properties}
    visible = inherit_visibility(own, nodes.parent)
    return PoseBatch(times, world, weights, pose.weight_start, pose.weight_count, visible, properties)


class MeshPoints:
    """Chosen vertices of one mesh node (all its primitives, in order), ready to be posed for many times.

    ``vertices`` picks which of the node's vertices (indices into its primitives' concatenated POSITION);
    None takes them all. Huge meshes are measured on an even subset: the caller says how many.
    """

    def __init__(self, pose: Pose, node: int, vertices: np.ndarray | None = None) -> None:
        scene = pose.scene
        self.node, self.skin = node, int(scene.nodes.skin[node])
        mesh = scene.meshes[int(scene.nodes.mesh[node])]
        prims = [p for p in mesh.primitives if "POSITION" in p.attributes]
        base = [np.asarray(p.attributes["POSITION"], np.float64) for p in prims]
        self.count = sum(len(p) for p in base)
        pick = np.arange(self.count) if vertices is None else np.asarray(vertices, np.int64)
        self.base = np.concatenate(base + [np.zeros((0, 3))])[pick]
        targets = mesh.target_count
        self.targets = np.zeros((targets, len(pick), 3))
        joints = np.zeros((self.count, 8), np.int64)
        jweights = np.zeros((self.count, 8))
        skinned = np.zeros(self.count, dtype=bool)
        start = 0
        for p, pos in zip(prims, base):
            stop = start + len(pos)
            rows = (pick >= start) & (pick < stop)
            for k, target in enumerate(p.targets[:targets]):
                if "POSITION" in target:
                    self.targets[k, rows] = np.asarray(target["POSITION"], np.float64)[pick[rows] - start]
            if self.skin >= 0 and "JOINTS_0" in p.attributes:
                skinned[start:stop] = True
                for s in (0, 1):
                    j, w = p.attributes.get(f"JOINTS_{s}"), p.attributes.get(f"WEIGHTS_{s}")
                    if j is not None and w is not None:
                        joints[start:stop, 4 * s : 4 * s + 4] = np.asarray(j, np.int64)
                        jweights[start:stop, 4 * s : 4 * s + 4] = np.asarray(w, np.float64)
            start = stop
        self.skinned = skinned[pick]
        used = jweights[pick].any(axis=0)
        self.joints, self.jweights = joints[pick][:, used], jweights[pick][:, used]
        if self.skin >= 0:
            skin = scene.skins[self.skin]
            self._joint_nodes, self._inverse_bind = skin.joints, skin.inverse_bind
        self._rest_weights = pose.node_weights(node)
        if self.skinned.any():  # (v, J) joint weights, so blending every vertex's matrix is one matrix product
            joints, weights = self.joints[self.skinned], self.jweights[self.skinned]
            self._skin_weights = np.zeros((len(joints), len(self._joint_nodes)))
            np.add.at(self._skin_weights, (np.arange(len(joints))[:, None], joints), weights)
            # A dense (v, J) product costs J per vertex where a gather costs its own few joints: past 4× as many
            # joints as a vertex has, gather (a 60-joint rig's diff over 100 000 times: 15× less work).
            self._sparse = (joints, weights) if len(self._joint_nodes) > 4 * max(1, joints.shape[1]) else None

    def __len__(self) -> int:
        return len(self.base)

    def at(self, batch: PoseBatch) -> np.ndarray:
        """World positions (F, n, 3) of the chosen vertices at every time of ``batch`` (worked out in runs of
        times of ``ROWS`` vertex-times, so the per-vertex matrices stay a few megabytes at any F)."""
        f = len(batch.times)
        out = np.empty((f, len(self.base), 3))
        step = max(1, ROWS // max(1, len(self.base)))
        for lo in range(0, f, step):
            out[lo : lo + step] = self._at(batch, slice(lo, lo + step))
        return out

    def _at(self, batch: PoseBatch, times: slice) -> np.ndarray:
        world = batch.world[times]
        f = len(world)
        pos = np.repeat(self.base[None], f, axis=0)
        if len(self.targets):
            w = batch.node_weights(self.node)
            w = np.broadcast_to(self._rest_weights, (f, len(self._rest_weights))) if w is None else w[times]
            k = min(w.shape[1], len(self.targets))
            if k:
                pos += np.einsum("ft,tvc->fvc", w[:, :k], self.targets[:k])
        out = np.empty_like(pos)
        rigid = ~self.skinned
        if rigid.any():
            m = world[:, self.node]
            out[:, rigid] = pos[:, rigid] @ m[:, :3, :3].swapaxes(-1, -2) + m[:, None, :3, 3]
        if self.skinned.any():
            jm = (world[:, self._joint_nodes] @ self._inverse_bind)[:, :, :3, :].reshape(f, -1, 12)
            if self._sparse is not None:  # many joints, few per vertex: gather each vertex's own
                joints, weights = self._sparse
                blend = np.einsum("fvjk,vj->fvk", jm[:, joints], weights).reshape(f, -1, 3, 4)
            else:
                blend = (self._skin_weights @ jm).reshape(f, -1, 3, 4)  # (F, v, 3, 4): one BLAS product
            sk = pos[:, self.skinned]
            out[:, self.skinned] = (
                blend[..., 0] * sk[..., 0:1]
                + blend[..., 1] * sk[..., 1:2]
                + blend[..., 2] * sk[..., 2:3]
                + blend[..., 3]
            )
        return out
