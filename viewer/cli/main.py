"""``animview``: the subcommands, and the one place errors become exit codes.

Bad input (a file that is not valid glTF, a bad argument) prints exactly one line on stderr and
exits with status 2 — never a traceback. Without a subcommand, ``animview [FILE]`` opens the viewer.
"""

from __future__ import annotations

import gc
import importlib
import sys
import warnings
from typing import Sequence

from viewer.base.errors import GltfError, GltfWarning, UsageError
from viewer.cli.args import Parser

EXIT_BAD_INPUT = 2
# Each is the module viewer.cli.<name>, imported when its command runs (or the help lists them all), so a
# command does not pay for the imports of the others.
COMMANDS = ("inspect", "sample", "render", "bench", "bake", "reduce", "check", "diff")


def command(name: str):
    """The module of subcommand ``name`` (one of ``COMMANDS``)."""
    return importlib.import_module(f"viewer.cli.{name}")


def build_parser(only: str | None = None) -> Parser:
    """The ``animview`` parser with every subcommand, or with ``only`` that one (its own usage, help and
    errors are the same either way)."""
    parser = Parser(
        prog="animview",
        description="glTF 2.0 animation viewer",
        epilog="animview [FILE] [--animation K] [--speed S] [--paused] [--time T] [--window W] opens "
        "the viewer window (no FILE: the built-in demo); 'animview FILE -h' lists its options.",
    )
    sub = parser.add_subparsers(dest="command", required=True, parser_class=Parser)
    for name in COMMANDS if only is None else (only,):
        command(name).add_parser(sub)
    return parser


def _one_line_warning(message, category, filename, lineno, file=None, line=None) -> None:
    print(f"animview: warning: {message}", file=sys.stderr)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command; returns the exit status (0 ok, 1 no OpenGL or window, 2 bad input)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    warnings.showwarning = _one_line_warning
    warnings.simplefilter("always", GltfWarning)
    try:
        if not argv or (argv[0] not in COMMANDS and argv[0] not in ("-h", "--help")):
            view = command("view")
            parser = Parser(prog="animview", description="open the viewer (no FILE: the built-in demo)")
            view.add_arguments(parser)
            return view.run(parser.parse_args(argv))
        args = build_parser(argv[0] if argv[0] in COMMANDS else None).parse_args(argv)
        return command(args.command).run(args)
    except (GltfError, UsageError) as exc:
        print(str(exc).replace("\n", " "), file=sys.stderr)
        return EXIT_BAD_INPUT
    except BrokenPipeError:
        return 0


def main_entry() -> None:
    """Console-script entry point (``animview``, ``python -m viewer``)."""
    status = main()
    # The interpreter's exit runs full garbage collections over every object the command made (~30 000 for
    # a render: 25 ms of a 0.5 s command); frozen objects are skipped, and the process's memory goes back
    # to the system as it ends anyway. Only here, never in ``main``, which tests and scripts call in-process.
    gc.freeze()
    sys.exit(status)
