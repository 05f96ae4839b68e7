"""glTF-aware mutations: accessors, bufferViews, sparse data, rest transforms, key times, URIs.

Where ``mutate_json`` hits random places, these aim at the numbers that size allocations (count,
byteLength), place reads (byteOffset, byteStride), and feed the maths (rest TRS, key times), plus the
URIs that decide which file gets opened. Values stay valid JSON: huge, not NaN.
"""

from __future__ import annotations

import random
import struct
from pathlib import Path

SIZES = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4, "MAT2": 4, "MAT3": 9, "MAT4": 16}
REST = {
    "translation": [0.0] * 3,
    "rotation": [0.0, 0.0, 0.0, 1.0],
    "scale": [1.0] * 3,
    "matrix": [1.0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1],
}
SPECIAL_URIS = [
    "/dev/zero",
    "/dev/urandom",
    "/dev/stdin",
    "../../etc/passwd",
    "/etc/passwd",
    "missing.bin",
    "a" * 5000 + ".bin",
    "FIFO",
    "%2e%2e/%2e%2e/etc/passwd",
    "file:///etc/passwd",
    "data:application/octet-stream;base64,@@@=",
    "subdir/",
    ".",
]


def _list(m, name: str) -> list[dict]:
    items = m.doc.get(name)
    return [x for x in items if isinstance(x, dict)] if isinstance(items, list) else []


def float_offsets(doc: dict, data: bytes | bytearray, index: int) -> list[int]:
    """Byte offsets in buffer 0 of every float32 component of accessor ``index`` (in range, non-sparse)."""
    try:
        acc = doc["accessors"][index]
        view = doc["bufferViews"][acc["bufferView"]]
        if acc.get("componentType") != 5126 or view.get("buffer", 0) != 0:
            return []
        width = SIZES[acc["type"]]
        stride = view.get("byteStride") or 4 * width
        start = int(view.get("byteOffset", 0)) + int(acc.get("byteOffset", 0))
        count = min(int(acc["count"]), 1 << 20)
    except (KeyError, IndexError, TypeError, ValueError, OverflowError):
        return []
    offsets = [start + i * stride + 4 * c for i in range(count) for c in range(width)]
    return [o for o in offsets if 0 <= o <= len(data) - 4]


def huge_count(rng: random.Random, m) -> str | None:
    """An accessor's count near 2**31 / 2**32 (or the sparse count of one)."""
    accs = _list(m, "accessors")
    if not accs:
        return None
    k = rng.randrange(len(accs))
    accs[k]["count"] = rng.choice([2**31 - 1, 2**31, 2**31 + 1, 2**32 - 1, 2**32, 2**32 + 1, 2**30, 2**63 - 1])
    return f"/accessors/{k}/count -> {accs[k]['count']}"


def sparse_lie(rng: random.Random, m) -> str | None:
    """Break a sparse block (count, offsets, index type), or give one to an accessor, over arbitrary views."""
    accs, views = _list(m, "accessors"), _list(m, "bufferViews")
    if not accs or not views:
        return None
    sparse_ones = [k for k, a in enumerate(accs) if isinstance(a.get("sparse"), dict)]
    if sparse_ones and rng.random() < 0.6:
        k = rng.choice(sparse_ones)
        sparse = accs[k]["sparse"]
        what = rng.randrange(3)
        if what == 0:
            sparse["count"] = rng.choice([0, -1, accs[k].get("count", 1) + 1, 2**31, 2**32 - 1, 10**6])
            return f"/accessors/{k}/sparse/count -> {sparse['count']}"
        part = sparse.get("indices") if what == 1 else sparse.get("values")
        if not isinstance(part, dict):
            return None
        part["byteOffset"] = rng.choice([1, 3, 2**31, 10**9, -4])
        return f"/accessors/{k}/sparse/{'indices' if what == 1 else 'values'}/byteOffset -> {part['byteOffset']}"
    k = rng.randrange(len(accs))
    count = rng.choice([1, 2, 3, 16, 1000, 2**31])
    accs[k]["sparse"] = {
        "count": count,
        "indices": {"bufferView": rng.randrange(len(views)), "componentType": rng.choice([5121, 5123, 5125])},
        "values": {"bufferView": rng.randrange(len(views))},
    }
    return f"/accessors/{k} gets a sparse block of {count} over arbitrary views (indices out of range / unsorted)"


def view_lie(rng: random.Random, m) -> str | None:
    """bufferView byteOffset/byteLength/byteStride, accessor byteOffset or buffer byteLength that lie."""
    choices = [("bufferViews", key) for key in ("byteOffset", "byteLength", "byteStride")]
    choices += [("accessors", "byteOffset"), ("buffers", "byteLength")]
    collection, key = rng.choice(choices)
    items = _list(m, collection)
    if not items:
        return None
    k = rng.randrange(len(items))
    length = len(m.bin) if m.bin is not None else 0
    old = items[k].get(key, 0)
    old = old if isinstance(old, int) else 0
    items[k][key] = rng.choice(
        [
            old - 1,
            old + 1,
            old + 2,
            old + 4,
            length,
            length + 1,
            length - 4,
            3,
            5,
            252,
            256,
            255,
            2**31,
            2**32 + 4,
            2**63,
            0,
            -4,
        ]
    )
    return f"/{collection}/{k}/{key}: {old} -> {items[k][key]}"


