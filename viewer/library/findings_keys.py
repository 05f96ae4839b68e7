"""Key-level checks of one animation channel: what its own key times and values do wrong for animators.

Each check takes a ``Place`` (one channel as the file wrote it: animation, channel and sampler indices, how a
person names its target, its keys) and returns the one ``Finding`` it makes for that channel, or None. Keys are
judged with numpy over the whole channel at once; the only Python loop is the caller's, over channels.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import numpy as np

from viewer.animation.modes import Curve, resolve
from viewer.base.errors import pointer, shorten
from viewer.library.report import Finding

NEAR_DUPLICATE_S = 1e-4  # a tenth of a millisecond: no frame rate samples between two such keys
ZERO_SCALE = 1e-12  # below this a scale component collapses the node as surely as 0 does
MAX_TRANSLATION = 1e6  # scene units (a thousand km at metre scale): no rig means that
MAX_SCALE, MIN_SCALE = 1e4, 1e-6
MAX_WEIGHT = 100.0  # morph weights are authored around 0..1; a hundred times a target is a typo or garbage
MAX_TIME_S = 86400.0  # a day: a key time in ticks or milliseconds read as seconds
ROTATION_NORM_TOL = 1e-2  # unit quaternions are the spec's rule; exporters round far less than this
NAME_CHARS = 40


def one_line(text: str) -> str:
    """``text`` with every line break (``str.splitlines``'s, so U+2028 too) folded into a space."""
    return " ".join(text.splitlines())


def quoted_name(raw_object: dict | None) -> str:
    """`` "LeftArm"`` (leading space) for an object with a name, escaped and shortened; "" without one."""
    name = raw_object.get("name") if isinstance(raw_object, dict) else None
    if not isinstance(name, str) or not name:
        return ""
    return " " + json.dumps(shorten(name, NAME_CHARS), ensure_ascii=False)


def at_key(k: int, t: float) -> str:
    """``key 17, t = 1.42 s``"""
    return f"key {k}, t = {t:.4g} s"


@dataclass(frozen=True)
class Place:
    """One channel of a clip, where the file keeps it and how a message names it.

    Attributes:
        animation, channel, sampler: the file's indices (the channel index counts ignored channels too).
        label: what it animates, for a person: ``node 3 "LeftArm" rotation``.
        curve: the sampler's keys (``viewer.animation.modes.Curve``).
        path: the animated property (``Channel.path``); node: the node it animates, -1 for other objects.
    """

    animation: int
    channel: int
    sampler: int
    label: str
    curve: Curve
    path: str
    node: int = -1

    @property
    def mode(self) -> str:
        """How the file plays it: "step", "linear" or "cubicspline" (booleans and integers always step)."""
        return resolve("authored", self.curve)

    @property
    def channel_pointer(self) -> str:
        return pointer("animations", self.animation, "channels", self.channel)

    def sampler_pointer(self, *rest: object) -> str:
        return pointer("animations", self.animation, "samplers", self.sampler, *rest)

    @property
    def node_property(self) -> str:
        """The node property written ("translation", "rotation", "scale", "weights"), "" for other objects."""
        return self.path if self.node >= 0 else ""

    def finding(self, code: str, where: str, text: str, count: int) -> Finding:
        return Finding(code, where, one_line(f"{self.label}: {text}"), int(count))

    def flagged(self, code: str, side: str, bad: np.ndarray, text) -> Finding | None:
        """One finding at the sampler's ``side`` ("input" or "output") over the keys (or intervals) where ``bad``
        holds, or None; ``text(count, first)`` words it."""
        hits = np.flatnonzero(bad)
        if not hits.size:
            return None
        return self.finding(code, self.sampler_pointer(side), text(int(hits.size), int(hits[0])), hits.size)


def rotation_flip(place: Place) -> Finding | None:
    """Consecutive LINEAR rotation keys whose quaternions have a negative dot product.

    q and −q are one rotation, so such keys are less than 180° apart as orientations, but the authored 4D arc
    between them is longer than a half turn: the spec's slerp takes the shortest path (flipping the sign),
    while engines and tools that interpolate the stored components naively swing the long way round, a
    visible spin of the limb. Usually an exporter that did not keep neighbouring keys in one hemisphere.
    """
    if place.mode != "linear" or not place.curve.rotation or len(place.curve.times) < 2:
        return None
    q, t = np.asarray(place.curve.values, np.float64), place.curve.times
    return place.flagged(
        "rotation-flip",
        "output",
        np.einsum("ij,ij->i", q[1:], q[:-1]) < 0.0,
        lambda n, k: (
            f"{n} of {len(q) - 1} intervals turn more than 180° as stored (slerp takes the short way, "
            f"naive interpolation the long one; first from key {k} to {k + 1}, "
            f"t = {t[k]:.4g} s to {t[k + 1]:.4g} s)"
        ),
    )


def near_duplicate_keys(place: Place) -> Finding | None:
    """Consecutive key times closer than a tenth of a millisecond.

    They are strictly increasing (validation refuses the rest), but no frame ever falls between them: the
    second key is a hidden jump (a value change in zero time), and resampling tools divide by the gap.
    Usually two takes spliced together or times rounded from frames at different rates.
    """
    t = np.asarray(place.curve.times, np.float64)
    gaps = np.diff(t)
    return place.flagged(
        "near-duplicate-keys",
        "input",
        gaps < NEAR_DUPLICATE_S,
        lambda n, k: (
            f"{n} of {len(gaps)} key intervals are shorter than 0.1 ms (first at "
            f"{at_key(k + 1, t[k + 1])}, {gaps[k] * 1e3:.3g} ms after the key before)"
        ),
    )


def zero_scale(place: Place) -> Finding | None:
    """Scale keys with a component of zero (or under 1e-12).

    A zero scale hides the node and its whole subtree, and makes its matrix singular: normals, inverse
    matrices and decompositions in engines and DCC tools turn to NaN or garbage there. Sometimes meant (to
    hide a prop), often an interpolation accident; either way the animator should know where.
    """
    if place.node_property != "scale":
        return None
    v, t = np.asarray(place.curve.values, np.float64), place.curve.times
    return place.flagged(
        "zero-scale",
        "output",
        (np.abs(v) < ZERO_SCALE).any(axis=1),
        lambda n, k: (
            f"{n} of {len(v)} keys scale to zero: the node and its children are hidden and "
            f"its matrix is singular there (first at {at_key(k, t[k])})"
        ),
    )


def absurd_times(place: Place) -> Finding | None:
    """Key times beyond a day: almost always ticks or milliseconds read as seconds, so the clip's real motion
    is squeezed into its first instant and the timeline is unusable."""
    t = np.asarray(place.curve.times, np.float64)
    return place.flagged(
        "absurd-value",
        "input",
        t > MAX_TIME_S,
        lambda n, k: (
            f"{n} of {len(t)} key times are later than a day (86400 s), e.g. "
            f"{at_key(k, t[k])}: milliseconds or ticks stored as seconds?"
        ),
    )


def absurd_values(place: Place) -> Finding | None:
    """Finite key values no animator means: translations beyond 1e6 units, scales beyond 1e4 or under 1e-6
    (but not zero, which ``zero_scale`` reports), morph weights beyond ±100, rotations whose quaternion is
    off unit length by more than 1 % (validation accepts any finite quaternion; engines normalize, or not,
    and then disagree). Usually unit mix-ups (centimetres, degrees) or uninitialised memory.

    The translation bound is absolute, not relative to the model's size: the rest bounds need every mesh
    posed and skinned, and a rig in centimetres under a 0.01 root scale would look absurd to a relative rule.
    """
    prop, v, t = place.node_property, np.asarray(place.curve.values, np.float64), place.curve.times
    if prop == "translation":
        size = np.linalg.norm(v, axis=1)
        bad, what = size > MAX_TRANSLATION, f"are farther than {MAX_TRANSLATION:.0e} units from the parent's origin"
    elif prop == "scale":
        size = np.abs(v).max(axis=1)
        tiny = ((np.abs(v) < MIN_SCALE) & (np.abs(v) >= ZERO_SCALE)).any(axis=1)
        bad, what = (size > MAX_SCALE) | tiny, f"scale by more than {MAX_SCALE:.0e} or less than {MIN_SCALE:.0e}"
        size = np.where(tiny, np.abs(v).min(axis=1), size)
    elif prop == "weights":
        size = np.abs(v).max(axis=1)
        bad, what = size > MAX_WEIGHT, f"have a morph weight beyond ±{MAX_WEIGHT:.0f}"
    elif place.curve.rotation:
        size = np.linalg.norm(v, axis=1)
        bad, what = np.abs(size - 1.0) > ROTATION_NORM_TOL, "are not unit quaternions (length off 1 by over 1 %)"
    else:
        return None
    return place.flagged(
        "absurd-value",
        "output",
        bad,
        lambda n, k: f"{n} of {len(v)} keys {what} (first at {at_key(k, t[k])}: {size[k]:.3g})",
    )


def shared_times(curves: list[Curve]) -> np.ndarray:
    """Key times that two or more of the clip's channels have (each channel's times are strictly increasing,
    so a time counted twice comes from two channels). A times array several channels share (one input
    accessor) is read once, and every time in it counts as shared."""
    arrays: dict[int, np.ndarray] = {}
    users: dict[int, int] = {}
    for c in curves:
        arrays[id(c.times)] = np.asarray(c.times, np.float64)
        users[id(c.times)] = users.get(id(c.times), 0) + 1
    if not arrays:
        return np.zeros(0)
    times, counts = np.unique(np.concatenate(list(arrays.values())), return_counts=True)
    repeated = [a for k, a in arrays.items() if users[k] >= 2]
    return np.union1d(times[counts >= 2], np.concatenate(repeated)) if repeated else times[counts >= 2]


def step_on_key(place: Place, shared: np.ndarray, end: float) -> Finding | None:
    """STEP keys (after the first) at exactly the time of another channel's key, before the clip's end.

    Exactly at a STEP key's time the spec shows the new key, but engines that search intervals as
    (t[k-1], t[k]] show the previous one. Frame-exact tools sample exactly at key times, and do so whenever
    another channel has a key there (baked files put every channel on the frame grid), so the two readings
    give different poses on that frame. Not counted: the channel's first key (nothing before it, every
    reading agrees) and keys at the clip's last time (a looping player shows t = 0 there instead, and a
    clamped one holds the last key from that instant on).
    """
    if place.mode != "step" or len(place.curve.times) < 2:
        return None
    t = np.asarray(place.curve.times, np.float64)
    bad = np.zeros(len(t), dtype=bool)
    bad[1:] = np.isin(t[1:], shared) & (t[1:] < end)
    return place.flagged(
        "step-on-key",
        "input",
        bad,
        lambda n, k: (
            f"{n} of {len(t)} STEP keys fall exactly on other channels' key times, where engines disagree whether "
            f"the frame shows the old or the new value (first at {at_key(k, t[k])})"
        ),
    )


KEY_CHECKS = (rotation_flip, near_duplicate_keys, zero_scale, absurd_times, absurd_values)
