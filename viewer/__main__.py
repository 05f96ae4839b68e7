"""``python -m viewer`` is the ``animview`` command."""
import sys

from viewer.cli import main

sys.exit(main())
