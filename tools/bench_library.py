"""Time a library run on one worker and on two: local worker processes and a Dask LocalCluster, interleaved.

    python tools/bench_library.py LIBRARY [--repeat 3] [--render]

Each round runs ``check`` (or, with ``--render``, thumbnails as ``render --outdir`` makes them) over every file
under LIBRARY with ``--jobs 1``, ``--jobs 2``, a one-worker and a two-worker LocalCluster (the clusters are
started before their rounds and not timed), and prints each configuration's wall times and the range of the
two-worker / one-worker ratio. docs/library.md's table comes from it.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from viewer.library.discover import discover  # noqa: E402
from viewer.library.run import Limits, requests_for, run_library  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("library", type=Path)
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--render", action="store_true", help="thumbnails too (one GL context per worker)")
    args = p.parse_args(argv)
    from distributed import LocalCluster

    files = discover([args.library])
    times: dict[str, list[float]] = {}
    with (
        tempfile.TemporaryDirectory() as out,
        LocalCluster(n_workers=1, threads_per_worker=1, dashboard_address=None, silence_logs=40) as one,
        LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None, silence_logs=40) as two,
    ):
        previews = (
            {"outdir": out, "thumb_size": [192, 144], "preview": None, "preview_size": [320, 240], "fps": 15.0}
            if args.render
            else None
        )
        requests = requests_for(files, Limits(), previews)
        configs = {
            "jobs 1": dict(jobs=1),
            "jobs 2": dict(jobs=2),
            "dask 1 worker": dict(scheduler=one.scheduler_address),
            "dask 2 workers": dict(scheduler=two.scheduler_address),
        }
        for round_ in range(args.repeat):
            for name, kw in configs.items():
                start = time.perf_counter()
                done = run_library(requests, quiet=True, **kw)
                times.setdefault(name, []).append(time.perf_counter() - start)
                assert len(done.results) == len(files)
                print(f"round {round_ + 1} {name}: {times[name][-1]:.1f} s", file=sys.stderr)
    print(f"{len(files)} files, {'check + thumbnails' if args.render else 'check'}, {args.repeat} rounds")
    for name, t in times.items():
        print(f"  {name:<15} {min(t):6.1f} – {max(t):6.1f} s")
    for a, b in (("jobs 2", "jobs 1"), ("dask 2 workers", "dask 1 worker")):
        ratios = [x / y for x, y in zip(times[a], times[b])]
        print(f"  {a} / {b.split()[0]} one: {min(ratios):.2f} – {max(ratios):.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
