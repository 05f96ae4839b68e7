"""The meshopt bitstreams and filters (EXT_ / KHR_meshopt_compression READMEs, Appendix A and B), decoded
with numpy; ``gltf/meshopt.py`` is the glTF side (which views, their checks, the fallback buffers).

``decode`` is the one entry: a compressed bufferView's mode and filter to its bytes. ``meshopt.CODECS`` lists
the names ``meshopt`` re-exports from here (loading this module on first use). The attribute codec is
here; the two index codecs, which share their output and nothing with it, are in ``meshopt_index``, and the
filters in ``meshopt_filters``.

* ATTRIBUTES: header 0xa0 (version 0, the EXT format) or 0xa1 (version 1: per-byte control modes and the
  2-byte / XOR channel modes, added by KHR). Blocks of up to 256 elements; each byte position is a
  "data block" of 16-element groups stored as 0/1/2/4/8-bit deltas with sentinel escapes; bytes are
  zigzag deltas from the previous element, starting from the baseline element in the tail.
* TRIANGLES and INDICES (``meshopt_index``): headers 0xe1 / 0xe0 and 0xd1 / 0xd0, uint16 or uint32 out.
* Filters (``meshopt_filters``), after ATTRIBUTES only: as specified, vectorised over all elements.

Every read is bounds-checked: malformed data raises ``ValueError``. Streams must be consumed exactly, as the
KHR README requires. Decoding is numpy throughout except two sequential walks: the group offsets of the
vertex codec (one step per 16-element group) and the triangle codec (one step per triangle).
"""

from __future__ import annotations

import numpy as np

from viewer.gltf.meshopt_filters import FILTER_FUNCTIONS
from viewer.gltf.meshopt_index import decode_index_buffer, decode_index_sequence

MODES = ("ATTRIBUTES", "TRIANGLES", "INDICES")
FILTERS = ("NONE", "OCTAHEDRAL", "QUATERNION", "EXPONENTIAL", "COLOR")
_GROUP = 16  # elements per byte group
_PAD = 1024  # zero bytes after the data a walk may look at before its next bounds check
_BITS_V0 = (0, 2, 4, 8)
_BITS_V1 = ((0, 1, 2, 4), (1, 2, 4, 8))  # per control mode 0 and 1


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
    buf, limit, version, baseline, channels, block = vertex_setup(count, stride, data)
    groups = -(-count // _GROUP)
    deltas = np.zeros((stride, groups * _GROUP), np.uint8)
    padded = np.zeros(limit + _PAD, np.uint8)
    padded[:limit] = buf[:limit]
    end = _walk_vertex_blocks(padded, limit, count, stride, block, version, deltas)
    if end != limit:
        raise ValueError(f"{limit - end} bytes are left between the encoded blocks and the tail")
    return _undo_deltas(deltas[:, :count], baseline, channels, count, stride)


def vertex_setup(
    count: int, stride: int, data: bytes | memoryview
) -> tuple[np.ndarray, int, int, np.ndarray, list[int], int]:
    """What an ATTRIBUTES stream says before its blocks, checked: ``(stream as uint8, where the blocks must
    end, version, baseline element, channel mode bytes, elements per block)``. The compiled decoder
    (``meshopt_compiled``) starts from here too, so both refuse the same streams with the same words.

    Raises:
        ValueError: a bad stride or count, header or channel byte, or a stream too short for ``count``.
    """
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
    baseline = buf[size - tail : size - tail + stride]
    channels = [int(c) for c in buf[size - tail + stride :]] if version else [0] * (stride // 4)
    for c, channel in enumerate(channels):
        if channel & 0x0F > 2 or (channel & 0x0F < 2 and channel >> 4):
            raise ValueError(f"channel {c} has the invalid channel mode byte 0x{channel:02x}")
    block = min((8192 // stride) & ~(_GROUP - 1), 256)
    least = 1 + sum(
        _least_block_bytes(n, stride, version) * times  # checked before allocating
        for n, times in ((block, count // block), (count % block, 1))
        if n and times
    )
    if least > limit:
        raise ValueError(f"the stream has {size} bytes, too few for {count} elements of {stride} bytes")
    return buf, limit, version, baseline, channels, block


def _least_block_bytes(n: int, stride: int, version: int) -> int:
    """The fewest bytes a block of ``n`` elements can take: its control bytes (v1), else its group headers."""
    return stride // 4 if version else stride * ((-(-n // _GROUP) + 3) // 4)


def _group_sizes(padded: np.ndarray) -> dict[int, bytes]:
    """For each bit width, the byte size of a 16-delta group starting at each offset (sentinels included)."""
    size = len(padded)
    sizes = {8: bytes([_GROUP]) * size}
    table = np.arange(256)
    fields = {
        1: [(table >> s) & 1 for s in range(8)],
        2: [(table >> s) & 3 for s in range(0, 8, 2)],
        4: [(table >> s) & 15 for s in (0, 4)],
    }
    for bits, parts in fields.items():
        per_byte = sum(p == (1 << bits) - 1 for p in parts).astype(np.uint8)[padded]  # escapes in each byte
        fixed = 2 * bits  # 16 deltas × bits / 8 bytes
        window = np.full(size, fixed, np.uint8)
        for j in range(fixed):
            window[: size - j] += per_byte[j:]
        sizes[bits] = window.tobytes()
    return sizes


def _walk_vertex_blocks(
    padded: np.ndarray, limit: int, count: int, stride: int, block: int, version: int, deltas: np.ndarray
) -> int:
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
        control = data[pos : pos + stride // 4] if version else b""
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
                deltas[k, first : first + n] = padded[pos : pos + n]
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
    _decode_groups(
        padded,
        np.asarray(starts, np.int64),
        np.asarray(widths, np.int64),
        np.asarray(rows, np.int64),
        deltas.reshape(-1, _GROUP),
    )
    return pos


def _decode_groups(
    padded: np.ndarray, starts: np.ndarray, widths: np.ndarray, rows: np.ndarray, table: np.ndarray
) -> None:
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


def _undo_deltas(deltas: np.ndarray, baseline: np.ndarray, channels: list[int], count: int, stride: int) -> np.ndarray:
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
