"""``animview bench``: the command's report — speed of sampling and pose updates measured here, with the
compiled kernels (``fast``) and with the numpy reference, and of rendering (``export.speed``, where an
offscreen context exists).

Method: one process, every clip warmed up first (tables built, caches filled, kernels loaded), each
measurement repeated and the best run kept (the least disturbed by the rest of the machine).
"""
from __future__ import annotations

import gc
import sys
import time
from typing import Callable

import numpy as np

from viewer import fast
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
    """Channel samples per second: one call per clip per frame, and batches of frames per clip (in chunks
    of bounded size, so a 40 000-channel clip needs no frames × channels array)."""
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
            for _ in clip.sample_chunks(ts):
                pass

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
    """Microseconds per frame for sample + world matrices + joint matrices + morph weights of the first
    clip, one frame at a time: what the window does per frame (with whichever path ``fast`` has on)."""
    pose = Pose(scene)
    clip = scene.clips[0] if scene.clips else None
    ts = (np.linspace(0.0, clip.duration, frames) if clip else np.zeros(frames)).tolist()
    skins = range(len(scene.skins))
    mesh_nodes = np.flatnonzero(scene.nodes.mesh >= 0).tolist()

    def run() -> None:
        for t in ts:
            pose.set_time(clip, t)
            for s in skins:
                pose.joint_matrices(s)
            for n in mesh_nodes:
                pose.node_weights(n)

    run()
    return 1e6 * best_seconds(run) / frames


def measure_both_paths(scene: Scene, frames: int) -> dict:
    """Sampling and update figures with numpy, then with the compiled kernels (when numba has them ready).

    Each path builds its own tables and caches and they are dropped in between, so the figures of a
    40 000-channel clip need the memory of one path at a time, not both."""
    result = {}
    was_on = fast.active() is not None
    fast.use(False)
    numpy_sampling = measure_sampling(scene, frames)
    result["update_us_per_frame_numpy"] = measure_update(scene, max(1, frames // 4))
    _drop_tables(scene)
    fast.use(True)
    result["kernel"] = fast.state()
    if fast.ready_seconds() is not None:
        result["kernel_load_s"] = fast.ready_seconds()
    on = fast.active() is not None
    if on:
        result.update(measure_sampling(scene, frames))
        result["update_us_per_frame"] = measure_update(scene, max(1, frames // 4))
        _drop_tables(scene)
    else:
        result.update(numpy_sampling)
        result["update_us_per_frame"] = result["update_us_per_frame_numpy"]
    for key in ("per_frame_channel_samples_per_s", "batch_channel_samples_per_s"):
        result[f"{key}_numpy"] = numpy_sampling[key]
    result["update_ms_per_frame"] = result["update_us_per_frame"] / 1000.0
    fast.use(was_on)
    return result


def _drop_tables(scene: Scene) -> None:
    """Forget every clip's built tables (and with them the caches of the path just measured)."""
    for clip in scene.clips:
        clip.drop_tables()
    gc.collect()


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
    result.update(measure_both_paths(scene, frames))
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
