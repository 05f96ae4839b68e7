"""``animview``: the subcommands, and the one place errors become exit codes.

Bad input (a file that is not valid glTF, a bad argument) prints exactly one line on stderr and
exits with status 2 — never a traceback. Without a subcommand, ``animview [FILE]`` opens the viewer.
"""
from __future__ import annotations

import sys
import warnings
from typing import Sequence

from viewer.cli import bake, bench, inspect, render, sample, view
from viewer.cli.args import Parser
from viewer.errors import GltfError, GltfWarning, UsageError

EXIT_BAD_INPUT = 2
COMMANDS = {module.NAME: module for module in (inspect, sample, render, bench, bake)}


def build_parser() -> Parser:
    parser = Parser(prog="animview", description="glTF 2.0 animation viewer",
                    epilog="animview [FILE] [--animation K] [--speed S] [--paused] [--time T] [--window W] opens "
                           "the viewer window (no FILE: the built-in demo); 'animview FILE -h' lists its options.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=Parser)
    for module in COMMANDS.values():
        module.add_parser(sub)
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
            parser = Parser(prog="animview", description="open the viewer (no FILE: the built-in demo)")
            view.add_arguments(parser)
            return view.run(parser.parse_args(argv))
        args = build_parser().parse_args(argv)
        return COMMANDS[args.command].run(args)
    except (GltfError, UsageError) as exc:
        print(str(exc).replace("\n", " "), file=sys.stderr)
        return EXIT_BAD_INPUT
    except BrokenPipeError:
        return 0


def main_entry() -> None:
    """Console-script entry point (``animview``)."""
    sys.exit(main())
