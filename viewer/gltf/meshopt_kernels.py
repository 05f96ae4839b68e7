"""The meshopt codecs and filters as scalar loops that numba compiles (``meshopt_compiled`` does, on demand):
the same bitstreams as ``meshopt_codecs`` / ``meshopt_index`` / ``meshopt_filters``, which stay the reference.

Why loops: the numpy decoder has to find every byte group's offset in a Python walk before it can decode the
groups in bulk, which holds it to 25–80 MB/s; a compiled walk decodes each group where it finds it. Nothing here
imports numba, so importing the package never loads it; called from plain Python these functions give the same
results, only slowly.

Malformed data is never diagnosed here: a kernel returns -1 at the first fault (or a position that is not the
stream's end), and the caller asks the numpy reference for the ``ValueError`` and its message. Each check sits
where the reference would fail on the same stream, and reads never pass the stream's end: a group starts at or
before ``limit`` and takes at most 24 bytes, and every stream ends with a tail of at least 24 bytes.

Floating-point filters repeat the reference's float32 operations in its order (numba's default, like numpy,
never fuses or reorders them); ``error_model="numpy"`` makes a division by zero give inf or NaN as numpy's does.
"""

from __future__ import annotations

import math

import numpy as np

BLOCK = 256  # the most elements a block holds


def vertex_blocks(data, limit, count, stride, version, block, last, channels, out):
    """The ATTRIBUTES blocks of ``data`` (the whole stream) into ``out`` (count × stride bytes).

    ``last``: the baseline element, updated in place; ``channels``: v1 channel mode bytes (zeros for v0).
    Returns where the blocks end (the caller checks it equals ``limit``), or -1 for malformed data.
    """
    deltas = np.zeros(stride * BLOCK, np.uint8)  # element-major: delta byte k of element i at i * stride + k
    pos = 1
    for first in range(0, count, block):
        n = min(block, count - first)
        groups = (n + 15) >> 4
        header_size = (groups + 3) >> 2
        control = pos
        if version:
            pos += stride >> 2
        for k in range(stride):
            if pos > limit:
                return -1
            ctrl = (data[control + (k >> 2)] >> ((k & 3) << 1)) & 3 if version else 0
            if ctrl == 2:  # all deltas zero
                for i in range(n):
                    deltas[i * stride + k] = 0
            elif ctrl == 3:  # literal deltas
                if pos + n > limit:
                    return -1
                for i in range(n):
                    deltas[i * stride + k] = data[pos + i]
                pos += n
            else:
                header = np.uint64(pos)
                pos += header_size
                for g in range(groups):
                    if pos > limit:  # the reference fails later on the same stream: pos only grows
                        return -1
                    code = (np.int64(data[header + np.uint64(g >> 2)]) >> ((g & 3) << 1)) & 3
                    bits = (1 << code) >> (ctrl == 0 and version == 1) if code or (ctrl == 1) else 0
                    pos = group(data, pos, bits, deltas, 16 * g * stride + k, stride)
        if pos > limit:
            return -1
        undo_deltas(deltas, n, first, stride, last, channels, out)
    return pos


def group(data, pos, bits, dst, at, step):
    """One group of 16 deltas of ``bits`` bits at ``data[pos:]`` into ``dst[at + j * step]``; returns the position
    after it and its escaped bytes. 1-bit fields are read LSB first, 2- and 4-bit ones MSB first. An escape is
    taken without a branch (the next escape byte is always read; it lies inside the stream, see the module
    docstring). Indices are unsigned: numba then skips its negative-index wraparound, which blocks LLVM's
    vectorizer and costs as much as the decoding itself."""
    p, a, s = np.uint64(pos), np.uint64(at), np.uint64(step)
    if bits == 0:
        for j in range(16):
            dst[a + np.uint64(j) * s] = 0
        return pos
    if bits == 8:
        for j in range(16):
            dst[a + np.uint64(j) * s] = data[p + np.uint64(j)]
        return pos + 16
    extra = p + np.uint64(2 * bits)
    mask = np.uint32((1 << bits) - 1)
    one = np.uint64(1)
    for j in range(16):
        u = np.uint64(j)
        if bits == 4:
            v = (np.uint32(data[p + (u >> one)]) >> np.uint32(4 - ((j & 1) << 2))) & mask
        elif bits == 2:
            v = (np.uint32(data[p + (u >> np.uint64(2))]) >> np.uint32(6 - ((j & 3) << 1))) & mask
        else:
            v = (np.uint32(data[p + (u >> np.uint64(3))]) >> np.uint32(j & 7)) & mask
        escaped = v == mask
        dst[a + u * s] = np.uint32(data[extra]) if escaped else v
        extra += np.uint64(escaped)
    return np.int64(extra)


