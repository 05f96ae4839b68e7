"""``animview reduce FILE -o OUT.glb|.gltf [--max-error E] [--animation K|NAME|all] [--meshopt] [--json REPORT]``.

Writes a copy with the fewest animation bytes whose motion stays within E of the original in world space —
every vertex, joint end, camera and light — measured on the written file with ``animview diff``
(``viewer/reduce/`` says how). E: scene units, or ``mm`` / ``cm`` / ``m`` (glTF's unit is the metre), or ``N%``
of the scene's size; default 0.1 mm.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

from viewer.base.errors import UsageError
from viewer.cli import args as a

NAME = "reduce"
UNITS = {"": None, "m": 1.0, "cm": 0.01, "mm": 0.001, "%": "size"}
DEFAULT_ERROR = "0.1mm"
KERNEL_FILE_BYTES = 1 << 20


def add_parser(subparsers) -> None:
    p = subparsers.add_parser(NAME, help="write a copy with the fewest animation bytes within a world-space error")
    a.add_file_arguments(p)
    p.add_argument("-o", "--output", required=True, metavar="OUT", help="OUT.glb or OUT.gltf (self-contained)")
    p.add_argument(
        "--max-error",
        default=DEFAULT_ERROR,
        metavar="E",
        help="how far anything may move from the original: scene units, mm, cm, m or N%% of the scene size "
        f"(default {DEFAULT_ERROR})",
    )
    p.add_argument("--animation", metavar="K", help="the animation to reduce, by index or name (default: all)")
    p.add_argument(
        "--meshopt",
        action="store_true",
        help="also quantize through the meshopt filters (rounding counted in E) and compress every animation "
        "view (EXT_meshopt_compression, required)",
    )
    p.add_argument("--json", metavar="REPORT", help="write the report as JSON here ('-': stdout)")
    p.add_argument("--quiet", action="store_true", help="no summary on stderr")


def parse_error(text: str) -> tuple[float, object]:
    """(number, unit factor or "size" or None) of an --max-error; UsageError when it is not one."""
    m = re.fullmatch(r"\s*([0-9]*\.?[0-9]+(?:[eE][-+]?[0-9]+)?)\s*(mm|cm|m|%)?\s*", text or "")
    if not m:
        raise UsageError(
            f"animview reduce: --max-error must be a distance like 0.1mm, 2cm, 0.5% or 0.001, got {text!r}"
        )
    return float(m.group(1)), UNITS[m.group(2) or ""]


def run(args) -> int:
    from viewer.reduce.file import reduce_file
    from viewer.reduce.report import build, text

    value, unit = parse_error(args.max_error)
    out = Path(args.output)
    if not out.parent.is_dir():
        raise UsageError(f"animview reduce: the folder {str(out.parent)!r} of {str(out)!r} does not exist")
    if args.json and args.json != "-" and not Path(args.json).parent.is_dir():
        raise UsageError(f"animview reduce: the folder of the report {args.json!r} does not exist")
    if Path(args.file).is_file() and Path(args.file).stat().st_size > KERNEL_FILE_BYTES:
        from viewer import fast

        fast.start()  # the written file's diff poses every time: compiled, once loaded on the other core
    scene = a.load_scene(args, NAME, need_animation=True)
    index = None
    if args.animation not in (None, "all"):
        index = a.pick_clip(scene, args.animation, NAME).index
    if unit == "size":
        from viewer.compare.diff import scene_size

        error = value / 100.0 * scene_size(scene)
    else:
        error = value * (1.0 if unit is None else unit)
    try:
        outcome = reduce_file(scene, out, error, animation=index, meshopt=args.meshopt)
    except ValueError as exc:
        raise UsageError(f"animview reduce: {exc}") from None
    except OSError as exc:
        raise UsageError(f"animview reduce: cannot write {str(out)!r}: {exc.strerror or exc}") from None
    report = build(outcome)
    if args.json == "-":
        print(json.dumps(report, indent=1))
    elif args.json:
        Path(args.json).write_text(json.dumps(report, indent=1))
    if not args.quiet:
        print(text(report), file=sys.stderr)
    return 0 if report["within"] else 1
