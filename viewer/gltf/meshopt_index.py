"""The meshopt TRIANGLES and INDICES codecs (index data), decoded with numpy; ``meshopt_codecs.decode`` is
their caller.

* TRIANGLES: header 0xe1 (0xe0, the older version 0 of meshoptimizer's codec, is read too): one code byte per
  triangle with a 16-entry edge FIFO and vertex FIFO, varint-7 extra data, 16-byte code table. Decoded by a
  sequential walk, one step per triangle: each triangle depends on the FIFOs the previous ones left.
* INDICES: header 0xd1 (or 0xd0): varint-7 zigzag deltas against two baselines, a 4-byte tail; vectorised.

A module of its own because the two index codecs share their output (uint16 or uint32 indices) and nothing
with the attribute codec (``meshopt_codecs``, which also holds ``decode``). Every read is bounds-checked:
malformed data raises ``ValueError``, and the stream must be consumed exactly.
"""

from __future__ import annotations

import numpy as np

_MASK32 = 0xFFFFFFFF


def decode_index_buffer(count: int, index_size: int, data: bytes | memoryview) -> np.ndarray:
    """The TRIANGLES codec: ``count`` indices (a multiple of 3) as uint16 or uint32 (``index_size`` 2 or 4)."""
    if count % 3 or count < 0:
        raise ValueError(f"a triangle index count must be a multiple of 3, got {count}")
    dtype = _index_dtype(index_size)
    buf = bytes(data)
    size, triangles = len(buf), count // 3
    if size < 1 + triangles + 16:
        raise ValueError(f"the stream has {size} bytes, too few for {triangles} triangles")
    header = buf[0]
    if header & 0xF0 != 0xE0 or header & 0x0F > 1:
        raise ValueError(f"header byte 0x{header:02x} is not a triangle stream (0xe1 or 0xe0)")
    fec_max = 13 if header & 0x0F else 15  # version 1 codes 0xXd and 0xXe as last - 1 and last + 1
    aux_table = buf[size - 16 :]
    data_end = size - 16
    pos = 1 + triangles
    edge_a, edge_b, vertices = [-1] * 16, [-1] * 16, [-1] * 16
    edge_at = vertex_at = 0
    nxt = last = 0
    out = [0] * count

    def varint(p: int) -> tuple[int, int]:
        value = shift = 0
        for q in range(p, p + 5):
            byte = buf[q]
            value |= (byte & 127) << shift
            if byte < 128:
                return value & _MASK32, q + 1
            shift += 7
        raise ValueError(f"a varint at byte {p} is longer than 5 bytes")

    def index(p: int, last: int) -> tuple[int, int]:
        v, p = varint(p)
        return (last + ((v >> 1) ^ -(v & 1))) & _MASK32, p

    try:
        for t in range(triangles):
            if pos > data_end:
                raise ValueError(f"the extra data runs into the code table at triangle {t}")
            code = buf[1 + t]
            if code < 0xF0:
                slot = (edge_at - 1 - (code >> 4)) & 15
                a, b = edge_a[slot], edge_b[slot]
                if a < 0:
                    raise ValueError(f"triangle {t} reads an edge FIFO entry never written")
                fec = code & 15
                if fec == 0:
                    c = nxt
                    nxt += 1
                    vertices[vertex_at] = c
                    vertex_at = (vertex_at + 1) & 15
                elif fec < fec_max:
                    c = _fifo_vertex(vertices, vertex_at - 1 - fec, t)
                else:
                    if fec == 15:
                        c, pos = index(pos, last)
                    else:
                        c = (last + (1 if fec == 14 else -1)) & _MASK32
                    last = c
                    vertices[vertex_at] = c
                    vertex_at = (vertex_at + 1) & 15
                edge_a[edge_at], edge_b[edge_at] = c, b
                edge_at = (edge_at + 1) & 15
                edge_a[edge_at], edge_b[edge_at] = a, c
                edge_at = (edge_at + 1) & 15
            else:
                if code < 0xFE:
                    aux = aux_table[code & 15]
                    fea = 0
                else:
                    aux = buf[pos]
                    pos += 1
                    fea = 0 if code == 0xFE else 15
                    if aux == 0:
                        nxt = 0
                feb, fec = aux >> 4, aux & 15
                if fea == 0:
                    a = nxt
                    nxt += 1
                if feb == 0:
                    b = nxt
                    nxt += 1
                elif feb < 15:
                    b = _fifo_vertex(vertices, vertex_at - feb, t)
                if fec == 0:
                    c = nxt
                    nxt += 1
                elif fec < 15:
                    c = _fifo_vertex(vertices, vertex_at - fec, t)
                if fea == 15:
                    a, pos = index(pos, last)
                    last = a
                if feb == 15:
                    b, pos = index(pos, last)
                    last = b
                if fec == 15:
                    c, pos = index(pos, last)
                    last = c
                vertices[vertex_at] = a
                vertex_at = (vertex_at + 1) & 15
                if feb in (0, 15):
                    vertices[vertex_at] = b
                    vertex_at = (vertex_at + 1) & 15
                if fec in (0, 15):
                    vertices[vertex_at] = c
                    vertex_at = (vertex_at + 1) & 15
                for p, q in ((b, a), (c, b), (a, c)):
                    edge_a[edge_at], edge_b[edge_at] = p, q
                    edge_at = (edge_at + 1) & 15
            out[3 * t], out[3 * t + 1], out[3 * t + 2] = a, b, c
    except IndexError:  # unreachable: reads start at or before data_end and take at most 16 bytes
        raise ValueError("the stream ends inside a triangle") from None
    if pos != data_end:
        raise ValueError(
            f"{data_end - pos} bytes of extra data are left before the code table"
            if pos < data_end
            else "the extra data runs into the code table"
        )
    return np.array(out, np.uint32).astype(dtype)


