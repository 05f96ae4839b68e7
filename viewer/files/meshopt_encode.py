"""The meshopt ATTRIBUTES encoder (EXT_ / KHR_meshopt_compression bitstream, Appendix A), written from the
specification so that ``animview reduce --meshopt`` can write compressed files without meshoptimizer; the
decoder it must agree with is ``viewer/gltf/meshopt_codecs.py`` (the tests check every stream against it).

The filters' encoders are in ``meshopt_filters_encode``; the glTF side (which views, the fallback buffer) is
``meshopt_pack``. The index codecs stay in ``tools/meshopt_encode.py``: nothing the package writes needs them.

* Version 0 (header 0xa0) is the only one EXT_meshopt_compression allows; version 1 (0xa1, KHR) adds
  per-byte control modes and the 2-byte / XOR channel modes, which the tests use to reach every decoder path.
* Each 16-element byte group takes the smallest bit width that holds it (v0: 0/2/4/8; v1 control 0:
  0/1/2/4, control 1: 1/2/4/8), deltas that do not fit escaped after the group by the all-ones sentinel.
  ``bits`` forces a width wherever it can hold the group, so tests can reach each width on purpose.
* The choice and the packing are numpy over every group of every byte position of a block at once:
  animation channels run to hundreds of thousands of keys, and a Python loop per group would dominate.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

GROUP = 16
_V1_CONTROL_BITS = ((0, 1, 2, 4), (1, 2, 4, 8))
_V0_BITS = (0, 2, 4, 8)
_UNUSABLE = 1 << 20  # the size given to width 0 for a group it cannot hold, so it is never the smallest


def _zigzag(values: np.ndarray, bits: int) -> np.ndarray:
    kind = {8: np.uint8, 16: np.uint16}[bits]
    v = values.astype(kind)
    return ((v << kind(1)) ^ (kind(0) - (v >> kind(bits - 1)))).astype(kind)


def channel_deltas(elements: np.ndarray, baseline: np.ndarray, channels: Sequence[int]) -> np.ndarray:
    """(count, stride) delta bytes: each element against the one before (the first against ``baseline``)."""
    count, stride = elements.shape
    previous = np.vstack([baseline[None, :], elements[:-1]])
    out = np.empty_like(elements)
    for c, channel in enumerate(channels):
        lanes = slice(4 * c, 4 * c + 4)
        cur, prev = np.ascontiguousarray(elements[:, lanes]), np.ascontiguousarray(previous[:, lanes])
        mode, rotation = channel & 15, channel >> 4
        if mode == 0:
            out[:, lanes] = _zigzag(cur - prev, 8)
        elif mode == 1:
            d = _zigzag(cur.view("<u2") - prev.view("<u2"), 16)
            out[:, lanes] = d.astype("<u2").view(np.uint8).reshape(count, 4)
        else:
            x = (cur.view("<u4") ^ prev.view("<u4")).astype(np.uint64)
            x = ((x << np.uint64(rotation)) | (x >> np.uint64(32 - rotation))) & np.uint64(0xFFFFFFFF)
            out[:, lanes] = x.astype("<u4").view(np.uint8).reshape(count, 4)
    return out


def _sizes(groups: np.ndarray, widths: np.ndarray) -> np.ndarray:
    """Bytes each group (..., 16) takes at its width: the packed fields plus one byte per escaped delta."""
    sizes = np.where(widths == 8, GROUP, 2 * widths).astype(np.int64)
    for bits in (1, 2, 4):
        escapes = (groups >= (1 << bits) - 1).sum(axis=-1)
        sizes += np.where(widths == bits, escapes, 0)
    return sizes


def _choose_bits(groups: np.ndarray, choices: Sequence[int], forced: int | None) -> np.ndarray:
    """Per group (..., 16): the forced width where it can hold the group without escaping all 16 deltas
    (meshoptimizer's SIMD decoder counts escapes in 4 bits, so no encoder writes that), else the smallest
    encoding, the narrower width on a tie."""
    zero = ~groups.any(axis=-1)
    options = []
    for bits in choices:
        size = _sizes(groups, np.full(groups.shape[:-1], bits))
        options.append(np.where(zero, 0, _UNUSABLE) if bits == 0 else size)
    widths = np.asarray(choices)[np.argmin(np.stack(options), axis=0)]
    if forced is None or forced not in choices:
        return widths
    if forced == 8:
        usable = np.ones_like(zero)
    elif forced == 0:
        usable = zero
    else:
        usable = (groups < (1 << forced) - 1).any(axis=-1)
    return np.where(usable, forced, widths)


def _pack(out: np.ndarray, groups: np.ndarray, widths: np.ndarray, starts: np.ndarray) -> None:
    """Write each group (n, 16) at ``out[starts]`` in its width: fixed fields (1-bit ones LSB first, wider
    ones MSB first), then the escaped deltas in element order."""
    for bits in (1, 2, 4, 8):
        pick = widths == bits
        if not pick.any():
            continue
        chosen, at = groups[pick], starts[pick][:, None]
        if bits == 8:
            out[at + np.arange(GROUP)] = chosen
            continue
        sentinel = (1 << bits) - 1
        per_byte = 8 // bits
        codes = np.minimum(chosen, sentinel).astype(np.int64).reshape(len(chosen), 2 * bits, per_byte)
        j = np.arange(per_byte)
        shifts = j * bits if bits == 1 else 8 - bits - j * bits
        out[at + np.arange(2 * bits)] = (codes << shifts).sum(axis=2).astype(np.uint8)
        escaped = chosen >= sentinel
        where = at + 2 * bits + np.cumsum(escaped, axis=1) - 1
        out[where[escaped]] = chosen[escaped]


def encode_data_blocks(columns: np.ndarray, choices: Sequence[int], forced: int | None = None) -> bytes:
    """Several byte positions (rows of ``columns``, each the deltas of one block) one after another, each
    its 2-bit group headers then its groups: what a v0 block holds for all its byte positions."""
    columns = np.atleast_2d(np.asarray(columns, np.uint8))
    rows, n = columns.shape
    count = -(-n // GROUP)
    padded = np.zeros((rows, count * GROUP), np.uint8)
    padded[:, :n] = columns
    groups = padded.reshape(rows, count, GROUP)
    widths = _choose_bits(groups, choices, forced)
    sizes = _sizes(groups, widths)
    header = (count + 3) // 4
    lengths = header + sizes.sum(axis=1)
    row_starts = np.concatenate([[0], np.cumsum(lengths)[:-1]]).astype(np.int64)
    out = np.zeros(int(lengths.sum()), np.uint8)
    codes = np.zeros((rows, header * 4), np.int64)
    codes[:, :count] = np.searchsorted(np.asarray(choices), widths)  # choices are ascending
    out[row_starts[:, None] + np.arange(header)] = (codes.reshape(rows, header, 4) << np.arange(0, 8, 2)).sum(axis=2)
    starts = row_starts[:, None] + header + np.cumsum(sizes, axis=1) - sizes
    _pack(out, groups.reshape(-1, GROUP), widths.reshape(-1), starts.reshape(-1))
    return out.tobytes()


def encode_data_block(deltas: np.ndarray, choices: Sequence[int], forced: int | None = None) -> bytes:
    """One byte position of one block: 2-bit group headers, then the groups."""
    return encode_data_blocks(np.asarray(deltas, np.uint8)[None, :], choices, forced)


def encode_group(deltas: np.ndarray, bits: int) -> bytes:
    """16 delta bytes in ``bits`` bits each, values that do not fit escaped by the sentinel (all ones)."""
    group = np.asarray(deltas, np.uint8).reshape(1, GROUP)
    if bits == 0:
        assert not group.any()
        return b""
    widths = np.array([bits])
    out = np.zeros(int(_sizes(group, widths)[0]), np.uint8)
    _pack(out, group, widths, np.zeros(1, np.int64))
    return out.tobytes()


def _group_bits(group: np.ndarray, choices: Sequence[int], forced: int | None) -> int:
    """The width ``encode_data_block`` gives one group (see ``_choose_bits``)."""
    return int(_choose_bits(np.asarray(group, np.uint8).reshape(1, GROUP), choices, forced)[0])


def encode_vertex_buffer(
    elements: np.ndarray,
    version: int = 0,
    channels: Sequence[int] | None = None,
    bits: int | None = None,
    control: int | None = None,
) -> bytes:
    """The ATTRIBUTES codec for ``elements`` (count, stride) uint8 (stride a multiple of 4, at most 256).

    Args:
        version: 0 (0xa0, the only one EXT_meshopt_compression allows) or 1 (0xa1, KHR).
        channels: v1 channel mode bytes, one per 4 bytes (0 byte deltas, 1 two-byte deltas,
            2 | rotation << 4 XOR); default all 0.
        bits: a group bit width to use wherever it can encode the group (else the smallest that fits).
        control: v1 control mode to use for every byte position that is not all zero (else the smallest).
    """
    elements = np.ascontiguousarray(elements, np.uint8)
    count, stride = elements.shape
    if stride % 4 or not 4 <= stride <= 256 or version not in (0, 1):
        raise ValueError(
            f"ATTRIBUTES needs a byteStride that is a multiple of 4 up to 256 and version 0 or 1, "
            f"got stride {stride}, version {version}"
        )
    channels = list(channels or [0] * (stride // 4)) if version else [0] * (stride // 4)
    baseline = elements[0] if count else np.zeros(stride, np.uint8)
    deltas = channel_deltas(elements, baseline, channels) if count else elements
    block = min((8192 // stride) & ~15, 256)
    out = bytearray([0xA0 | version])
    for first in range(0, count, block):
        part = deltas[first : first + block]
        if version == 0:
            out += encode_data_blocks(part.T, _V0_BITS, bits)
            continue
        controls = bytearray(stride // 4)
        data = b""
        for k in range(stride):
            column = part[:, k]
            options = {}
            if not column.any():
                options[2] = b""
            options[3] = column.tobytes()
            for mode in (0, 1):
                options[mode] = encode_data_block(column, _V1_CONTROL_BITS[mode], bits)
            mode = control if control in options else min(options, key=lambda m: len(options[m]))
            controls[k // 4] |= mode << (2 * (k % 4))
            data += options[mode]
        out += bytes(controls) + data
    tail = baseline.tobytes() + (bytes(channels) if version else b"")
    out += bytes(max(0, (24 if version else 32) - len(tail))) + tail
    return bytes(out)
