"""``animview bench FILE``: measured speed of loading, sampling, pose updates and rendering."""

from __future__ import annotations

import json
import time

from viewer.cli import args as a

NAME = "bench"


def add_parser(subparsers) -> None:
    p = subparsers.add_parser(NAME, help="measured speed of sampling and updating")
    a.add_file_arguments(p)
    p.add_argument("--json", action="store_true")
    p.add_argument("--frames", type=a.count, default=1000)
    p.add_argument("--size", type=a.size, default=(640, 480), help="render_fps frame size WxH (640x480)")
    p.add_argument("--render-frames", type=a.count, default=200, help="frames timed for render_fps (200)")


def run(args) -> int:
    from viewer.bench.figures import run_bench

    started = time.perf_counter()
    scene = a.load_scene(args, NAME)  # a still model too: its sampling figures are 0, its render figures count
    load_s = time.perf_counter() - started  # once: a second load would find the files in the OS cache
    result = {
        "load_s": load_s,
        **run_bench(scene, args.frames, args.size, args.render_frames, args.allow_outside_folder),
    }
    if args.json:
        print(json.dumps(result))
    else:
        for k, v in result.items():
            print(f"{k:<40} {v:,.3f}" if isinstance(v, float) else f"{k:<40} {v}")
    return 0
