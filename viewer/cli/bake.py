"""``animview bake FILE (--mode M [--fps N | --keys] | --engine E [--fps N]) [--animation K] -o OUT.glb|.gltf``.

Writes a copy of the file whose clips are resampled in the chosen interpolation mode, so any engine plays
back what the compare view showed (``viewer/files/bake.py`` says how each mode is written); or, with
``--engine``, as that engine played the original (``viewer/files/bake_engine.py``).
"""

from __future__ import annotations

import sys
from pathlib import Path

from viewer.animation.modes import MODES
from viewer.base.errors import UsageError
from viewer.cli import args as a

NAME = "bake"


def add_parser(subparsers) -> None:
    p = subparsers.add_parser(NAME, help="write a copy whose clips are resampled in a chosen interpolation mode")
    a.add_file_arguments(p)
    p.add_argument("-o", "--output", required=True, metavar="OUT", help="OUT.glb or OUT.gltf (self-contained)")
    p.add_argument("--mode", choices=MODES, default=None, help="the interpolation mode to bake in")
    a.add_engine_argument(p, "bake the motion engine E plays (at --fps, default 60, plus every key it plays)")
    g = p.add_mutually_exclusive_group()
    g.add_argument("--fps", type=a.positive, help="sample at this frame rate (plus every key), as LINEAR/STEP keys")
    g.add_argument(
        "--keys",
        action="store_true",
        help="at the clip's own keys (the default): cubic modes as CUBICSPLINE with exact tangents",
    )
    a.add_animation_argument(p, default="every animation")
    p.add_argument("--quiet", action="store_true", help="no summary on stderr")


def run(args) -> int:
    from viewer.files.bake import bake_file

    if (args.mode is None) == (args.engine is None):
        raise UsageError("animview bake: give one of --mode M or --engine E")
    if args.engine is not None and args.keys:
        raise UsageError("animview bake: --engine bakes at a frame rate (--fps), not at the keys")
    out = Path(args.output)
    if not out.parent.is_dir():
        raise UsageError(f"animview bake: the folder {str(out.parent)!r} of {str(out)!r} does not exist")
    scene = a.load_scene(args, NAME, need_animation=True)
    index = None if args.animation is None else a.pick_clip(scene, args.animation, NAME).index
    try:
        if args.engine is not None:
            from viewer.engines import get
            from viewer.files.bake_engine import bake_engine_file

            summary = bake_engine_file(scene, out, get(args.engine), fps=args.fps, animation=index)
        else:
            summary = bake_file(scene, out, args.mode, fps=args.fps, keys=args.keys, animation=index)
    except ValueError as exc:
        raise UsageError(f"animview bake: {exc}") from None
    except OSError as exc:
        raise UsageError(f"animview bake: cannot write {str(out)!r}: {exc.strerror or exc}") from None
    if not args.quiet:
        print(summary, file=sys.stderr)
    return 0
