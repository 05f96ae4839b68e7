"""The GLB container (glTF 2.0 §4.4 "GLB File Format Specification"), parsed by hand.

A GLB file is a 12-byte header (magic ``glTF``, version 2, total length) followed by chunks, each an
8-byte header (length, type) and its data. The first chunk must be JSON; an optional BIN chunk
follows; chunks of unknown type are skipped, as the spec requires. Every fault is a ``GltfError`` with
the empty pointer, since it concerns the container, not the JSON inside it.
"""

from __future__ import annotations

import struct
from pathlib import Path

from viewer.base.errors import GltfError

GLB_MAGIC = b"glTF"
GLB_VERSION = 2
HEADER_SIZE = 12
CHUNK_HEADER_SIZE = 8
CHUNK_JSON = 0x4E4F534A  # "JSON" read as a little-endian uint32
CHUNK_BIN = 0x004E4942  # "BIN\0" read as a little-endian uint32


def is_glb(path: Path, data: bytes) -> bool:
    """Whether to parse ``data`` as GLB: by the ``.glb`` suffix, or by the magic for any other name."""
    return path.suffix.lower() == ".glb" or data[:4] == GLB_MAGIC


def split_glb(path: Path, data: bytes) -> tuple[bytes, bytes | None]:
    """Check a GLB file and return its JSON chunk bytes and BIN chunk bytes (None when absent).

    Args:
        path: the file, for error messages.
        data: the whole file.

    Raises:
        GltfError: bad header (magic, version, length), truncated or misaligned chunks, a first chunk
            that is not JSON, or a second JSON / BIN chunk.
    """
    if len(data) < HEADER_SIZE:
        raise GltfError(path, "", f"truncated GLB: {len(data)} bytes, the header alone needs {HEADER_SIZE}")
    magic, version, length = data[:4], *struct.unpack_from("<II", data, 4)
    if magic != GLB_MAGIC:
        raise GltfError(path, "", f"bad GLB magic {magic!r}, expected {GLB_MAGIC!r}")
    if version != GLB_VERSION:
        raise GltfError(path, "", f"GLB version {version} is not supported, expected {GLB_VERSION}")
    if length != len(data):
        raise GltfError(path, "", f"GLB header says {length} bytes but the file has {len(data)}")
    chunks = _read_chunks(path, data)
    if not chunks or chunks[0][0] != CHUNK_JSON:
        found = f"0x{chunks[0][0]:08X}" if chunks else "no chunk"
        raise GltfError(path, "", f"first GLB chunk must be JSON (0x{CHUNK_JSON:08X}), found {found}")
    json_chunk, bin_chunk = chunks[0][1].rstrip(b" \t\r\n\0"), None  # padding: spaces, or NULs from lax writers
    for index, (kind, payload) in enumerate(chunks[1:], start=1):
        if kind == CHUNK_JSON:
            raise GltfError(path, "", f"GLB chunk {index} is a second JSON chunk")
        if kind == CHUNK_BIN:
            if index != 1:
                raise GltfError(path, "", f"GLB BIN chunk must be chunk 1, found it as chunk {index}")
            bin_chunk = payload
    return json_chunk, bin_chunk


def _read_chunks(path: Path, data: bytes) -> list[tuple[int, bytes | memoryview]]:
    """Walk the chunk headers after the file header; each chunk must end inside the file, 4-byte aligned."""
    chunks: list[tuple[int, bytes]] = []
    offset = HEADER_SIZE
    while offset < len(data):
        if offset + CHUNK_HEADER_SIZE > len(data):
            raise GltfError(
                path,
                "",
                f"truncated GLB: chunk {len(chunks)} header at byte {offset} "
                f"needs {CHUNK_HEADER_SIZE} bytes, {len(data) - offset} left",
            )
        length, kind = struct.unpack_from("<II", data, offset)
        start = offset + CHUNK_HEADER_SIZE
        if start + length > len(data):
            raise GltfError(
                path,
                "",
                f"GLB chunk {len(chunks)} length {length} at byte {start} "
                f"runs past the end of the file ({len(data)} bytes)",
            )
        if length % 4:
            raise GltfError(path, "", f"GLB chunk {len(chunks)} length {length} is not a multiple of 4")
        # The BIN chunk as a view of the file's bytes: a copy would cost a second file's worth of memory and
        # a quarter second per 200 MB (accessors read it through memoryviews either way).
        chunks.append(
            (kind, data[start : start + length] if kind == CHUNK_JSON else memoryview(data)[start : start + length])
        )
        offset = start + length
    return chunks
