"""``animview bake FILE --engine E``: a copy of the file that plays, in any engine, the way E played the original.

When a team ships to one runtime and the animation was approved there, the motion the runtime showed is the
reference — its left-continuous STEP keys, its unscaled cubic tangents, its loop at the end included. Baking
samples E's playback (``Engine.clip`` at the player's time, ``Engine.player_time``) and writes it as plain keys
the spec leaves no room to read differently:

* LINEAR (a rotation slerps, normalized, shortest arc) at 0, 1/fps, … up to the clip's end, at every key
  time of the emulated clip, and at the last float32 time before the end, so a player that wraps at the end
  (three.js's first pose at t == duration) jumps there and not over a whole frame;
* STEP channels as STEP at the emulated clip's own key times — rounded up to float32, so a key E moved one
  float later (the old value at the key's time) stays after the stored time — and at 0 and the end.

Every stored time is a float32 value and each key holds E's value at exactly that time, so the spec's playback
of the copy equals E's playback of the original at every baked time (``tests/files/test_bake_engine.py``).
The rest of the file is copied as ``bake`` copies it (``bake.copy_document``, ``bake.replace_samplers``).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from viewer.animation import modes
from viewer.animation.clip import Clip
from viewer.engines import Engine
from viewer.files import bake, writer
from viewer.scene.scene import Scene

DEFAULT_FPS = 60.0


def float32_up(times: np.ndarray) -> np.ndarray:
    """Each time as the smallest float32 value at or after it (as float64): a STEP key E plays one float after
    a stored time must not be stored at or before that time."""
    t = np.asarray(times, np.float64)
    low = t.astype(np.float32)
    up = np.where(low.astype(np.float64) < t, np.nextafter(low, np.float32(np.inf)), low)
    return up.astype(np.float64)


def engine_times(clip: Clip, played: Clip, fps: float) -> np.ndarray:
    """The LINEAR channels' times: the grid at ``fps``, the original's and the emulated clip's key times
    (float32), and the float32 time just before the end; all within [0, duration]."""
    end = float(np.float32(clip.duration))
    grid = bake.bake_times(clip, fps)
    keys = np.asarray(played.key_times, np.float64).astype(np.float32).astype(np.float64)
    before_end = float(np.nextafter(np.float32(end), np.float32(0.0))) if end > 0 else 0.0
    times = np.union1d(np.union1d(grid, keys), [0.0, before_end, end])
    return times[(times >= 0.0) & (times <= end)]


def engine_bake_clip(scene: Scene, clip: Clip, engine: Engine, fps: float) -> list[bake.BakedChannel]:
    """Every channel of ``clip`` as ``engine`` plays it, written as keys (see the module docstring)."""
    if not clip.channels:
        return []
    played = engine.clip(clip, scene)
    duration = clip.duration
    end = float(np.float32(duration))
    times = engine_times(clip, played, fps)
    sampled = played.sample(engine.player_time(times, duration))
    baked = []
    for c, channel in enumerate(played.channels):
        curve, width = channel.curve, clip.channels[c].width
        if curve.interpolation == "STEP" or curve.discrete:
            own = float32_up(curve.times)
            own = np.union1d(own[own <= end], [0.0, end])
            values = played.sample(engine.player_time(own, duration))[:, c, :width]
            interpolation = "STEP"
        else:
            own, values, interpolation = times, sampled[:, c, :width], "LINEAR"
        if curve.rotation:
            values = values / np.linalg.norm(values, axis=1, keepdims=True)
            values = modes.same_hemisphere(values)
        baked.append(bake.BakedChannel(own, np.ascontiguousarray(values), interpolation))
    return baked


def bake_engine_file(
    scene: Scene, out_path: str | Path, engine: Engine, fps: float | None = None, animation: int | None = None
) -> bake.BakeSummary:
    """Write a copy of ``scene``'s file whose clips (all, or only ``animation``) hold ``engine``'s playback.

    ``fps``: the LINEAR channels' grid (default ``DEFAULT_FPS``), every emulated key time added. Raises a
    one-line ``ValueError`` for the options ``bake.bake_file`` refuses (fps, output name, animation index).
    """
    fps = DEFAULT_FPS if fps is None else fps
    bake.check_options(out_path, "authored", fps, False)
    chosen = bake.chosen_animations(scene, fps, animation)
    w = bake.copy_document(scene.document)
    rows = []
    for a in chosen:
        clip = scene.clips[a]
        baked = engine_bake_clip(scene, clip, engine, fps)
        bake.replace_samplers(w, a, clip, baked, scene.document.ignored_channels)
        rows.append((a, clip.name, len(baked), sum(len(b.times) for b in baked)))
    doc = w.to_dict()
    if not w.bin:
        doc.pop("buffers", None)
    path = writer.save(doc, w.bin_bytes(), out_path)
    return bake.BakeSummary(Path(path), f"as {engine.name} plays it", fps, tuple(rows), path.stat().st_size)
