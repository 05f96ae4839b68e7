"""The animated state of a scene: the one place sampled values reach nodes.

Convention, said once: matrices here are math convention (``M[row][col]``, column vectors,
translation in the last column), float64. ``math3d.to_gl`` converts them at the GL boundary.

world(node) = world(parent) × local(node), local = T·R·S (or the node's ``matrix`` when it has one
and the clip does not animate it). joint matrix = world(joint) × inverseBindMatrix(joint); the
skinned mesh's own node transform is ignored, as glTF 2.0 §3.7.3 requires.
"""

from __future__ import annotations

from functools import cached_property

import numpy as np

from viewer import fast
from viewer.animation.clip import Clip, finite_time
from viewer.base import math3d
from viewer.fast.kernels_layout import flag_layout, state_layout
from viewer.pose.binding import Binding, bind, motion_root
from viewer.pose.hierarchy import compose_world, inherit_visibility, subtree, world_steps
from viewer.scene.scene import Primitive, Scene

FLOAT32_MAX = float(np.finfo(np.float32).max)
MAX_NODE_WARNINGS = 20  # per pose update: a 100 000-node overflow needs no 100 000 lines


class Pose:
    """Mutable node state for one scene: rest values, then whatever clip and time were applied."""

    def __init__(self, scene: Scene) -> None:
        self.scene = scene
        nodes = scene.nodes
        self.world_plan = world_steps(nodes.parent, nodes.depth)
        self._bindings: dict[int, Binding] = {}
        # One float and one bool buffer hold all node state, so the compiled frame (``fast``) writes it in
        # one call (``kernels_layout``); the named views below are what everyone else reads and writes.
        counts = np.array([0 if w is None else len(w) for w in nodes.weights], dtype=np.int64)
        self.weight_start = np.where([w is not None for w in nodes.weights], np.cumsum(counts) - counts, -1)
        self.weight_count = counts
        self.rest_weights = np.concatenate(
            [np.zeros(0)] + [np.asarray(w, np.float64) for w in nodes.weights if w is not None]
        )
        spans = np.cumsum([0] + [len(s.joints) for s in scene.skins])
        self._joint_spans = list(zip(spans[:-1].tolist(), spans[1:].tolist()))
        n = len(nodes)
        layout = state_layout(n, len(self.rest_weights), int(spans[-1]))
        at, shape = layout["joints"]
        self.state = np.zeros(at + int(np.prod(shape)))
        view = {name: self.state[a : a + int(np.prod(sh))].reshape(sh) for name, (a, sh) in layout.items()}
        self.trs, self.weights_flat, self.local, self.world, self.joints_flat = (
            view["trs"],
            view["weights"],
            view["local"],
            view["world"],
            view["joints"],
        )
        self.translation, self.rotation, self.scale = self.trs[:, 0:3], self.trs[:, 3:7], self.trs[:, 7:10]
        self.rest_trs = np.concatenate([nodes.translation, nodes.rotation, nodes.scale], axis=1).astype(np.float64)
        self.trs[:] = self.rest_trs
        self.weights_flat[:] = self.rest_weights
        self.weights = [
            None if w is None else self.weights_flat[a : a + len(w)]
            for w, a in zip(nodes.weights, self.weight_start.tolist())
        ]
        flags = flag_layout(n)
        self.flags = np.ones(flags["skin_ok"] + len(scene.skins), dtype=bool)
        self.own_visible = self.flags[0:n]
        """(N,) bool: each node's own KHR_node_visibility now."""
        self.visible = self.flags[n : 2 * n]
        """(N,) bool: KHR_node_visibility now — a node shows when it and every ancestor is visible."""
        self.drawable = self.flags[2 * n : 3 * n]  # world matrix fits float32 (update_world)
        self.skin_ok = self.flags[3 * n :]  # per skin: joint matrices fit float32 (kernel frames)
        self.own_visible[:] = nodes.visible
        self.visible[:] = inherit_visibility(self.own_visible, nodes.parent)
        self._joints_current = False  # joints_flat holds this pose's joint matrices (the kernel wrote them)
        self._joint_views = [self.joints_flat[lo:hi] for lo, hi in self._joint_spans]
        self._bad_skins = 0  # how many skins' joint matrices do not fit float32 (when _joints_current)
        self._no_weights: dict[int, np.ndarray] = {}  # node → zeros, for mesh nodes without morph weights
        self._plans: dict[tuple, object] = {}  # (clip, mode) → fast.plan.FramePlan
        self.properties: dict[tuple[str, int], dict[str, np.ndarray]] = {}
        """Animated values of materials, cameras and lights now: (consumer, index) → {field: value}, in the
        Object Model's terms (``object_model.Property.field``); only what the clip animates is here."""
        self.local[:] = nodes.matrix
        self._matrix_nodes = np.flatnonzero(nodes.has_matrix)
        self._in_place: dict[tuple, object] = {}  # per clip: its motion root, and per mode what holds it
        self.update_world()

    def reset(self) -> None:
        """Back to the rest pose (every node's own TRS / matrix / weights)."""
        nodes = self.scene.nodes
        self.trs[:] = self.rest_trs
        self.weights_flat[:] = self.rest_weights
        self._matrix_nodes = np.flatnonzero(nodes.has_matrix)
        self.own_visible[:] = nodes.visible
        self.visible[:] = inherit_visibility(self.own_visible, nodes.parent)
        self.properties = {}
        self._joints_current = False

    def binding(self, clip: Clip) -> Binding:
        """Index arrays that route ``clip.sample`` rows to nodes (built once per clip)."""
        if clip.key not in self._bindings:
            self._bindings[clip.key] = bind(clip, len(self.scene.nodes))
        return self._bindings[clip.key]

    def apply(self, clip: Clip, values: np.ndarray) -> None:
        """Write one time's sampled values (C, W) of ``clip`` onto the rest pose."""
        self.reset()
        b = self.binding(clip)
        for path, target in (("translation", self.translation), ("rotation", self.rotation), ("scale", self.scale)):
            if len(b.rows[path]):
                target[b.nodes[path]] = values[b.rows[path], : target.shape[1]]
        for row, node, width, first in b.weight_channels:
            if self.weights[node] is not None:
                self.weights[node][first : first + width] = values[row, :width]
        if len(b.visible[0]):
            self.own_visible[b.visible[1]] = values[b.visible[0], 0] >= 0.5
            self.visible[:] = inherit_visibility(self.own_visible, self.scene.nodes.parent)
        for row, consumer, index, field, width in b.properties:
            self.properties.setdefault((consumer, index), {})[field] = values[row, :width]
        self._matrix_nodes = np.flatnonzero(self.scene.nodes.has_matrix & ~b.animated)
        self.update_world()

    def world_at(self, clip: Clip, times: np.ndarray, mode: str = "authored", values=None) -> np.ndarray:
        """World matrices (F, N, 4, 4) at each of F times (seconds): the rule of ``apply`` + ``update_world``
        for many times in one pass (trails sample whole clips). Changes nothing in this pose. ``values``:
        the clip already sampled at those times (F, C, W), for callers that read more of it."""
        times = np.asarray(times, dtype=np.float64).reshape(-1)
        nodes, b = self.scene.nodes, self.binding(clip)
        values = clip.sample(times, mode) if values is None else values
        moving = np.flatnonzero(b.animated)  # only these nodes' local matrices change; the rest are at rest
        at = np.full(len(nodes), -1, dtype=np.int64)
        at[moving] = np.arange(len(moving))
        trs = {"translation": nodes.translation, "rotation": nodes.rotation, "scale": nodes.scale}
        batch = {p: np.broadcast_to(v[moving], (len(times), len(moving), v.shape[1])).copy() for p, v in trs.items()}
        for path, target in batch.items():
            if len(b.rows[path]):
                target[:, at[b.nodes[path]]] = values[:, b.rows[path], : target.shape[2]]
        with np.errstate(over="ignore", invalid="ignore"):
            local = np.broadcast_to(self.rest_local, (len(times),) + self.rest_local.shape).copy()
            local[:, moving] = math3d.compose_trs(batch["translation"], batch["rotation"], batch["scale"])
            return compose_world(local, self.world_plan)

    @cached_property
    def rest_local(self) -> np.ndarray:
        """(N, 4, 4) every node's local matrix at rest: its TRS composed, or its matrix."""
        nodes = self.scene.nodes
        with np.errstate(over="ignore", invalid="ignore"):
            local = math3d.compose_trs(nodes.translation, nodes.rotation, nodes.scale)
        local[nodes.has_matrix] = nodes.matrix[nodes.has_matrix]
        return local

    def set_time(self, clip: Clip | None, t: float, mode: str = "authored", in_place: bool = False) -> None:
        """Pose the scene at clip time t (seconds); no clip means the rest pose.

        ``in_place``: hold the motion root's horizontal travel (``motion_root``), so a walk stays on the
        spot: its world position on the ground plane (x, z; glTF's y is up) is kept at its position at
        t = 0, and its whole subtree (a skin's joints, so the skinned mesh) moves back with it. Height,
        rotation and every other channel play as authored.
        """
        if clip is None:
            self.reset()
            self.update_world()
            return
        k = fast.active()
        plan = self._plans.get((clip.key, mode)) if k is not None else None
        if k is not None and plan is None:
            plan = self._plan(clip, mode)
        if plan is None or not self._compiled_frame(k, plan, finite_time(t)):
            self.apply(clip, clip.sample(t, mode))
        if in_place:
            self._hold_root(clip, mode)
            self._joints_current = False

    def _plan(self, clip: Clip, mode: str):
        """The compiled frame's plan for a clip and mode (``fast.plan.FramePlan``), built once."""
        from viewer.fast.plan import FramePlan

        clip.table(mode)  # an unknown mode raises here, as on the numpy path
        plan = self._plans[(clip.key, mode)] = FramePlan(self, clip, mode)
        return plan

    def _compiled_frame(self, k, plan, t: float) -> bool:
        """``apply`` + ``update_world`` + every skin's joints by the compiled kernel; False: use numpy."""
        try:
            undrawable, self._bad_skins = plan.run(k, self, t)
        except TypeError:  # buffers of a layout the kernel was not compiled for: numpy does this frame
            return False
        self._joints_current = True
        self._matrix_nodes = plan.matrix_nodes
        if plan.properties or self.properties:
            self.properties = {}
            for row, consumer, index, field, width in plan.properties:
                self.properties.setdefault((consumer, index), {})[field] = plan.values[row, :width].copy()
        if undrawable:
            self._warn_undrawable(np.flatnonzero(~self.drawable))
        return True

    def motion_root(self, clip: Clip) -> int | None:
        """``motion_root`` of ``clip`` in this scene (found once per clip)."""
        key = ("root", clip.key)
        if key not in self._in_place:
            self._in_place[key] = motion_root(self.scene, clip)
        return self._in_place[key]

    def _hold_root(self, clip: Clip, mode: str) -> None:
        key = (clip.key, mode)
        if key not in self._in_place:
            root = self.motion_root(clip)
            self._in_place[key] = (
                None
                if root is None
                else (
                    root,
                    self.world_at(clip, np.zeros(1), mode)[0, root, :3, 3],
                    subtree(self.scene.nodes.parent, self.scene.nodes.depth, root),
                )
            )
        held = self._in_place[key]
        if held is None:
            return
        root, start, below = held
        travel = self.world[root, :3, 3] - start
        travel[1] = 0.0
        if np.isfinite(travel).all():
            self.world[below, :3, 3] -= travel

    def update_world(self) -> None:
        """Recompute local and world matrices from the current TRS, parents before children."""
        self._joints_current = False
        with np.errstate(over="ignore", invalid="ignore"):  # overflow is reported below, once, with its node
            self.local[:] = math3d.compose_trs(self.translation, self.rotation, self.scale)
            if len(self._matrix_nodes):
                self.local[self._matrix_nodes] = self.scene.nodes.matrix[self._matrix_nodes]
            compose_world(self.local, self.world_plan, out=self.world)
        # NaN fails the comparison too: one pass finds matrices the GPU cannot take (float32).
        self.drawable[:] = (np.abs(self.world) <= FLOAT32_MAX).all(axis=(1, 2))
        if not self.drawable.all():
            self._warn_undrawable(np.flatnonzero(~self.drawable))

    def _warn_undrawable(self, nodes: np.ndarray) -> None:
        """One warning per node (per scene) whose world matrix is not finite or overflows float32."""
        for node in nodes[:MAX_NODE_WARNINGS]:
            self.scene.warn_once(
                f"/nodes/{node}",
                "world matrix is not finite or beyond float32 range "
                "(rest or animated transforms too large); its mesh is not drawn",
            )

    def joint_matrices(self, skin: int) -> np.ndarray:
        """(J, 4, 4) world(joint) × inverseBindMatrix for one skin."""
        if self._joints_current:
            if self._bad_skins and not self.skin_ok[skin]:
                self._warn_joints(skin)
            return self._joint_views[skin]
        return self._numpy_joints(skin)[0]

    def _numpy_joints(self, skin: int) -> tuple[np.ndarray, bool]:
        """One skin's joint matrices by numpy, and whether they fit float32 (warned about when not)."""
        s = self.scene.skins[skin]
        with np.errstate(over="ignore", invalid="ignore"):
            mats = self.world[s.joints] @ s.inverse_bind
        ok = bool((np.abs(mats) <= FLOAT32_MAX).all())
        if not ok:
            self._warn_joints(skin)
        return mats, ok

    def all_joint_matrices(self) -> np.ndarray:
        """(ΣJ, 4, 4) joint matrices of every skin end to end, in skin order: one read for the renderer,
        however many characters the scene has (the compiled frame wrote them already)."""
        if self._joints_current:
            if self._bad_skins:
                for skin in np.flatnonzero(~self.skin_ok).tolist():
                    self._warn_joints(skin)
            return self.joints_flat
        for skin, (lo, hi) in enumerate(self._joint_spans):
            self.joints_flat[lo:hi], self.skin_ok[skin] = self._numpy_joints(skin)
        self._bad_skins = int((~self.skin_ok).sum())
        self._joints_current = True
        return self.joints_flat

    def _warn_joints(self, skin: int) -> None:
        self.scene.warn_once(
            f"/skins/{skin}",
            "joint matrices are not finite or beyond float32 range at this pose; meshes with this skin are not drawn",
        )

    def node_weights(self, node: int) -> np.ndarray:
        """Morph weights of a mesh node now (node weights over mesh weights over zeros)."""
        w = self.weights[node]
        if w is not None:
            return w
        zeros = self._no_weights.get(node)
        if zeros is None:  # made once per node, read-only: the renderer asks every frame
            mesh = self.scene.nodes.mesh[node]
            zeros = self._no_weights[node] = np.zeros(self.scene.meshes[mesh].target_count if mesh >= 0 else 0)
            zeros.flags.writeable = False
        return zeros

    def primitive_positions(self, node: int, primitive: Primitive) -> np.ndarray:
        """World-space vertex positions (n, 3) of a mesh node's primitive, morphed and skinned on the CPU.

        The GPU does the same in its vertex shader; this is the reference the picture tests check it by.
        """
        pos = np.asarray(primitive.attributes["POSITION"], dtype=np.float64)
        w = self.node_weights(node)
        for k, target in enumerate(primitive.targets):
            if "POSITION" in target and k < len(w) and w[k] != 0.0:
                pos = pos + w[k] * np.asarray(target["POSITION"], dtype=np.float64)
        skin = self.scene.nodes.skin[node]
        if skin < 0 or "JOINTS_0" not in primitive.attributes:
            return math3d.transform_points(self.world[node], pos)
        return math3d.transform_points(skin_matrices(self.joint_matrices(skin), primitive), pos)


def skin_matrices(joint_mats: np.ndarray, primitive: Primitive) -> np.ndarray:
    """Per-vertex blended skin matrices (n, 4, 4) from JOINTS_0/WEIGHTS_0 (and _1 when present)."""
    attrs = primitive.attributes
    total = None
    for set_ in (0, 1):
        j, w = attrs.get(f"JOINTS_{set_}"), attrs.get(f"WEIGHTS_{set_}")
        if j is None or w is None:
            continue
        part = np.einsum("nk,nkij->nij", np.asarray(w, np.float64), joint_mats[np.asarray(j, np.int64)])
        total = part if total is None else total + part
    return total
