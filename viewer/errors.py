"""One exception type for bad input files, so the CLI can print one line and exit 2.

A JSON pointer (RFC 6901) names the place in the file, e.g. ``/animations/0/samplers/1/output``,
so the user can open the file and go straight to the fault.
"""
from __future__ import annotations

from pathlib import Path


class GltfError(Exception):
    """A file that cannot be loaded as glTF 2.0, with where and why.

    Args:
        file: path of the file the fault is in (the .gltf/.glb, or a buffer/image it names).
        pointer: JSON pointer into the glTF JSON ("" for the file as a whole).
        message: what is wrong, in one sentence, without the file or pointer.
    """

    def __init__(self, file: str | Path, pointer: str, message: str) -> None:
        self.file = str(file)
        self.pointer = pointer
        self.message = message
        super().__init__(self.one_line())

    def one_line(self) -> str:
        where = f"{self.file}:{self.pointer}" if self.pointer else self.file
        return f"{where}: {self.message}"


class GltfWarning(UserWarning):
    """Something the file does that we tolerate (an unknown optional extension, a duplicate channel)."""


def pointer(*parts: object) -> str:
    """Build a JSON pointer from path parts: pointer("animations", 0, "samplers") -> "/animations/0/samplers"."""
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in parts)
