"""A small meshopt encoder, written from the EXT_/KHR_meshopt_compression bitstream specification, so tests
(and ``tools/compress_models.py --meshopt``) build compressed bufferViews by code (``viewer/gltf/meshopt.py``
is the decoder under test).

It aims at valid streams that reach every decoder path, not at small ones:

* ``encode_vertex_buffer``: version 0 or 1; per byte group the bit width is the smallest that fits, or the
  one forced by ``bits`` (v0: 0/2/4/8; v1 control 0: 0/1/2/4, control 1: 1/2/4/8, sentinels escaping
  larger deltas); v1 also picks per-byte control modes (all-zero and literal included) and uses the
  channel modes given (byte deltas, 2-byte deltas, XOR with a rotation).
* ``encode_index_buffer``: the triangle codec with the edge and vertex FIFOs (edge + next / FIFO vertex /
  last ± 1 / explicit), the code table, explicit triangles and the ``next`` reset.
* ``encode_index_sequence``: varint zigzag deltas, alternating the two baselines when asked.
* filters: octahedral, quaternion, exponential and colour encodings with K-bit precision.

``meshopt_file`` turns a ``GltfBuilder`` whose accessors hold the stored values into a file whose chosen
bufferViews are compressed, with a fallback buffer of the kind asked for.
"""

from __future__ import annotations

import copy
from typing import Sequence

import numpy as np

GROUP = 16
_V1_CONTROL_BITS = ((0, 1, 2, 4), (1, 2, 4, 8))
_V0_BITS = (0, 2, 4, 8)
CODE_TABLE = bytes([0x00, 0x10, 0x01, 0x21, 0x12, 0x20, 0x02, 0x11, 0x31, 0x13, 0x32, 0x23, 0x30, 0x03, 0, 0])


# -- the attribute codec --------------------------------------------------------------------------------


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


def encode_group(deltas: np.ndarray, bits: int) -> bytes:
    """16 delta bytes in ``bits`` bits each, values that do not fit escaped by the sentinel (all ones)."""
    if bits == 0:
        assert not deltas.any()
        return b""
    if bits == 8:
        return deltas.tobytes()
    sentinel = (1 << bits) - 1
    codes = np.minimum(deltas, sentinel).astype(np.uint8)
    per_byte = 8 // bits
    fixed = bytearray()
    for i in range(0, GROUP, per_byte):
        byte = 0
        for j in range(per_byte):
            shift = j * bits if bits == 1 else 8 - bits - j * bits  # 1-bit fields go LSB first
            byte |= int(codes[i + j]) << shift
        fixed.append(byte)
    return bytes(fixed) + deltas[deltas >= sentinel].tobytes()


def _group_bits(group: np.ndarray, choices: Sequence[int], forced: int | None) -> int:
    """The forced width where it can hold the group without escaping all 16 deltas (meshoptimizer's SIMD
    decoder counts escapes in 4 bits, so no encoder writes that), else the smallest encoding."""
    if (
        forced is not None
        and forced in choices
        and (forced == 8 or (forced == 0 and not group.any()) or (forced and (group < (1 << forced) - 1).any()))
    ):
        return forced
    usable = [b for b in choices if b or not group.any()]
    return min(usable, key=lambda b: len(encode_group(group, b)))


