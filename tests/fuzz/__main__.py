"""``python -m tests.fuzz``: run a fuzz campaign from the repository root; exit 1 if any case failed.

Examples::

    python -m tests.fuzz --cases 2000 --seed 1          # a campaign, 2 workers, failures in out/fuzz/
    python -m tests.fuzz --seed 1 --index 417           # case 417 again (its files land in out/fuzz/ if it fails)
    python -m tests.fuzz --cases 500 --only-seeds 'khronos/*'
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from tests.fuzz.isolate import Limits
from tests.fuzz.runner import Config, progress_printer, run_campaign


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        prog="python -m tests.fuzz",
        description=__doc__.splitlines()[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--cases", type=int, default=1000, help="number of cases, indices 0..N-1 (default 1000)")
    p.add_argument("--seed", type=int, default=0, help="campaign seed; case k uses random.Random('SEED/K')")
    p.add_argument("--index", type=int, action="append", help="run only this case index (repeatable)")
    p.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    p.add_argument(
        "--render-every",
        type=int,
        default=10,
        metavar="K",
        help="render a 64x48 frame for cases whose index is a multiple of K (0: never; default 10)",
    )
    p.add_argument("--out", type=Path, default=Path("out/fuzz"), help="where failing cases go (default out/fuzz)")
    p.add_argument(
        "--only-seeds",
        metavar="PATTERN",
        help="seed files to use: fnmatch pattern or substring of names like khronos/Fox, assets/triangle, built/sparse",
    )
    p.add_argument("--cpu", type=int, default=10, help="CPU seconds per case before it is a hang (default 10)")
    p.add_argument("--wall", type=float, default=20.0, help="wall seconds per case before it is a hang (default 20)")
    p.add_argument("--memory-gib", type=float, default=4.0, help="address-space limit per case (default 4)")
    p.add_argument("--quiet", action="store_true", help="no progress lines")
    return p.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    config = Config(
        seed=args.seed,
        cases=args.cases,
        jobs=args.jobs,
        render_every=args.render_every,
        out=args.out.resolve(),
        only_seeds=args.only_seeds,
        indices=args.index,
        limits=Limits(cpu_s=args.cpu, wall_s=args.wall, memory=int(args.memory_gib * (1 << 30))),
    )
    total = len(config.task_indices())
    start = time.monotonic()
    summary = run_campaign(config, None if args.quiet else progress_printer(total))
    elapsed = time.monotonic() - start
    summary.write(config.out)
    print(summary.table())
    print(
        f"{total} cases in {elapsed:.1f} s ({1000 * elapsed / max(total, 1):.0f} s per 1000 cases, "
        f"{config.jobs} jobs); summary in {config.out}"
    )
    print(summary.final_line())
    return 1 if summary.failures else 0


if __name__ == "__main__":
    sys.exit(main())
