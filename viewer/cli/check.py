"""``animview check PATH... [--json OUT] [--html OUT] [--fail-on LEVEL] [--against DIR] [--engines LIST]``: every
file of a library loaded and judged, on local workers or a Dask cluster; with ``--against``, each also compared
with the file at the same path under DIR (``animview diff`` of the pair: ``differs`` findings); each clip played
by the engines of ``--engines`` and compared with the spec (``engine-divergence`` findings).

Prints one block per file that has findings (and every file that fails), then a summary line. Exit status:
0, or 1 when a finding at or above ``--fail-on`` (default: error — a file that does not load or is over a
limit) was found; 2 for bad usage.
"""

from __future__ import annotations

import sys

from viewer.cli import library_args as la
from viewer.library.report import LEVELS, RANK, worst

NAME = "check"


def add_parser(subparsers) -> None:
    p = subparsers.add_parser(NAME, help="check every .gltf/.glb under the paths: loads, clips, findings")
    p.add_argument("file", nargs="+", metavar="PATH", help=".gltf / .glb files and folders (searched below)")
    p.add_argument(
        "--fail-on",
        choices=LEVELS + ("never",),
        default="error",
        help="exit 1 when a finding at this level or above is found (default: error)",
    )
    p.add_argument(
        "--no-thumbnails",
        action="store_true",
        help="an --html report without thumbnails (by default each clip gets one, in OUT_thumbs/)",
    )
    la.add_library_arguments(p)
    la.add_against_arguments(p)
    la.add_engines_argument(p)


def run(args) -> int:
    from pathlib import Path

    from viewer.library.discover import discover
    from viewer.library.run import Limits, requests_for, run_library

    la.check_outputs(args, NAME)
    files = discover(args.file, f"animview {NAME}")
    previews = None
    if args.html and not args.no_thumbnails:
        html = Path(args.html).resolve()
        outdir = html.with_name(html.stem + "_thumbs")
        outdir.mkdir(exist_ok=True)
        previews = {
            "outdir": str(outdir),
            "thumb_size": [192, 144],
            "preview": None,
            "preview_size": [320, 240],
            "fps": 15.0,
        }
    limits = Limits(args.time_limit, args.memory_limit)
    requests = requests_for(files, limits, previews, la.against(args, NAME), la.engines(args, NAME))
    done = run_library(requests, la.jobs(args), args.scheduler, args.quiet)
    write_reports(done, args)
    print_results(done)
    return exit_status(done.results, args.fail_on)


def write_reports(done, args) -> None:
    """``--json`` and ``--html``, when asked."""
    if args.json:
        import json

        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"summary": done.summary, "workers": done.workers, "results": done.results}, f, indent=1)
    if args.html:
        from pathlib import Path

        from viewer.library.html_report import write_html

        write_html(done.results, Path(args.html))


def print_results(done) -> None:
    """Each file with findings (its findings under it), then the totals."""
    lines = []
    for r in done.results:
        if r["status"] != "ok":
            lines.append(f"{r['file']}: {r['status'].upper()}: {r['error']}")
            continue
        found = [(None, f) for f in r["findings"]] + [(c, f) for c in r["clips"] for f in c["findings"]]
        if not found:
            continue
        lines.append(
            f"{r['file']}: " + ", ".join(f"{r['counts'][lv]} {lv}" for lv in reversed(LEVELS) if r["counts"][lv])
        )
        for clip, f in found:
            where = f"clip {clip['index']} {clip['name']!r}: " if clip is not None else ""
            lines.append(f"  {f['level']:<7} {f['code']:<19} {where}{f['pointer'] or '/'}: {f['message']}")
    s = done.summary
    failed = ", ".join(f"{n} {st}" for st, n in s["status"].items() if st != "ok" and n)
    lines.append(
        f"checked {s['files']} file{'s' if s['files'] != 1 else ''} ({s['status']['ok']} loaded"
        f"{', ' + failed if failed else ''}), {s['clips']} clips: "
        + ", ".join(f"{s['findings'][lv]} {lv}" for lv in reversed(LEVELS))
        + f"; {s['seconds']:.1f} s on {done.workers}"
        + (f"; {s['retried']} file(s) retried after a worker died" if s["retried"] else "")
    )
    try:
        sys.stdout.write("\n".join(lines) + "\n")
    except BrokenPipeError:
        pass


def exit_status(results: list[dict], fail_on: str) -> int:
    if fail_on == "never":
        return 0
    levels = [worst(r) for r in results]
    return int(any(lv is not None and RANK[lv] >= RANK[fail_on] for lv in levels))
