"""The meshopt TRIANGLES and INDICES codecs as scalar loops that numba compiles (``meshopt_compiled`` does, on
demand); ``meshopt_index`` is the reference they must equal. Apart from ``meshopt_kernels`` (the attribute
codec and filters) because, as there, the index codecs share nothing with the attribute codec.

The same contract as ``meshopt_kernels``: no numba import, -1 at the first fault (the caller asks the reference
for the message), and no read past the stream's end.
"""

from __future__ import annotations

import numpy as np

MASK32 = 0xFFFFFFFF


def triangles(data, count, fec_max, out):
    """The TRIANGLES codec: ``count`` indices (a multiple of 3) into ``out`` (uint32). ``fec_max``: 13 for
    version 1, 15 for version 0. Returns the position after the extra data (the code table's start when the
    stream is well formed), or -1."""
    size = data.size
    data_end = size - 16
    pos = 1 + count // 3
    edge_a = np.full(16, -1, np.int64)
    edge_b = np.full(16, -1, np.int64)
    fifo = np.full(16, -1, np.int64)
    edge_at = vertex_at = 0
    nxt = last = np.int64(0)
    for t in range(count // 3):
        if pos > data_end:
            return -1
        code = np.int64(data[1 + t])
        if code < 0xF0:
            slot = (edge_at - 1 - (code >> 4)) & 15
            a, b = edge_a[slot], edge_b[slot]
            if a < 0:
                return -1
            fec = code & 15
            if fec == 0:
                c = nxt
                nxt += 1
                fifo[vertex_at] = c
                vertex_at = (vertex_at + 1) & 15
            elif fec < fec_max:
                c = fifo[(vertex_at - 1 - fec) & 15]
                if c < 0:
                    return -1
            else:
                if fec == 15:
                    c, pos = varint_index(data, pos, last)
                    if pos < 0:
                        return -1
                else:
                    c = (last + (1 if fec == 14 else -1)) & MASK32
                last = c
                fifo[vertex_at] = c
                vertex_at = (vertex_at + 1) & 15
            edge_a[edge_at], edge_b[edge_at] = c, b
            edge_at = (edge_at + 1) & 15
            edge_a[edge_at], edge_b[edge_at] = a, c
            edge_at = (edge_at + 1) & 15
        else:
            fea = 0
            if code < 0xFE:
                aux = np.int64(data[data_end + (code & 15)])
            else:
                aux = np.int64(data[pos])
                pos += 1
                fea = 0 if code == 0xFE else 15
                if aux == 0:
                    nxt = 0
            feb, fec = aux >> 4, aux & 15
            a = b = c = np.int64(0)
            if fea == 0:
                a = nxt
                nxt += 1
            if feb == 0:
                b = nxt
                nxt += 1
            elif feb < 15:
                b = fifo[(vertex_at - feb) & 15]
                if b < 0:
                    return -1
            if fec == 0:
                c = nxt
                nxt += 1
            elif fec < 15:
                c = fifo[(vertex_at - fec) & 15]
                if c < 0:
                    return -1
            if fea == 15:
                a, pos = varint_index(data, pos, last)
                last = a
            if feb == 15 and pos >= 0:
                b, pos = varint_index(data, pos, last)
                last = b
            if fec == 15 and pos >= 0:
                c, pos = varint_index(data, pos, last)
                last = c
            if pos < 0:
                return -1
            fifo[vertex_at] = a
            vertex_at = (vertex_at + 1) & 15
            if feb == 0 or feb == 15:
                fifo[vertex_at] = b
                vertex_at = (vertex_at + 1) & 15
            if fec == 0 or fec == 15:
                fifo[vertex_at] = c
                vertex_at = (vertex_at + 1) & 15
            edge_a[edge_at], edge_b[edge_at] = b, a
            edge_at = (edge_at + 1) & 15
            edge_a[edge_at], edge_b[edge_at] = c, b
            edge_at = (edge_at + 1) & 15
            edge_a[edge_at], edge_b[edge_at] = a, c
            edge_at = (edge_at + 1) & 15
        out[3 * t], out[3 * t + 1], out[3 * t + 2] = a, b, c
    return pos


def varint_index(data, pos, last):
    """(index, position after it): a zigzag varint delta from ``last`` at ``data[pos:]``; position -1 when it is
    longer than 5 bytes or runs off the stream."""
    value = np.int64(0)
    for q in range(5):
        if pos + q >= data.size:
            return np.int64(0), -1
        byte = np.int64(data[pos + q])
        value |= (byte & 127) << (7 * q)
        if byte < 128:
            value &= MASK32
            return (last + ((value >> 1) ^ -(value & 1))) & MASK32, pos + q + 1
    return np.int64(0), -1


def index_sequence(data, count, out):
    """The INDICES codec's varints (after the header, before the 4-byte tail) into ``out`` (uint32); returns
    the position after the last one, which must be the tail's start, or -1."""
    end = data.size - 4
    base = np.zeros(2, np.int64)
    pos = 1
    for i in range(count):
        v = np.int64(0)
        done = False
        for q in range(5):
            if pos >= end:
                return -1
            byte = np.int64(data[pos])
            pos += 1
            v |= (byte & 127) << (7 * q)
            if byte < 128:
                done = True
                break
        if not done:
            return -1
        v &= 0xFFFFFFFF
        which = v & 1
        v >>= 1
        base[which] = (base[which] + ((v >> 1) ^ -(v & 1))) & 0xFFFFFFFF
        out[i] = base[which]
    return pos
