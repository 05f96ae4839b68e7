"""Start-up to first frame of the viewer, per shared model: a measurement, not a test (nothing asserts).

    python tests/startup_times.py [--runs 3] [--size 1280x720] [--profile NAME] [MODEL ...]

Each run is a fresh ``python`` process started the way a user starts the viewer
(``animview PATH --window headless --backend egl``): the child imports the command (``viewer.cli``) and runs
``animview`` with its window loop replaced by one that draws a single frame, waits for the GPU
(``ctx.finish()``) and reports. The time counts from just before the process is spawned (the parent's
``time.time()`` is handed over), so interpreter start-up and imports are included; teardown is not.
The child also reports its stages (``import``, ``load`` = parse + validate + scene, ``window``, ``app`` =
GPU upload + overlay + bounds/camera fit, ``frame``) from its own clock.

Models: every .gltf / .glb under ``../shared/assets/khronos`` and ``../shared/assets/khronos-pbr`` (or
``$ANIMVIEW_SHARED``), plus the built-in demo (``animview`` with no file). ``--profile NAME`` runs that
model once under cProfile in the child and prints the top functions by cumulative time. ``--cold``
disables Mesa's on-disk shader cache, so shaders are compiled as on the very first start (without it,
the first run after a shader change is cold and the later ones warm).
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("ANIMVIEW_SHARED", ROOT.parent / "shared"))
FOLDERS = ("assets/khronos", "assets/khronos-pbr")

# Runs in the child: argv = [spawned_at, size, profile (0/1), file or ""].
CHILD = r"""
import sys, time
spawned, size, profile, path = float(sys.argv[1]), sys.argv[2], sys.argv[3] == "1", sys.argv[4]
t0 = time.time()
stages = {"spawn": t0 - spawned}
mark = [time.perf_counter()]

def lap(name):
    now = time.perf_counter()
    stages[name] = now - mark[0]
    mark[0] = now

def go():
    from viewer.cli import main  # the console script's module
    from viewer.cli import view
    import viewer.app
    lap("import")
    open_window, load_scene = view.open_window, view.a.load_scene

    def timed_load(*args, **kwargs):
        lap("parse args")
        scene = load_scene(*args, **kwargs)
        lap("load")
        return scene

    def timed_window(*args, **kwargs):
        wnd = open_window(*args, **kwargs)
        lap("window")
        return wnd

    def one_frame(app, frames=None):  # view.run_loop's first iteration
        lap("app")
        wnd = app.wnd
        wnd.config = app
        wnd.swap_buffers()
        wnd.set_default_viewport()
        wnd.use()
        wnd.render(0.0, 0.0)
        wnd.swap_buffers()
        app.ctx.finish()
        lap("frame")
        stages["total"] = time.time() - spawned
        app.release()
        wnd.destroy()

    view.a.load_scene, view.open_window, view.run_loop = timed_load, timed_window, one_frame
    argv = ([path] if path else []) + ["--window", "headless", "--backend", "egl", "--size", size]
    status = main(argv)
    if status:
        raise SystemExit(f"animview exited with status {status}")

if profile:
    import cProfile, pstats
    prof = cProfile.Profile()
    prof.runcall(go)
    pstats.Stats(prof, stream=sys.stderr).sort_stats("cumulative").print_stats(45)
else:
    go()
import json
print("STAGES " + json.dumps(stages))
"""


def models() -> list[tuple[str, str]]:
    """(name, path) of every shared model, then the demo (path "")."""
    found = []
    for folder in FOLDERS:
        for path in sorted((SHARED / folder).rglob("*")):
            if path.suffix.lower() in (".gltf", ".glb"):
                found.append((path.stem, str(path)))
    return found + [("(demo)", "")]


def run_once(path: str, size: str, profile: bool = False, cold: bool = False) -> dict:
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    if cold:  # Mesa compiles every shader variant again, as on a first start (no on-disk shader cache)
        env["MESA_SHADER_CACHE_DISABLE"] = "true"
    spawned = time.time()
    proc = subprocess.run([sys.executable, "-c", CHILD, repr(spawned), size, "1" if profile else "0", path],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    if profile:
        print(proc.stderr)
    lines = [line for line in proc.stdout.splitlines() if line.startswith("STAGES ")]
    if proc.returncode or not lines:
        raise RuntimeError(f"{path or 'demo'}: exit {proc.returncode}\n{proc.stderr[-2000:]}")
    return json.loads(lines[-1][len("STAGES "):])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", metavar="MODEL", help="only these models (file stems; '(demo)' or demo)")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--size", default="1280x720", help="window size (animview's default 1280x720)")
    parser.add_argument("--cold", action="store_true",
                        help="disable Mesa's on-disk shader cache (a first start: every shader compiled)")
    parser.add_argument("--profile", metavar="NAME", help="profile one run of this model (cProfile, to stderr)")
    args = parser.parse_args()
    chosen = models()
    if args.profile:
        want = args.profile.strip("()").lower()
        path = next((p for n, p in chosen if n.strip("()").lower() == want), None)
        if path is None:
            parser.error(f"no model named {args.profile}")
        print(json.dumps(run_once(path, args.size, profile=True, cold=args.cold), indent=1))
        return 0
    if args.names:
        want = {n.strip("()").lower() for n in args.names}
        chosen = [(n, p) for n, p in chosen if n.strip("()").lower() in want]
    stage_names = ("import", "load", "window", "app", "frame")
    print(f"{'model':32} {'min s':>6} {'max s':>6}   median stages (s): " + " ".join(f"{s:>6}" for s in stage_names))
    for name, path in chosen:
        runs = [run_once(path, args.size, cold=args.cold) for _ in range(args.runs)]
        totals = sorted(r["total"] for r in runs)
        mid = sorted(runs, key=lambda r: r["total"])[len(runs) // 2]
        print(f"{name:32} {totals[0]:6.3f} {totals[-1]:6.3f}   {'':19}"
              + " ".join(f"{mid.get(s, float('nan')):6.3f}" for s in stage_names), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
