"""``python -m viewer`` is the ``animview`` command."""

from viewer.cli import main_entry

main_entry()
