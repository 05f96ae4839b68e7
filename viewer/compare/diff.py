"""``animview diff``: is file B still the same animation as file A — and if not, where, when and by how much.

``diff_scenes`` matches clips and nodes (``matching``), measures both files at the union of their key times,
the midpoints between them and a grid at ``fps`` over the clip (``diff_measure``), and returns the report as
plain JSON-able data (the schema is in README). Distances are in A's scene units and, as ``*_rel``, fractions
of A's scene size (the diagonal of its rest pose's bounds). Pure numpy: the window's divergence strip and
``check --against`` read the same report.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from viewer.animation.clip import Clip
from viewer.compare import diff_measure as m
from viewer.compare.diff_meshes import mesh_pairs
from viewer.compare.diff_report import measured
from viewer.compare.matching import NodeMatch, match_clips, match_nodes
from viewer.pose.bounds import pose_bounds
from viewer.pose.pose import Pose
from viewer.scene.scene import Scene

DEFAULT_FPS = 120.0
DEFAULT_FAIL_REL = 1e-5  # of the scene size: below this, two files are the same animation


def scene_size(scene: Scene) -> float:
    """The diagonal of the rest pose's bounds (nodes' positions when nothing is drawn; 1 when all is one point)."""
    pose = Pose(scene)
    lo, hi = pose_bounds(pose)
    size = float(np.linalg.norm(hi - lo)) if np.isfinite(lo).all() and np.isfinite(hi).all() else 0.0
    if size <= 0 and len(scene.nodes):
        points = pose.world[:, :3, 3]
        size = float(np.linalg.norm(np.ptp(points, axis=0)))
    return size if size > 0 and math.isfinite(size) else 1.0


def diff_times(ca: Clip | None, cb: Clip | None, fps: float) -> np.ndarray:
    """Both clips' key times, the midpoints between them, and a grid at ``fps`` from 0 to the longer end."""
    keys = np.union1d(*(c.key_times if c is not None else np.zeros(1) for c in (ca, cb)))
    end = max(c.duration if c is not None else 0.0 for c in (ca, cb))
    grid = np.arange(0.0, end, 1.0 / fps) if end > 0 else np.zeros(1)
    mids = 0.5 * (keys[:-1] + keys[1:])
    return np.union1d(np.union1d(keys, mids), np.append(grid, end))


@dataclass
class Prepared:
    """What a diff of A against B needs before a clip plays: A's size, the node and mesh pairs, a pose of each.
    Made once (``prepare``), it serves many diffs of one pair — ``check`` runs one per engine — and with
    ``keep`` it holds A's posed batches too: A plays the same clip at the same times in every one of them."""

    size: float
    nodes: NodeMatch
    poses: tuple[Pose, Pose]
    meshes: list
    kept: dict | None = None


def prepare(a: Scene, b: Scene, vertices: tuple | None = None, keep: bool = False) -> Prepared:
    """``Prepared`` for A and B. ``vertices``: ``diff_meshes.mesh_pairs``' budget (``check`` spends less).
    ``keep``: A's batches are kept (bounded by the caller: ``check`` measures a huge scene at few times)."""
    nodes = match_nodes(a, b)
    return Prepared(scene_size(a), nodes, (Pose(a), Pose(b)), mesh_pairs(a, b, nodes, vertices), {} if keep else None)