def _fifo_vertex(vertices: list[int], at: int, t: int) -> int:
    """The vertex FIFO's entry ``at`` (mod 16) for triangle ``t``; one never written is malformed data."""
    v = vertices[at & 15]
    if v < 0:
        raise ValueError(f"triangle {t} reads a vertex FIFO entry never written")
    return v


def decode_index_sequence(count: int, index_size: int, data: bytes | memoryview) -> np.ndarray:
    """The INDICES codec: ``count`` indices as uint16 or uint32 (``index_size`` 2 or 4), vectorised."""
    dtype = _index_dtype(index_size)
    buf = np.frombuffer(data, np.uint8)
    size = len(buf)
    if size < 1 + count + 4:
        raise ValueError(f"the stream has {size} bytes, too few for {count} indices")
    header = int(buf[0])
    if header & 0xF0 != 0xD0 or header & 0x0F > 1:
        raise ValueError(f"header byte 0x{header:02x} is not an index stream (0xd1 or 0xd0)")
    body = buf[1 : size - 4]
    if count == 0:
        if len(body):
            raise ValueError(f"{len(body)} bytes are left before the tail")
        return np.zeros(0, dtype)
    ends = np.flatnonzero(body < 128)
    if len(ends) < count:
        raise ValueError(f"the stream holds {len(ends)} indices, fewer than {count}")
    ends = ends[:count]
    if ends[-1] != len(body) - 1:
        raise ValueError(f"{len(body) - 1 - int(ends[-1])} bytes are left before the tail")
    starts = np.concatenate([[0], ends[:-1] + 1])
    lengths = ends - starts + 1
    if lengths.max() > 5:
        raise ValueError(f"index {int(np.argmax(lengths))} is a varint longer than 5 bytes")
    place = np.arange(len(body)) - np.repeat(starts, lengths)
    parts = (body & 127).astype(np.uint64) << (7 * place).astype(np.uint64)
    v = (np.add.reduceat(parts, starts) & _MASK32).astype(np.uint32)
    which, v = v & 1, v >> 1
    delta = (v >> 1) ^ (np.uint32(0) - (v & 1))
    out = np.empty(count, np.uint32)
    for baseline in (0, 1):
        pick = which == baseline
        out[pick] = np.cumsum(delta[pick], dtype=np.uint32)
    return out.astype(dtype)


def _index_dtype(index_size: int) -> np.dtype:
    if index_size not in (2, 4):
        raise ValueError(f"index byteStride must be 2 or 4, got {index_size}")
    return np.dtype("<u2" if index_size == 2 else "<u4")