def encode_data_block(deltas: np.ndarray, choices: Sequence[int], forced: int | None = None) -> bytes:
    """One byte position of one block: 2-bit group headers, then the groups."""
    padded = np.zeros(-(-len(deltas) // GROUP) * GROUP, np.uint8)
    padded[: len(deltas)] = deltas
    groups = padded.reshape(-1, GROUP)
    header = bytearray((len(groups) + 3) // 4)
    body = b""
    for g, group in enumerate(groups):
        bits = _group_bits(group, choices, forced)
        header[g // 4] |= choices.index(bits) << (2 * (g % 4))
        body += encode_group(group, bits)
    return bytes(header) + body


def encode_vertex_buffer(
    elements: np.ndarray,
    version: int = 0,
    channels: Sequence[int] | None = None,
    bits: int | None = None,
    control: int | None = None,
) -> bytes:
    """The ATTRIBUTES codec for ``elements`` (count, stride) uint8 (stride a multiple of 4, at most 256).

    Args:
        version: 0 (0xa0, EXT) or 1 (0xa1, KHR).
        channels: v1 channel mode bytes, one per 4 bytes (0 byte deltas, 1 two-byte deltas,
            2 | rotation << 4 XOR); default all 0.
        bits: a group bit width to use wherever it can encode the group (else the smallest that fits).
        control: v1 control mode to use for every byte position that is not all zero (else the smallest).
    """
    elements = np.ascontiguousarray(elements, np.uint8)
    count, stride = elements.shape
    assert stride % 4 == 0 and 4 <= stride <= 256
    channels = list(channels or [0] * (stride // 4)) if version else [0] * (stride // 4)
    baseline = elements[0] if count else np.zeros(stride, np.uint8)
    deltas = channel_deltas(elements, baseline, channels) if count else elements
    block = min((8192 // stride) & ~15, 256)
    out = bytearray([0xA0 | version])
    for first in range(0, count, block):
        part = deltas[first : first + block]
        if version == 0:
            for k in range(stride):
                out += encode_data_block(part[:, k], _V0_BITS, bits)
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


# -- the filters (what the decoder's filters undo) ----------------------------------------------------------


def _round(x: np.ndarray) -> np.ndarray:
    return np.trunc(x + np.copysign(0.5, x)).astype(np.int64)


def encode_octahedral(vectors: np.ndarray, bits: int, stride: int, w: np.ndarray | None = None) -> np.ndarray:
    """Unit vectors (n, 3) → (n, stride) bytes: K-bit octahedral x, y, the K-bit one, and ``w`` (default 0)."""
    v = np.asarray(vectors, np.float64)
    v = v / np.abs(v).sum(axis=1, keepdims=True)
    x, y, z = v[:, 0].copy(), v[:, 1].copy(), v[:, 2]
    fold = z < 0
    x[fold], y[fold] = (
        (1 - np.abs(v[fold, 1])) * np.where(v[fold, 0] >= 0, 1, -1),
        (1 - np.abs(v[fold, 0])) * np.where(v[fold, 1] >= 0, 1, -1),
    )
    one = (1 << (bits - 1)) - 1
    out = np.stack(
        [
            _round(x * one),
            _round(y * one),
            np.full(len(v), one),
            np.zeros(len(v), np.int64) if w is None else np.asarray(w, np.int64),
        ],
        axis=1,
    )
    return out.astype(np.int8 if stride == 4 else "<i2").view(np.uint8).reshape(len(v), stride)


def encode_quaternion(quaternions: np.ndarray, bits: int) -> np.ndarray:
    """Unit quaternions (n, 4) xyzw → (n, 8) bytes: the three smaller components (×√2, K-bit) and the index of
    the largest, which is made positive."""
    q = np.asarray(quaternions, np.float64)
    q = q / np.linalg.norm(q, axis=1, keepdims=True)
    largest = np.argmax(np.abs(q), axis=1)
    rows = np.arange(len(q))
    q = q * np.where(q[rows, largest] < 0, -1, 1)[:, None]
    one = (1 << (bits - 1)) - 1
    kept = [q[rows, (largest + k) & 3] * np.sqrt(2.0) for k in (1, 2, 3)]
    out = np.stack([_round(c * one) for c in kept] + [(one & ~3) | largest], axis=1)
    return out.astype("<i2").view(np.uint8).reshape(len(q), 8)


def encode_exponential(values: np.ndarray, bits: int) -> np.ndarray:
    """Floats (n, k) → (n, 4k) bytes: per value a signed ``bits``-bit mantissa and an 8-bit exponent."""
    v = np.asarray(values, np.float64)
    _, exponent = np.frexp(v)
    exponent = np.clip(np.where(v == 0, -100, exponent - (bits - 1)), -100, 100)
    mantissa = _round(np.ldexp(v, -exponent))
    packed = (exponent.astype(np.int64) << 24) | (mantissa & 0xFFFFFF)
    return (packed & 0xFFFFFFFF).astype("<u4").view(np.uint8).reshape(len(v), -1)


def encode_color(rgba: np.ndarray, bits: int, stride: int) -> np.ndarray:
    """Colours (n, 4) in [0, 1] → (n, stride) bytes: K-bit Y, Co, Cg and a (K-1)-bit alpha with its marker bit."""
    c = np.asarray(rgba, np.float64)
    top = (1 << bits) - 1
    r, g, b = (_round(c[:, i] * top) for i in range(3))
    co = _round((r - b) / 2.0)
    cg = _round((2 * g - r - b) / 4.0)
    y = g - cg
    alpha = _round(c[:, 3] * ((1 << (bits - 1)) - 1)) | (1 << (bits - 1))
    out = np.stack([y, co, cg, alpha], axis=1)
    dtype = np.uint8 if stride == 4 else "<u2"
    return (out & (0xFF if stride == 4 else 0xFFFF)).astype(dtype).view(np.uint8).reshape(len(c), stride)


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
