"""A small meshopt encoder, written from the EXT_/KHR_meshopt_compression bitstream specification, so tests
(and ``tools/compress_models.py --meshopt``) build compressed bufferViews by code (``viewer/gltf/meshopt.py``
is the decoder under test).

The attribute codec and the filters' encoders live in the package (``viewer/files/meshopt_encode.py`` and
``meshopt_filters_encode.py``), because ``animview reduce --meshopt`` writes with them and the package may not
import ``tools/``; they are re-exported here under the names tests and tools have always used. What only
tests need stays here:

* ``encode_index_buffer``: the triangle codec with the edge and vertex FIFOs (edge + next / FIFO vertex /
  last ± 1 / explicit), the code table, explicit triangles and the ``next`` reset.
* ``encode_index_sequence``: varint zigzag deltas, alternating the two baselines when asked.

``meshopt_file`` turns a ``GltfBuilder`` whose accessors hold the stored values into a file whose chosen
bufferViews are compressed, with a fallback buffer of the kind asked for.
"""

from __future__ import annotations

import copy
from typing import Sequence

import numpy as np

from viewer.files.meshopt_encode import (  # noqa: F401 (re-exported)
    _V0_BITS,
    _V1_CONTROL_BITS,
    GROUP,
    _group_bits,
    _zigzag,
    channel_deltas,
    encode_data_block,
    encode_group,
    encode_vertex_buffer,
)
from viewer.files.meshopt_filters_encode import (  # noqa: F401 (re-exported)
    _round,
    encode_color,
    encode_exponential,
    encode_octahedral,
    encode_quaternion,
)

CODE_TABLE = bytes([0x00, 0x10, 0x01, 0x21, 0x12, 0x20, 0x02, 0x11, 0x31, 0x13, 0x32, 0x23, 0x30, 0x03, 0, 0])


# -- the index codecs -------------------------------------------------------------------------------------


def varint(value: int) -> bytes:
    """Unsigned LEB128 of a 32-bit value."""
    out = bytearray()
    while True:
        byte = value & 127
        value >>= 7
        out.append(byte | (128 if value else 0))
        if not value:
            return bytes(out)


def _zigzag32(delta: int) -> int:
    delta &= 0xFFFFFFFF
    return ((delta << 1) & 0xFFFFFFFF) ^ (0xFFFFFFFF if delta >> 31 else 0)


def encode_index_sequence(indices: Sequence[int], version: int = 1, bimodal: bool = False) -> bytes:
    """The INDICES codec; ``bimodal`` takes baseline 1 for odd positions (else always baseline 0)."""
    out = bytearray([0xD0 | version])
    last = [0, 0]
    for i, index in enumerate(int(x) for x in indices):
        which = i % 2 if bimodal else 0
        delta = (index - last[which] + 2**31) % 2**32 - 2**31
        assert -(2**30) <= delta < 2**30, "the codec holds deltas of 31 bits"
        out += varint((_zigzag32(index - last[which]) << 1 | which) & 0xFFFFFFFF)
        last[which] = index
    return bytes(out + bytes(4))


