"""``animview bench``: the command's report — speed of sampling and pose updates measured here, with the
compiled kernels (``fast``) and with the numpy reference, and of rendering (``bench.render``, where an
offscreen context exists).

Method: one process, every clip warmed up first (tables built, caches filled, kernels loaded), each
measurement repeated and the best run kept (the least disturbed by the rest of the machine).
"""

from __future__ import annotations

import gc
import json
import subprocess
import sys
import time
from typing import Callable

import numpy as np

from viewer import engines, fast
from viewer.animation.clip import Clip
from viewer.pose.pose import Pose
from viewer.scene.scene import Scene

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


def measure_update(scene: Scene, frames: int, clip: Clip | None = None) -> float:
    """Microseconds per frame for sample + world matrices + joint matrices + morph weights of ``clip`` (the
    first clip by default), one frame at a time: what the window does per frame (with whichever path ``fast``
    has on)."""
    pose = Pose(scene)
    clip = clip if clip is not None else (scene.clips[0] if scene.clips else None)
    ts = (np.linspace(0.0, clip.duration, frames) if clip else np.zeros(frames)).tolist()
    skinned = bool(scene.skins)
    mesh_nodes = np.flatnonzero(scene.nodes.mesh >= 0).tolist()

    def run() -> None:
        for t in ts:
            pose.set_time(clip, t)
            if skinned:
                pose.all_joint_matrices()  # as the renderer reads them: every skin at once
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
        result.update(measure_engines(scene, max(1, frames // 4)))
    else:
        result.update(numpy_sampling)
        result["update_us_per_frame"] = result["update_us_per_frame_numpy"]
    for key in ("per_frame_channel_samples_per_s", "batch_channel_samples_per_s"):
        result[f"{key}_numpy"] = numpy_sampling[key]
    result["update_ms_per_frame"] = result["update_us_per_frame"] / 1000.0
    fast.use(was_on)
    return result


def measure_engines(scene: Scene, frames: int) -> dict:
    """Per engine, ``engine_<name>_us_per_frame``: the update of ``measure_update`` with the first clip as that
    engine plays it (``Engine.clip``: rewritten keys, more of them where an engine bakes or cuts curves), on the
    compiled path; ``engine_spec_us_per_frame`` is the spec's own clip through the same code, the figure each
    engine's overhead is read against. Each emulated clip's tables are dropped before the next is built."""
    if not scene.clips:
        return {}
    result = {}
    for name in engines.NAMES:
        played = engines.get(name).clip(scene.clips[0], scene)
        result[f"engine_{name}_us_per_frame"] = measure_update(scene, frames, played)
        played.drop_tables()
        gc.collect()
    return result


def _drop_tables(scene: Scene) -> None:
    """Forget every clip's built tables (and with them the caches of the path just measured)."""
    for clip in scene.clips:
        clip.drop_tables()
    gc.collect()


def run_bench(
    scene: Scene,
    frames: int = 1000,
    size: tuple[int, int] = (640, 480),
    render_frames: int = 200,
    allow_outside_folder: bool = False,
) -> dict:
    """Every figure ``animview bench`` reports, keyed exactly as the CLI contract says.

    The rendering figures (``bench.render.render_figures``: ``first_frame_s``, ``render_fps``, ``render_aa``,
    ``render_fps_msaa``, ``render_fps_noaa``; headless, EGL, at ``size``, read-back every frame) come from a
    child process: a fresh process has compiled no shader, as a user's first render has not, and the GL
    driver's memory (Mesa's own LLVM) stays out of this process's peak. They are left out, with a one-line
    warning, on a machine where no offscreen context can be made.
    """
    result = {}
    render = _render_in_child(scene, size, render_frames, allow_outside_folder)
    if "error" in render:
        print(f"animview bench: no render figures: {render['error']}", file=sys.stderr)
    else:
        result.update(render)
    result.update(measure_both_paths(scene, frames))
    return result


def _render_in_child(scene: Scene, size: tuple[int, int], frames: int, allow_outside_folder: bool) -> dict:
    command = [
        sys.executable,
        "-m",
        "viewer.bench.render",
        str(scene.path),
        "--size",
        f"{size[0]}x{size[1]}",
        "--frames",
        str(frames),
    ] + (["--allow-outside-folder"] if allow_outside_folder else [])
    proc = subprocess.run(command, capture_output=True, text=True, env=fast.child_env(), check=False)
    lines = proc.stdout.strip().splitlines()
    if proc.returncode != 0 or not lines:
        why = (proc.stderr.strip().splitlines() or [f"exit status {proc.returncode}"])[-1]
        return {"error": why[:300]}
    return json.loads(lines[-1])
