"""``animview bench``: the command's report — speed of sampling and pose updates measured here, and of
rendering (``export.speed``, where an offscreen context exists).

Method: one process, every clip warmed up first (tables built, caches filled), each measurement
repeated and the best run kept (the least disturbed by the rest of the machine).
"""
from __future__ import annotations

import sys
import time
from typing import Callable

import numpy as np

from viewer.pose import Pose
from viewer.scene import Scene

REPEATS = 5


def best_seconds(fn: Callable[[], None], repeats: int = REPEATS) -> float:
    """Wall seconds of the fastest of ``repeats`` calls: the run least disturbed by other work."""
    best = np.inf
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def times_per_clip(scene: Scene, frames: int) -> list[np.ndarray]:
    """Per clip, ``frames`` times spread evenly over the clip (seconds); not ``export.frame_times``,
    which steps by a frame rate for export."""
    return [np.linspace(0.0, clip.duration, frames) for clip in scene.clips]


def measure_sampling(scene: Scene, frames: int) -> dict:
    """Channel samples per second: one call per clip per frame, and one batch call per clip."""
    clips = scene.clips
    times = times_per_clip(scene, frames)
    channels = sum(len(c.channels) for c in clips)
    per_frame_lists = [t.tolist() for t in times]

    def per_frame() -> None:
        for clip, ts in zip(clips, per_frame_lists):
            sample = clip.sample
            for t in ts:
                sample(t)

    def batch() -> None:
        for clip, ts in zip(clips, times):
            clip.sample(ts)

    per_frame()
    batch()
    total = channels * frames
    return {
        "channels": channels,
        "frames": frames,
        "per_frame_channel_samples_per_s": total / best_seconds(per_frame) if total else 0.0,
        "batch_channel_samples_per_s": total / best_seconds(batch) if total else 0.0,
    }


def measure_update(scene: Scene, frames: int) -> float:
    """Milliseconds per frame for sample + world matrices + joint matrices + morph weights."""
    pose = Pose(scene)
    clips = scene.clips or (None,)
    times = times_per_clip(scene, frames) or [np.zeros(frames)]
    skins = range(len(scene.skins))
    mesh_nodes = np.flatnonzero(scene.nodes.mesh >= 0)

    def run() -> None:
        for clip, ts in zip(clips, times):
            for t in ts.tolist():
                pose.set_time(clip, t)
                for s in skins:
                    pose.joint_matrices(s)
                for n in mesh_nodes:
                    pose.node_weights(n)

    run()
    return 1000.0 * best_seconds(run) / (frames * len(clips))


def run_bench(scene: Scene, frames: int = 1000, size: tuple[int, int] = (640, 480),
              render_frames: int = 200) -> dict:
    """Every figure ``animview bench`` reports, keyed exactly as the CLI contract says.

    ``first_frame_s`` (loaded scene → first picture read back) and ``render_fps`` are headless (EGL) at
    ``size`` with read-back every frame: ``render_fps`` with the anti-aliasing ``render`` uses by default
    (``--aa auto``: 4× MSAA, or FXAA on dense meshes; ``render_aa`` names it, and ``render_fps_msaa`` is the
    MSAA figure where auto chose otherwise), ``render_fps_noaa`` without any; they are left out, with a
    one-line warning, on a machine where no offscreen context can be made.
    """
    from viewer import export
    from viewer.export.speed import measure_first_frame, measure_render_fps
    from viewer.render.antialias import choose_for
    from viewer.render.target import DEFAULT_SAMPLES

    result = {}
    try:  # first: a fresh process has compiled no shader yet, as a user's first render has not
        result["first_frame_s"] = measure_first_frame(scene, size)
    except export.HeadlessError as exc:
        print(f"animview bench: no first_frame_s: {exc}", file=sys.stderr)
    result.update(measure_sampling(scene, frames))
    result["update_ms_per_frame"] = measure_update(scene, max(1, frames // 4))
    try:
        result["render_fps"] = measure_render_fps(scene, size=size, frames=render_frames)
        samples, fxaa = choose_for(scene, "auto", DEFAULT_SAMPLES, size)
        result["render_aa"] = "fxaa" if fxaa else f"msaa{samples}" if samples else "off"
        if fxaa:
            result["render_fps_msaa"] = measure_render_fps(scene, size=size, frames=render_frames, aa="msaa")
        result["render_fps_noaa"] = measure_render_fps(scene, size=size, frames=render_frames, samples=0)
    except export.HeadlessError as exc:
        print(f"animview bench: no render_fps: {exc}", file=sys.stderr)
    return result
