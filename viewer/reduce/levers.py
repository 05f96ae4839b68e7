"""What a node's motion moves, so an error allowed in its channels can be one allowed in world space.

Each node carries a box of points in its own frame: the vertices of a rigid mesh it holds, and for a skin
joint every vertex it influences, as the joint sees it (inverse bind matrix × bind position, the shell ACL
measures around a joint, but exact from the mesh and its weights), each widened by the morph targets' reach.
A box bounds what it holds: the displacement of any point in it under a change of the node's world matrix is
at most the displacement of one of its eight corners (the displacement is convex in the point). A skinned
vertex moves by a weighted mean of its joints' displacements, so at most by the worst of them.

``reach`` is how far the points a node moves (its box and every descendant's, and the descendants'
origins: joint end points) lie from its origin over the clip; a rotation error of θ moves them by at most
θ · reach. It is the starting budget only: the reduced clip is measured on the boxes, and then the written file
with ``animview diff``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from viewer.pose.pose import Pose
from viewer.scene.scene import Scene

CORNERS = np.array([[x, y, z] for x in (0, 1) for y in (0, 1) for z in (0, 1)], np.float64)
LEAF_REACH = 0.01  # of the scene size: a node that moves nothing drawn still has an end point there


@dataclass
class Boxes:
    """Per node: a box in its own frame (lo, hi (N, 3)), ``has`` where it holds any point."""

    lo: np.ndarray
    hi: np.ndarray
    has: np.ndarray

    def corners(self, nodes: np.ndarray) -> np.ndarray:
        """(n, 9, 3) each node's origin and its box's eight corners (the origin eight times more when empty)."""
        lo, hi = self.lo[nodes], self.hi[nodes]
        box = lo[:, None] + CORNERS[None] * (hi - lo)[:, None]
        box = np.where(self.has[nodes, None, None], box, 0.0)
        return np.concatenate([np.zeros((len(nodes), 1, 3)), box], axis=1)


def morph_reach(scene: Scene, mesh: int) -> np.ndarray:
    """(targets,) the largest displacement of any vertex by each morph target at weight 1 (mesh units)."""
    m = scene.meshes[mesh]
    out = np.zeros(m.target_count)
    for p in m.primitives:
        for k, target in enumerate(p.targets[: m.target_count]):
            if "POSITION" in target:
                d = np.asarray(target["POSITION"], np.float64)
                out[k] = max(out[k], float(np.sqrt(np.einsum("ij,ij->i", d, d)).max(initial=0.0)))
    return out


def _morph_extent(scene: Scene, mesh: int, wmax: float) -> np.ndarray:
    """(3,) per axis, how far the morph targets can carry a vertex (every target at ``wmax``)."""
    m = scene.meshes[mesh]
    ext = np.zeros(3)
    for p in m.primitives:
        for target in p.targets[: m.target_count]:
            if "POSITION" in target:
                ext += np.abs(np.asarray(target["POSITION"], np.float64)).max(axis=0, initial=0.0) * wmax
    return ext


def point_boxes(scene: Scene, weight_max: dict[int, float]) -> Boxes:
    """Every node's box (rigid mesh vertices; skin joints' influenced vertices in joint space); morph targets
    widen them by their largest per-axis delta at the largest weight the node reaches (``weight_max``)."""
    n = len(scene.nodes)
    lo, hi = np.full((n, 3), np.inf), np.full((n, 3), -np.inf)
    for node in np.flatnonzero(scene.nodes.mesh >= 0).tolist():
        mesh = int(scene.nodes.mesh[node])
        ext = _morph_extent(scene, mesh, weight_max.get(node, 1.0))
        skin = int(scene.nodes.skin[node])
        for p in scene.meshes[mesh].primitives:
            pos = p.attributes.get("POSITION")
            if pos is None or not len(pos):
                continue
            pos = np.asarray(pos, np.float64)
            if skin < 0 or "JOINTS_0" not in p.attributes:
                np.minimum(lo[node], pos.min(axis=0) - ext, out=lo[node])
                np.maximum(hi[node], pos.max(axis=0) + ext, out=hi[node])
                continue
            _skin_boxes(scene.skins[skin], p, pos, ext, lo, hi)
    has = np.isfinite(lo).all(axis=1) & np.isfinite(hi).all(axis=1)
    lo[~has], hi[~has] = 0.0, 0.0
    return Boxes(lo, hi, has)


def _skin_boxes(skin, prim, pos, ext, lo, hi) -> None:
    """Widen each joint's box by the vertices it influences, in its own space (inverse bind × position)."""
    for s in (0, 1):
        j, w = prim.attributes.get(f"JOINTS_{s}"), prim.attributes.get(f"WEIGHTS_{s}")
        if j is None or w is None:
            continue
        j, w = np.asarray(j, np.int64), np.asarray(w, np.float64)
        v, col = np.nonzero((w > 0) & (j < len(skin.joints)))
        if not len(v):
            continue
        joint = j[v, col]
        ibm = skin.inverse_bind[joint]
        q = np.einsum("kij,kj->ki", ibm[:, :3, :3], pos[v]) + ibm[:, :3, 3]
        widen = np.einsum("kij,j->ki", np.abs(ibm[:, :3, :3]), ext)
        node = skin.joints[joint]
        np.minimum.at(lo, node, q - widen)
        np.maximum.at(hi, node, q + widen)


def column_scale(m: np.ndarray) -> np.ndarray:
    """The largest column length of each 3×3 part (a similarity's scale; the spectral norm's lower bound)."""
    return np.sqrt((m[..., :3, :3] ** 2).sum(axis=-2)).max(axis=-1)


def reach(scene: Scene, world: np.ndarray, boxes: Boxes, size: float) -> np.ndarray:
    """(N,) the largest distance, over the sampled times, from each node's origin to a point it moves: its box's
    corners and, through each child, the child's reach plus the distance between the two origins (a bound)."""
    nodes = scene.nodes
    n = len(nodes)
    every = np.arange(n)
    pts = np.einsum("fnij,nkj->fnki", world[:, :, :3, :3], boxes.corners(every))  # from the node's own origin
    own = np.sqrt((pts**2).sum(axis=-1)).max(axis=(0, 2))
    d = np.broadcast_to(own, (len(world), n)).copy()
    origin = world[:, :, :3, 3]
    for depth in range(int(nodes.depth.max(initial=0)), 0, -1):
        kids = np.flatnonzero(nodes.depth == depth)
        par = nodes.parent[kids]
        far = np.sqrt(((origin[:, kids] - origin[:, par]) ** 2).sum(axis=-1)) + d[:, kids]
        np.maximum.at(d, (slice(None), par), far)
    out = d.max(axis=0)
    looks = (nodes.camera >= 0) | (nodes.light >= 0)
    out[looks] = np.maximum(out[looks], size)  # a camera or light turning moves what it shows at scene distance
    return np.maximum(out, LEAF_REACH * size)


def sample_world(pose: Pose, clip, times: np.ndarray) -> np.ndarray:
    """World matrices at ``times`` (F, N, 4, 4), in chunks so a huge scene stays in bounded memory."""
    return pose.world_at(clip, times) if clip is not None and clip.channels else pose.world[None].copy()
