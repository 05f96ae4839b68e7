"""The meshopt bitstreams and filters (EXT_ / KHR_meshopt_compression READMEs, Appendix A and B), decoded
with numpy; ``gltf/meshopt.py`` is the glTF side (which views, their checks, the fallback buffers).

* ATTRIBUTES: header 0xa0 (version 0, the EXT format) or 0xa1 (version 1: per-byte control modes and the
  2-byte / XOR channel modes, added by KHR). Blocks of up to 256 elements; each byte position is a
  "data block" of 16-element groups stored as 0/1/2/4/8-bit deltas with sentinel escapes; bytes are
  zigzag deltas from the previous element, starting from the baseline element in the tail.
* TRIANGLES: header 0xe1 (0xe0, the older version 0 of meshoptimizer's codec, is read too): one code
  byte per triangle with a 16-entry edge FIFO and vertex FIFO, varint-7 extra data, 16-byte code table.
* INDICES: header 0xd1 (or 0xd0): varint-7 zigzag deltas against two baselines, a 4-byte tail.
* Filters (``meshopt_filters``): as specified, vectorised over all elements.

Every read is bounds-checked: malformed data raises ``ValueError``. Streams must be consumed exactly, as the
KHR README requires. Decoding is numpy throughout except two sequential walks: the group offsets of the
vertex codec (one step per 16-element group) and the triangle codec (one step per triangle).
"""
from __future__ import annotations

import numpy as np

from viewer.gltf.meshopt_filters import FILTER_FUNCTIONS

MODES = ("ATTRIBUTES", "TRIANGLES", "INDICES")
FILTERS = ("NONE", "OCTAHEDRAL", "QUATERNION", "EXPONENTIAL", "COLOR")
_MASK32 = 0xFFFFFFFF
_GROUP = 16  # elements per byte group
_PAD = 1024  # zero bytes after the data a walk may look at before its next bounds check
_BITS_V0 = (0, 2, 4, 8)
_BITS_V1 = ((0, 1, 2, 4), (1, 2, 4, 8))  # per control mode 0 and 1




# -- the codecs ----------------------------------------------------------------------------------------


def decode(mode: str, filter_name: str, count: int, stride: int, data: bytes | memoryview) -> np.ndarray:
    """Decode one compressed bufferView: ``count × stride`` bytes as a flat uint8 array.

    Raises:
        ValueError: malformed data, or arguments the extension does not allow.
    """
    if mode == "ATTRIBUTES":
        out = decode_vertex_buffer(count, stride, data)
        if filter_name not in FILTER_FUNCTIONS:
            raise ValueError(f"unknown filter {filter_name!r:.40}")
        FILTER_FUNCTIONS[filter_name](out, count, stride)
        return out
    if filter_name != "NONE":
        raise ValueError(f"a {mode} stream takes no filter, got {filter_name}")
    if mode == "TRIANGLES":
        values = decode_index_buffer(count, stride, data)
    elif mode == "INDICES":
        values = decode_index_sequence(count, stride, data)
    else:
        raise ValueError(f"unknown mode {mode!r:.40}")
    return values.view(np.uint8).reshape(-1)