def huge_rest_trs(rng: random.Random, m) -> str | None:
    """A node's rest translation/rotation/scale/matrix → values of 1e300–1e308 (valid JSON, finite)."""
    nodes = _list(m, "nodes")
    if not nodes:
        return None
    k = rng.randrange(len(nodes))
    node = nodes[k]
    prop = rng.choice(["translation", "rotation", "scale", "matrix"])
    size = len(REST[prop])
    if prop == "matrix":
        for key in ("translation", "rotation", "scale"):
            node.pop(key, None)
    elif "matrix" in node:
        del node["matrix"]
    current = node.get(prop)
    values = list(current) if isinstance(current, list) and len(current) == size else list(REST[prop])
    big = [1e300, 1e305, 1e308, -1e308, 1.7976931348623157e308, 3.4e38]
    for i in rng.sample(range(size), rng.randint(1, size)):
        values[i] = rng.choice(big)
    node[prop] = values
    return f"/nodes/{k}/{prop} -> {values}"


def key_times(rng: random.Random, m) -> str | None:
    """Rewrite a sampler's input times in the buffer: huge (≥1e16, up to 3e38) or minutely spaced; min/max kept true."""
    if m.bin is None:
        return None
    inputs = sorted(
        {
            s.get("input")
            for a in _list(m, "animations")
            for s in a.get("samplers", [])
            if isinstance(s, dict) and isinstance(s.get("input"), int)
        }
    )
    inputs = [i for i in inputs if float_offsets(m.doc, m.bin, i)]
    if not inputs:
        return None
    index = rng.choice(inputs)
    offsets = float_offsets(m.doc, m.bin, index)
    n = len(offsets)
    kind = rng.choice(["offset", "scale_max", "tiny", "subnormal", "equal_huge"])
    if kind == "offset":  # large base, steps big enough to stay distinct in float32
        times = [1e16 + k * 2.0**31 for k in range(n)]
    elif kind == "scale_max":
        times = [3e38 * (k + 1) / n for k in range(n)]
    elif kind == "tiny":
        times = [k * 1e-30 for k in range(n)]
    elif kind == "subnormal":
        times = [k * 1.5e-45 for k in range(n)]
    else:
        times = [3.4e38] * n
    packed = [struct.unpack("<f", struct.pack("<f", t))[0] for t in times]
    for offset, t in zip(offsets, times):
        m.bin[offset : offset + 4] = struct.pack("<f", t)
    acc = m.doc["accessors"][index]
    if "min" in acc or rng.random() < 0.5:
        acc["min"], acc["max"] = [min(packed)], [max(packed)]
    return f"/accessors/{index} (animation input) times {kind}: {packed[0]:.3g} … {packed[-1]:.3g} ({n} keys)"


def interpolation_name(rng: random.Random, m) -> str | None:
    samplers = [s for a in _list(m, "animations") for s in a.get("samplers", []) if isinstance(s, dict)]
    if not samplers:
        return None
    s = rng.choice(samplers)
    s["interpolation"] = rng.choice(["linear", "CUBIC", "", "SLERP", "STEP ", "CUBICSPLINE\n", 5, None, ["STEP"]])
    return f"an animation sampler's interpolation -> {s['interpolation']!r}"


def bad_uri(rng: random.Random, m) -> str | None:
    """A buffer or image uri → /dev/zero, /dev/urandom, /dev/stdin, a FIFO, traversal, absolute, missing, 5 000
    chars."""
    uri = rng.choice(SPECIAL_URIS)
    if uri == "FIFO":
        uri = "pipe.bin"
        m.fifos.append(uri)
    elif uri == "/etc/passwd" and m.extras and rng.random() < 0.5:
        uri = str(Path(rng.choice(sorted(m.extras.values()))).resolve())
    buffers, images = _list(m, "buffers"), _list(m, "images")
    if buffers and (not images or rng.random() < 0.7):
        k = rng.randrange(len(buffers))
        buffers[k]["uri"] = uri
        where = f"/buffers/{k}/uri"
    else:
        images = m.doc.setdefault("images", []) if isinstance(m.doc.get("images"), list) else []
        m.doc["images"] = images
        if not images or rng.random() < 0.3:
            images.append({})
        k = rng.randrange(len(images))
        images[k] = {"uri": uri}
        where = f"/images/{k}/uri"
    return f"{where} -> {uri if len(uri) < 60 else uri[:12] + f'…({len(uri)} chars)'}"
