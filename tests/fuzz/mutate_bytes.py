"""Byte-level mutations: float data, truncation, GLB header/chunk lies, bit flips.

JSON cannot hold NaN or infinity, but a binary buffer can; planting them (and 1e38, subnormals) in
float accessors shows whether the maths guards itself or warns. Planted NaN/±inf set
``mutant.injected_nonfinite``, since non-finite output is then the input's doing. Bit flips can make
a float non-finite too: a flip inside buffer 0 whose aligned 32-bit word becomes NaN/inf counts as
injected. The file-stage functions here run after serialization, on ``mutant.files``.
"""

from __future__ import annotations

import math
import random
import struct

from tests.fuzz.mutate_data import float_offsets

PLANTED = [math.nan, math.inf, -math.inf, 1e38, -1e38, 3.4028234663852886e38, 1.4e-45, 1e-40, -0.0]


def _float32_finite(word: bytes) -> bool:
    return math.isfinite(struct.unpack("<f", word)[0])


def overwrite_floats(rng: random.Random, m) -> str | None:
    """Overwrite 1–4 float32 components of one float accessor with NaN / ±inf / 1e38 / subnormals."""
    if m.bin is None or not isinstance(m.doc.get("accessors"), list):
        return None
    candidates = [k for k in range(len(m.doc["accessors"])) if float_offsets(m.doc, m.bin, k)]
    if not candidates:
        return None
    index = rng.choice(candidates)
    offsets = float_offsets(m.doc, m.bin, index)
    planted = []
    for offset in rng.sample(offsets, min(len(offsets), rng.randint(1, 4))):
        value = rng.choice(PLANTED)
        m.bin[offset : offset + 4] = struct.pack("<f", value)
        planted.append(value)
        m.injected_nonfinite |= not math.isfinite(value)
    return f"accessor {index}: {len(planted)} float(s) -> {', '.join(repr(v) for v in planted)}"


def truncate_bin(rng: random.Random, m) -> str | None:
    """Cut buffer 0 short (the JSON still claims its old byteLength)."""
    if not m.bin:
        return None
    old = len(m.bin)
    new = rng.choice([0, 1, old // 2, old - 1, old - 4, rng.randrange(old)])
    del m.bin[max(new, 0) :]
    return f"buffer 0 truncated {old} -> {len(m.bin)} bytes"


def _target_file(rng: random.Random, m) -> str:
    """The file to edit: four times in five the binary one (.glb / .bin) when there is one.

    Edited JSON text is almost always refused at once (invalid UTF-8 or JSON); binary edits go deeper.
    """
    binary = sorted(m.bin_at)
    if binary and rng.random() < 0.8:
        return rng.choice(binary)
    return rng.choice(sorted(m.files))


def truncate_file(rng: random.Random, m) -> str:
    """Cut the .glb, .bin or .gltf file short."""
    name = _target_file(rng, m)
    data = m.files[name]
    if not data:
        return f"{name} already empty"
    new = rng.choice([0, 11, 12, 19, 20, len(data) // 2, len(data) - 1, len(data) - 4, rng.randrange(len(data))])
    new = max(0, min(new, len(data) - 1))
    m.files[name] = data[:new]
    return f"{name} truncated {len(data)} -> {new} bytes"


def glb_lie(rng: random.Random, m) -> str | None:
    """In a .glb: wrong header length, version or magic, or a chunk whose length or type lies."""
    if m.container != "glb" or len(m.files[m.main]) < 20:
        return None
    data = bytearray(m.files[m.main])
    json_len = struct.unpack_from("<I", data, 12)[0]
    bin_header = 20 + json_len if 20 + json_len + 8 <= len(data) else None
    lies = ["length", "version", "magic", "json_length", "json_type"] + (
        ["bin_length", "bin_type"] if bin_header else []
    )
    lie = rng.choice(lies)
    total = len(data)
    if lie == "length":
        value = rng.choice([0, total - 4, total + 4, total - 1, 2**32 - 1, 12])
        struct.pack_into("<I", data, 8, value)
    elif lie == "version":
        value = rng.choice([0, 1, 3, 2**32 - 1])
        struct.pack_into("<I", data, 4, value)
    elif lie == "magic":
        value = rng.choice([b"gltf", b"GLTF", b"\0\0\0\0", b'{"as'])
        data[0:4] = value
    elif lie in ("json_length", "bin_length"):
        at = 12 if lie == "json_length" else bin_header
        old = struct.unpack_from("<I", data, at)[0]
        value = rng.choice([0, old - 4, old + 4, old + 1, old - 1, 2**31, 2**32 - 1, total])
        struct.pack_into("<I", data, at, max(0, min(value, 2**32 - 1)))
    else:
        at = 16 if lie == "json_type" else bin_header + 4
        value = rng.choice([0x004E4942, 0x4E4F534A, 0, 0x12345678, 0xFFFFFFFF])
        struct.pack_into("<I", data, at, value)
    m.files[m.main] = bytes(data)
    return f"{m.main} GLB {lie} -> {value!r}"


def bit_flips(rng: random.Random, m) -> str | None:
    """Flip 1–16 random bits of one written file; note when a float word of buffer 0 becomes NaN/inf."""
    name = _target_file(rng, m)
    data = bytearray(m.files[name])
    if not data:
        return None
    positions = sorted(rng.randrange(len(data) * 8) for _ in range(rng.randint(1, 16)))
    for bit in positions:
        data[bit // 8] ^= 1 << (bit % 8)
    start = m.bin_at.get(name)
    if start is not None:
        for bit in positions:
            word = start + ((bit // 8 - start) // 4) * 4
            if word >= start and word + 4 <= len(data) and not _float32_finite(bytes(data[word : word + 4])):
                m.injected_nonfinite = True
    m.files[name] = bytes(data)
    return f"{name}: flipped bits at bytes {[b // 8 for b in positions]}"
