"""Loading a .gltf / .glb file into a validated ``Document``.

``load_document`` is the only way in: it reads the file, splits a GLB, parses the JSON, loads every
buffer and runs all of ``validate`` once. Whatever is wrong with the input comes out as a
``GltfError`` (file, JSON pointer, message), never as another exception, so the CLI can print one
line and exit 2. After that, every index, count and range in the document can be trusted.
"""

from __future__ import annotations

import json
import stat
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from viewer.base.errors import GltfError, pointer
from viewer.gltf import meshopt
from viewer.gltf.accessors import AccessorReader
from viewer.gltf.draco import DecodedAccessorReader
from viewer.gltf.glb import is_glb, split_glb
from viewer.gltf.resources import MAX_IMAGE_BYTES, FileAccess, load_buffers, read_regular_file, read_uri
from viewer.gltf.validate import check_content, check_structure

if TYPE_CHECKING:
    import pygltflib


class Document:
    """A validated glTF 2.0 file with its binary data.

    Attributes:
        path: the .gltf/.glb file.
        raw: the parsed JSON as plain dicts and lists, exactly as in the file (absent properties stay absent).
        gltf: the same as pygltflib objects, made on first use (validation guarantees what pygltflib does not).
        ignored_channels: ``{(animation, channel): reason}`` for the channels not applied: pointers that do not
            resolve to an animatable property (or whose output does not fit it), channels without a target
            node, and the loser of two channels on one property (``validate_animation``). Each was warned
            about.
    """

    def __init__(
        self,
        access: FileAccess,
        raw: dict,
        reader: AccessorReader,
        ignored_channels: dict[tuple[int, int], str],
        bin_chunk: bytes | None = None,
    ) -> None:
        self.access = access
        self.path = access.model
        self.raw = raw
        self.ignored_channels = ignored_channels
        self._reader = reader
        self._bin_chunk = bin_chunk
        self._gltf: pygltflib.GLTF2 | None = None

    @property
    def gltf(self) -> pygltflib.GLTF2:
        """The pygltflib view of the validated JSON, built on first use from ``raw`` (no second parse).

        Loading never builds it: pygltflib's dataclass decoding costs ~0.25 ms per node, minutes for a
        100 000-node file, and the viewer itself reads ``raw``.
        """
        if self._gltf is None:
            self._gltf = _to_pygltflib(self.path, self.raw, self._bin_chunk)
        return self._gltf

    def accessor(self, index: int) -> np.ndarray:
        """Accessor data, cached and read-only.

        Shapes: SCALAR ``(count,)``, VECn ``(count, n)``, MATn ``(count, n, n)`` as ``M[k][row][col]``.
        Normalized integers are float32 in [-1, 1] or [0, 1]; other integers keep their dtype; floats are
        float32. Sparse values are already substituted.
        """
        return self._reader.read(index)

    def buffer_view_bytes(self, index: int) -> memoryview:
        """The bytes of bufferView ``index`` (a zero-copy view of its buffer)."""
        return self._reader.view_bytes(index)

    def image_bytes(self, index: int) -> bytes:
        """The encoded image (PNG/JPEG as stored) of image ``index``, from a bufferView, data: URI or file.

        Raises:
            GltfError: the image file could not be read (it existed at load time).
        """
        image = self.raw["images"][index]
        if "bufferView" in image:
            return bytes(self.buffer_view_bytes(image["bufferView"]))
        return read_uri(image["uri"], self.access, pointer("images", index, "uri"), f"image {index}", MAX_IMAGE_BYTES)

    def __repr__(self) -> str:
        return f"Document({str(self.path)!r})"


