"""``animview render PATH... --outdir DIR [--gif|--png|--mp4] [--contact-sheet OUT.png]``: every clip of every
file under the paths as a thumbnail (and a preview), on local workers or a Dask cluster, and one contact
sheet of the whole library. The files are checked on the way (the same task as ``check``), so ``--json`` /
``--html`` reports come with the pictures for free."""

from __future__ import annotations

import sys
from pathlib import Path

from viewer.base.errors import UsageError
from viewer.cli import library_args as la

PREVIEW_SIZE = (320, 240)
# Options of a single render that mean nothing for a library's previews.
SINGLE_ONLY = ("output", "compare", "overlay", "trails", "ghosts", "curves", "node")


def add_arguments(p) -> None:
    """``render``'s library options (the rest of ``render``'s parser is the single file's)."""
    p.add_argument(
        "--outdir",
        default=None,
        metavar="DIR",
        help="library mode: a thumbnail per clip (and a preview with --gif/--png/--mp4) into DIR",
    )
    kind = p.add_mutually_exclusive_group()
    for fmt in ("gif", "png", "mp4"):
        kind.add_argument(
            f"--{fmt}",
            dest="preview",
            action="store_const",
            const=fmt,
            help=f"with --outdir: a {fmt.upper()} preview of each clip"
            + (" (a still at mid-clip)" if fmt == "png" else " (at --fps, at most 10 s)"),
        )
    p.add_argument(
        "--contact-sheet",
        default=None,
        metavar="OUT.png",
        help="with --outdir: one picture of every clip (thumbnail, name, findings badge)",
    )
    la.add_library_arguments(p, quiet=False)
    la.add_engines_argument(p)


def run(args) -> int:
    from viewer.cli import check
    from viewer.library.contact_sheet import write_contact_sheet
    from viewer.library.discover import discover
    from viewer.library.run import Limits, requests_for, run_library

    for name in SINGLE_ONLY:
        if getattr(args, name, None):
            raise UsageError(f"animview render: --{name.replace('_', '-')} renders one file; not with --outdir")
    if args.allow_outside_folder:
        raise UsageError(
            "animview render: --outdir reads only the given paths; --allow-outside-folder is not for a library"
        )
    outdir = Path(args.outdir)
    if not outdir.is_dir():
        try:
            outdir.mkdir(parents=True)
        except OSError as exc:
            raise UsageError(f"animview render: cannot make --outdir {args.outdir!r}: {exc.strerror}") from None
    la.check_outputs(args, "render")
    if args.contact_sheet and Path(args.contact_sheet).suffix.lower() != ".png":
        raise UsageError(f"animview render: --contact-sheet writes a PNG, got {args.contact_sheet!r}")
    size = args.size or PREVIEW_SIZE
    if args.preview == "mp4" and (size[0] % 2 or size[1] % 2):
        raise UsageError(f"animview render: MP4 needs an even width and height, got {size[0]}x{size[1]}")
    files = discover(args.file, "animview render")
    previews = {
        "outdir": str(outdir.resolve()),
        "thumb_size": [192, 144],
        "preview": args.preview,
        "preview_size": list(size),
        "fps": float(args.fps),
        "variants": args.variant,
    }
    requests = requests_for(
        files, Limits(args.time_limit, args.memory_limit), previews, engines=la.engines(args, "render")
    )
    done = run_library(requests, la.jobs(args), args.scheduler, args.quiet)
    check.write_reports(done, args)
    if args.contact_sheet:
        w, h = write_contact_sheet(done.results, Path(args.contact_sheet))
        if not args.quiet:
            print(f"wrote {args.contact_sheet} ({w}x{h})", file=sys.stderr)
    check.print_results(done)
    return check.exit_status(done.results, "error")
