"""The ``animview`` command: argument parsing and dispatch, and the one place errors become exit codes.

Bad input (a file that is not valid glTF, a bad argument) prints exactly one line on stderr and
exits with status 2 — never a traceback.
"""
from __future__ import annotations

import argparse
import json
import math
import re
import sys
import time
import warnings
from typing import Sequence

from viewer.animation.modes import MODES

from viewer.cli_render import add_render_parser, run_render, size_argument
from viewer.cli_view import add_file_access_argument
from viewer.errors import GltfError, GltfWarning, shorten

EXIT_BAD_INPUT = 2
SUBCOMMANDS = ("inspect", "sample", "bench")


class UsageError(Exception):
    """A bad command-line argument."""


# Any number (or comma list of numbers, for --times) that argparse should take as a value, not as an
# option: "-1e308", "-.5", "-inf", "-1,0.5". argparse's own pattern knows only "-5" and "-0.5", so
# "--time -1e308" failed with "expected one argument".
_UNSIGNED = r"(?:(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?|inf(?:inity)?|nan)"
NEGATIVE_NUMBER = re.compile(rf"^-{_UNSIGNED}(?:\s*,\s*[-+]?{_UNSIGNED})*$", re.IGNORECASE)


class _Parser(argparse.ArgumentParser):
    """argparse, but a bad argument is one line and exit 2, not a usage dump."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._negative_number_matcher = NEGATIVE_NUMBER  # argparse's hook (3.10–3.13) for what a number is

    def error(self, message: str) -> None:  # noqa: D102 — argparse hook
        raise UsageError(f"{self.prog}: {shorten(message, 300)}")


def _times(text: str) -> list[float]:
    try:
        times = [float(x) for x in text.split(",") if x.strip()]
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"--times wants comma-separated seconds, got {shorten(text)!r}") from exc
    if not times or not all(math.isfinite(t) for t in times):
        raise argparse.ArgumentTypeError(f"--times wants comma-separated finite seconds, got {shorten(text)!r}")
    return times


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"wants a positive whole number, got {text!r}")
    return value


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="animview", description="glTF 2.0 animation viewer",
                     epilog="animview [FILE] [--animation K] [--speed S] [--paused] [--time T] [--window W] opens "
                            "the viewer window (no FILE: the built-in demo); 'animview FILE -h' lists its options.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    p = sub.add_parser("inspect", help="what is in the file")
    p.add_argument("file")
    p.add_argument("--json", action="store_true")
    add_file_access_argument(p)
    p = sub.add_parser("sample", help="animation values at chosen times")
    p.add_argument("file")
    p.add_argument("--json", action="store_true")
    add_file_access_argument(p)
    p.add_argument("--animation", type=int)
    g = p.add_mutually_exclusive_group()
    g.add_argument("--times", type=_times)
    g.add_argument("--steps", type=_positive)
    p.add_argument("--mode", choices=MODES, default="authored")
    p = sub.add_parser("bench", help="measured speed of sampling and updating")
    p.add_argument("file")
    p.add_argument("--json", action="store_true")
    p.add_argument("--frames", type=_positive, default=1000)
    p.add_argument("--size", type=size_argument, default=(640, 480), help="render_fps frame size WxH (640x480)")
    p.add_argument("--render-frames", type=_positive, default=200, help="frames timed for render_fps (200)")
    add_file_access_argument(p)
    add_render_parser(sub)
    return parser


def _load(args):
    """The scene of ``args.file`` under the command line's file access policy."""
    from viewer.scene import load

    return load(args.file, args.allow_outside_folder)


def _load_animated(args, command: str):
    """``_load``, for commands that mean nothing without an animation (``sample``, ``bench``)."""
    scene = _load(args)
    if not scene.clips:
        raise UsageError(f"animview {command}: {shorten(str(args.file), 200)} has no animations")
    return scene


def _cmd_inspect(args) -> int:
    from viewer import cli_inspect

    info = cli_inspect.describe(_load(args))
    print(json.dumps(info, indent=1) if args.json else cli_inspect.table(info))
    return 0


def _cmd_sample(args) -> int:
    from viewer.sampling import sample_animations

    scene = _load_animated(args, "sample")
    if args.animation is not None and not 0 <= args.animation < len(scene.clips):
        raise UsageError(f"animview sample: --animation {args.animation} is not in {args.file} "
                         f"(it has {len(scene.clips)} animations)")
    doc = sample_animations(scene, args.animation, args.times, args.steps, args.mode)
    if args.json:
        print(json.dumps(doc, separators=(",", ":")))
    else:
        for anim in doc["animations"]:
            print(f"animation {anim['index']} {anim['name']!r} ({anim['duration']:.4f} s)")
            for s in anim["samples"]:
                for node, paths in s["nodes"].items():
                    for path, v in paths.items():
                        print(f"  t={s['t']:.4f}  node {node:>3} {path:<11} " + " ".join(f"{x: .5f}" for x in v))
    return 0


def _cmd_bench(args) -> int:
    from viewer.bench import run_bench

    started = time.perf_counter()
    scene = _load_animated(args, "bench")
    load_s = time.perf_counter() - started  # once: a second load would find the files in the OS cache
    result = {"load_s": load_s, **run_bench(scene, args.frames, args.size, args.render_frames)}
    if args.json:
        print(json.dumps(result))
    else:
        for k, v in result.items():
            print(f"{k:<34} {v:,.3f}" if isinstance(v, float) else f"{k:<34} {v}")
    return 0


COMMANDS = {"inspect": _cmd_inspect, "sample": _cmd_sample, "bench": _cmd_bench, "render": run_render}


def _view(argv: list[str]) -> int:
    """``animview [FILE] [...]``: the window (the first word is no subcommand)."""
    from viewer import cli_view

    parser = _Parser(prog="animview", description="open the viewer (no FILE: the built-in demo)")
    cli_view.add_view_arguments(parser)
    return cli_view.run_view(parser.parse_args(argv))


def _one_line_warning(message, category, filename, lineno, file=None, line=None) -> None:
    print(f"animview: warning: {message}", file=sys.stderr)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command; returns the exit status (0 ok, 2 bad input)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    warnings.showwarning = _one_line_warning
    warnings.simplefilter("always", GltfWarning)
    try:
        if not argv or (argv[0] not in COMMANDS and argv[0] not in ("-h", "--help")):
            return _view(argv)
        args = build_parser().parse_args(argv)
        return COMMANDS[args.command](args)
    except (GltfError, UsageError) as exc:
        print(str(exc).replace("\n", " "), file=sys.stderr)
        return EXIT_BAD_INPUT
    except BrokenPipeError:
        return 0


def main_entry() -> None:
    """Console-script entry point (``animview``)."""
    sys.exit(main())