def load_document(path: str | Path, allow_outside_folder: bool = False) -> Document:
    """Read, parse and validate a .gltf or .glb file.

    Args:
        path: the file; a ``.glb`` suffix or the GLB magic selects the binary container.
        allow_outside_folder: let URIs name files outside the model's folder tree (``resources``).

    Raises:
        GltfError: for any fault in the file or the files it names, with the JSON pointer of the fault.
    """
    path = Path(path)
    try:
        return _load(FileAccess(path, allow_outside_folder))
    except GltfError as exc:
        if exc.message.isprintable() and exc.pointer.isprintable():
            raise
        raise GltfError(exc.file, _printable(exc.pointer), _printable(exc.message)) from exc.__cause__


def _load(access: FileAccess) -> Document:
    """``load_document`` without the final clean-up of messages."""
    path = access.model
    data = _read_file(path)
    glb = is_glb(path, data)
    json_bytes, bin_chunk = split_glb(path, data) if glb else (data, None)
    text = _decode_text(path, json_bytes)
    raw = _parse_json(path, text)
    try:
        check_structure(raw, path)
        unread = meshopt.check_extensions(raw, path)  # meshopt fallback buffers: never read
        buffers = load_buffers(raw, access, bin_chunk, glb, unread)
        reader = DecodedAccessorReader(raw, buffers, file=path)  # Draco primitives' accessors read as decoded
        ignored = check_content(raw, access, buffers, reader)
        for view in meshopt.compressed_views(raw):  # decode the rest now: bad data fails the load, not a draw
            reader.view_bytes(view)
    except GltfError:
        raise
    except Exception as exc:  # a rule that missed a case must still come out as one line, not a traceback
        raise GltfError(path, "", f"cannot validate file ({type(exc).__name__}: {exc})") from exc
    return Document(access, raw, reader, ignored, bin_chunk)


def _printable(message: str) -> str:
    """Escape control characters (a newline in a URI or key) so the error stays on one line."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in message)


def _read_file(path: Path) -> bytes:
    """The whole model file, which must be a regular file: ``animview /dev/zero`` would never end."""
    try:
        info = path.stat()
    except FileNotFoundError:
        raise GltfError(path, "", "file not found") from None
    except (OSError, ValueError) as exc:  # ValueError: a NUL byte in the name
        raise GltfError(path, "", f"cannot read file: {getattr(exc, 'strerror', None) or exc}") from None
    if stat.S_ISDIR(info.st_mode):
        raise GltfError(path, "", "is a directory, not a .gltf or .glb file")
    return read_regular_file(path, info.st_size, path, "", "model")


def _decode_text(path: Path, json_bytes: bytes) -> str:
    """UTF-8 JSON text; a leading byte order mark is tolerated (glTF 2.0 §3.2 lets readers ignore it)."""
    try:
        return json_bytes.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as exc:
        raise GltfError(path, "", f"JSON is not valid UTF-8 (byte {exc.start}: {exc.reason})") from None


def _parse_json(path: Path, text: str) -> object:
    """Strict JSON: NaN and Infinity, which Python's json accepts, are refused as the JSON grammar says."""

    def refuse(name: str) -> None:
        raise ValueError(f"{name} is not a JSON value")

    try:
        return json.loads(text, parse_constant=refuse)
    except json.JSONDecodeError as exc:
        raise GltfError(path, "", f"invalid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}") from None
    except (ValueError, RecursionError) as exc:
        raise GltfError(path, "", f"invalid JSON: {exc}") from None


def _to_pygltflib(path: Path, raw: dict, bin_chunk: bytes | None) -> pygltflib.GLTF2:
    """The pygltflib view of the validated JSON; a GLB's BIN chunk is attached as its binary blob.

    pygltflib is imported here, not at module level: it takes a third of the import time, and the
    viewer never needs it.
    """
    import pygltflib

    try:
        gltf = pygltflib.GLTF2.from_dict(raw)
    except Exception as exc:
        raise GltfError(path, "", f"pygltflib cannot read the JSON ({type(exc).__name__}: {exc})") from exc
    if bin_chunk is not None:
        gltf.set_binary_blob(bytes(bin_chunk))
    return gltf
