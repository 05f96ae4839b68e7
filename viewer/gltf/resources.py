"""Bytes behind URIs: external files next to the .gltf, ``data:`` URIs, and the GLB BIN chunk.

glTF 2.0 §3.6.1 / §2.8: a URI is either a ``data:`` URI (RFC 2397, base64 in practice) or a relative
URI reference, percent-encoded (``my%20file.bin`` names ``my file.bin``), resolved against the
directory of the .gltf. Other schemes (http, file) are refused: a viewer should not fetch the network.
"""
from __future__ import annotations

import base64
import binascii
from pathlib import Path
from urllib.parse import unquote, unquote_to_bytes, urlsplit

from viewer.errors import GltfError, pointer


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


def uri_path(uri: str, file: Path, where: str) -> Path:
    """The file a relative URI names, percent-decoded and resolved against the .gltf's directory."""
    try:
        scheme = urlsplit(uri).scheme
    except ValueError as exc:
        raise GltfError(file, where, f"malformed URI ({exc})") from None
    if len(scheme) > 1:  # one letter is a Windows drive, not a scheme
        raise GltfError(file, where, f"URI scheme {scheme!r} is not supported, only relative paths and data: URIs")
    return file.parent / unquote(uri)


def read_uri(uri: str, file: Path, where: str, what: str) -> bytes:
    """The bytes a URI stands for (data: URI or external file).

    Args:
        what: the object for messages, e.g. "buffer 0" or "image 2".
    """
    if is_data_uri(uri):
        return decode_data_uri(uri, file, where)
    path = uri_path(uri, file, where)
    try:
        return path.read_bytes()
    except FileNotFoundError:
        raise GltfError(file, where, f"{what} file not found: {path}") from None
    except (OSError, ValueError) as exc:  # ValueError: a NUL byte in the name
        raise GltfError(file, where, f"cannot read {what} file {path}: {getattr(exc, 'strerror', None) or exc}") from None


def check_uri_available(uri: str, file: Path, where: str, what: str) -> None:
    """Check without reading a whole file: a data: URI must decode, a file must exist."""
    if is_data_uri(uri):
        decode_data_uri(uri, file, where)
        return
    path = uri_path(uri, file, where)
    try:
        found = path.is_file()
    except (OSError, ValueError):
        found = False
    if not found:
        raise GltfError(file, where, f"{what} file not found: {path}")


def load_buffers(raw: dict, file: Path, bin_chunk: bytes | None, glb: bool) -> list[bytes]:
    """Load every buffer. In a GLB, buffer 0 without a uri is the BIN chunk (glTF 2.0 §4.4.3.3).

    Lengths are not compared with ``byteLength`` here; ``validate_data.check_buffers`` does that.

    Raises:
        GltfError: a missing file, a bad data: URI, or a buffer with no data at all.
    """
    loaded = []
    for k, buffer in enumerate(raw.get("buffers", [])):
        if "uri" in buffer:
            loaded.append(read_uri(buffer["uri"], file, pointer("buffers", k, "uri"), f"buffer {k}"))
        elif glb and k == 0 and bin_chunk is not None:
            loaded.append(bin_chunk)
        elif glb and k == 0:
            raise GltfError(file, pointer("buffers", 0), "buffer 0 has no uri and the GLB has no BIN chunk")
        else:
            where = "only buffer 0 of a GLB may omit it" if glb else "a .gltf buffer needs one"
            raise GltfError(file, pointer("buffers", k), f"buffer {k} has no uri ({where})")
    return loaded
