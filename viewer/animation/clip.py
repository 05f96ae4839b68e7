"""Channels and clips: what an animation animates, and sampling it at any time in any mode.

Sampling returns arrays and changes nothing: ``pose.py`` is the only place values reach nodes.
A clip runs from 0 to the largest key time of its samplers (glTF 2.0 §3.11); times outside that
range simply hold the first / last keys — looping and clamping belong to ``playback/clock.py``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Sequence

import numpy as np

from viewer.animation import modes
from viewer.animation.table import ChannelTable
from viewer.animation.windows import WindowedTable, is_long
from viewer.gltf.object_model import same_property

PATH_WIDTH = {"translation": 3, "rotation": 4, "scale": 3}


@dataclass(frozen=True)
class Channel:
    """One animated property: a node's TRS, weights or visibility, or (through KHR_animation_pointer) a
    material's, camera's or light's.

    Attributes:
        node: glTF node index; -1 for a property of a material, camera or light.
        path: for nodes "translation", "rotation", "scale", "weights" or "visible"; otherwise the Object
            Model field (``object_model.Property.field``: "baseColorFactor", "base.offset", "yfov", …).
        curve: the sampler's keys.
        sampler: index of the sampler in its glTF animation (for the UI and error messages).
        pointer: the KHR_animation_pointer pointer the file wrote ("" for a plain channel).
        element: for a pointer to one morph weight (/nodes/N/weights/K), K; else None.
        consumer, index: who uses the values — "node", "material", "camera" or "light" — and which one.
    """

    node: int
    path: str
    curve: modes.Curve
    sampler: int = 0
    pointer: str = ""
    element: int | None = None
    consumer: str = "node"
    index: int = -1

    def __post_init__(self) -> None:
        if self.consumer == "node" and self.index < 0:
            object.__setattr__(self, "index", self.node)

    @property
    def width(self) -> int:
        return int(self.curve.values.shape[1])

    def label(self, node_names: Sequence[str]) -> str:
        """How the UI names it: ``"LeftArm · rotation"``, ``"Face · weights[2]"``, ``"material 0 · baseColorFactor"``
        (objects by index: names may repeat, be empty or hold any character)."""
        if self.consumer != "node":
            return f"{self.consumer} {self.index} · {self.path}"
        element = f"[{self.element}]" if self.element is not None else ""
        return f"{node_names[self.node]} · {self.path}{element}"

    @property
    def key(self) -> tuple[str, int, str, int | None]:
        """The property written, the same however the file named it (plain path or pointer)."""
        return self.consumer, self.index, self.path, self.element


@dataclass(frozen=True)
class Part:
    """Channels ``start:stop`` of a clip came from glTF animation ``index`` named ``name``, which has
    ``total`` channels (more than ``stop - start`` when later clips of a combination animate the same
    properties)."""

    index: int
    name: str
    start: int
    stop: int
    total: int = -1  # -1: the clip is the whole animation, nothing of it overridden

    @property
    def overridden(self) -> int:
        """Channels of this animation left out because a later clip animates the same property."""
        return max(self.total - (self.stop - self.start), 0)


@dataclass
class Clip:
    """A glTF animation: its channels, duration, and per-mode channel tables (built on first use).

    Attributes:
        name: the animation's name (or "animation K").
        index: glTF animation index (-1 for clips ``combine`` made).
        channels: channels in file order, at most one per (node, path).
        parts: which glTF animation each run of channels came from (one part for a file's clip).
    """

    name: str
    index: int
    channels: Sequence[Channel]
    parts: tuple[Part, ...] = ()
    _tables: dict[str, ChannelTable | WindowedTable] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        self.channels = tuple(self.channels)
        if not self.parts:
            self.parts = (Part(self.index, self.name, 0, len(self.channels)),)
        self.key = self.index if len(self.parts) == 1 else tuple(p.index for p in self.parts)
        """Names this clip among the file's clips and their combinations (caches keyed by clip use it)."""
        ends = [float(c.curve.times[-1]) for c in self.channels]
        self.duration = max(ends, default=0.0)
        # Each distinct times array once: channels often share one (one input accessor), and concatenating
        # it per channel would cost a copy and a sort of every key of a long take.
        times = {id(c.curve.times): np.asarray(c.curve.times, np.float64) for c in self.channels}
        self.key_times = np.unique(np.concatenate(list(times.values()))) if times else np.zeros(0)

    def table(self, mode: str = "authored") -> ChannelTable | WindowedTable:
        """The packed table for ``mode`` (cached: building it is the expensive part); a long clip's is built
        a window of keys at a time (``windows.py``), as times ask for them."""
        if mode not in self._tables:
            if mode not in modes.MODES:
                raise ValueError(f"unknown interpolation mode {mode!r}; choose from {', '.join(modes.MODES)}")
            curves = [c.curve for c in self.channels]
            long = is_long(curves)
            self._tables[mode] = WindowedTable(curves, mode, self.key_times) if long else ChannelTable(curves, mode)
        return self._tables[mode]

    def drop_tables(self) -> None:
        """Forget the built tables (they are rebuilt on use): a huge clip's tables are most of its memory."""
        self._tables.clear()

    def sample(self, t: float | np.ndarray, mode: str = "authored") -> np.ndarray:
        """Every channel's value at t (seconds).

        Args:
            t: one time, or an array of F times.
            mode: interpolation mode (``modes.MODES``); "authored" uses each sampler's own.

        Returns:
            (C, W) for one time, (F, C, W) for many; channel c's value is ``[..., c, :channel.width]``.

        Raises:
            ValueError: a time is NaN or ±inf. There is no one right answer for them (hold the last key
                at +inf? NaN everywhere?), and a silent choice would hide the bug that made them.
        """
        table = self._tables.get(mode) or self.table(mode)
        if type(t) is float or np.ndim(t) == 0:  # the per-frame call: a float, checked without numpy first
            return table.evaluate(finite_time(t))
        times = np.asarray(t, dtype=np.float64).reshape(-1)
        if not np.isfinite(times).all():
            bad = times[~np.isfinite(times)][0]
            raise ValueError(f"sample times must be finite numbers of seconds, got {bad}")
        return table.evaluate_batch(times)

    def sample_chunks(self, times: np.ndarray, mode: str = "authored"):
        """``sample`` of many times, yielded as (first frame, values (f, C, W)) chunks of bounded size, so
        any clip at any number of frames is sampled in bounded memory."""
        from viewer.fast.plan import chunks

        times = np.asarray(times, dtype=np.float64).reshape(-1)
        step = chunks(len(times), len(self.channels), self.table(mode).width).step
        for lo in range(0, len(times), step):
            yield lo, self.sample(times[lo : lo + step], mode)

    def channel_key_times(self, channel: int) -> np.ndarray:
        """Key times (seconds) of one channel, for per-channel keyframe stepping."""
        return np.asarray(self.channels[channel].curve.times, dtype=np.float64)


def finite_time(t: float) -> float:
    """t as a float; ValueError for NaN or ±inf (see ``Clip.sample``), the one wording every sampler uses."""
    t = float(t)
    if not math.isfinite(t):
        raise ValueError(f"sample time must be a finite number of seconds, got {t}")
    return t


def combine(clips: Sequence[Clip]) -> Clip:
    """Several clips as one, to play them together on one clock.

    The combined clip runs to the longest clip's end (``duration``); a shorter clip's channels hold their
    last keys after it,
    as any channel past its last key does. Where two clips animate the same node property, the later clip in
    ``clips`` wins and the earlier channel is left out — one writer per property keeps the pose well defined
    (the order is the caller's: the viewer passes file order, so the later animation wins).
    """
    if len(clips) == 1:
        return clips[0]
    taken: dict[tuple, list] = {}  # (consumer, index, field) → keys taken: only those can be the same property
    kept: list[list[Channel]] = []
    for clip in reversed(clips):
        mine = [c for c in clip.channels if not any(same_property(c.key, k) for k in taken.get(c.key[:3], ()))]
        for c in mine:
            taken.setdefault(c.key[:3], []).append(c.key)
        kept.append(mine)
    kept.reverse()
    channels, parts, start = [], [], 0
    for clip, mine in zip(clips, kept):
        channels += mine
        parts.append(Part(clip.index, clip.name, start, start + len(mine), len(clip.channels)))
        start += len(mine)
    name = " + ".join(c.name for c in clips)
    combined = Clip(name, -1, channels, tuple(parts))
    combined.duration = max(c.duration for c in clips)  # the longest clip's end, even if overridden
    return combined
