"""The arguments ``check`` and ``render`` share when they run over a library: workers, cluster, limits."""

from __future__ import annotations

import argparse
import os

from viewer.base.errors import UsageError
from viewer.cli import args as a

# Help too long to share a line with its flag's definition.
JOBS_HELP = "worker processes on this machine (default: the CPU count), one GL context each"
SCHEDULER_HELP = (
    "run on a Dask distributed cluster: tcp://host:8786, or dask-config for the address in "
    "dask.config (DASK_SCHEDULER_ADDRESS); workers must see the files at the same paths"
)
TIME_LIMIT_HELP = "seconds one file may take (default 120); a file over it is reported as such"
MEMORY_LIMIT_HELP = "megabytes a worker may grow by for one file (default 4096)"
HTML_HELP = "write one static HTML report (sortable, filterable, with thumbnails)"


def add_library_arguments(p: argparse.ArgumentParser, quiet: bool = True) -> None:
    p.add_argument("--jobs", type=a.count, default=None, metavar="N", help=JOBS_HELP)
    p.add_argument("--scheduler", default=None, metavar="ADDRESS", help=SCHEDULER_HELP)
    p.add_argument("--time-limit", type=a.positive, default=120.0, metavar="S", help=TIME_LIMIT_HELP)
    p.add_argument("--memory-limit", type=a.positive, default=4096.0, metavar="MB", help=MEMORY_LIMIT_HELP)
    p.add_argument("--json", default=None, metavar="OUT.json", help="write every result as JSON")
    p.add_argument("--html", default=None, metavar="OUT.html", help=HTML_HELP)
    if quiet:
        p.add_argument("--quiet", action="store_true", help="no progress bar")


def jobs(args) -> int:
    """``--jobs``, or the CPUs this process may use."""
    if args.jobs is not None:
        if args.scheduler:
            raise UsageError("animview: --jobs and --scheduler exclude each other (the cluster has its workers)")
        return args.jobs
    try:
        return max(len(os.sched_getaffinity(0)), 1)
    except AttributeError:
        return os.cpu_count() or 1


def check_outputs(args, command: str) -> None:
    """Refuse before the run, not after it, an output whose folder does not exist."""
    from pathlib import Path

    for out in (args.json, args.html, getattr(args, "contact_sheet", None)):
        if out is not None and not Path(out).resolve().parent.is_dir():
            raise UsageError(f"animview {command}: the folder of {out!r} does not exist")