def decode_vertex_buffer(count: int, stride: int, data: bytes | memoryview) -> np.ndarray:
    """The ATTRIBUTES codec: ``count`` elements of ``stride`` bytes, as a flat writable uint8 array."""
    if stride % 4 or not 4 <= stride <= 256:
        raise ValueError(f"byteStride must be a multiple of 4 from 4 to 256, got {stride}")
    if count < 0:
        raise ValueError(f"count must be >= 0, got {count}")
    buf = np.frombuffer(data, np.uint8)
    size = len(buf)
    if size < 1:
        raise ValueError("the stream is empty")
    header = int(buf[0])
    if header & 0xF0 != 0xA0 or header & 0x0F > 1:
        raise ValueError(f"header byte 0x{header:02x} is not an attribute stream (0xa0 or 0xa1)")
    version = header & 0x0F
    tail = stride + (stride // 4 if version else 0)
    tail_pad = max(tail, 24 if version else 32)
    limit = size - tail_pad  # where the blocks must end
    if limit < 1:
        raise ValueError(f"the stream has {size} bytes, too few for its {tail_pad}-byte tail")
    baseline = buf[size - tail:size - tail + stride]
    channels = [int(c) for c in buf[size - tail + stride:]] if version else [0] * (stride // 4)
    for c, channel in enumerate(channels):
        if channel & 0x0F > 2 or (channel & 0x0F < 2 and channel >> 4):
            raise ValueError(f"channel {c} has the invalid channel mode byte 0x{channel:02x}")
    block = min((8192 // stride) & ~(_GROUP - 1), 256)
    least = 1 + sum(_least_block_bytes(n, stride, version) * times  # checked before allocating
                    for n, times in ((block, count // block), (count % block, 1)) if n and times)
    if least > limit:
        raise ValueError(f"the stream has {size} bytes, too few for {count} elements of {stride} bytes")
    groups = -(-count // _GROUP)
    deltas = np.zeros((stride, groups * _GROUP), np.uint8)
    padded = np.zeros(limit + _PAD, np.uint8)
    padded[:limit] = buf[:limit]
    end = _walk_vertex_blocks(padded, limit, count, stride, block, version, deltas)
    if end != limit:
        raise ValueError(f"{limit - end} bytes are left between the encoded blocks and the tail")
    return _undo_deltas(deltas[:, :count], baseline, channels, count, stride)


def _least_block_bytes(n: int, stride: int, version: int) -> int:
    """The fewest bytes a block of ``n`` elements can take: its control bytes (v1), else its group headers."""
    return stride // 4 if version else stride * ((-(-n // _GROUP) + 3) // 4)


def _group_sizes(padded: np.ndarray) -> dict[int, bytes]:
    """For each bit width, the byte size of a 16-delta group starting at each offset (sentinels included)."""
    size = len(padded)
    sizes = {8: bytes([_GROUP]) * size}
    table = np.arange(256)
    fields = {1: [(table >> s) & 1 for s in range(8)], 2: [(table >> s) & 3 for s in range(0, 8, 2)],
              4: [(table >> s) & 15 for s in (0, 4)]}
    for bits, parts in fields.items():
        per_byte = sum(p == (1 << bits) - 1 for p in parts).astype(np.uint8)[padded]  # escapes in each byte
        fixed = 2 * bits  # 16 deltas × bits / 8 bytes
        window = np.full(size, fixed, np.uint8)
        for j in range(fixed):
            window[:size - j] += per_byte[j:]
        sizes[bits] = window.tobytes()
    return sizes


def _walk_vertex_blocks(padded: np.ndarray, limit: int, count: int, stride: int, block: int, version: int,
                        deltas: np.ndarray) -> int:
    """Find every byte group of every block (the one sequential part), decode them all, fill ``deltas``.

    ``deltas[k, e]`` is the (zigzag or channel-coded) delta byte ``k`` of element ``e``. Returns the
    offset where the blocks end.
    """
    data = padded.tobytes()
    sizes = _group_sizes(padded)
    row_groups = deltas.shape[1] // _GROUP
    starts: list[int] = []
    widths: list[int] = []
    rows: list[int] = []
    pos = 1
    for first in range(0, count, block):
        n = min(block, count - first)
        group_count = -(-n // _GROUP)
        header_size = (group_count + 3) // 4
        control = data[pos:pos + stride // 4] if version else b""
        pos += len(control)
        for k in range(stride):
            if pos > limit:
                raise ValueError(f"the stream ends inside block {first // block}")
            ctrl = (control[k >> 2] >> ((k & 3) << 1)) & 3 if version else 0
            if ctrl == 2:  # all deltas zero, nothing stored
                continue
            if ctrl == 3:  # literal deltas
                if pos + n > limit:
                    raise ValueError(f"the stream ends inside block {first // block}")
                deltas[k, first:first + n] = padded[pos:pos + n]
                pos += n
                continue
            widths_of = _BITS_V1[ctrl] if version else _BITS_V0
            header = pos
            pos += header_size
            row = k * row_groups + first // _GROUP
            for g in range(group_count):
                bits = widths_of[(data[header + (g >> 2)] >> ((g & 3) << 1)) & 3]
                if bits:
                    starts.append(pos)
                    widths.append(bits)
                    rows.append(row + g)
                    pos += sizes[bits][pos]
        if pos > limit:
            raise ValueError(f"the stream ends inside block {first // block}")
    _decode_groups(padded, np.asarray(starts, np.int64), np.asarray(widths, np.int64),
                   np.asarray(rows, np.int64), deltas.reshape(-1, _GROUP))
    return pos


def _decode_groups(padded: np.ndarray, starts: np.ndarray, widths: np.ndarray, rows: np.ndarray,
                   table: np.ndarray) -> None:
    """Decode the byte groups starting at ``starts`` (``widths`` bits each) into ``table[rows]``, vectorised."""
    lanes = np.arange(_GROUP)
    for bits in (1, 2, 4, 8):
        pick = widths == bits
        if not pick.any():
            continue
        start = starts[pick]
        if bits == 8:
            table[rows[pick]] = padded[start[:, None] + lanes]
            continue
        per_byte = 8 // bits
        fixed = padded[start[:, None] + np.arange(2 * bits)]
        shift = lanes % per_byte * bits if bits == 1 else 8 - bits - lanes % per_byte * bits  # 1-bit: LSB first
        values = (fixed[:, lanes // per_byte] >> shift.astype(np.uint8)) & ((1 << bits) - 1)
        sentinel = values == (1 << bits) - 1
        extra = start[:, None] + 2 * bits + np.cumsum(sentinel, axis=1) - 1
        values[sentinel] = padded[extra[sentinel]]
        table[rows[pick]] = values


def _undo_deltas(deltas: np.ndarray, baseline: np.ndarray, channels: list[int], count: int,
                 stride: int) -> np.ndarray:
    """Element values from the per-byte deltas: running sums (or XORs) from the baseline, per channel mode."""
    out = np.empty((count, stride), np.uint8)
    for c, channel in enumerate(channels):
        lanes = slice(4 * c, 4 * c + 4)
        mode, base = channel & 0x0F, baseline[lanes]
        if mode == 0:
            d = deltas[lanes].T
            d = (d >> 1) ^ (np.uint8(0) - (d & 1))
            out[:, lanes] = np.cumsum(d, axis=0, dtype=np.uint8) + base
        elif mode == 1:
            d = deltas[lanes].T.astype(np.uint16)
            d = d[:, 0::2] | (d[:, 1::2] << 8)
            d = (d >> 1) ^ (np.uint16(0) - (d & 1))
            values = np.cumsum(d, axis=0, dtype=np.uint16) + base.view("<u2")
            out[:, lanes] = np.ascontiguousarray(values, "<u2").view(np.uint8).reshape(count, 4)
        else:
            d = np.ascontiguousarray(deltas[lanes].T).view("<u4")[:, 0].astype(np.uint32)
            r = channel >> 4
            if r:
                d = (d >> np.uint32(r)) | (d << np.uint32(32 - r))
            values = np.bitwise_xor.accumulate(d) ^ base.view("<u4")[0]
            out[:, lanes] = np.ascontiguousarray(values, "<u4").view(np.uint8).reshape(count, 4)
    return out.reshape(-1)


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
    aux_table = buf[size - 16:]
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
        raise ValueError(f"{data_end - pos} bytes of extra data are left before the code table" if pos < data_end
                         else "the extra data runs into the code table")
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
    body = buf[1:size - 4]
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
