"""Bytes behind URIs: external files next to the .gltf, ``data:`` URIs, and the GLB BIN chunk.

glTF 2.0 §3.6.1 / §2.8: a URI is either a ``data:`` URI (RFC 2397, base64 in practice) or a relative
URI reference, percent-encoded (``my%20file.bin`` names ``my file.bin``), resolved against the
directory of the .gltf. Other schemes (http, file) are refused: a viewer should not fetch the network.

A model is data from anywhere, so what it may make us read is bounded (``FileAccess``):

* external files must lie inside the model's folder tree (after ``..`` and symbolic links are
  resolved): a URI like ``../../etc/passwd`` or ``/home/me/.ssh/id_rsa`` is refused unless the caller
  allows it (``--allow-outside-folder``, ``load(..., allow_outside_folder=True)``);
* only regular files are opened — never a device (``/dev/zero`` never ends), a FIFO or a socket
  (``/dev/stdin`` blocks);
* at most the bytes we need are read: a buffer's declared ``byteLength``, an image's ``MAX_IMAGE_BYTES``.
"""

from __future__ import annotations

import base64
import binascii
import os
import stat
from dataclasses import dataclass
from pathlib import Path, PurePosixPath, PureWindowsPath
from urllib.parse import unquote, unquote_to_bytes, urlsplit

from viewer.base.errors import GltfError, pointer, shorten

ALLOW_OPTION = "--allow-outside-folder (Python: load(..., allow_outside_folder=True))"
MAX_IMAGE_BYTES = 512 * 1024 * 1024  # an encoded image larger than this is not a texture we can use


@dataclass(frozen=True)
class FileAccess:
    """What one load may read besides the model file itself.

    Attributes:
        model: the .gltf/.glb; its folder is the tree external URIs must stay in.
        allow_outside: let URIs name files outside that tree (still only regular files).
    """

    model: Path
    allow_outside: bool = False


def is_data_uri(uri: str) -> bool:
    """Whether ``uri`` is an RFC 2397 data: URI (the scheme is case-insensitive)."""
    return uri[:5].lower() == "data:"


def decode_data_uri(uri: str, file: Path, where: str) -> bytes:
    """Decode ``data:[<mediatype>][;base64],<data>``.

    Args:
        uri: the whole URI.
        file: the .gltf/.glb, for errors.
        where: JSON pointer of the ``uri`` property, for errors.

    Raises:
        GltfError: no comma, or invalid base64 (strict: no stray characters, right padding).
    """
    header, comma, payload = uri[5:].partition(",")
    if not comma:
        raise GltfError(file, where, "data: URI has no ',' before its data")
    if header.lower().endswith(";base64"):
        try:
            return base64.b64decode(payload, validate=True)
        except (binascii.Error, ValueError) as exc:
            raise GltfError(file, where, f"data: URI has invalid base64 ({exc})") from None
    return unquote_to_bytes(payload)


def uri_path(uri: str, access: FileAccess, where: str) -> Path:
    """The file a relative URI names: percent-decoded, resolved against the model's folder, and checked
    against the access policy (no other scheme, no absolute path or drive, no way out of the folder)."""
    file = access.model
    try:
        scheme = urlsplit(uri).scheme
    except ValueError as exc:
        raise GltfError(file, where, f"malformed URI ({exc})") from None
    name = unquote(uri)
    if "\0" in name:
        raise GltfError(file, where, "URI names a file with a NUL character")
    absolute = PurePosixPath(name).is_absolute() or bool(PureWindowsPath(name).drive) or name.startswith("\\")
    if len(scheme) > 1 and not absolute:  # one letter is a Windows drive, not a scheme
        raise GltfError(
            file, where, f"URI scheme {shorten(scheme)!r} is not supported, only relative paths and data: URIs"
        )
    if absolute and not access.allow_outside:
        raise GltfError(
            file,
            where,
            f"URI {shorten(uri)!r} is an absolute path; only files in the model's folder "
            f"are read unless you pass {ALLOW_OPTION}",
        )
    folder = file.parent.resolve()
    path = Path(name) if absolute else folder / name
    if access.allow_outside:
        return path
    try:
        inside = path.resolve().is_relative_to(folder)
    except (OSError, RuntimeError):  # a symbolic-link loop
        inside = False
    if not inside:
        raise GltfError(
            file,
            where,
            f"URI {shorten(uri)!r} leads outside the model's folder {shorten(str(folder))}; "
            f"pass {ALLOW_OPTION} to read it",
        )
    return path