def diff_scenes(
    a: Scene,
    b: Scene,
    only: Clip | None = None,
    mode: str = "authored",
    fps: float = DEFAULT_FPS,
    fail_above: float | None = None,
    relative: bool = False,
    mode_b: str | None = None,
    clip_b: Clip | None = None,
    engines: tuple = (None, None),
    prepared: Prepared | None = None,
    times: np.ndarray | None = None,
    rows: int | None = None,
) -> dict:
    """The diff report of B against A. ``only``: one clip of A (else every clip); ``fail_above``: the
    distance above which they differ, in scene units or, ``relative``, as a fraction of A's size
    (default ``DEFAULT_FAIL_REL`` of it). ``mode`` plays both files, or A alone when ``mode_b`` plays B
    (an original in mode M against its ``bake`` copy as authored). ``clip_b`` with ``only``: that clip of B,
    whatever the matching rules say (a pane showing another clip of the same file). ``engines``: the
    ``viewer.engines.Engine`` that plays A and the one that plays B (None: the spec). ``prepared``: made by
    ``prepare`` for this A and B. ``times``: measure ``only`` at these clock times instead of ``diff_times``'
    (``check`` thins them for a huge scene); ``rows``: the node table's length (``diff_report.measured``)."""
    prep = prepare(a, b) if prepared is None else prepared
    size, nodes = prep.size, prep.nodes
    if fail_above is None:
        fail_above, relative = DEFAULT_FAIL_REL, True
    threshold = float(fail_above) * (size if relative else 1.0)
    pairs, clips_a, clips_b = match_clips(a, b, only)
    if only is not None and clip_b is not None:
        pairs, clips_a, clips_b = [(only, clip_b, "chosen")], [], []
    if not a.clips and not b.clips:
        pairs = [(None, None, "rest pose")]
    modes = (mode, mode if mode_b is None else mode_b)
    sides = (Side(prep.poses[0], modes[0], engines[0], prep.kept), Side(prep.poses[1], modes[1], engines[1]))
    when = (lambda ca, cb: diff_times(ca, cb, fps)) if times is None else (lambda ca, cb: times)
    measure = (nodes, prep.meshes, size, threshold, rows)
    clips = [_clip(sides, ca, cb, rule, when, *measure) for ca, cb, rule in pairs]
    worst = max((c["max_distance"] for c in clips), default=0.0)
    report = {
        "a": str(a.path),
        "b": str(b.path),
        "size": size,
        "threshold": threshold,
        "max_distance": worst,
        "max_distance_rel": worst / size,
        "differs": any(c["differs"] for c in clips) or bool(clips_a),
        "clips": clips,
        "matched_nodes": {"by_path": int(nodes.by_path.sum()), "by_index": int((~nodes.by_path).sum())},
        "unmatched": {
            "clips_a": [c.name for c in clips_a],
            "clips_b": [c.name for c in clips_b],
            "nodes_a": [nodes.paths_a[i] for i in nodes.only_a.tolist()],
            "nodes_b": [nodes.paths_b[i] for i in nodes.only_b.tolist()],
        },
    }
    return report


def _channels(scene: Scene, clip: Clip | None, paths: tuple[str, ...]) -> set[str]:
    """What a clip animates, named so both files can be compared: node path + property, or the pointer."""
    if clip is None:
        return set()
    out = set()
    for ch in clip.channels:
        if ch.consumer != "node":
            out.add(ch.pointer)
        else:
            element = "" if ch.element is None else f"/{ch.element}"
            out.add(f"{paths[ch.node]}.{ch.path}{element}")
    return out


class Side:
    """One file as the diff plays it: its pose, its mode and the engine that plays it (None: the spec)."""

    def __init__(self, pose: Pose, mode: str, engine, kept: dict | None = None) -> None:
        self.pose, self.mode, self.engine, self.kept = pose, mode, engine, kept

    def played(self, clip: Clip | None) -> Clip | None:
        return clip if clip is None or self.engine is None else self.engine.clip(clip, self.pose.scene)

    def batch(self, clip: Clip | None, times: np.ndarray):
        """The side posed at clock ``times``: where its engine's player is then (the spec: the clock itself)."""
        if clip is not None and self.engine is not None:
            times = self.engine.player_time(times, clip.duration)
        if self.kept is None:
            return m.batch(self.pose, clip, times, self.mode)
        key = (id(clip), self.mode, getattr(self.engine, "name", None), np.asarray(times).tobytes())
        if key not in self.kept:
            self.kept[key] = m.batch(self.pose, clip, times, self.mode)
        return self.kept[key]


def _clip(sides, ca, cb, rule, when, nodes: NodeMatch, meshes, size, threshold, rows) -> dict:
    side_a, side_b = sides
    pose_a, pose_b = side_a.pose, side_b.pose
    played_a, played_b = side_a.played(ca), side_b.played(cb)
    times = when(ca, cb)
    acc = m.Accumulator(nodes, meshes, pose_a.scene, pose_b.scene)
    step = m.chunk_length(len(pose_a.scene.nodes), len(pose_b.scene.nodes))
    for lo in range(0, len(times), step):
        t = times[lo : lo + step]
        acc.add(side_a.batch(played_a, t), side_b.batch(played_b, t), t)
    out = measured(acc, pose_a.scene, pose_b.scene, nodes, size, threshold, rows)
    ch_a = _channels(pose_a.scene, ca, nodes.paths_a)
    ch_b = _channels(pose_b.scene, cb, nodes.paths_b)
    out["structure"]["channels_a"] = sorted(ch_a - ch_b)
    out["structure"]["channels_b"] = sorted(ch_b - ch_a)
    head = {
        "a": ca.name if ca is not None else "(rest pose)",
        "b": cb.name if cb is not None else "(rest pose)",
        "matched_by": rule,
        "mode": side_a.mode,
        "mode_b": side_b.mode,
        "engine": side_a.engine.name if side_a.engine is not None else "spec",
        "engine_b": side_b.engine.name if side_b.engine is not None else "spec",
        "duration_a": ca.duration if ca is not None else 0.0,
        "duration_b": cb.duration if cb is not None else 0.0,
        "times": len(times),
    }
    return head | out
