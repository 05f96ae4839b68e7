"""Benchmark long motion-capture takes end to end: what a user waits for and what the machine holds when a
take runs for an hour (issue 29's figures).

    python tools/bench_long_takes.py [--runs N] [--only STAGE,...] [--timeout S] [--json OUT] FILE ...

Why a tool of its own: the costs of a long take sit in different processes — the load, the first picture of
``animview render`` and of the viewer, the per-frame update once the compiled kernels are in, ``animview
check``, a viewer playing for a while — and the ones that matter most are memory peaks, which only a fresh
process shows (a parent that loaded the take once keeps its pages). So every figure comes from a child
process of its own, started by this one, whose peak resident set is read from ``wait4`` (the child and every
process it waited for: ``check``'s worker, Mesa's threads are in the child). The machine these run on is
small and shared, so runs are interleaved — run 1 of every file and stage, then run 2, … — and the table
gives each figure's range over the runs, never one number. A child that runs past ``--timeout`` is killed
(its process group) and shows as a timeout, so one slow stage cannot hang the whole bench.

Stages, each a child per file and run:

* ``load``: ``viewer.load(FILE)`` (what every command's ``load_scene`` calls), timed in the child after its
  imports; a meshopt take decodes here (numba's compiled decoder, imported on demand, counts).
* ``render``: ``animview render FILE -o TMP.png`` through ``tests/startup_times.py``'s child, stage by stage;
  *after load* is everything from the end of the load to the PNG written (bounds, GPU, frame, write).
* ``viewer``: the viewer's first frame (``animview FILE --window headless --backend egl``) through the same
  module's child; *after load* is window + app (uploads, bounds, camera) + the frame.
* ``update``: a ``Pose`` on the first clip with the compiled kernels on (``viewer.fast``), then the numpy
  reference: the median µs of ``pose.set_time(clip, t)`` and of the whole update as the renderer reads it
  (``set_time`` + ``all_joint_matrices``, as ``animview bench`` times it) over frames stepped by 1/60 s in
  ten stretches spread over the clip, and over frames at random times (scrubbing); the first ``set_time``
  (its plan and tables) is timed on its own; each series stops after ``--budget`` seconds (a path that
  rebuilds a table per frame still gets a median, of fewer frames: the JSON has the counts).
* ``check``: ``animview check FILE --quiet``, wall time and peak RSS (its worker included).
* ``play``: ``animview FILE --window headless --backend egl --frames 120``: wall time and peak RSS of a
  viewer that plays for 120 frames.

Before the first run the numba caches are filled and one render of the smallest file fills Mesa's shader
cache (``--no-warmup`` skips this), so run 1 is not the only cold one. Make takes with
``python tools/mocap_clips.py DIR --take SECONDS [--meshopt plain|filtered]``.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from tests.startup_times import CHILD as VIEWER_CHILD  # noqa: E402
from tests.startup_times import RENDER_CHILD  # noqa: E402

STAGES = ("load", "render", "viewer", "update", "check", "play")
RENDER_SIZE, VIEWER_SIZE = "640x480", "1280x720"  # each command's own default
RENDER_AFTER_LOAD = ("bounds", "gpu", "frame", "write")
VIEWER_AFTER_LOAD = ("window", "app", "frame")
PLAY_FRAMES = 120

LOAD_CHILD = r"""
import json, sys, time
started = time.perf_counter()
import viewer
imported = time.perf_counter()
scene = viewer.load(sys.argv[1])
loaded = time.perf_counter()
clip = scene.clips[0] if scene.clips else None
print("RESULT " + json.dumps({
    "import_s": imported - started,
    "load_s": loaded - imported,
    "duration_s": float(clip.duration) if clip else 0.0,
    "channels": len(clip.channels) if clip else 0,
    "keys": int(len(clip.key_times)) if clip else 0,
}), flush=True)
"""

UPDATE_CHILD = r"""
import json, sys, time
import numpy as np
path, frames, numpy_frames, budget = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
from viewer import fast, load
from viewer.pose.pose import Pose

