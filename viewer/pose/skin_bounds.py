"""Bounds of skinned meshes over a whole clip without skinning a vertex per pose: boxes per joint.

A skinned vertex is Σ w_k · J_k · v (J_k = world(joint k) × inverseBind(k), weights summing to 1), a convex
combination of the points J_k · v. Each of those lies in world(joint k) applied to the box of IBM_k · v over
the vertices joint k moves — a box fixed at load. So the union of those boxes, placed by the joints' world
matrices, holds the skinned mesh at every pose: the cost per pose is eight corners' worth per joint (a
centre and an extent, in fact), not every vertex. Morph targets widen each vertex to the box its deltas can
reach within the clip's weight range before it is binned, so the bound holds for morphed skins too. It is a
bound, not the exact box — tight enough to frame a camera, and it turns BrainStem's 1 339 poses × 30 000
vertices into 1 339 × 18 joint boxes.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from viewer.scene.scene import Primitive, Scene


@dataclass(frozen=True)
class Boxes:
    """Boxes that move rigidly with nodes: box b is ``center[b] ± extent[b]`` in the space that
    ``node[b]``'s world matrix places (for a joint: its world matrix × inverse bind matrix, folded in)."""

    node: np.ndarray  # (B,) node index whose world matrix places the box
    center: np.ndarray  # (B, 3)
    extent: np.ndarray  # (B, 3), >= 0

    @staticmethod
    def concat(parts: list["Boxes"]) -> "Boxes":
        if not parts:
            return Boxes(np.zeros(0, np.int64), np.zeros((0, 3)), np.zeros((0, 3)))
        return Boxes(
            np.concatenate([p.node for p in parts]),
            np.concatenate([p.center for p in parts]),
            np.concatenate([p.extent for p in parts]),
        )


def vertex_boxes(primitive: Primitive, weight_lo: np.ndarray, weight_hi: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per vertex, the box (lo, hi) (V, 3) its morph targets can move it to with weights in [lo, hi]."""
    pos = np.asarray(primitive.attributes["POSITION"], dtype=np.float64)
    lo, hi = pos.copy(), pos.copy()
    for k, target in enumerate(primitive.targets[: len(weight_lo)]):
        if "POSITION" not in target:
            continue
        d = np.asarray(target["POSITION"], dtype=np.float64)
        a, b = weight_lo[k] * d, weight_hi[k] * d
        lo += np.minimum(a, b)
        hi += np.maximum(a, b)
    return lo, hi


def joint_boxes(scene: Scene, skin: int, primitive: Primitive, weight_lo: np.ndarray, weight_hi: np.ndarray) -> Boxes:
    """One box per joint of ``skin`` that moves a vertex of ``primitive`` (JOINTS_n / WEIGHTS_n sets),
    in that joint's bind space (inverse bind matrix × vertex)."""
    s = scene.skins[skin]
    lo, hi = vertex_boxes(primitive, weight_lo, weight_hi)
    center, half = 0.5 * (lo + hi), 0.5 * (hi - lo)
    verts, joints = [], []
    for set_ in (0, 1):
        j, w = primitive.attributes.get(f"JOINTS_{set_}"), primitive.attributes.get(f"WEIGHTS_{set_}")
        if j is None or w is None:
            continue
        used = np.asarray(w, np.float64) > 0.0
        v, k = np.nonzero(used)
        verts.append(v)
        joints.append(np.asarray(j, np.int64)[v, k])
    if not verts:
        return Boxes.concat([])
    v, j = np.concatenate(verts), np.concatenate(joints)
    ibm = s.inverse_bind[j]  # (P, 4, 4)
    c = np.einsum("pij,pj->pi", ibm[:, :3, :3], center[v]) + ibm[:, :3, 3]
    e = np.einsum("pij,pj->pi", np.abs(ibm[:, :3, :3]), half[v])
    order = np.argsort(j, kind="stable")
    j, c, e = j[order], c[order], e[order]
    starts = np.flatnonzero(np.r_[True, j[1:] != j[:-1]])
    box_lo = np.minimum.reduceat(c - e, starts, axis=0)
    box_hi = np.maximum.reduceat(c + e, starts, axis=0)
    return Boxes(s.joints[j[starts]], 0.5 * (box_lo + box_hi), 0.5 * (box_hi - box_lo))


def local_boxes(node: int, primitive: Primitive, weight_lo: np.ndarray, weight_hi: np.ndarray) -> Boxes:
    """The primitive's (morph-widened) local box, placed by ``node`` itself."""
    lo, hi = vertex_boxes(primitive, weight_lo, weight_hi)
    a, b = lo.min(axis=0), hi.max(axis=0)
    return Boxes(np.array([node]), (0.5 * (a + b))[None], (0.5 * (b - a))[None])


def placed_bounds(world: np.ndarray, boxes: Boxes) -> tuple[np.ndarray, np.ndarray]:
    """Bounds (lo (3,), hi (3,)) of ``boxes`` placed by world matrices (F, N, 4, 4) at F times. Boxes
    whose matrix is not finite are left out (the GPU draws nothing there). (+inf, −inf) when none counts."""
    m = world[:, boxes.node]  # (F, B, 4, 4)
    c = np.einsum("fbij,bj->fbi", m[..., :3, :3], boxes.center) + m[..., :3, 3]
    e = np.einsum("fbij,bj->fbi", np.abs(m[..., :3, :3]), boxes.extent)
    lo, hi = c - e, c + e
    ok = np.isfinite(lo).all(axis=-1) & np.isfinite(hi).all(axis=-1)
    if not ok.any():
        return np.full(3, np.inf), np.full(3, -np.inf)
    return lo[ok].min(axis=0), hi[ok].max(axis=0)
