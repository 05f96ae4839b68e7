"""Start-up to first frame of the viewer, or to the first PNG of ``animview render``, per shared model: a
measurement, not a test (nothing asserts).

    python tests/startup_times.py [--runs 3] [--size 1280x720] [--profile NAME] [--cold] [MODEL ...]
    python tests/startup_times.py --render [--runs 10] [--size 640x480] [--profile NAME] [--cold] [MODEL ...]

Each run is a fresh ``python`` process started the way a user starts the viewer
(``animview PATH --window headless --backend egl``): the child imports the command (``viewer.cli``) and runs
``animview`` with its window loop replaced by one that draws a single frame, waits for the GPU
(``ctx.finish()``) and reports. The time counts from just before the process is spawned (the parent's
``time.time()`` is handed over), so interpreter start-up and imports are included; teardown is not.
The child also reports its stages (``import``, ``load`` = parse + validate + scene, ``window``, ``app`` =
GPU upload + overlay + bounds/camera fit, ``frame``) from its own clock.

With ``--render`` the child runs ``animview render MODEL -o TMP.png`` through the console script's entry
(``main_entry``, as the installed ``animview`` does) and reports when the PNG is written (``png``, the time a
user waits for the picture) and, from the parent, when the process has ended (``exit``); its stages are
``import``, ``parse`` (the command line, and importing its subcommand), ``load``, ``bounds`` (the whole
clip's, for ``--frame auto``), ``gpu`` (context, uploads, programs), ``frame`` (draw and read back) and
``write`` (PNG encoding). The machine these run on is often shared: report ranges over many runs
(``--runs``), not one number.

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
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("ANIMVIEW_SHARED", ROOT.parent / "shared"))
FOLDERS = ("assets/khronos", "assets/khronos-pbr")

# Both children start so: argv = [spawned_at, size, profile (0/1), file or "", …]; ``lap`` adds the time since
# the last lap to a stage.
PRELUDE = r"""
import sys, time
spawned, size, profile, path = float(sys.argv[1]), sys.argv[2], sys.argv[3] == "1", sys.argv[4]
stages = {"spawn": time.time() - spawned}
mark = [time.perf_counter()]

def lap(name):
    now = time.perf_counter()
    stages[name] = stages.get(name, 0.0) + now - mark[0]
    mark[0] = now
"""
# ... and end so, once their ``go`` is defined.
EPILOGUE = r"""
if profile:
    import cProfile, pstats
    prof = cProfile.Profile()
    prof.runcall(go)
    pstats.Stats(prof, stream=sys.stderr).sort_stats("cumulative").print_stats(45)
else:
    go()
import json
print("STAGES " + json.dumps(stages), flush=True)
"""

# The viewer's child.
CHILD = (
    PRELUDE
    + r"""
def go():
    from viewer.cli import main  # the console script's module
    from viewer.cli import view
    import viewer.app.window
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
"""
    + EPILOGUE
)

# The render command's child; one more argument: the PNG to write.
RENDER_CHILD = (
    PRELUDE
    + r"""
out = sys.argv[5]

def timed(owner, name, stage, before=None):
    inner = getattr(owner, name)

    def wrapper(*args, **kwargs):
        if before:
            lap(before)
        try:
            return inner(*args, **kwargs)
        finally:
            lap(stage)
    setattr(owner, name, wrapper)

def go():
    from viewer.cli import args, main_entry, render
    from viewer.export import offscreen, writers
    lap("import")  # what every render imports up front; lazy imports count in their stage
    timed(args, "load_scene", "load", before="parse")
    timed(render, "_frame_pose", "bounds")
    timed(offscreen.Offscreen, "__init__", "gpu")
    timed(offscreen.Offscreen, "frame", "frame")
    timed(writers, "save_png", "write")
    save = writers.save_png

    def save_and_stamp(*a, **k):
        save(*a, **k)
        stages["png"] = time.time() - spawned
    writers.save_png = save_and_stamp
    sys.argv = ["animview", "render", path, "-o", out, "--size", size, "--quiet"]
    try:
        main_entry()
    except SystemExit as exc:
        if exc.code:
            raise
