"""One clip reduced until nothing that shows moves more than E: plan, measure in world space, tighten, repeat.

Each round plans every channel whose tolerance changed (``channels``), poses the reduced clip against the
original (``measure``) and tightens the channels above any node found over E (``budget.tighten``). After
``ROUNDS`` rounds a channel still over is written exactly as the file had it, so the loop always ends within
the bound. The clip keeps its first and last time: a channel that would collapse while it alone reaches
the clip's start or end keeps those two keys.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from viewer.animation import modes
from viewer.animation.clip import Clip
from viewer.pose.pose import Pose
from viewer.reduce import channels as chans
from viewer.reduce.budget import Budget, above, adjust, make_budget
from viewer.reduce.levers import Boxes, reach
from viewer.reduce.measure import Measure, dense_times

ROUNDS = 5  # rounds measured at thinned times (each node's worst times kept)
FULL_ROUNDS = 3  # rounds at every time for the chosen plan
THIN_TIMES = 2048
ROUNDOFF = 1e-12  # of the scene size
GAIN = 0.01  # a feasible round that saves less than this share of the best one's bytes ends the search
LEVER_TIMES = 64  # times the levers are measured at


@dataclass
class Reduced:
    """A clip's outcome: per channel its plan, per node the world error measured, per channel the pointer
    error, and the rounds it took."""

    clip: Clip
    plans: list[chans.Planned]
    node_error: np.ndarray
    pointer_error: np.ndarray
    budget: Budget
    rounds: int
    stored: list

    def measured_clip(self) -> Clip:
        return as_clip(self.clip, self.plans, self.budget)


def stored_types(doc, clip: Clip) -> list[chans.Stored]:
    """Each channel's output storage in the file (a quantized file stays quantized)."""
    anim = doc.raw.get("animations", [])[clip.index] if clip.index < len(doc.raw.get("animations", [])) else None
    out = []
    inputs = [s.get("input") for s in anim.get("samplers", [])] if anim else []
    for ch in clip.channels:
        try:
            sampler = anim["samplers"][ch.sampler]
            acc = doc.raw["accessors"][sampler["output"]]
            share = max(1, inputs.count(sampler["input"]))
            out.append(chans.Stored(int(acc.get("componentType", 5126)), bool(acc.get("normalized", False)), share))
        except (KeyError, IndexError, TypeError):
            out.append(chans.Stored())
    return out


def as_clip(clip: Clip, plans: list[chans.Planned], budget: Budget) -> Clip:
    """The reduced clip as the viewer plays it: a dropped channel as one key at its rest value."""
    out = []
    for p, rest in zip(plans, budget.rest):
        if p.channel is not None:
            out.append(p.channel)
            continue
        src = p.source
        value = np.asarray(rest, np.float64).reshape(1, -1)
        out.append(
            replace(src, curve=modes.Curve(src.curve.times[:1], value, None, None, src.curve.rotation, "LINEAR"))
        )
    return Clip(clip.name, clip.index, out)


