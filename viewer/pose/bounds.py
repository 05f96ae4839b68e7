"""Bounds of what is drawn: the box the automatic camera and the ground grid frame, now or over a clip.

Exact for the vertices it looks at (the same morphing and skinning as ``Pose.primitive_positions``),
and fast however the file is built: nodes that show a mesh rigidly are placed all at once per mesh,
morphed instances are morphed all at once per mesh, and skinned nodes that share skin, mesh and
weights (their own transform is ignored, glTF 2.0 §3.7.3) are skinned once. Nodes and points the GPU
cannot place (beyond float32) frame nothing, as they draw nothing.
"""

from __future__ import annotations

from collections import defaultdict

import numpy as np

from viewer.animation.clip import Clip
from viewer.pose.hierarchy import STEP_COSTS, plan_cost
from viewer.pose.pose import FLOAT32_MAX, Pose
from viewer.pose.skin_bounds import Boxes, joint_boxes, local_boxes, placed_bounds
from viewer.scene.scene import Scene

POINTS_PER_CHUNK = 1 << 20  # (K, V, 3) temporaries stay a few tens of MB
EXACT_POINTS = 1 << 22  # placed points per primitive beyond which instances contribute their boxes' corners
# Work allowed to ``clip_bounds``, in node and deformed-vertex updates summed over its poses; a clip
# with more key times than that allows is framed from an even subset of them (never fewer than
# MIN_POSES): a 30 000-node chain or a 1 300-key skinned clip must not take seconds before a first frame.
POSE_BUDGET = 1_000_000
MIN_POSES = 4
WORLD_BATCH = 1 << 18  # times × nodes per batch of world matrices for the joint boxes (32 MB of float64)
MAX_WEIGHT_GROUPS = 64  # distinct morph weights among a mesh's instances handled one group at a time
# A clip with more key times than MAX_TIMES is framed from LONG_TIMES of them (an even subset), plus the keys
# where each translation, scale and weight is at its least and greatest: an hour-long take is framed in a
# fraction of a second (every file of the shared library has fewer, and is framed at every key).
MAX_TIMES = 4096
LONG_TIMES = 256


