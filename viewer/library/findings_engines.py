"""``engine-divergence``: per clip, the engines that play it visibly differently from the spec, and why.

"It looks right in the viewer but wrong in the game" is cheaper to hear from ``check`` than from a tester: each
engine of ``viewer.engines`` plays the clip (its rewritten keys and its player's time) and ``compare.diff``
measures it against the spec's playback at ``FPS`` plus every key and midpoint. An engine diverges when a node or
vertex lands further than ``DISTANCE_REL`` of the scene size from the spec's, or a node turns more than
``ANGLE_DEG`` away. The cause is the engine's ``Behaviour`` whose rewrite matters: the engine is re-run with that
behaviour switched off (its ``Engine`` fields back to the spec's defaults, ``SWITCHES``) and the one whose
absence makes the divergence go away is named.

Kept cheap because it runs on every file of a library: engines are first compared with the spec by their channel
values (equal values are equal poses, no diff needed), engines whose values agree with each other share one diff,
and a behaviour is tested by channel values before any diff is spent on it.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, fields, replace

import numpy as np

from viewer.animation.clip import Clip
from viewer.base.errors import GltfWarning, shorten
from viewer.compare.diff import diff_scenes, diff_times, prepare, scene_size
from viewer.compare.diff_measure import chunk_length
from viewer.engines import NAMES, Engine, get
from viewer.library.report import Finding
from viewer.pose.bounds import clip_bounds
from viewer.pose.pose import Pose
from viewer.scene.scene import Scene

ENGINE_NAMES = tuple(n for n in NAMES if n != "spec")  # the spec is what the others are measured against
FPS = 30.0  # the diff's grid; every key time and midpoint is measured too
DISTANCE_REL = 1e-4  # of the scene size: a node or vertex further from the spec's than this is visible
ANGLE_DEG = 0.1  # a node turned further than this from the spec's is visible
# Vertices measured per deforming mesh, over all rigid ones and at least per rigid one (+ the outermost), and the
# deforming meshes measured one by one (``diff_meshes.mesh_pairs``).
VERTICES = (256, 1024, 4, 64)
HOT = 32  # times a behaviour's share of a divergence is measured at (``hot_times``)
ROWS = 4  # nodes a diff's table keeps, by distance and by angle: the finding names the worst
WORK = 500_000  # node × time matrices composed per pass; a huge scene is measured at fewer times (``thinned``)
MAX_FRAMES = 36_000  # 20 minutes at FPS: longer clips (``absurd-value`` key times, mostly) are not played here
# Keys in a clip: past this (55 s of 60-joint capture at 60 fps) each engine's rewritten clip and its tables
# would cost gigabytes and minutes (~60 µs and ~4.5 kB a key over the engines), so the clip is not played here.
KEYS = 200_000
MESSAGE_CHARS = 700  # seven engines with their causes fit

# Behaviour.cause -> the Engine fields that make it; set to their defaults, the engine plays that part as the spec.
SWITCHES = {
    "step-at-key": ("step_at_key",),
    "step-last-key": ("step_last",),
    "cubic-tangent-scale": ("cubic_tangents",),
    "cubic-rotation-slerp": ("cubic_tangents",),
    "cubic-auto-handles": ("cubic_tangents",),
    "cubic-weights-index": ("cubic_weights_interleaved",),
    "lead-in": ("lead_in",),
    "tail": ("pad_tail",),
    "end-of-loop": ("end",),
    "rotation-lerp": ("lerp_above", "lerp_renormalized", "raw_keys"),
    "one-key-sampler": ("min_keys",),
    "resampled": ("resample_fps",),
    "zero-length": ("zero_length",),
    "weights-clamped": ("weights_clamped",),
}
DEFAULTS = {f.name: f.default for f in fields(Engine)}


@dataclass(frozen=True)
class Divergence:
    """One engine's visible departure on one clip: the causes, and the diff's worst place (report clip dict)."""

    engine: Engine
    causes: tuple[str, ...]
    report: dict
    of_times: int = 0  # the times a scene this size would be measured at, when ``thinned`` took fewer


def engine_findings(scene: Scene, names: tuple[str, ...] | None = None) -> dict[int, list[Finding]]:
    """{clip index: [the clip's ``engine-divergence`` finding]} for the clips some engine plays visibly
    differently. ``names``: the engines to try (None: every engine but the spec; empty: none)."""
    engines = [get(n) for n in (ENGINE_NAMES if names is None else names) if n != "spec"]
    out: dict[int, list[Finding]] = {}
    if not engines:
        return out
    for clip in scene.clips:
        found = divergences(scene, clip, engines)
        if found:
            out[clip.index] = [finding(clip, found)]
    return out


def divergences(scene: Scene, clip: Clip, engines: list[Engine]) -> list[Divergence]:
    """The engines (in the given order) whose playback of ``clip`` is visibly not the spec's, with causes.
    Nothing for a clip longer than ``MAX_FRAMES`` at ``FPS`` or with more than ``KEYS`` keys: its diffs would
    not fit a library run's limits (``animview diff --engine`` measures it)."""
    if not clip.duration * FPS <= MAX_FRAMES or sum(len(c.curve.times) for c in clip.channels) > KEYS:
        return []
    played = Played(scene, clip)
    groups: dict[bytes, list[tuple[Engine, np.ndarray]]] = {}
    for engine in engines:
        values = played.by(engine)
        if not played.unseen(values):  # equal poses, or turns too small to show: nothing to measure
            groups.setdefault(np.ascontiguousarray(values).tobytes(), []).append((engine, values))
    found = []
    for group in groups.values():
        report = _diff(played, group[0][0])
        if visible(report):
            of = len(played.all_times) if len(played.times) < len(played.all_times) else 0
            found += [Divergence(e, causes(played, e, values, report), report, of) for e, values in group]
    order = {e.name: i for i, e in enumerate(engines)}
    return sorted(found, key=lambda d: order[d.engine.name])


class Played:
    """One clip's channel values at the diff's times as the spec plays it, and the test of another playback's
    values against them that needs no diff (``unseen``)."""

    def __init__(self, scene: Scene, clip: Clip) -> None:
        self.scene, self.clip = scene, clip
        self.all_times = diff_times(clip, None, FPS)
        self.prepared = prepare(scene, scene, VERTICES, keep=True)  # every diff of the clip: A is the spec's
        self.times = thinned(self.all_times, clip.key_times, WORK // max(1, len(scene.nodes)))
        self.spec = clip.sample(self.times)
        self._limit: float | None = None

    def by(self, engine: Engine) -> np.ndarray:
        return engine.sample(self.clip, self.scene, self.times)

    def unseen(self, values: np.ndarray) -> bool:
        """Values that pose the scene as the spec's do, or turn it by less than can show: equal channel values
        are equal poses; differences in rotations alone are bounded by ``unseen_turn`` (computed once)."""
        if _same(values, self.spec):
            return True
        turned = rotation_only(self.clip, self.spec, values)
        if turned is None:
            return False
        if self._limit is None:
            self._limit = unseen_turn(self.scene, self.clip, self.times)
        return turned <= self._limit


def thinned(times: np.ndarray, keys: np.ndarray, count: int) -> np.ndarray:
    """At most ``count`` (≥ 2) of ``times``: the first and last, then the key times (where engines part:
    steps, tangents, duplicate keys), then the midpoints and the grid, each an even subset when too many."""
    count = max(2, count)
    if len(times) <= count:
        return times
    out = np.array([times[0], times[-1]])
    for group in (np.intersect1d(times, keys), np.setdiff1d(times, keys)):
        room = count - len(out)
        if room <= 0:
            break
        group = np.setdiff1d(group, out)
        pick = np.unique(np.linspace(0, len(group) - 1, min(room, len(group))).round().astype(np.int64))
        out = np.union1d(out, group[pick] if len(group) else group)
    return out


def rotation_only(clip: Clip, spec: np.ndarray, values: np.ndarray) -> float | None:
    """The sum over rotation channels of each one's largest turn (radians) away from the spec's, when no other
    channel that moves a node or vertex differs (None: one does; material, camera and light values move
    nothing the diff measures). Rotation blends (``rotation-lerp``) differ so, by millionths of a radian:
    ``unseen_turn`` says when that cannot show, without a diff."""
    rotation = np.array([ch.curve.rotation for ch in clip.channels], bool)
    moves = np.array([ch.consumer == "node" for ch in clip.channels], bool)  # materials, cameras, lights: no
    other = moves & ~rotation
    if rotation.shape[0] != spec.shape[1] or not _same(values[:, other], spec[:, other]):
        return None
    turning = rotation & moves
    a, b = spec[:, turning, :4], values[:, turning, :4]
    a = a / np.linalg.norm(a, axis=-1, keepdims=True)
    b = b / np.linalg.norm(b, axis=-1, keepdims=True)
    sign = np.where(np.sum(a * b, axis=-1, keepdims=True) < 0, -1.0, 1.0)
    chord = np.linalg.norm(a - sign * b, axis=-1)  # 2 sin(angle / 4) for the turn between them
    turn = 4.0 * np.arcsin(np.clip(chord / 2.0, 0.0, 1.0))
    total = float(np.nanmax(turn, axis=0, initial=0.0).sum())
    return total if np.isfinite(total) else None


def unseen_turn(scene: Scene, clip: Clip, times: np.ndarray) -> float:
    """A total turn (radians, summed over channels) that no node or vertex can show: turning a node by θ moves
    a point at most θ × its distance from the node's pivot, and turns compose to at most their sum; every pivot
    and point of the clip lies in its bounds with the nodes' positions (doubled for safety), so below
    ``DISTANCE_REL`` of the size over that reach and below ``ANGLE_DEG``, nothing is visible."""
    lo, hi = clip_bounds(scene, clip)
    pose, step = Pose(scene), chunk_length(len(scene.nodes), 0)
    for k in range(0, len(times) if len(scene.nodes) else 0, step):  # bounded memory: a chunk of times at once
        with np.errstate(over="ignore", invalid="ignore"):
            pivots = pose.world_at(clip, times[k : k + step])[:, :, :3, 3].reshape(-1, 3)
        lo, hi = np.minimum(lo, pivots.min(axis=0)), np.maximum(hi, pivots.max(axis=0))
    reach = 2.0 * float(np.linalg.norm(hi - lo))
    if not np.isfinite(reach):
        return 0.0
    by_distance = DISTANCE_REL * scene_size(scene) / reach if reach > 0 else np.inf
    return min(by_distance, np.radians(ANGLE_DEG))


def visible(report: dict) -> bool:
    """A diff report's clip shows: past ``DISTANCE_REL`` of the size, or a node turned past ``ANGLE_DEG``."""
    return report["max_distance_rel"] > DISTANCE_REL or report["max_angle_deg"] > ANGLE_DEG


def switched_off(engine: Engine, cause: str) -> Engine | None:
    """``engine`` playing the part named ``cause`` as the spec does (None: a cause this table does not know)."""
    names = [name for name in SWITCHES.get(cause, ()) if name in DEFAULTS]
    return replace(engine, **{name: DEFAULTS[name] for name in names}) if names else None


def causes(played: Played, engine: Engine, values: np.ndarray, report: dict) -> tuple[str, ...]:
    """Which of ``engine``'s behaviours make its divergence on the clip.

    In order of cost: a behaviour that, switched off, leaves the spec's pose (``Played.unseen``) explains it
    all; one whose switch changes nothing is no cause; the rest get a diff each, and those whose absence leaves
    nothing visible are the causes — or, when no single one does (two departures that each show), every one
    whose absence lessens the divergence, the largest first. ``unexplained`` if none does.
    """
    candidates = []
    for b in engine.behaviours:
        off = switched_off(engine, b.cause)
        if off is None:
            continue
        without = played.by(off)
        if played.unseen(without):
            return (b.cause,)
        if not _same(without, values):
            candidates.append((b.cause, off))
    if len(candidates) == 1:
        return (candidates[0][0],)
    hot = hot_times(played, report)
    remaining = [(cause, _diff(played, off, hot)) for cause, off in candidates]
    alone = tuple(cause for cause, r in remaining if not visible(r))
    if alone:
        return alone
    lessened = [(r["max_distance_rel"], cause) for cause, r in remaining if _less(r, report)]
    return tuple(cause for _, cause in sorted(lessened)) or ("unexplained",)


def hot_times(played: Played, report: dict) -> np.ndarray:
    """The times a behaviour's share is measured at: where the engine's divergence shows by distance (with the
    worst time), all of them when it shows by a turn alone. A cause must remove the divergence where it is, so
    each candidate costs a diff over a handful of times, not over the whole clip."""
    over = np.asarray(report["over_time"], dtype=np.float64).reshape(-1, 2)
    limit = DISTANCE_REL * played.prepared.size
    hot = over[over[:, 1] > limit]
    worst = hot[np.argsort(-hot[:, 1], kind="stable")[:HOT], 0]  # a divergence over the whole clip: its peaks
    return np.union1d(worst, [report["worst"]["t"]]) if len(hot) else played.times


def finding(clip: Clip, found: list[Divergence]) -> Finding:
    """One line naming every diverging engine with its causes, size, time and worst node, engines in
    ``viewer.engines.NAMES``' order so two runs' reports read alike; ``count``: how many engines."""
    parts = []
    for d in found:
        r, worst = d.report, d.report["worst"]
        node = worst["node"]
        if r["max_distance_rel"] <= DISTANCE_REL and r["nodes"]:  # visible by its turn only: the most turned node
            top = max(r["nodes"], key=lambda e: e["max_angle_deg"])
            node, t = top["name"], top["t"]
        else:
            t = worst["t"]
        size = f"{r['max_distance']:.3g} = {100 * r['max_distance_rel']:.3g} %"
        angle = f", {r['max_angle_deg']:.3g}°" if r["max_angle_deg"] > ANGLE_DEG else ""
        parts.append(f"{d.engine.title} ({'+'.join(d.causes)}, {size}{angle} at t={t:.4g} s, node {node!r})")
    n = len(found)
    text = f"plays visibly differently in {n} engine{'s' if n != 1 else ''} (distance = % of the scene size"
    if found[0].of_times:
        text += f"; measured at {found[0].report['times']} of {found[0].of_times} times, a scene this large"
    text += "): "
    text += "; ".join(parts)
    return Finding("engine-divergence", f"/animations/{clip.index}", shorten(text, MESSAGE_CHARS), n)


def _diff(played: Played, engine: Engine, times: np.ndarray | None = None) -> dict:
    """The diff report's clip of the played clip as the spec plays it against ``engine``'s playback, at the
    played times (or ``times``). Posing may warn of undrawable nodes: the load's findings have said so already."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", GltfWarning)
        report = diff_scenes(
            played.scene,
            played.scene,
            only=played.clip,
            engines=(None, engine),
            prepared=played.prepared,
            times=played.times if times is None else times,
            rows=ROWS,
        )
        return report["clips"][0]


def _less(r: dict, than: dict) -> bool:
    """Report clip ``r`` diverges less than ``than`` (by distance, else by angle)."""
    return r["max_distance"] < than["max_distance"] or (
        r["max_distance"] == than["max_distance"] and r["max_angle_deg"] < than["max_angle_deg"]
    )


def _same(a: np.ndarray, b: np.ndarray) -> bool:
    return a.shape == b.shape and bool(np.array_equal(a, b, equal_nan=True))