def reduce_clip(
    pose: Pose, clip: Clip, error: float, boxes: Boxes, size: float, stored, meshopt: bool = False
) -> Reduced:
    scene = pose.scene
    if not clip.channels:  # every channel set aside (no target, an unknown path): nothing to reduce
        zero = np.zeros(len(scene.nodes))
        budget = Budget(np.zeros(0), np.zeros(0), [], [], np.zeros(0, np.int64), np.zeros(0, bool))
        return Reduced(clip, [], zero, np.zeros(0), budget, 0, stored)
    times = dense_times(clip)
    few = times[np.unique(np.linspace(0, len(times) - 1, min(LEVER_TIMES, len(times))).round().astype(np.int64))]
    with np.errstate(all="ignore"):
        world = pose.world_at(clip, few)
    if not np.isfinite(world).all():
        raise ValueError(
            f"animation {clip.index} ({clip.name!r}) poses nodes beyond float range: no world distance to bound"
        )
    budget = make_budget(scene, clip, error, reach(scene, world, boxes, size), world)
    measure = Measure(pose, clip, boxes, times)
    cache: dict = {"meshopt": meshopt}
    every = np.ones(len(clip.channels), dtype=bool)
    plans = _plan(clip, budget, stored, every, [None] * len(clip.channels), cache)
    thin = times[np.unique(np.linspace(0, len(times) - 1, min(THIN_TIMES, len(times))).round().astype(np.int64))]
    best, hot = None, np.zeros(0)
    error = error + ROUNDOFF * size  # two evaluators of one curve part by float round-off, not by motion
    for rounds in range(1, ROUNDS + 1):
        node_err, chan_err = measure.errors(as_clip(clip, plans, budget), np.union1d(thin, hot))
        hot = np.union1d(hot, measure.worst_t)
        bad = ~budget.world & (chan_err > budget.base)
        if not (node_err > error).any() and not bad.any():
            cost = sum(p.bytes_after for p in plans)
            if best is not None and cost > (1.0 - GAIN) * best[0]:
                break  # growing the shares no longer pays: keep the best plan found
            best = (cost, plans, budget.share.copy(), budget.base.copy())
        budget.base[bad] *= 0.5
        changed = adjust(scene, budget, node_err, error) | bad
        if not changed.any():
            break
        plans = _plan(clip, budget, stored, changed, plans, cache)
    if best is not None:
        _, plans, budget.share[:], budget.base[:] = best
    for _ in range(FULL_ROUNDS):  # the chosen plan at every time; where a time between the thinned ones is over,
        node_err, chan_err = measure.errors(as_clip(clip, plans, budget))  # tighten until it is not
        bad = ~budget.world & (chan_err > budget.base)
        if not (node_err > error).any() and not bad.any():
            return Reduced(clip, plans, node_err, chan_err, budget, rounds, stored)
        budget.base[bad] *= 0.5
        changed = adjust(scene, budget, node_err, error, grow=False) | bad
        plans = _plan(clip, budget, stored, changed, plans, cache)
        rounds += 1
    over = above(scene, budget, node_err, error) | bad  # still over: those channels go back to the file's keys
    plans = [chans.keep(p.source, s) if o else p for p, s, o in zip(plans, stored, over)]
    node_err, chan_err = measure.errors(as_clip(clip, plans, budget))
    return Reduced(clip, plans, node_err, chan_err, budget, rounds, stored)


def _plan(clip: Clip, budget: Budget, stored, which: np.ndarray, plans: list, cache: dict) -> list:
    meshopt = cache.get("meshopt", False)
    idx = np.flatnonzero(which)
    if len(idx):
        tol = budget.tol
        new = chans.plan_channels(
            [clip.channels[i] for i in idx],
            tol[idx],
            [budget.scale[i] for i in idx],
            [budget.rest[i] for i in idx],
            [stored[i] for i in idx],
            cache,
            meshopt,
        )
        plans = list(plans)
        for i, p in zip(idx.tolist(), new):
            plans[i] = p
    return _keep_ends(clip, plans, budget, stored)


def _keep_ends(clip: Clip, plans: list, budget: Budget, stored) -> list:
    """The clip's first and last times survive: where no planned channel reaches one, a channel that did
    keeps its first and last keys (as a still channel: its value did not change beyond tolerance)."""
    if not clip.channels:
        return plans
    plans = list(plans)
    lo, hi = min(float(c.curve.times[0]) for c in clip.channels), clip.duration
    for start in (True, False):
        reaches = (lambda t: float(t[0]) <= lo) if start else (lambda t: float(t[-1]) >= hi)
        if any(reaches(p.channel.curve.times) for p in plans if p.channel is not None):
            continue
        for k, p in enumerate(plans):
            if reaches(p.source.curve.times):
                plans[k] = chans.ends(p, stored[k], budget.rest[k])
                break
    return plans
