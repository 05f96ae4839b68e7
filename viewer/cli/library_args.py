"""The arguments ``check`` and ``render`` share when they run over a library: workers, cluster, limits; and
``check``'s comparison with a second library (``--against``)."""

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
AGAINST_HELP = (
    "a second library (e.g. the optimized copies): compare each file with the file at the same path under DIR, "
    "as animview diff does; a pair that moves differently is a 'differs' warning"
)
ENGINES_HELP = (
    "the engines whose playback is compared with the spec's ('engine-divergence' warnings): a comma-separated "
    "list such as three,filament, all (the default) or none (a library checked in about a third of the time)"
)
DIFF_FAIL_HELP = "with --against: a pair differs past X scene units or N%% of the file's size (default 1e-5 of it)"


def add_library_arguments(p: argparse.ArgumentParser, quiet: bool = True) -> None:
    p.add_argument("--jobs", type=a.count, default=None, metavar="N", help=JOBS_HELP)
    p.add_argument("--scheduler", default=None, metavar="ADDRESS", help=SCHEDULER_HELP)
    p.add_argument("--time-limit", type=a.positive, default=120.0, metavar="S", help=TIME_LIMIT_HELP)
    p.add_argument("--memory-limit", type=a.positive, default=4096.0, metavar="MB", help=MEMORY_LIMIT_HELP)
    p.add_argument("--json", default=None, metavar="OUT.json", help="write every result as JSON")
    p.add_argument("--html", default=None, metavar="OUT.html", help=HTML_HELP)
    if quiet:
        p.add_argument("--quiet", action="store_true", help="no progress bar")


def add_against_arguments(p: argparse.ArgumentParser) -> None:
    from viewer.animation.modes import MODES  # numpy: not for ``animview -h``
    from viewer.cli.diff import fail_above

    p.add_argument("--against", default=None, metavar="DIR", help=AGAINST_HELP)
    p.add_argument("--diff-mode", choices=MODES, default="authored", help="with --against: the mode both play in")
    p.add_argument("--diff-fail-above", type=fail_above, default=None, metavar="X|N%", help=DIFF_FAIL_HELP)


def add_engines_argument(p: argparse.ArgumentParser) -> None:
    p.add_argument("--engines", default="all", metavar="LIST", help=ENGINES_HELP)


def engines(args, command: str) -> list[str] | None:
    """``requests_for``'s ``engines`` from ``--engines``: None for all, [] for none, else the names, each
    known (the engines are compared with the spec, so naming it adds nothing)."""
    from viewer.engines import NAMES  # the engines' modules: not for ``animview -h``

    given = args.engines.strip()
    if given == "all":
        return None
    if given == "none":
        return []
    names = [n.strip() for n in given.split(",") if n.strip()]
    unknown = [n for n in names if n not in NAMES]
    if unknown or not names:
        raise UsageError(
            f"animview {command}: --engines {given!r}: unknown engine {', '.join(unknown) or '(none named)'}; "
            f"choose from {', '.join(NAMES)}, all or none"
        )
    return list(dict.fromkeys(n for n in names if n != "spec"))


def against(args, command: str) -> dict | None:
    """``requests_for``'s ``against`` from ``--against`` (None without it); DIR must be a folder."""
    from pathlib import Path

    if args.against is None:
        if args.diff_fail_above is not None or args.diff_mode != "authored":
            raise UsageError(f"animview {command}: --diff-mode and --diff-fail-above need --against DIR")
        return None
    if not Path(args.against).is_dir():
        raise UsageError(f"animview {command}: --against {args.against!r} is not a folder")
    value, relative = args.diff_fail_above or (None, False)
    return {"dir": args.against, "mode": args.diff_mode, "fps": 120.0, "fail_above": value, "relative": relative}


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
