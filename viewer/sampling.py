"""Sampling reports: the data behind ``animview sample`` (schema in DESIGN.md), usable from Python too."""
from __future__ import annotations

from typing import Sequence

import numpy as np

from viewer import math3d
from viewer.animation.clip import Clip
from viewer.scene import Scene


def default_times(clip: Clip) -> np.ndarray:
    """Every key time of the clip plus the midpoints between consecutive key times (seconds)."""
    keys = clip.key_times
    if len(keys) < 2:
        return keys.copy()
    return np.sort(np.concatenate([keys, 0.5 * (keys[:-1] + keys[1:])]))


def even_times(clip: Clip, steps: int) -> np.ndarray:
    """``steps`` evenly spaced times from 0 to the clip's end, both included."""
    return np.linspace(0.0, clip.duration, steps) if steps > 1 else np.zeros(1)


def clip_report(clip: Clip, times: np.ndarray, mode: str = "authored") -> dict:
    """One animation's samples: per time, per targeted node, per animated path, its value."""
    values = clip.sample(np.asarray(times, dtype=np.float64), mode)  # (F, C, W), one batch call
    rot = np.array([ch.path == "rotation" for ch in clip.channels], dtype=bool)
    if rot.any():
        values[:, rot, :4] = math3d.quat_normalize(values[:, rot, :4])
    samples = []
    for f, t in enumerate(times):
        nodes: dict[str, dict[str, list[float]]] = {}
        for c, ch in enumerate(clip.channels):
            nodes.setdefault(str(ch.node), {})[ch.path] = values[f, c, : ch.width].tolist()
        samples.append({"t": float(t), "nodes": nodes})
    return {"index": clip.index, "name": clip.name, "duration": clip.duration, "samples": samples}


def sample_animations(scene: Scene, animation: int | None = None, times: Sequence[float] | None = None,
                      steps: int | None = None, mode: str = "authored") -> dict:
    """The ``sample --json`` document for one animation (``animation``) or all of them.

    Without ``times`` or ``steps``: every key time plus midpoints, per clip.
    """
    clips = scene.clips if animation is None else (scene.clips[animation],)
    out = []
    for clip in clips:
        if times is not None:
            ts = np.asarray(times, dtype=np.float64)
        elif steps is not None:
            ts = even_times(clip, steps)
        else:
            ts = default_times(clip)
        out.append(clip_report(clip, ts, mode))
    return {"animations": out}