def pose_bounds(pose: Pose, include_skinned: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """World-space axis-aligned bounds (min (3,), max (3,)) of every drawn mesh at the pose's time;
    zeros when nothing is drawn. ``include_skinned=False`` leaves skinned meshes out (``clip_bounds`` bounds them
    by joint boxes); then (+inf, −inf) when nothing else is drawn."""
    scene, nodes = pose.scene, pose.scene.nodes
    lo, hi = np.full(3, np.inf), np.full(3, -np.inf)
    if getattr(pose, "_instance_groups", None) is None:  # the scene's, computed once per pose
        pose._instance_groups = _instance_groups(scene)
    rigid, morphed, skinned = pose._instance_groups
    with np.errstate(over="ignore", invalid="ignore"):
        for mesh, members in list(rigid.items()) + list(morphed.items()):
            members = members[pose.drawable[members]]
            if not len(members):
                continue
            for prim in scene.meshes[mesh].primitives:
                if "POSITION" not in prim.attributes:
                    continue
                if mesh not in morphed:
                    lo, hi = _instances(lo, hi, pose.world[members], prim, None)
                    continue
                weights = _weights(pose, members, scene.meshes[mesh].target_count)
                distinct, which = np.unique(weights, axis=0, return_inverse=True)
                if len(distinct) > MAX_WEIGHT_GROUPS:  # every instance morphed its own way
                    lo, hi = _instances(lo, hi, pose.world[members], prim, weights)
                    continue
                for k, row in enumerate(distinct):  # usually one: instances share the mesh's weights
                    lo, hi = _instances(lo, hi, pose.world[members[which.reshape(-1) == k]], prim, row[None])
        groups: dict[tuple, int] = {}
        for node in skinned.tolist() if include_skinned else []:
            mesh = scene.meshes[nodes.mesh[node]]
            own = -1 if all("JOINTS_0" in p.attributes for p in mesh.primitives) else node  # else placed by it
            groups.setdefault(
                (int(nodes.skin[node]), int(nodes.mesh[node]), pose.node_weights(node).tobytes(), own), node
            )
        for node in groups.values():
            for prim in scene.meshes[nodes.mesh[node]].primitives:
                if "POSITION" in prim.attributes:
                    lo, hi = _extend(lo, hi, pose.primitive_positions(node, prim))
    if not np.isfinite(lo).all() and include_skinned:
        return np.zeros(3), np.zeros(3)
    return lo, hi


def clip_bounds(
    scene: Scene, clip: Clip | None, samples: int = 32, mode: str = "authored"
) -> tuple[np.ndarray, np.ndarray]:
    """Bounds over a whole clip (its key times plus ``samples`` even times), so a walk stays in view. A clip
    with more than ``MAX_TIMES`` of them is framed from ``LONG_TIMES`` even ones and the key times where each
    translation, scale and weight channel is at its least or greatest (``_extreme_times``): a long take's
    travel is in view without posing each of its keys.

    Every mesh is placed exactly at every one of those times when that fits ``POSE_BUDGET``. Beyond it,
    skinned meshes are bounded by joint boxes (``skin_bounds``: a bound, a little loose, at every time, from
    world matrices computed for all of them in one batch) and rigid and morphed meshes are placed exactly
    at an even subset of the times — a 1 300-key skinned clip frames in milliseconds.
    """
    pose = Pose(scene)
    if clip is None:
        return pose_bounds(pose)
    times = np.union1d(clip.key_times, np.linspace(0.0, clip.duration, samples))
    if len(times) > MAX_TIMES:
        times = np.union1d(
            times[np.linspace(0, len(times) - 1, LONG_TIMES).round().astype(np.int64)], _extreme_times(clip)
        )
    exact = len(times) * _pose_cost(pose, skinned=True) <= POSE_BUDGET
    lo, hi = np.full(3, np.inf), np.full(3, -np.inf)
    boxes = Boxes.concat([]) if exact else _skinned_boxes(scene, clip)
    if len(boxes.node):
        step = max(1, WORLD_BATCH // max(1, len(scene.nodes)))
        for k in range(0, len(times), step):
            with np.errstate(over="ignore", invalid="ignore"):
                a, b = placed_bounds(pose.world_at(clip, times[k : k + step], mode), boxes)
            lo, hi = np.minimum(lo, a), np.maximum(hi, b)
    rigid, morphed, _ = _instance_groups(scene)
    if exact or rigid or morphed:
        most = max(MIN_POSES, POSE_BUDGET // _pose_cost(pose, skinned=exact))
        if len(times) > most:
            times = times[np.unique(np.round(np.linspace(0, len(times) - 1, most)).astype(np.int64))]
        # The times sampled in batches (a long clip's scattered times one at a time were a table each), then
        # each pose built from its row.
        for _, values in clip.sample_chunks(times, mode):
            for row in values:
                pose.apply(clip, row)
                a, b = pose_bounds(pose, include_skinned=exact)
                lo, hi = np.minimum(lo, a), np.maximum(hi, b)
    if not np.isfinite(lo).all():
        return np.zeros(3), np.zeros(3)
    return lo, hi


def _extreme_times(clip: Clip) -> np.ndarray:
    """The key times at which each component of each translation, scale or weights channel is least or greatest."""
    found = []
    for ch in clip.channels:
        if ch.consumer == "node" and ch.path in ("translation", "scale", "weights") and len(ch.curve.times) > 1:
            values = np.asarray(ch.curve.values)
            found += [ch.curve.times[values.argmin(axis=0)], ch.curve.times[values.argmax(axis=0)]]
    return np.concatenate(found) if found else np.zeros(0)


def _skinned_boxes(scene: Scene, clip: Clip) -> Boxes:
    """Joint boxes of every skinned mesh node (those sharing skin and mesh once), morph-widened by the
    weights the clip and the file give it; a primitive without joints is its node's own box."""
    nodes, parts, seen = scene.nodes, [], set()
    for node in np.flatnonzero((nodes.mesh >= 0) & (nodes.skin >= 0)).tolist():
        mesh, skin = int(nodes.mesh[node]), int(nodes.skin[node])
        w_lo, w_hi = _weight_range(scene, clip, node)
        key = (skin, mesh, w_lo.tobytes(), w_hi.tobytes())
        placed_by_joints = all("JOINTS_0" in p.attributes for p in scene.meshes[mesh].primitives)
        if placed_by_joints and key in seen:
            continue
        seen.add(key)
        for prim in scene.meshes[mesh].primitives:
            if "POSITION" not in prim.attributes or not len(prim.attributes["POSITION"]):
                continue
            if "JOINTS_0" in prim.attributes and "WEIGHTS_0" in prim.attributes:
                parts.append(joint_boxes(scene, skin, prim, w_lo, w_hi))
            else:
                parts.append(local_boxes(node, prim, w_lo, w_hi))
    return Boxes.concat(parts)


def _weight_range(scene: Scene, clip: Clip, node: int) -> tuple[np.ndarray, np.ndarray]:
    """Lowest and highest morph weight (per target) a node shows over the clip: its keys and its rest
    weights (cubic overshoot between keys is not counted: a framing bound, not an exact one)."""
    mesh = scene.meshes[scene.nodes.mesh[node]]
    rest = scene.nodes.weights[node]
    rest = mesh.weights if rest is None else rest
    lo = hi = np.resize(np.asarray(rest, np.float64), mesh.target_count)
    for ch in clip.channels:
        if ch.node == node and ch.path == "weights":
            keys = np.asarray(ch.curve.values, np.float64)[:, : mesh.target_count]
            lo = np.minimum(lo, np.pad(keys.min(axis=0), (0, mesh.target_count - keys.shape[1])))
            hi = np.maximum(hi, np.pad(keys.max(axis=0), (0, mesh.target_count - keys.shape[1])))
    return lo, hi


def _instance_groups(scene: Scene) -> tuple[dict[int, np.ndarray], dict[int, np.ndarray], np.ndarray]:
    """Mesh → rigid nodes, mesh → morphed (unskinned) nodes, and the skinned nodes."""
    nodes = scene.nodes
    shown = np.flatnonzero(nodes.mesh >= 0)
    skinned = shown[nodes.skin[shown] >= 0]
    unskinned = shown[nodes.skin[shown] < 0]
    rigid, morphed = defaultdict(list), defaultdict(list)
    for node, mesh in zip(unskinned.tolist(), nodes.mesh[unskinned].tolist()):
        (morphed if scene.meshes[mesh].target_count else rigid)[mesh].append(node)
    as_arrays = lambda d: {m: np.array(v, dtype=np.int64) for m, v in d.items()}  # noqa: E731
    return as_arrays(rigid), as_arrays(morphed), skinned


def _weights(pose: Pose, members: np.ndarray, targets: int) -> np.ndarray:
    """(K, targets) morph weights of each node (validation makes every node's count the mesh's)."""
    return np.stack([pose.node_weights(node)[:targets] for node in members.tolist()])


def _instances(lo, hi, world: np.ndarray, prim, weights: np.ndarray | None):
    """Grow [lo, hi] by a primitive's positions, morphed by ``weights`` (K, T) — one row: the same for all
    — if given, placed by each of K world matrices (K, 4, 4); in chunks of at most ``POINTS_PER_CHUNK``.

    Exact (every vertex) up to ``EXACT_POINTS`` placed points; beyond, each instance contributes the 8
    corners of its local box, a box that holds the exact one (100 000 instances of a 2 000-vertex sphere
    are 2·10⁸ points, seconds per pose). Coordinates are laid out (axis, instance, point) so each axis
    reduces over one contiguous block (reducing an (n, 3) array along n is several times slower).
    """
    pos = np.asarray(prim.attributes["POSITION"], dtype=np.float64)
    deltas = None
    if weights is not None:  # the primitive's stacked targets (float32, made once), those the weights name
        weights = weights.astype(np.float32)
        deltas = prim.position_deltas[: weights.shape[1]]
        deltas = deltas.reshape(len(deltas), len(pos), 3)  # (T, V, 3)
    shared = pos  # one local point set for all instances, unless each has its own weights
    if deltas is not None:
        shared = pos + (weights[:1] @ deltas.reshape(len(deltas), -1)).reshape(-1, 3) if len(weights) == 1 else None
    if len(world) * len(pos) > EXACT_POINTS:
        if shared is not None:
            shared = _corners(shared.min(axis=0), shared.max(axis=0))
        else:  # each target moves the box by w·[its smallest, its largest delta], per axis
            w = weights[:, :, None]
            dlo, dhi = w * deltas.min(axis=1), w * deltas.max(axis=1)  # (K, T, 3)
            box_lo = pos.min(axis=0) + np.minimum(dlo, dhi).sum(axis=1)
            box_hi = pos.max(axis=0) + np.maximum(dlo, dhi).sum(axis=1)
            return _place(lo, hi, world, _corners(box_lo, box_hi))
        return _place(lo, hi, world, shared[None])
    if shared is not None:
        return _place(lo, hi, world, shared[None])
    flat = deltas.reshape(len(deltas), -1)
    step = max(1, POINTS_PER_CHUNK // max(1, len(pos)))
    for k in range(0, len(world), step):  # per-instance morphs, made a chunk at a time
        local = pos[None] + (weights[k : k + step] @ flat).reshape(-1, len(pos), 3)
        lo, hi = _place(lo, hi, world[k : k + step], local)
    return lo, hi


def _place(lo, hi, world: np.ndarray, local: np.ndarray):
    """Grow [lo, hi] by local points (1 or K, P, 3) placed by K world matrices (K, 4, 4)."""
    step = max(1, POINTS_PER_CHUNK // max(1, local.shape[1]))
    for k in range(0, len(world), step):
        w = world[k : k + step]
        pts = local if len(local) == 1 else local[k : k + step]
        coords = w[:, :3, :3] @ pts.transpose(0, 2, 1)  # (K, 3, P)
        coords += w[:, :3, 3, None]
        coords = coords.transpose(1, 0, 2).reshape(3, -1)
        a, b = coords.min(axis=1), coords.max(axis=1)
        if (np.abs(a) <= FLOAT32_MAX).all() and (np.abs(b) <= FLOAT32_MAX).all():
            lo, hi = np.minimum(lo, a), np.maximum(hi, b)
        else:  # some points beyond float32 (or NaN): leave out just those
            lo, hi = _extend(lo, hi, coords.T)
    return lo, hi


def _corners(box_lo: np.ndarray, box_hi: np.ndarray) -> np.ndarray:
    """The 8 corners (…, 8, 3) of boxes [box_lo, box_hi] (…, 3)."""
    pick = np.array([[x, y, z] for x in (0, 1) for y in (0, 1) for z in (0, 1)], dtype=bool)  # (8, 3)
    return np.where(pick, np.asarray(box_hi)[..., None, :], np.asarray(box_lo)[..., None, :])


def _extend(lo: np.ndarray, hi: np.ndarray, points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Grow [lo, hi] by points (n, 3), leaving out what float32 cannot hold (the GPU draws nothing there)."""
    p = points[(np.abs(points) <= FLOAT32_MAX).all(axis=1)]
    if not len(p):
        return lo, hi
    return np.minimum(lo, p.min(axis=0)), np.maximum(hi, p.max(axis=0))


def _pose_cost(pose: Pose, skinned: bool) -> int:
    """Work of one pose in ``clip_bounds``: every node, and its world plan in node products — each product,
    and each step's numpy calls at what they cost in products (a deep chain multiplies each node about
    log2(depth) times, or pays a step per level) —, plus every vertex placed: rigid and morphed ones, and
    skinned ones when ``skinned`` (else joint boxes bound them). (Rigid vertices were once left out: a turning
    1 M-triangle torus was placed at all its 64 times, 1.5 s before its first picture.)"""
    scene, nodes = pose.scene, pose.scene.nodes
    cost = len(nodes) + round(plan_cost(pose.world_plan) / STEP_COSTS[1])
    for node in np.flatnonzero(nodes.mesh >= 0).tolist():
        mesh = scene.meshes[nodes.mesh[node]]
        if nodes.skin[node] < 0 or skinned:
            cost += sum(len(p.attributes.get("POSITION", ())) for p in mesh.primitives)
    return max(1, cost)