def undo_deltas(deltas, n, first, stride, last, channels, out):
    """Elements ``first .. first + n`` from their deltas, running on from ``last`` per channel mode: byte-wise
    zigzag sums (0), 16-bit zigzag sums (1), or 32-bit XORs of the rotated delta (2). All byte-wise (always so in
    version 0) is one loop over each element's bytes, which LLVM vectorizes."""
    plain = True
    for c in range(stride >> 2):
        plain = plain and channels[c] & 15 == 0
    base = first * stride
    if plain:
        size, width, at = np.uint64(n * stride), np.uint64(stride), np.uint64(base)
        one, zero = np.uint32(1), np.uint32(0)
        row = np.uint64(0)
        while row < size:
            for j in range(stride):
                k = np.uint64(j)
                d = np.uint32(deltas[row + k])
                v = (np.uint32(last[k]) + ((d >> one) ^ (zero - (d & one)))) & np.uint32(0xFF)
                last[k] = v
                out[at + row + k] = v
            row += width
        return
    for c in range(stride >> 2):
        mode = channels[c] & 15
        k0 = 4 * c
        if mode == 0:
            for k in range(k0, k0 + 4):
                v = np.int64(last[k])
                for row in range(0, n * stride, stride):
                    d = np.int64(deltas[row + k])
                    v = (v + ((d >> 1) ^ -(d & 1))) & 0xFF
                    out[base + row + k] = v
                last[k] = v
        elif mode == 1:
            for k in (k0, k0 + 2):
                v = np.int64(last[k]) | (np.int64(last[k + 1]) << 8)
                for row in range(0, n * stride, stride):
                    d = np.int64(deltas[row + k]) | (np.int64(deltas[row + k + 1]) << 8)
                    v = (v + ((d >> 1) ^ -(d & 1))) & 0xFFFF
                    out[base + row + k] = v & 0xFF
                    out[base + row + k + 1] = v >> 8
                last[k], last[k + 1] = v & 0xFF, v >> 8
        else:
            r = np.int64(channels[c] >> 4)
            v = np.int64(0)
            for b in range(4):
                v |= np.int64(last[k0 + b]) << (8 * b)
            for row in range(0, n * stride, stride):
                d = np.int64(0)
                for b in range(4):
                    d |= np.int64(deltas[row + k0 + b]) << (8 * b)
                if r:
                    d = ((d >> r) | (d << (32 - r))) & 0xFFFFFFFF
                v ^= d
                for b in range(4):
                    out[base + row + k0 + b] = (v >> (8 * b)) & 0xFF
            for b in range(4):
                last[k0 + b] = (v >> (8 * b)) & 0xFF


def round_clamp(value, limit, low):
    """``meshopt_filters._round`` of one float32: half away from zero, NaN to 0, clamped to [low, limit]."""
    r = np.trunc(value + np.copysign(np.float32(0.5), value))
    if r != r:
        return np.float32(0.0)
    if r > limit:
        return limit
    if r < low:
        return low
    return r


def filter_octahedral(v, count, top):
    """Filter 1 over ``v`` (count × 4 int8 or int16, in place); ``top`` 127 or 32767 as float32."""
    one32 = np.float32(1.0)
    for e in range(count):
        i = 4 * e
        one = np.float32(v[i + 2])
        x = np.float32(v[i]) / one
        y = np.float32(v[i + 1]) / one
        z = one32 - np.abs(x) - np.abs(y)
        t = np.float32(0.0) if z >= 0 else z  # np.minimum(z, 0): NaN stays NaN
        x = x - np.copysign(t, x)
        y = y - np.copysign(t, y)
        length = np.sqrt(x * x + y * y + z * z)
        v[i] = round_clamp(x / length * top, top, -top)
        v[i + 1] = round_clamp(y / length * top, top, -top)
        v[i + 2] = round_clamp(z / length * top, top, -top)


def filter_quaternion(v, count, scale0):
    """Filter 2 over ``v`` (count × 4 int16, in place); ``scale0`` the float32 of 1/√2. Each output lane picks
    its component by a select rather than a store at a computed index, which keeps the loop vectorizable."""
    top = np.float32(32767.0)
    for e in range(count):
        i = 4 * e
        w3 = np.int64(v[i + 3])
        scale = scale0 / np.float32(w3 | 3)
        x = np.float32(v[i]) * scale
        y = np.float32(v[i + 1]) * scale
        z = np.float32(v[i + 2]) * scale
        rest = np.float32(1.0) - x * x - y * y - z * z
        w = np.sqrt(rest if not rest < 0 else np.float32(0.0))  # np.maximum(0, rest): NaN stays NaN
        largest = w3 & 3
        for lane in range(4):
            turn = (lane - largest) & 3  # the omitted (largest) component is w; x, y, z follow it
            value = w if turn == 0 else (x if turn == 1 else (y if turn == 2 else z))
            v[i + lane] = round_clamp(value * top, top, -top)


def filter_exponential(words, floats):
    """Filter 3: each int32 ``exponent:8 | mantissa:24`` of ``words`` to the float32 2^e × m in ``floats``
    (the same memory viewed as float32)."""
    for e in range(words.size):
        w = np.int64(words[e])
        exponent = w >> 24
        mantissa = ((w & 0xFFFFFF) ^ 0x800000) - 0x800000
        floats[e] = np.float32(math.ldexp(np.float64(mantissa), exponent))


def filter_color(u, s, count, top):
    """Filter 4 over ``u`` / ``s`` (the count × 4 components viewed unsigned / signed, in place); ``top`` the
    largest component value (255.0 or 65535.0)."""
    top32 = np.float32(top)
    zero = np.float32(0.0)
    for e in range(count):
        i = 4 * e
        alpha = np.int64(u[i + 3])
        scale_int = np.int64(0)
        if alpha > 0:
            msb = 0
            while (alpha >> (msb + 1)) > 0 and msb < 15:
                msb += 1
            scale_int = (np.int64(1) << (msb + 1)) - 1
        y, co, cg = np.int64(u[i]), np.int64(s[i + 1]), np.int64(s[i + 2])
        a = alpha & (scale_int >> 1)
        a = (a << 1) | (a & 1)
        scale = np.float32(top / scale_int) if scale_int > 0 else zero
        r = round_clamp(np.float32(y + co - cg) * scale, top32, zero)
        g = round_clamp(np.float32(y + cg) * scale, top32, zero)
        b = round_clamp(np.float32(y - co - cg) * scale, top32, zero)
        u[i + 3] = round_clamp(np.float32(a) * scale, top32, zero)
        u[i], u[i + 1], u[i + 2] = r, g, b
