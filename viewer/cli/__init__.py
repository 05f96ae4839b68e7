"""The ``animview`` command: one module per subcommand, shared argument types in ``args.py``.

Each subcommand module has ``add_parser(subparsers)`` and ``run(args) -> exit status``; ``main.py``
lists them and is the one place an error becomes an exit status (2 for bad input, one line on stderr).
"""

from viewer.cli.main import main, main_entry

__all__ = ["main", "main_entry"]
