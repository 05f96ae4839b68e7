"""The glTF containers, written from finished JSON and the one buffer's bytes: ``.gltf`` with an embedded
base64 ``data:`` URI, ``.gltf`` + ``.bin``, or ``.glb`` with its chunks (glTF 2.0 §4.4).

Apart from ``writer.py`` because none of it knows accessors, bufferViews or pygltflib's model: it takes a
JSON dict and bytes, so a test's hand-made (even broken) JSON and bake's exact copy of a file go out the
same way. ``writer`` re-exports these names, so callers keep writing ``writer.save``; nothing here imports
``writer``.

They are written here, not by pygltflib's ``save``, because that replaces the ``asset`` with a default one,
reads external buffers relative to the *destination* (dropping their data), writes a 0-byte buffer and an
empty BIN chunk when there are no bufferViews, and always repacks the views (so it cannot write a layout it
is told). Where it is right (one packed buffer) its bytes equal ours: ``tests/files/test_writer.py`` checks.
"""

from __future__ import annotations

import base64
import copy
import json
import struct
from pathlib import Path

DATA_URI_PREFIX = "data:application/octet-stream;base64,"
GLB_JSON, GLB_BIN = 0x4E4F534A, 0x004E4942  # chunk types "JSON" and "BIN\0"


def gltf_text(doc: dict, bin_data: bytes | None = None, indent: int | None = None) -> str:
    """The .gltf text: buffer 0 without a uri gets ``bin_data`` as a data: URI; ends in a newline.

    ASCII only (``\\u`` escapes), so any string a test plants, even a lone surrogate, can be written.
    """
    buffers = doc.get("buffers", [])
    if bin_data is not None and buffers and "uri" not in buffers[0]:
        doc = copy.deepcopy(doc)
        doc["buffers"][0]["uri"] = DATA_URI_PREFIX + base64.b64encode(bin_data).decode("ascii")
    return json.dumps(doc, indent=indent) + "\n"


def write_gltf(
    doc: dict,
    bin_data: bytes,
    path: str | Path,
    embed: bool = True,
    bin_name: str | None = None,
    indent: int | None = None,
) -> Path:
    """Write a .gltf. Buffer 0 without a uri gets one: a base64 data: URI when ``embed``, else a .bin file.

    Args:
        bin_name: file name of the buffer on disk (default: ``path`` with .bin); its uri is
            percent-encoded, so "my file.bin" is referenced as ``my%20file.bin``.
    """
    path = Path(path)
    buffers = doc.get("buffers", [])
    if not embed and buffers and "uri" not in buffers[0]:
        bin_name = bin_name or path.with_suffix(".bin").name
        (path.parent / bin_name).write_bytes(bin_data)
        doc = copy.deepcopy(doc)
        doc["buffers"][0]["uri"] = bin_name.replace("%", "%25").replace(" ", "%20")
    path.write_bytes(gltf_text(doc, bin_data if embed else None, indent).encode("utf-8"))
    return path


def glb_bytes(doc: dict, bin_data: bytes | None, json_bytes: bytes | None = None) -> bytes:
    """A .glb: 12-byte header, JSON chunk (space-padded), BIN chunk (zero-padded) when given (§4.4).

    Args:
        json_bytes: raw JSON chunk text to use instead of ``json.dumps(doc)`` (for invalid-JSON tests).
    """
    text = json_bytes if json_bytes is not None else json.dumps(doc, separators=(",", ":")).encode()
    body = _glb_chunk(GLB_JSON, text, b" ")
    if bin_data is not None:
        body += _glb_chunk(GLB_BIN, bin_data, b"\0")
    return b"glTF" + struct.pack("<II", 2, 12 + len(body)) + body


def write_glb(doc: dict, bin_data: bytes | None, path: str | Path, json_bytes: bytes | None = None) -> Path:
    """Write ``glb_bytes`` to ``path``."""
    Path(path).write_bytes(glb_bytes(doc, bin_data, json_bytes))
    return Path(path)


def save(doc: dict, bin_data: bytes, path: str | Path) -> Path:
    """Write a self-contained file: ``.glb`` (one BIN chunk) or ``.gltf`` (embedded data: URI), by suffix."""
    suffix = Path(path).suffix.lower()
    if suffix == ".glb":
        return write_glb(doc, bin_data if doc.get("buffers") else None, path)
    if suffix == ".gltf":
        return write_gltf(doc, bin_data, path, embed=True)
    raise ValueError(f"output file must end in .glb or .gltf, got {Path(path).name!r}")


def _glb_chunk(kind: int, payload: bytes, pad: bytes) -> bytes:
    padded = payload + pad * (-len(payload) % 4)
    return struct.pack("<II", len(padded), kind) + padded
