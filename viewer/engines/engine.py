"""An engine is an evaluator beside the spec's modes: the file's clip rewritten the way that engine imports and
samples it, and the time its default player shows at each moment.

Most of what runtimes do differently is a change to the keys that the spec's own evaluation then plays
exactly: a STEP switch that shows the old value at the key's own time is a key moved one float later; tangents
an engine does not scale by the key interval are tangents divided by it; a lead-in padded with the first key is
one more key; a sampler an engine skips is the node's rest value; resampling on import is a bake. What cannot be
written as keys — slerp replaced by a component-wise blend for close keys — is a ``Curve`` flag the sampler
knows (``Curve.lerp_above``). So an emulated clip is an ordinary ``Clip`` with the same channels in the same
order: the compiled frame, the pose, the panes, ``diff`` and ``bake`` take it as they take the file's.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass, replace

import numpy as np

from viewer.animation.clip import Channel, Clip
from viewer.animation.modes import Curve
from viewer.engines.rewrite import auto_handles, clamped, normalized_parameter_tangents
from viewer.scene.scene import Scene

PLAYER_ENDS = ("hold", "first", "last")


_KEPT = 32  # rewritten clips kept: a clip's engines and their variants in ``check`` (its causes), the panes'
_REWRITTEN: dict[tuple, tuple[weakref.ref, weakref.ref, Clip]] = {}  # held weakly: a file's scene is not kept alive


@dataclass(frozen=True)
class Behaviour:
    """One way an engine parts from the spec: its cause (``check``'s name for it), where the engine's source
    does it, and what it does, in a line."""

    cause: str
    source: str
    what: str


@dataclass(frozen=True)
class Engine:
    """How one engine imports and plays a clip. Every field's default is the spec's behaviour.

    Attributes:
        name: the command-line name (``three``, ``filament``, …); title and version: what is modelled.
        player: the default player whose looping is modelled, in the engine's own words.
        behaviours: each departure from the spec, with its source.
        step_at_key: "new" — at a STEP key's own time the key's value (the spec); "old" — still the previous.
        step_last: False — a STEP channel never shows its last key's value.
        cubic_tangents: "spec" (× the key interval), "times-u" (× the normalized parameter instead:
            ``rewrite.normalized_parameter_tangents``), "dropped" (the curve plays LINEAR: rotations slerp),
            "auto-handles" (dropped, the values joined by Blender's smoothed AUTO handles: ``rewrite.auto_handles``).
        lerp_above: LINEAR rotations blended component-wise (renormalized) where the keys' dot product is above.
        lerp_renormalized: False — those blends are not renormalized.
        raw_keys: LINEAR rotation keys as stored, the slerp angle acos of their dot (``Curve.raw_keys``).
        lead_in: before a channel's first key: "hold" its value (the spec), "pad" a key at 0 with the first key's
            value and tangents, "rest" the node's rest value until the key.
        pad_tail: a channel that ends before its clip gets a key at the clip's end with its last key's value and
            tangents (which move a CUBICSPLINE channel where the spec holds it).
        zero_length: a clip of duration 0: "hold" its keys (the spec), "rest" (the player never starts).
        resample_fps: the import bakes translation, rotation and scale channels (and CUBICSPLINE weights) to
            keys every 1/fps s from 0 and one at the clip's end, played LINEAR (STEP stays STEP); None: no.
        cubic_weights_interleaved: CUBICSPLINE weights of M > 1 targets read as if each target's in-tangent,
            value and out-tangent were stored together (glTFast's indexing), not in the spec's three blocks.
        min_keys: samplers with fewer keys are not applied (the property keeps its rest value).
        end: the looping player at t ≥ duration: "hold" (no loop: the spec's sampling), "first" (t wraps: at
            t == duration the first pose), "last" (t == duration shows the last pose; later times wrap).
        max_weights: morph weights past this many are not applied (0 on screen).
        weights_clamped: morph weights clamped per target to [min(0, first key), max(1, first key)] (a slider
            range widened from the first key only: ``rewrite.clamped``).
    """

    name: str
    title: str
    version: str
    player: str
    behaviours: tuple[Behaviour, ...] = ()
    step_at_key: str = "new"
    step_last: bool = True
    cubic_tangents: str = "spec"
    lerp_above: float | None = None
    lerp_renormalized: bool = True
    raw_keys: str | None = None
    lead_in: str = "hold"
    pad_tail: bool = False
    zero_length: str = "hold"
    resample_fps: float | None = None
    cubic_weights_interleaved: bool = False
    min_keys: int = 1
    end: str = "hold"
    max_weights: int | None = None
    weights_clamped: bool = False

    def clip(self, clip: Clip, scene: Scene) -> Clip:
        """``clip`` as this engine imports it: the same channels, in the same order, with rewritten keys.
        Kept (``_KEPT``): ``check``, the diff and the panes ask for one engine's clip many times, and one
        rewritten clip keeps poses' bindings and the clip's sampling tables made once. Its ``key`` names the
        engine too: poses key compiled frames by it, and the file's clip must not be mistaken for it."""
        key = (self, id(clip), id(scene))
        kept = _REWRITTEN.get(key)
        if kept is None or kept[0]() is not clip or kept[1]() is not scene:
            channels = [replace(ch, curve=self.curve(ch, scene, clip.duration)) for ch in clip.channels]
            rewritten = Clip(clip.name, clip.index, channels, clip.parts)
            rewritten.key = ("engine", self, clip.key)
            for old in [k for k, (c, s, _) in _REWRITTEN.items() if c() is None or s() is None]:
                del _REWRITTEN[old]  # a file closed, a library worker's previous file: let its clips go
            kept = _REWRITTEN[key] = (weakref.ref(clip), weakref.ref(scene), rewritten)
            while len(_REWRITTEN) > _KEPT:
                _REWRITTEN.pop(next(iter(_REWRITTEN)))
        return kept[2]

    def curve(self, channel: Channel, scene: Scene, duration: float) -> Curve:
        """One channel's keys as this engine plays them in a clip of ``duration`` seconds (see the class's
        attributes for each rewrite)."""
        c = channel.curve
        if len(c.times) < self.min_keys or (duration == 0 and self.zero_length == "rest"):
            return _still(rest_value(channel, scene), c)
        if self.cubic_weights_interleaved and channel.path == "weights" and c.in_tangents is not None:
            c = _interleaved(c)
        if self.resample_fps is not None and (
            channel.path in ("translation", "rotation", "scale")
            or (channel.path == "weights" and c.in_tangents is not None)
        ):
            c = resample(c, self.resample_fps, duration, self.cubic_tangents)
        stepped = c.interpolation == "STEP" or c.discrete
        if c.in_tangents is not None and self.cubic_tangents != "spec":
            rewrites = {"times-u": normalized_parameter_tangents, "auto-handles": auto_handles, "dropped": _linear}
            c = rewrites[self.cubic_tangents](c)
        if c.rotation and c.interpolation == "LINEAR" and c.in_tangents is None:
            c = replace(c, lerp_above=self.lerp_above, lerp_renormalized=self.lerp_renormalized, raw_keys=self.raw_keys)
        if stepped and not self.step_last and len(c.times) > 1:
            c = replace(c, values=np.concatenate([c.values[:-1], c.values[-2:-1]]))
        if stepped and self.step_at_key == "old" and len(c.times) > 1:
            c = replace(c, times=np.concatenate([c.times[:1], np.nextafter(c.times[1:], np.inf)]))
        if c.times[0] > 0 and self.lead_in != "hold":
            c = _lead_in(c, self.lead_in, rest_value(channel, scene))
        if self.pad_tail and c.times[-1] < duration:
            c = _tail(c, duration)
        if self.weights_clamped and channel.path == "weights":
            first = np.asarray(c.values[0], np.float64)
            c = clamped(c, np.minimum(first, 0.0), np.maximum(first, 1.0))
        if self.max_weights is not None and channel.path == "weights" and channel.element is None:
            values = c.values.copy()
            values[:, self.max_weights :] = 0.0
            c = replace(c, values=values)
        return c

    def player_time(self, t: np.ndarray, duration: float) -> np.ndarray:
        """Where this engine's default player is in the clip at clock time ``t`` (seconds)."""
        t = np.asarray(t, dtype=np.float64)
        if self.end == "hold" or duration <= 0:
            return t
        wrapped = np.where(t >= 0, np.mod(t, duration), t)
        if self.end == "last":
            wrapped = np.where((t > 0) & (wrapped == 0), duration, wrapped)
        return wrapped

    def sample(self, clip: Clip, scene: Scene, times: np.ndarray, mode: str = "authored") -> np.ndarray:
        """(F, C, W) values of ``clip`` at clock ``times`` as this engine plays it (in ``mode``)."""
        played = self.clip(clip, scene)
        return played.sample(self.player_time(times, played.duration), mode)


def rest_value(channel: Channel, scene: Scene) -> np.ndarray:
    """The value a property has when no channel animates it (the node's own TRS or weights; the Object
    Model's default otherwise), shaped like one key."""
    width = channel.curve.values.shape[1]
    if channel.consumer == "node" and 0 <= channel.node < len(scene.nodes):
        nodes = scene.nodes
        rest = {"translation": nodes.translation, "rotation": nodes.rotation, "scale": nodes.scale}
        if channel.path in rest:
            return np.asarray(rest[channel.path][channel.node], np.float64)
        if channel.path == "weights" and nodes.weights[channel.node] is not None:
            w = np.asarray(nodes.weights[channel.node], np.float64)
            return w[channel.element : channel.element + 1] if channel.element is not None else np.resize(w, width)
        if channel.path == "visible":
            return np.array([1.0 if nodes.visible[channel.node] else 0.0])
    return np.asarray(channel.curve.values[0], np.float64)


def _still(value: np.ndarray, c: Curve) -> Curve:
    """One key holding ``value`` for ever: a property the engine leaves alone."""
    return Curve(np.zeros(1), np.asarray(value, np.float64)[None, :], None, None, c.rotation, "LINEAR", c.discrete)


def _linear(c: Curve) -> Curve:
    """The tangents ignored: the keys' values joined LINEAR (rotations slerp)."""
    return replace(c, in_tangents=None, out_tangents=None, interpolation="LINEAR")


def _interleaved(c: Curve) -> Curve:
    """Each key's in-tangents, values and out-tangents (3 blocks of M) re-read as M triplets."""
    m = c.values.shape[1]
    if m < 2:
        return c
    block = np.concatenate([c.in_tangents, c.values, c.out_tangents], axis=1).reshape(len(c.times), m, 3)
    return replace(
        c, in_tangents=block[:, :, 0].copy(), values=block[:, :, 1].copy(), out_tangents=block[:, :, 2].copy()
    )


def resample(c: Curve, fps: float, duration: float, cubic_tangents: str = "spec") -> Curve:
    """The curve baked at 0, 1/fps, 2/fps, … and the clip's end, as the engine's import samples it (CUBICSPLINE
    rotations slerped when its ``cubic_tangents`` is "dropped"); LINEAR keys, or STEP for a STEP curve."""
    end = max(duration, float(c.times[-1]))
    times = np.append(np.arange(0.0, end, 1.0 / fps), end) if end > 0 else np.zeros(1)
    times = np.unique(times)
    source = _linear(c) if (c.in_tangents is not None and cubic_tangents == "dropped" and c.rotation) else c
    values = Clip("bake", -1, [Channel(0, "rotation" if c.rotation else "x", source)]).sample(times)[
        :, 0, : c.values.shape[1]
    ]
    stepped = c.interpolation == "STEP" or c.discrete
    return Curve(times, values, None, None, c.rotation, "STEP" if stepped else "LINEAR", c.discrete)


def _tail(c: Curve, duration: float) -> Curve:
    """A key at the clip's end repeating the last key's value and tangents."""
    tangents = {}
    if c.in_tangents is not None:
        tangents = dict(
            in_tangents=np.concatenate([c.in_tangents, c.in_tangents[-1:]]),
            out_tangents=np.concatenate([c.out_tangents, c.out_tangents[-1:]]),
        )
    return replace(c, times=np.append(c.times, duration), values=np.concatenate([c.values, c.values[-1:]]), **tangents)


def _lead_in(c: Curve, how: str, rest: np.ndarray) -> Curve:
    """Keys before the first one: its value (and tangents) at 0, or the rest value up to the first key."""
    if how == "pad":
        tangents = {}
        if c.in_tangents is not None:
            tangents = dict(
                in_tangents=np.concatenate([c.in_tangents[:1], c.in_tangents]),
                out_tangents=np.concatenate([c.out_tangents[:1], c.out_tangents]),
            )
        return replace(
            c, times=np.concatenate([[0.0], c.times]), values=np.concatenate([c.values[:1], c.values]), **tangents
        )
    if how != "rest":
        raise ValueError(f"unknown lead-in {how!r}")
    rest = np.asarray(rest, np.float64)[None, :]
    just_before = np.nextafter(c.times[0], -np.inf)
    times = np.concatenate([[0.0, just_before], c.times]) if just_before > 0 else np.concatenate([[0.0], c.times])
    values = np.concatenate([rest.repeat(len(times) - len(c.times), axis=0), c.values])
    tangents = {}
    if c.in_tangents is not None:
        zeros = np.zeros((len(times) - len(c.times), c.values.shape[1]))
        tangents = dict(
            in_tangents=np.concatenate([zeros, c.in_tangents]), out_tangents=np.concatenate([zeros, c.out_tangents])
        )
    return replace(c, times=times, values=values, **tangents)
