"""A world-space error E turned into each channel's own tolerance, and tightened where the world says so.

A rotation error of θ on a node moves what it carries by at most θ · reach; a translation error of d moves it by
d · the parent's scale; a relative scale error moves it by that share of its reach; a weight error moves each
vertex by Δw · the target's largest delta. So each channel gets E over its lever. Errors add down the hierarchy:
a node under K animated channels can be off by the sum of their errors, so each channel starts at E/√K (errors
of independent channels seldom line up) and the world measurement (``measure``) says where they did: every
channel above a node found over E is tightened by how far over it was, until no node is.

Pointer properties (colours, factors, angles) keep their own tolerances (``channels.pointer_tolerance``):
a world distance says nothing about a colour.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from viewer.animation.clip import Clip
from viewer.base import math3d
from viewer.pose.hierarchy import fold_down, fold_up
from viewer.reduce import channels as chans
from viewer.reduce.levers import column_scale, morph_reach
from viewer.scene.scene import Scene

FLOOR, GROW = 0.25, 1.5  # the most one round shrinks or grows a channel's share by
SAFETY = 0.85  # aim this far under E
STEADY = 1.15  # a share that would move by less than this stays: its plan would hardly change


@dataclass
class Budget:
    """Per channel of one clip: the tolerance at share 1 (``base``), the share now (``share``), the value
    scale of weights, the rest value a dropped channel leaves, and the node each channel moves."""

    base: np.ndarray
    share: np.ndarray
    scale: list
    rest: list
    node: np.ndarray  # (C,) the node a channel moves, -1 for pointer properties
    world: np.ndarray  # (C,) the channel's tolerance is a share of E (False: its own, pointer properties)
    most: np.ndarray | float = 1.0  # (C,) the largest share: 1, or a weights channel's target count

    @property
    def tol(self) -> np.ndarray:
        return np.where(self.world, self.base * self.share, self.base)


def make_budget(scene: Scene, clip: Clip, error: float, reach: np.ndarray, world_samples: np.ndarray) -> Budget:
    """Each channel's tolerance for a world error ``error`` (``reach``: ``levers.reach``; ``world_samples``:
    (F, N, 4, 4) world matrices of the original at a few times, for scales)."""
    nodes = scene.nodes
    c = len(clip.channels)
    parent = nodes.parent
    scale_now = column_scale(world_samples).max(axis=0)  # (N,)
    parent_scale = np.where(parent >= 0, scale_now[np.maximum(parent, 0)], 1.0)
    base, node = np.zeros(c), np.full(c, -1)
    world = np.zeros(c, dtype=bool)
    scale, rest = [None] * c, [None] * c
    for k, ch in enumerate(clip.channels):
        what = chans.kind(ch)
        if what == "discrete":
            continue
        if what == "pointer":
            base[k] = chans.pointer_tolerance(ch)
            continue
        i = ch.node
        node[k], world[k] = i, True
        if what == "rotation":
            base[k] = error / reach[i]
            rest[k] = math3d.quat_normalize(nodes.rotation[i])
        elif what == "translation":
            base[k] = error / max(parent_scale[i], 1e-12)
            rest[k] = nodes.translation[i]
        elif what == "scale":
            s = np.abs(np.concatenate([ch.curve.values.reshape(-1, 3), nodes.scale[i][None]])).min()
            base[k] = error * max(s, 1e-6) / reach[i]
            rest[k] = nodes.scale[i]
        else:
            base[k], scale[k] = error, _weight_scale(scene, ch, scale_now)
            rw = nodes.weights[i]
            first = ch.element or 0
            rest[k] = None if rw is None else np.asarray(rw, np.float64)[first : first + ch.width]
        if nodes.has_matrix[i]:
            rest[k] = None  # a matrix node's rest is its matrix: dropping its channel would not give it back
    # A weights tolerance bounds Σ |Δw_k| · (target k's largest delta): where targets move different vertices, the
    # world sees far less, so its share may grow up to one per target when the measurement says so.
    most = np.array([float(ch.width) if chans.kind(ch) == "weights" else 1.0 for ch in clip.channels])
    return Budget(base, _first_share(scene, clip, node, world), scale, rest, node, world, most)


def _weight_scale(scene: Scene, ch, scale_now: np.ndarray) -> np.ndarray:
    """Per target: its largest delta × the mesh's world scale (a skinned mesh: its joints' largest × bind's)."""
    mesh, skin = int(scene.nodes.mesh[ch.node]), int(scene.nodes.skin[ch.node])
    reach = morph_reach(scene, mesh) if mesh >= 0 else np.zeros(0)
    first = ch.element or 0
    reach = np.pad(reach[first : first + ch.width], (0, max(0, ch.width - len(reach[first:]))))
    if skin >= 0:
        s = scene.skins[skin]
        world_scale = float((scale_now[s.joints] * column_scale(s.inverse_bind)).max(initial=1.0))
    else:
        world_scale = float(scale_now[ch.node])
    return reach * world_scale


def _first_share(scene: Scene, clip: Clip, node: np.ndarray, world: np.ndarray) -> np.ndarray:
    """1/√K per channel, K the most world channels on any path from a root through its node to a leaf."""
    nodes = scene.nodes
    own = np.bincount(node[world], minlength=len(nodes)).astype(np.float64)
    most = fold_up(nodes.parent, nodes.depth, fold_down(nodes.parent, nodes.depth, own))
    share = np.ones(len(node))
    share[world] = 1.0 / np.sqrt(np.maximum(most[node[world]], 1.0))
    return share


def _subtree_worst(scene: Scene, node_err: np.ndarray) -> np.ndarray:
    """(N,) the largest error at or below each node: what the node's channels answer for."""
    return fold_up(scene.nodes.parent, scene.nodes.depth, node_err)


def above(scene: Scene, budget: Budget, node_err: np.ndarray, error: float) -> np.ndarray:
    """The world channels with a node over ``error`` at or below theirs."""
    worst = _subtree_worst(scene, node_err)
    return budget.world & (worst[np.maximum(budget.node, 0)] > error)


def adjust(scene: Scene, budget: Budget, node_err: np.ndarray, error: float, grow: bool = True) -> np.ndarray:
    """Move every channel's share toward spending E where it shows: shrink it in proportion where a node at or
    below it is over E (at most ``FLOOR`` a round), grow it where everything below stays well under (at most
    ``GROW``, never past 1: one channel alone may not spend more than E). Returns which channels changed."""
    worst = _subtree_worst(scene, node_err)
    factor = np.where(worst > 0, SAFETY * error / np.maximum(worst, 1e-300), GROW)
    factor = np.clip(factor, FLOOR, GROW if grow else 1.0)[np.maximum(budget.node, 0)]
    new = np.minimum(budget.share * factor, budget.most)
    over = worst[np.maximum(budget.node, 0)] > error
    changed = budget.world & (over | (np.abs(np.log(np.maximum(new, 1e-300) / budget.share)) > np.log(STEADY)))
    budget.share[changed] = new[changed]
    return changed