"""
    + EPILOGUE
)
RENDER_STAGES = ("import", "parse", "load", "bounds", "gpu", "frame", "write")


def models() -> list[tuple[str, str]]:
    """(name, path) of every shared model, then the demo (path "")."""
    found = []
    for folder in FOLDERS:
        for path in sorted((SHARED / folder).rglob("*")):
            if path.suffix.lower() in (".gltf", ".glb"):
                found.append((path.stem, str(path)))
    return found + [("(demo)", "")]


def run_once(path: str, size: str, profile: bool = False, cold: bool = False, out: str | None = None) -> dict:
    """One child's stages; with ``out`` (a PNG path) the child is ``animview render``, else the viewer."""
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    if cold:  # Mesa compiles every shader variant again, as on a first start (no on-disk shader cache)
        env["MESA_SHADER_CACHE_DISABLE"] = "true"
    child = [CHILD] if out is None else [RENDER_CHILD]
    spawned = time.time()
    proc = subprocess.run(
        [sys.executable, "-c", *child, repr(spawned), size, "1" if profile else "0", path, *([out] if out else [])],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    ended = time.time()
    if profile:
        print(proc.stderr)
    lines = [line for line in proc.stdout.splitlines() if line.startswith("STAGES ")]
    if proc.returncode or not lines:
        raise RuntimeError(f"{path or 'demo'}: exit {proc.returncode}\n{proc.stderr[-2000:]}")
    stages = json.loads(lines[-1][len("STAGES ") :])
    stages["exit"] = ended - spawned
    return stages


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", metavar="MODEL", help="only these models (file stems; '(demo)' or demo)")
    parser.add_argument(
        "--render",
        action="store_true",
        help="time `animview render MODEL -o TMP.png` to its PNG instead of the viewer's first frame",
    )
    parser.add_argument("--runs", type=int, default=None, help="runs per model (default 3; 10 with --render)")
    parser.add_argument(
        "--size", default=None, help="window or picture size (default: the command's own, 1280x720 or 640x480)"
    )
    parser.add_argument(
        "--cold", action="store_true", help="disable Mesa's on-disk shader cache (a first start: every shader compiled)"
    )
    parser.add_argument("--profile", metavar="NAME", help="profile one run of this model (cProfile, to stderr)")
    args = parser.parse_args()
    runs = args.runs or (10 if args.render else 3)
    size = args.size or ("640x480" if args.render else "1280x720")
    chosen = models()
    if args.render:
        chosen = [(n, p) for n, p in chosen if p]  # render needs a file
    if args.profile:
        want = args.profile.strip("()").lower()
        path = next((p for n, p in chosen if n.strip("()").lower() == want), None)
        if path is None:
            parser.error(f"no model named {args.profile}")
        with tempfile.TemporaryDirectory() as tmp:
            out = str(Path(tmp) / "first.png") if args.render else None
            print(json.dumps(run_once(path, size, profile=True, cold=args.cold, out=out), indent=1))
        return 0
    if args.names:
        want = {n.strip("()").lower() for n in args.names}
        chosen = [(n, p) for n, p in chosen if n.strip("()").lower() in want]
    if args.render:
        return _report_render(chosen, runs, size, args.cold)
    stage_names = ("import", "load", "window", "app", "frame")
    print(f"{'model':32} {'min s':>6} {'max s':>6}   median stages (s): " + " ".join(f"{s:>6}" for s in stage_names))
    for name, path in chosen:
        timed = [run_once(path, size, cold=args.cold) for _ in range(runs)]
        totals = sorted(r["total"] for r in timed)
        mid = sorted(timed, key=lambda r: r["total"])[len(timed) // 2]
        print(
            f"{name:32} {totals[0]:6.3f} {totals[-1]:6.3f}   {'':19}"
            + " ".join(f"{mid.get(s, float('nan')):6.3f}" for s in stage_names),
            flush=True,
        )
    return 0


def _report_render(chosen: list[tuple[str, str]], runs: int, size: str, cold: bool) -> int:
    """One line per model: the range to the PNG and to the process's end, then the median run's stages."""
    print(
        f"{'model':32} {'png min':>7} {'median':>7} {'max':>7} {'exit min':>8} {'median':>7}   median stages (s): "
        + " ".join(f"{s:>6}" for s in RENDER_STAGES)
    )
    with tempfile.TemporaryDirectory() as tmp:
        out = str(Path(tmp) / "first.png")
        for name, path in chosen:
            timed = sorted((run_once(path, size, cold=cold, out=out) for _ in range(runs)), key=lambda r: r["png"])
            mid = timed[len(timed) // 2]
            exits = sorted(r["exit"] for r in timed)
            print(
                f"{name:32} {timed[0]['png']:7.3f} {mid['png']:7.3f} {timed[-1]['png']:7.3f} {exits[0]:8.3f} "
                f"{exits[len(exits) // 2]:7.3f}   {'':18}" + " ".join(f"{mid.get(s, 0.0):6.3f}" for s in RENDER_STAGES),
                flush=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
