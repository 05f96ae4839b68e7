"""One exception type for bad input files, so the CLI can print one line and exit 2.

A JSON pointer (RFC 6901) names the place in the file, e.g. ``/animations/0/samplers/1/output``,
so the user can open the file and go straight to the fault.
"""

from __future__ import annotations

from pathlib import Path

# Bounds on what an error line repeats from the input: a file may hold a 5 000-character URI or name.
MAX_QUOTE_CHARS = 80
MAX_PATH_CHARS = 200
MAX_POINTER_CHARS = 120
MAX_MESSAGE_CHARS = 300


def shorten(text: str, limit: int = MAX_QUOTE_CHARS) -> str:
    """``text`` cut to at most ``limit`` characters, its middle replaced by an ellipsis (both ends tell
    most: where a path starts and which file it names)."""
    if len(text) <= limit:
        return text
    head = (limit - 1) * 2 // 3
    return text[:head] + "…" + text[len(text) - (limit - 1 - head) :]


class GltfError(Exception):
    """A file that cannot be loaded as glTF 2.0, with where and why.

    Args:
        file: path of the file the fault is in (the .gltf/.glb, or a buffer/image it names).
        pointer: JSON pointer into the glTF JSON ("" for the file as a whole).
        message: what is wrong, in one sentence, without the file or pointer.
    """

    def __init__(self, file: str | Path, pointer: str, message: str) -> None:
        self.file = shorten(str(file), MAX_PATH_CHARS)
        self.pointer = shorten(pointer, MAX_POINTER_CHARS)
        self.message = shorten(message, MAX_MESSAGE_CHARS)
        super().__init__(self.one_line())

    def one_line(self) -> str:
        where = f"{self.file}:{self.pointer}" if self.pointer else self.file
        return f"{where}: {self.message}"


class UsageError(Exception):
    """A bad command-line argument: the CLI prints it as one line and exits 2, like a ``GltfError``."""


class GltfWarning(UserWarning):
    """Something the file does that we tolerate (an unknown optional extension, a duplicate channel)."""


def pointer(*parts: object) -> str:
    """Build a JSON pointer from path parts: pointer("animations", 0, "samplers") -> "/animations/0/samplers"."""
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in parts)