def encode_index_buffer(indices: Sequence[int], version: int = 1, fifo: bool = True, reset: bool = True) -> bytes:
    """The TRIANGLES codec for a triangle list; ``fifo`` False writes every triangle explicitly (0xff).

    Triangles may come out rotated (b, c, a), as with meshoptimizer's encoder: the winding is kept.
    """
    tris = np.asarray(indices, np.int64).reshape(-1, 3)
    codes, data = bytearray(), bytearray()
    edges: list[tuple[int, int]] = [(-1, -1)] * 16
    vertices = [-1] * 16
    state = {"edge": 0, "vertex": 0, "next": 0, "last": 0}
    fec_max = 13 if version else 15

    def push_edge(a: int, b: int) -> None:
        edges[state["edge"]] = (a, b)
        state["edge"] = (state["edge"] + 1) & 15

    def push_vertex(v: int) -> None:
        vertices[state["vertex"]] = v
        state["vertex"] = (state["vertex"] + 1) & 15

    def in_fifo(v: int) -> int:  # 0 = the most recent vertex
        for i in range(16):
            if vertices[(state["vertex"] - 1 - i) & 15] == v:
                return i
        return -1

    def explicit(v: int) -> None:
        data.extend(varint(_zigzag32(v - state["last"])))
        state["last"] = v

    for a0, b0, c0 in tris.tolist():
        found = None
        if fifo:
            for fe in range(15):
                edge = edges[(state["edge"] - 1 - fe) & 15]
                for a, b, c in ((a0, b0, c0), (b0, c0, a0), (c0, a0, b0)):
                    if edge == (a, b):
                        found = fe, a, b, c
                        break
                if found:
                    break
        if found:
            fe, a, b, c = found
            fc = in_fifo(c)
            if c == state["next"]:
                fec, state["next"] = 0, state["next"] + 1
                push_vertex(c)
            elif 1 <= fc < fec_max:
                fec = fc
            elif version and c == state["last"] - 1:
                fec, state["last"] = 13, c
                push_vertex(c)
            elif version and c == state["last"] + 1:
                fec, state["last"] = 14, c
                push_vertex(c)
            else:
                fec = 15
                explicit(c)
                push_vertex(c)
            codes.append(fe << 4 | fec)
            push_edge(c, b)
            push_edge(a, c)
            continue
        a, b, c = a0, b0, c0
        if reset and version and (a, b, c) == (0, 1, 2) and state["next"] > 0:
            codes.append(0xFE)
            data.append(0)
            state["next"] = 3
            for v in (a, b, c):
                push_vertex(v)
        else:
            if b == state["next"]:
                a, b, c = b, c, a
            elif c == state["next"]:
                a, b, c = c, a, b
            fea = 0 if a == state["next"] and fifo else 15
            if fea == 0:
                state["next"] += 1

            def code_of(v: int) -> int:
                i = in_fifo(v) if fifo else -1
                if 0 <= i < 14:
                    return i + 1
                if v == state["next"] and fifo:
                    state["next"] += 1
                    return 0
                return 15

            feb = code_of(b)
            fec = code_of(c)
            aux = feb << 4 | fec
            if fea == 0 and aux in CODE_TABLE[:14]:
                codes.append(0xF0 | CODE_TABLE.index(aux))
            else:
                codes.append(0xFE | (fea == 15))
                data.append(aux)
            for v, code in ((a, fea), (b, feb), (c, fec)):
                if code == 15:
                    explicit(v)
            push_vertex(a)
            if feb in (0, 15):
                push_vertex(b)
            if fec in (0, 15):
                push_vertex(c)
        push_edge(b, a)
        push_edge(c, b)
        push_edge(a, c)
    return bytes([0xE0 | version]) + bytes(codes) + bytes(data) + CODE_TABLE


# -- files ----------------------------------------------------------------------------------------------------


def meshopt_file(
    doc: dict,
    bin_data: bytes,
    views: dict[int, dict],
    extension: str = "KHR_meshopt_compression",
    fallback: str = "placeholder",
    tag: bool = True,
) -> tuple[dict, bytes, bytes]:
    """A copy of ``doc`` whose bufferViews ``views`` are compressed.

    Args:
        views: bufferView → ``dict(mode=…, filter=…, stride=…, count=…, stream=bytes)``.
        fallback: "placeholder" (buffer 1 has no uri), "data" (buffer 1 is the original bytes in
            ``fallback.bin``) or "missing" (buffer 1 names ``fallback.bin``, which is not written).
        tag: mark buffer 1 ``fallback: true``.

    Returns:
        The document, the new buffer 0 (compressed streams and the uncompressed views) and the fallback bytes.
    """
    doc = copy.deepcopy(doc)
    new = bytearray()
    for v, view in enumerate(doc.get("bufferViews", [])):
        start = view.get("byteOffset", 0)
        if v in views:
            spec = views[v]
            stream = spec["stream"]
            ext = {
                "buffer": 0,
                "byteOffset": len(new),
                "byteLength": len(stream),
                "byteStride": spec["stride"],
                "count": spec["count"],
                "mode": spec["mode"],
            }
            if spec.get("filter", "NONE") != "NONE":
                ext["filter"] = spec["filter"]
            new += stream
            view["buffer"] = 1
            view.setdefault("extensions", {})[extension] = ext
        else:
            view["buffer"], view["byteOffset"] = 0, len(new)
            new += bin_data[start : start + view["byteLength"]]
        new += bytes(-len(new) % 4)
    buffer: dict = {"byteLength": max(len(bin_data), 1)}
    if fallback in ("data", "missing"):
        buffer["uri"] = "fallback.bin"
    if tag:
        buffer["extensions"] = {extension: {"fallback": True}}
    doc["buffers"] = [{"byteLength": len(new)}, buffer]
    for key in ("extensionsUsed", "extensionsRequired"):
        names = doc.setdefault(key, [])
        if extension not in names:
            names.append(extension)
    return doc, bytes(new), bin_data