fast.start()  # in the background while the file loads, as the viewer does
scene = load(path)
clip = scene.clips[0]
result = {}
clock = time.perf_counter_ns
rng = np.random.default_rng(29)

def stepped(count):
    # ten stretches of consecutive frames at 60 fps, their starts spread over the clip; wrapped as a loop plays
    per = max(1, count // 10)
    starts = np.arange(10) * clip.duration / 10
    t = (starts[:, None] + np.arange(per)[None, :] / 60.0).ravel()
    return (t % clip.duration if clip.duration > 0 else t).tolist()

def scrubbed(count):
    return rng.uniform(0.0, clip.duration, max(1, count)).tolist()

def timed(pose, name, times):
    set_ns, update_ns = [], []
    stop = time.perf_counter() + budget
    for t in times:
        if time.perf_counter() > stop:  # a slow path (a table rebuilt per frame) gets a median of fewer frames
            break
        a = clock()
        pose.set_time(clip, t)
        b = clock()
        pose.all_joint_matrices()
        c = clock()
        set_ns.append(b - a)
        update_ns.append(c - a)
    result[name + "_set_time_us"] = float(np.median(set_ns)) / 1e3
    result[name + "_update_us"] = float(np.median(update_ns)) / 1e3
    result[name + "_set_time_p99_us"] = float(np.percentile(set_ns, 99)) / 1e3
    result[name + "_set_time_max_us"] = max(set_ns) / 1e3  # a window built mid-playback: a hitch
    result[name + "_frames"] = len(set_ns)

def first(pose, name):
    a = time.perf_counter()
    pose.set_time(clip, 0.0)
    result[name + "_first_set_time_s"] = time.perf_counter() - a

a = time.perf_counter()
fast.use(True)
result["kernels_wait_s"] = time.perf_counter() - a
result["kernel"] = fast.state()
pose = Pose(scene)
if fast.active() is not None:
    first(pose, "compiled")
    timed(pose, "compiled_step", stepped(frames))
    timed(pose, "compiled_random", scrubbed(frames // 10))
fast.use(False)
pose = Pose(scene)
first(pose, "numpy")
timed(pose, "numpy_step", stepped(numpy_frames))
timed(pose, "numpy_random", scrubbed(numpy_frames // 4))
print("RESULT " + json.dumps(result), flush=True)
"""


def child_env() -> dict[str, str]:
    """This environment with the checkout first on PYTHONPATH, so every child runs this tree's ``viewer``."""
    return dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")])))


def spawn(argv: list[str], timeout: float) -> dict:
    """Run one child to its end (or kill its process group after ``timeout`` s): wall seconds, exit status,
    stdout, the tail of stderr and its peak resident set in MB (``wait4``: the child and every descendant it
    waited for)."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        started = time.perf_counter()
        proc = subprocess.Popen(argv, cwd=REPO, env=child_env(), stdout=out, stderr=err, start_new_session=True)
        killed = threading.Event()

        def kill() -> None:
            killed.set()
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass

        timer = threading.Timer(timeout, kill)
        timer.start()
        try:
            _, status, usage = os.wait4(proc.pid, 0)
        finally:
            timer.cancel()
        wall = time.perf_counter() - started
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        stdout = out.read().decode("utf-8", "replace")
        stderr = err.read().decode("utf-8", "replace")
    return {
        "wall_s": wall,
        "status": proc.returncode,
        "timed_out": killed.is_set(),
        "stdout": stdout,
        "stderr": stderr[-2000:],
        "peak_rss_mb": usage.ru_maxrss * 1024 / 1e6,  # KiB on Linux
    }


def tagged(stdout: str, tag: str) -> dict | None:
    """The JSON a child printed on its last line starting with ``tag``."""
    lines = [line for line in stdout.splitlines() if line.startswith(tag + " ")]
    return json.loads(lines[-1][len(tag) + 1 :]) if lines else None


def failure(child: dict, timeout: float) -> dict:
    """A failed child as one line the table can show (a bench of many runs goes on past it)."""
    if child["timed_out"]:
        return {"error": f"timeout after {timeout:g} s", "peak_rss_mb": child["peak_rss_mb"]}
    why = (child["stderr"].strip().splitlines() or [f"exit status {child['status']}"])[-1]
    return {"error": f"exit {child['status']}: {why[:300]}", "peak_rss_mb": child["peak_rss_mb"]}


def measure(stage: str, path: Path, args: argparse.Namespace, scratch: Path) -> dict:
    """One stage of one file in a fresh child: its figures, or ``{"error": ...}``."""
    py = sys.executable
    timeout = args.timeout
    if stage == "load":
        child = spawn([py, "-c", LOAD_CHILD, str(path)], timeout)
        found = tagged(child["stdout"], "RESULT")
    elif stage == "update":
        child = spawn(
            [py, "-c", UPDATE_CHILD, str(path), str(args.frames), str(args.numpy_frames), str(args.budget)], timeout
        )
        found = tagged(child["stdout"], "RESULT")
    elif stage in ("render", "viewer"):
        out = [str(scratch / "first.png")] if stage == "render" else []
        code, size = (RENDER_CHILD, RENDER_SIZE) if stage == "render" else (VIEWER_CHILD, VIEWER_SIZE)
        child = spawn([py, "-c", code, repr(time.time()), size, "0", str(path), *out], timeout)
        found = tagged(child["stdout"], "STAGES")
        if found is not None:
            after = RENDER_AFTER_LOAD if stage == "render" else VIEWER_AFTER_LOAD
            found["after_load_s"] = sum(found.get(s, 0.0) for s in after)
    elif stage == "check":
        child = spawn([py, "-m", "viewer", "check", str(path), "--quiet"], timeout)
        summary = [line for line in child["stdout"].splitlines() if line.startswith("checked ")]
        # exit 1 is a finding at error level (a limit reached, say): a figure still, shown with its status
        found = {"summary": summary[-1] if summary else ""} if child["status"] in (0, 1) else None
    elif stage == "play":
        argv = [py, "-m", "viewer", str(path), "--window", "headless", "--backend", "egl"]
        child = spawn(argv + ["--frames", str(PLAY_FRAMES)], timeout)
        found = {} if child["status"] == 0 else None
    else:
        raise ValueError(stage)
    if found is None or child["timed_out"] or (child["status"] and stage != "check"):
        return failure(child, timeout)
    found.update(wall_s=child["wall_s"], peak_rss_mb=child["peak_rss_mb"], status=child["status"])
    return found


# (stage, key, label, format, which takes' target applies, limit): the table's rows, the issue's limits
FIGURES = (
    ("load", "load_s", "load s", "{:.2f}", "all", 3.0),
    ("load", "peak_rss_mb", "load peak RSS MB", "{:.0f}", None, None),
    ("render", "after_load_s", "render: PNG after load s", "{:.2f}", "hour", 1.0),
    ("render", "bounds", "  of which bounds s", "{:.2f}", None, None),
    ("render", "peak_rss_mb", "render peak RSS MB", "{:.0f}", None, None),
    ("viewer", "after_load_s", "viewer: 1st frame after load s", "{:.2f}", "hour", 1.0),
    ("viewer", "app", "  of which app s", "{:.2f}", None, None),
    ("viewer", "peak_rss_mb", "viewer 1 frame peak RSS MB", "{:.0f}", None, None),
    ("update", "compiled_first_set_time_s", "update: first set_time s", "{:.3f}", None, None),
    ("update", "compiled_step_set_time_us", "set_time µs compiled, 1/60 s", "{:.1f}", "hour", 50.0),
    ("update", "compiled_step_update_us", "set_time + joints µs compiled, 1/60 s", "{:.1f}", "hour", 50.0),
    ("update", "compiled_step_set_time_p99_us", "set_time p99 µs compiled, 1/60 s", "{:.1f}", None, None),
    ("update", "compiled_step_set_time_max_us", "set_time worst µs compiled, 1/60 s", "{:.0f}", None, None),
    ("update", "compiled_random_set_time_us", "set_time µs compiled, random", "{:.1f}", None, None),
    ("update", "numpy_first_set_time_s", "numpy: first set_time s", "{:.3f}", None, None),
    ("update", "numpy_step_update_us", "set_time + joints µs numpy, 1/60 s", "{:.1f}", None, None),
    ("update", "numpy_random_update_us", "set_time + joints µs numpy, random", "{:.1f}", None, None),
    ("update", "peak_rss_mb", "update peak RSS MB", "{:.0f}", None, None),
    ("check", "wall_s", "check s", "{:.2f}", "hour", 20.0),
    ("check", "peak_rss_mb", "check peak RSS MB", "{:.0f}", "hour", 1000.0),
    ("play", "wall_s", f"viewer {PLAY_FRAMES} frames s", "{:.2f}", None, None),
    ("play", "peak_rss_mb", f"viewer {PLAY_FRAMES} frames peak RSS MB", "{:.0f}", "hour", 1000.0),
)
# The 10-minute take's own limits (issue 29), stricter than the hour's where they differ
TEN_MINUTES = {("check", "wall_s"): 3.0, ("render", "after_load_s"): 0.5, ("viewer", "after_load_s"): 0.5}


def limit(stage: str, key: str, applies: str | None, value: float | None, duration: float | None) -> float | None:
    """The issue's limit for a figure on a take of ``duration`` seconds (an hour's limits from 3600 s on, the
    10-minute take's from 600 s; none for shorter takes, nor for a figure the issue names no limit for)."""
    if duration is None or duration < 600:
        return None
    if duration < 3600:
        return TEN_MINUTES.get((stage, key), value if applies == "all" else None)
    return value if applies else None


def summarise(results: dict, stages: tuple[str, ...]) -> str:
    """The table: per file, each figure's min–max over the runs, its limit and whether the worst run is in."""
    lines = []
    for path, per_stage in results.items():
        info = next((r for r in per_stage.get("load", []) if "error" not in r), {})
        duration = info.get("duration_s")
        head = f"{Path(path).name}  ({Path(path).stat().st_size / 1e6:.1f} MB"
        if info:
            head += f", {duration:g} s, {info['channels']} channels × {info['keys']} keys"
        lines += ["", head + ")", f"  {'figure':40} {'min':>9} {'max':>9}  {'limit':>7}"]
        for stage, key, label, fmt, applies, value in FIGURES:
            if stage not in stages:
                continue
            runs = per_stage.get(stage, [])
            values = [r[key] for r in runs if "error" not in r and r.get(key) is not None]
            errors = sorted({r["error"] for r in runs if "error" in r})
            bound = limit(stage, key, applies, value, duration)
            if values:
                low, high = fmt.format(min(values)), fmt.format(max(values))
                mark = "" if bound is None else f"{bound:g}" + ("  ok" if max(values) < bound else "  OVER")
                lines.append(f"  {label:40} {low:>9} {high:>9}  {mark:>7}")
            if errors and key in ("wall_s", "load_s", "after_load_s", "compiled_first_set_time_s"):
                lines += [f"  {label:40} {len(errors)} failed: {e}" for e in errors]
        statuses = {r["status"] for r in per_stage.get("check", []) if "status" in r}
        if statuses - {0}:
            lines.append(f"  check exit statuses {sorted(statuses)}: findings at error level")
    return "\n".join(lines)


def newest_source() -> tuple[float, str]:
    """The most recently changed module of ``viewer/`` (time, path): a bench whose code changed under it
    mixes two versions in its ranges, and says so."""
    return max((p.stat().st_mtime, str(p.relative_to(REPO))) for p in (REPO / "viewer").rglob("*.py"))


def warm_up(files: list[Path], timeout: float, scratch: Path) -> float:
    """Fill numba's caches (the frame kernels, the meshopt decoder) and Mesa's shader cache with one render of
    the smallest file, so the first run is not the only one paying for compiles."""
    started = time.perf_counter()
    py = sys.executable
    spawn([py, "-m", "viewer.fast.build"], timeout)
    spawn([py, "-m", "viewer.gltf.meshopt_compiled"], timeout)
    smallest = min(files, key=lambda p: p.stat().st_size)
    spawn([py, "-c", RENDER_CHILD, repr(time.time()), RENDER_SIZE, "0", str(smallest), str(scratch / "w.png")], timeout)
    return time.perf_counter() - started


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="+", type=Path, metavar="FILE", help="takes (.glb / .gltf)")
    parser.add_argument("--runs", type=int, default=3, help="runs of every file and stage, interleaved (default 3)")
    parser.add_argument(
        "--only", default=",".join(STAGES), help=f"stages, comma-separated (default {','.join(STAGES)})"
    )
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds before a child is killed (default 300)")
    parser.add_argument("--frames", type=int, default=20_000, help="compiled update: frames stepped (default 20000)")
    parser.add_argument("--numpy-frames", type=int, default=2_000, help="numpy update: frames stepped (default 2000)")
    parser.add_argument(
        "--budget", type=float, default=20.0, help="update: seconds at most per series of frames (default 20)"
    )
    parser.add_argument("--no-warmup", action="store_true", help="skip filling numba's and Mesa's caches first")
    parser.add_argument("--json", type=Path, metavar="OUT", help="every run's figures, per file and stage")
    args = parser.parse_args(argv)
    stages = tuple(s.strip() for s in args.only.split(",") if s.strip())
    unknown = [s for s in stages if s not in STAGES]
    if unknown:
        parser.error(f"unknown stage(s) {', '.join(unknown)}; choose from {', '.join(STAGES)}")
    missing = [str(p) for p in args.files if not p.is_file()]
    if missing:
        parser.error(f"no such file: {', '.join(missing)}")
    if "load" not in stages:
        stages = ("load",) + stages  # the take's duration picks the limits; the load is the cheapest stage
    files = [p.resolve() for p in args.files]
    results: dict[str, dict[str, list[dict]]] = {str(p): {s: [] for s in stages} for p in files}
    load_before, source_before = os.getloadavg(), newest_source()
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        scratch = Path(tmp)
        if not args.no_warmup:
            print(f"warm-up (numba and shader caches): {warm_up(files, args.timeout, scratch):.1f} s", flush=True)
        for run in range(1, args.runs + 1):
            for path in files:
                for stage in stages:
                    figures = measure(stage, path, args, scratch)
                    results[str(path)][stage].append(figures)
                    shown = figures.get("error") or f"{figures['wall_s']:.2f} s, {figures['peak_rss_mb']:.0f} MB"
                    print(f"run {run}/{args.runs} {path.name} {stage}: {shown}", file=sys.stderr, flush=True)
    load_after, source_after = os.getloadavg(), newest_source()
    print(summarise(results, stages))
    machine = f"{os.cpu_count()} CPUs; load average {load_before[0]:.2f} before, {load_after[0]:.2f} after"
    print(f"\n{args.runs} run(s), interleaved, {time.perf_counter() - started:.0f} s; {machine}")
    if source_after != source_before:
        changed = time.strftime("%H:%M:%S", time.localtime(source_after[0]))
        print(f"warning: viewer/ changed during the bench ({source_after[1]} at {changed}): ranges mix two versions")
    if args.json:
        report = {
            "machine": {"cpus": os.cpu_count(), "loadavg_before": load_before, "loadavg_after": load_after},
            "source_changed": source_after != source_before,
            "runs": args.runs,
            "stages": list(stages),
            "results": results,
        }
        args.json.write_text(json.dumps(report, indent=1), encoding="utf-8")
    failed = any("error" in r for per in results.values() for runs in per.values() for r in runs)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