def read_regular_file(path: Path, limit: int, file: Path, where: str, what: str) -> bytes:
    """At most ``limit`` bytes of ``path``, which must be a regular file (not a device, FIFO or socket).

    Opened non-blocking, so a FIFO cannot stall the open itself; the type is checked on the open
    descriptor, so the file cannot be swapped for another between the check and the read.

    Raises:
        GltfError: missing, unreadable, or not a regular file.
    """
    shown = shorten(str(path))
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except FileNotFoundError:
        raise GltfError(file, where, f"{what} file not found: {shown}") from None
    except (OSError, ValueError) as exc:  # ValueError: a NUL byte in the name
        raise GltfError(
            file, where, f"cannot read {what} file {shown}: {getattr(exc, 'strerror', None) or exc}"
        ) from None
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise GltfError(file, where, f"{what} file {shown} is not a regular file ({_file_kind(mode)})")
        # One read of the whole file where the open file says how long it is: a regular file gives it all, and
        # joining 16 MB reads cost a second copy of a 200 MB take. A file still growing is read on in pieces.
        first = os.read(fd, max(0, min(limit, os.fstat(fd).st_size)))
        chunks, left = [first], limit - len(first)
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 24))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        return first if len(chunks) == 1 else b"".join(chunks)
    except OSError as exc:
        raise GltfError(file, where, f"cannot read {what} file {shown}: {exc.strerror or exc}") from None
    finally:
        os.close(fd)


def _file_kind(mode: int) -> str:
    for test, name in (
        (stat.S_ISDIR, "a directory"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISFIFO, "a FIFO"),
        (stat.S_ISSOCK, "a socket"),
    ):
        if test(mode):
            return name
    return "not a plain file"


def read_uri(uri: str, access: FileAccess, where: str, what: str, limit: int) -> bytes:
    """The bytes a URI stands for (data: URI or external file), at most ``limit`` of a file's.

    Args:
        what: the object for messages, e.g. "buffer 0" or "image 2".
    """
    if is_data_uri(uri):
        return decode_data_uri(uri, access.model, where)
    return read_regular_file(uri_path(uri, access, where), limit, access.model, where, what)


def check_uri_available(uri: str, access: FileAccess, where: str, what: str) -> None:
    """Check without reading the file: a data: URI must decode, a file must be allowed, regular and exist."""
    if is_data_uri(uri):
        decode_data_uri(uri, access.model, where)
        return
    path = uri_path(uri, access, where)
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        raise GltfError(access.model, where, f"{what} file not found: {shorten(str(path))}") from None
    except (OSError, ValueError) as exc:
        raise GltfError(
            access.model,
            where,
            f"cannot read {what} file {shorten(str(path))}: {getattr(exc, 'strerror', None) or exc}",
        ) from None
    if not stat.S_ISREG(mode):
        raise GltfError(
            access.model, where, f"{what} file {shorten(str(path))} is not a regular file ({_file_kind(mode)})"
        )


class UnreadBuffer:
    """Stands for a buffer that is never read: a meshopt fallback buffer (``meshopt.check_extensions``),
    placeholder or uncompressed copy. It has the declared ``byteLength`` and no bytes; reading it fails."""

    __slots__ = ("length",)

    def __init__(self, length: int) -> None:
        self.length = length

    def __len__(self) -> int:
        return self.length


def load_buffers(
    raw: dict, access: FileAccess, bin_chunk: bytes | None, glb: bool, unread: frozenset[int] = frozenset()
) -> list[bytes | UnreadBuffer]:
    """Load every buffer. In a GLB, buffer 0 without a uri is the BIN chunk (glTF 2.0 §4.4.3.3).

    A file is read up to its ``byteLength`` and no further; a shorter one is reported by
    ``validate_data.check_buffers``, which names both sizes.

    Args:
        unread: buffers never to read (meshopt fallback buffers): each becomes an ``UnreadBuffer``,
            whatever its uri, and needs none.

    Raises:
        GltfError: a missing or refused file, a bad data: URI, or a buffer with no data at all.
    """
    file = access.model
    loaded: list[bytes | UnreadBuffer] = []
    for k, buffer in enumerate(raw.get("buffers", [])):
        if k in unread:
            loaded.append(UnreadBuffer(buffer["byteLength"]))
        elif "uri" in buffer:
            loaded.append(
                read_uri(buffer["uri"], access, pointer("buffers", k, "uri"), f"buffer {k}", buffer["byteLength"])
            )
        elif glb and k == 0 and bin_chunk is not None:
            loaded.append(bin_chunk)
        elif glb and k == 0:
            raise GltfError(file, pointer("buffers", 0), "buffer 0 has no uri and the GLB has no BIN chunk")
        else:
            where = "only buffer 0 of a GLB may omit it" if glb else "a .gltf buffer needs one"
            raise GltfError(file, pointer("buffers", k), f"buffer {k} has no uri ({where})")
    return loaded
