"""``animview bench FILE``: measured speed of loading, sampling, pose updates and rendering."""

from __future__ import annotations

import json
import time

from viewer.base.errors import UsageError
from viewer.cli import args as a

NAME = "bench"


def add_parser(subparsers) -> None:
    p = subparsers.add_parser(NAME, help="measured speed of sampling and updating")
    a.add_file_arguments(p)
    p.add_argument("--json", action="store_true")
    p.add_argument("--frames", type=a.count, default=1000)
    p.add_argument("--size", type=a.size, default=(640, 480), help="render_fps frame size WxH (640x480)")
    p.add_argument("--render-frames", type=a.count, default=200, help="frames timed for render_fps (200)")
    p.add_argument("--diff", metavar="B", default=None, help="also time 'animview diff FILE B' end to end (diff_s)")


def run(args) -> int:
    from viewer.bench.figures import run_bench

    started = time.perf_counter()
    scene = a.load_scene(args, NAME)  # a still model too: its sampling figures are 0, its render figures count
    load_s = time.perf_counter() - started  # once: a second load would find the files in the OS cache
    result = {
        "load_s": load_s,
        **run_bench(scene, args.frames, args.size, args.render_frames, args.allow_outside_folder),
    }
    if args.diff is not None:
        result.update(_diff_figures(args))
    if args.json:
        print(json.dumps(result))
    else:
        for k, v in result.items():
            print(f"{k:<40} {v:,.3f}" if isinstance(v, float) else f"{k:<40} {v}")
    return 0


def _diff_figures(args) -> dict:
    """``diff FILE B`` timed as the command runs it (both loads, matching, measuring; text not printed), in
    its own process so the loads are not helped by this one's caches; and its peak memory."""
    import subprocess
    import sys

    code = "\n".join(
        [
            "import contextlib, io, resource, sys, time",
            "started = time.perf_counter()",
            "from viewer.cli import main",
            "with contextlib.redirect_stdout(io.StringIO()):",
            "    status = main(sys.argv[1:])",
            "print(time.perf_counter() - started, status, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)",
        ]
    )
    argv = ["diff", args.file, args.diff] + (["--allow-outside-folder"] if args.allow_outside_folder else [])
    done = subprocess.run([sys.executable, "-c", code, *argv], capture_output=True, text=True)
    figures = done.stdout.split()[-3:]
    if done.returncode != 0 or len(figures) != 3 or figures[1] == "2":
        why = (done.stderr.strip() or "no output").splitlines()[-1]
        raise UsageError(f"animview bench: --diff failed: {why}")
    seconds, status, rss_kb = figures
    return {"diff_s": float(seconds), "diff_status": int(status), "diff_peak_mb": int(rss_kb) / 1024}
