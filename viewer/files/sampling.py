"""Sampling reports: the data behind ``animview sample`` (schema in DESIGN.md), usable from Python too."""

from __future__ import annotations

from typing import Sequence

import numpy as np

from viewer.animation.clip import Clip
from viewer.base import math3d
from viewer.base.errors import pointer
from viewer.scene.scene import Scene


def default_times(clip: Clip) -> np.ndarray:
    """Every key time of the clip plus the midpoints between consecutive key times (seconds)."""
    keys = clip.key_times
    if len(keys) < 2:
        return keys.copy()
    return np.sort(np.concatenate([keys, 0.5 * (keys[:-1] + keys[1:])]))


def even_times(clip: Clip, steps: int) -> np.ndarray:
    """``steps`` evenly spaced times from 0 to the clip's end, both included."""
    return np.linspace(0.0, clip.duration, steps) if steps > 1 else np.zeros(1)


def clip_report(clip: Clip, times: np.ndarray, mode: str = "authored", scene: Scene | None = None, engine=None) -> dict:
    """One animation's samples: per time, per targeted node, per animated path, its value; and per
    KHR_animation_pointer pointer to a material, camera or light property, its value.

    A node's weights are always the whole array: where the clip animates single weights
    (``/nodes/N/weights/K``), the others keep their rest values (``scene`` gives them). A node's
    ``visible`` is true or false. Pointer values are in glTF's own terms (radians, linear colours, the
    camera's ``xmag``/``ymag``): a number for a scalar property, a list for a vector. ``engine`` (a
    ``viewer.engines.Engine``, with ``scene``): the values that engine's player shows at those clock times.
    """
    times = np.asarray(times, dtype=np.float64)
    # (F, C, W), one batch call
    values = clip.sample(times, mode) if engine is None else engine.sample(clip, scene, times, mode)
    rot = np.array([ch.curve.rotation for ch in clip.channels], dtype=bool)
    if rot.any():
        values[:, rot, :4] = math3d.quat_normalize(values[:, rot, :4])
    samples = []
    for f, t in enumerate(times):
        nodes: dict[str, dict[str, object]] = {}
        pointers: dict[str, object] = {}
        for c, ch in enumerate(clip.channels):
            value = values[f, c, : ch.width]
            if ch.consumer != "node":
                pointers[ch.pointer] = float(value[0]) if ch.width == 1 else value.tolist()
                continue
            node = nodes.setdefault(str(ch.node), {})
            if ch.path == "visible":
                node["visible"] = bool(value[0] >= 0.5)
            elif ch.element is not None:  # one weight: the rest of the array as it rests
                rest = scene.nodes.weights[ch.node] if scene is not None else None
                weights = node.setdefault("weights", [] if rest is None else rest.tolist())
                weights.extend([0.0] * (ch.element + 1 - len(weights)))
                weights[ch.element] = float(value[0])
            else:
                node[ch.path] = value.tolist()
        sample = {"t": float(t), "nodes": nodes}
        if pointers:
            sample["pointers"] = pointers
        samples.append(sample)
    report = {"index": clip.index, "name": clip.name, "duration": clip.duration, "samples": samples}
    if engine is not None:
        report["engine"] = {
            "name": engine.name,
            "title": engine.title,
            "version": engine.version,
            "player": engine.player,
        }
    if scene is not None:
        report["ignored"] = {
            pointer("animations", a, "channels", c): why
            for (a, c), why in sorted(scene.document.ignored_channels.items())
            if a == clip.index
        }
    return report


def sample_animations(
    scene: Scene,
    animation: int | None = None,
    times: Sequence[float] | None = None,
    steps: int | None = None,
    mode: str = "authored",
    engine=None,
) -> dict:
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
        out.append(clip_report(clip, ts, mode, scene, engine))
    return {"animations": out}
