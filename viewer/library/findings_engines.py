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
from viewer.compare.diff import diff_scenes, diff_times, scene_size
from viewer.engines import NAMES, Engine, get
from viewer.library.report import Finding
from viewer.pose.batch import pose_batch
from viewer.pose.bounds import clip_bounds
from viewer.pose.pose import Pose
from viewer.scene.scene import Scene

ENGINE_NAMES = tuple(n for n in NAMES if n != "spec")  # the spec is what the others are measured against
FPS = 30.0  # the diff's grid; every key time and midpoint is measured too
DISTANCE_REL = 1e-4  # of the scene size: a node or vertex further from the spec's than this is visible
ANGLE_DEG = 0.1  # a node turned further than this from the spec's is visible
MAX_FRAMES = 36_000  # 20 minutes at FPS: longer clips (``absurd-value`` key times, mostly) are not played here
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
    Nothing for a clip longer than ``MAX_FRAMES`` at ``FPS``: its diffs would not fit a library run's limits
    (``animview diff --engine`` measures it)."""
    if not clip.duration * FPS <= MAX_FRAMES:
        return []
    played = Played(scene, clip)
    groups: dict[bytes, list[tuple[Engine, np.ndarray]]] = {}
    for engine in engines:
        values = played.by(engine)
        if not played.unseen(values):  # equal poses, or turns too small to show: nothing to measure
            groups.setdefault(np.ascontiguousarray(values).tobytes(), []).append((engine, values))
    found = []
    for group in groups.values():
        report = _diff(scene, clip, group[0][0])
        if visible(report):
            found += [Divergence(e, causes(played, e, values, report), report) for e, values in group]
    order = {e.name: i for i, e in enumerate(engines)}
    return sorted(found, key=lambda d: order[d.engine.name])


class Played:
    """One clip's channel values at the diff's times as the spec plays it, and the test of another playback's
    values against them that needs no diff (``unseen``)."""

    def __init__(self, scene: Scene, clip: Clip) -> None:
        self.scene, self.clip = scene, clip
        self.times = diff_times(clip, None, FPS)
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
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", GltfWarning)
        pivots = pose_batch(Pose(scene), clip, times).world[:, :, :3, 3].reshape(-1, 3)
    if len(pivots):
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
    remaining = [(cause, _diff(played.scene, played.clip, off)) for cause, off in candidates]
    alone = tuple(cause for cause, r in remaining if not visible(r))
    if alone:
        return alone
    lessened = [(r["max_distance_rel"], cause) for cause, r in remaining if _less(r, report)]
    return tuple(cause for _, cause in sorted(lessened)) or ("unexplained",)


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
    text = f"plays visibly differently in {n} engine{'s' if n != 1 else ''} (distance = % of the scene size): "
    text += "; ".join(parts)
    return Finding("engine-divergence", f"/animations/{clip.index}", shorten(text, MESSAGE_CHARS), n)


def _diff(scene: Scene, clip: Clip, engine: Engine) -> dict:
    """The diff report's clip of ``clip`` as the spec plays it against ``engine``'s playback. Posing may warn
    of undrawable nodes: the load's findings have said so already."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", GltfWarning)
        return diff_scenes(scene, scene, only=clip, fps=FPS, engines=(None, engine))["clips"][0]


def _less(r: dict, than: dict) -> bool:
    """Report clip ``r`` diverges less than ``than`` (by distance, else by angle)."""
    return r["max_distance"] < than["max_distance"] or (
        r["max_distance"] == than["max_distance"] and r["max_angle_deg"] < than["max_angle_deg"]
    )


def _same(a: np.ndarray, b: np.ndarray) -> bool:
    return a.shape == b.shape and bool(np.array_equal(a, b, equal_nan=True))
