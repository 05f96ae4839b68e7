"""``render_fps`` of ``animview bench``: frames per second of the whole offscreen frame, read-back included.

Method: one EGL context; the scene uploaded once; the auto camera fitted to the first clip; a warm-up
of ``WARMUP`` frames (shader compiles, driver caches); then ``frames`` frames at times spread over the
first clip, each one: pose.set_time (sampling + world and joint matrices) → Renderer.render (grid and
gizmo on, as ``animview render`` draws) → resolve (4× MSAA, or FXAA where ``--aa auto`` picks it) → read
the RGBA pixels back to numpy.
The figure is frames / wall seconds of that loop, the best of ``REPEATS`` runs.
"""

from __future__ import annotations

import argparse
import json
import sys

import moderngl
import numpy as np

from viewer.bench.figures import best_seconds
from viewer.export.offscreen import Offscreen, View
from viewer.render.renderer import Look, RenderOptions
from viewer.scene.scene import Scene, load

WARMUP = 10
REPEATS = 3


def measure_render_fps(
    scene: Scene,
    size: tuple[int, int] = (640, 480),
    frames: int = 200,
    ctx: moderngl.Context | None = None,
    samples: int | None = None,
    aa: str = "auto",
) -> float:
    """Frames per second of animate + render + read-back at ``size`` (width, height) pixels, anti-aliased as
    ``render --aa`` does (``samples``: the MSAA samples, 0 for none)."""
    view = View(size=size, options=RenderOptions(look=Look(aa=aa)))
    if samples is not None:
        view.samples = samples
    clip = scene.clips[0] if scene.clips else None
    off = Offscreen(scene, clip, view, ctx)
    duration = clip.duration if clip is not None else 0.0
    times = np.linspace(0.0, duration, max(frames, 1)).tolist()
    try:
        off.make_current()
        for t in times[:WARMUP]:
            _frame(off, t)
        best = best_seconds(lambda: [_frame(off, t) for t in times], REPEATS)
    finally:
        off.release()
    return len(times) / best


def measure_first_frame(scene: Scene, size: tuple[int, int] = (640, 480)) -> float:
    """Seconds from a loaded scene to its first picture in memory: the EGL context, GPU upload, the auto
    camera's clip bounds, shader compiles, one frame rendered and read back — what ``animview render``
    spends after loading. Once, not best-of: a second run would find the shaders compiled."""
    import time

    start = time.perf_counter()
    off = Offscreen(scene, scene.clips[0] if scene.clips else None, View(size=size))
    try:
        off.make_current()
        off.frame(0.0)
    finally:
        off.release()
    return time.perf_counter() - start


def _frame(off, t: float) -> np.ndarray:
    off.pose.set_time(off.clip, t, off.view.mode)
    off.renderer.render(off.pose, off.camera, off.target.fbo, off.view.options)
    return off.target.read()


def render_figures(scene: Scene, size: tuple[int, int], frames: int) -> dict:
    """``animview bench``'s rendering figures: ``first_frame_s`` (first: nothing compiled yet, as for a user's
    first render), ``render_fps`` with ``--aa auto`` and ``render_aa`` naming what it chose, ``render_fps_msaa``
    where auto chose FXAA, and ``render_fps_noaa``. Raises ``HeadlessError`` where no context can be made."""
    from viewer.render.antialias import choose_for
    from viewer.render.target import DEFAULT_SAMPLES

    result = {
        "first_frame_s": measure_first_frame(scene, size),
        "render_fps": measure_render_fps(scene, size=size, frames=frames),
    }
    samples, fxaa = choose_for(scene, "auto", DEFAULT_SAMPLES, size)
    result["render_aa"] = "fxaa" if fxaa else f"msaa{samples}" if samples else "off"
    if fxaa:
        result["render_fps_msaa"] = measure_render_fps(scene, size=size, frames=frames, aa="msaa")
    result["render_fps_noaa"] = measure_render_fps(scene, size=size, frames=frames, samples=0)
    return result


def main(argv: list[str] | None = None) -> int:
    """``python -m viewer.bench.render FILE --size WxH --frames N``: ``render_figures`` as one JSON line (or
    ``{"error": ...}``); ``animview bench`` runs it as a child process."""
    from viewer.export import HeadlessError

    p = argparse.ArgumentParser(prog="python -m viewer.bench.render")
    p.add_argument("file")
    p.add_argument("--size", default="640x480")
    p.add_argument("--frames", type=int, default=200)
    p.add_argument("--allow-outside-folder", action="store_true")
    args = p.parse_args(argv)
    width, height = (int(v) for v in args.size.split("x"))
    scene = load(args.file, args.allow_outside_folder)
    try:
        figures = render_figures(scene, (width, height), args.frames)
    except HeadlessError as exc:
        figures = {"error": str(exc)}
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
