"""Edge-case glTF animations for recording how real engines sample them (issue 25).

    python tools/engine_cases.py OUTDIR [--no-models]

writes OUTDIR/cases/*.glb (generated, deterministic: the same bytes on every run) and OUTDIR/manifest.json.
``tools/engines_record.py`` runs it, then the engine harnesses (three.js, Babylon.js, pygfx) on the manifest.

Every generated case holds ONE animation (index 0) on the same small node tree:

    node 0 "root"  children [1, 3], rest translation (0, 0.5, 0)
    node 1 "arm"   children [2],    rest translation (1, 0, 0), rest rotation 30 deg about z
    node 2 "hand"                    rest scale (1, 2, 1)
    node 3 "morph" mesh 0: a triangle with K morph targets (K = 2 unless the case animates weights with
                   2..8), default weights 0.1, 0.2, ...; rest translation (-1, 0, 0)

Families (the name prefix): step_keys (STEP channels keyed at other channels' key times), lin_t / lin_s
(LINEAR translation / scale), rot_big (LINEAR rotations more than 180 degrees apart, and sign flips),
rot_near (nearly equal keys: dot > 0.99, > 0.999999, equal, negated), cubic_t / cubic_r / cubic_w
(CUBICSPLINE with large and small tangents, irregular spacing), lead_in (first key > 0), one_key
(one-key samplers), dup (two or three keys at the same time), w_lin / w_step (morph weights, 2..8 targets),
multi_dur (channels of different durations), mixed (a bit of everything).

Shared Khronos models (../shared/assets/khronos) and the demo files (assets/*.gltf) become cases too: each
file is repacked as a self-contained .glb (buffers merged into one BIN chunk; images, textures, samplers and
every textureInfo removed, so no engine needs an image decoder) and each of its animations is one case.

manifest.json: {"cases": [{"name", "file" (under cases/), "animation", "family", "duration", "times",
"nodes" (glTF node indices to record: every node for generated cases, the animated ones for models),
"weights_nodes" (those of them whose mesh has morph targets), "source"}]}.
Times (float64 values of the float32 key times, so a key time is queried exactly): 0, every key time (at most
24 of them, evenly picked, on models), the midpoints between consecutive ones, half of each channel's first key
when it is > 0 (before the first key), key time +- 1e-3 around duplicate keys, the duration, duration + 0.25
and 2 * duration + 0.1 (looping); sorted, unique.
"""

from __future__ import annotations

import argparse
import base64
import json
import math
import os
import struct
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.gltf_builder import GltfBuilder  # noqa: E402
from viewer.files.containers import glb_bytes  # noqa: E402

KHRONOS = Path(os.environ.get("ANIMVIEW_KHRONOS", ROOT.parent / "shared" / "assets" / "khronos"))
MAX_MODEL_KEYS = 24
F32 = np.float32


# -- helpers ----------------------------------------------------------------------------------------------


def qaxis(axis, degrees) -> list[float]:
    a = np.asarray(axis, float)
    a = a / np.linalg.norm(a)
    h = math.radians(degrees) / 2
    return [*(a * math.sin(h)), math.cos(h)]


def qmul(a, b) -> list[float]:
    ax, ay, az, aw = a
    bx, by, bz, bw = b
    return [
        aw * bx + ax * bw + ay * bz - az * by,
        aw * by - ax * bz + ay * bw + az * bx,
        aw * bz + ax * by - ay * bx + az * bw,
        aw * bw - ax * bx - ay * by - az * bz,
    ]


def f32(values) -> list[float]:
    """Values as the float64 of their float32 (what a file stores)."""
    return [float(v) for v in np.asarray(values, F32).astype(float).reshape(-1)]


def ch(node, path, times, values, interp=None) -> dict:
    c = dict(node=node, path=path, times=list(times), values=np.asarray(values, float))
    if interp is not None:
        c["interpolation"] = interp
    return c


def cubic(values, tin, tout) -> np.ndarray:
    """CUBICSPLINE output rows: (in-tangent, value, out-tangent) per key; each argument (keys, n)."""
    v, a, b = (np.asarray(x, float) for x in (values, tin, tout))
    return np.stack([a, v, b], axis=1).reshape(-1, v.shape[-1])


def build_case(channels, targets: int = 2) -> GltfBuilder:
    b = GltfBuilder()
    tri = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0]], F32)
    rng = np.random.default_rng(targets)
    tgts = [rng.uniform(-0.5, 0.5, (3, 3)).astype(F32) for _ in range(targets)]
    mesh = b.add_mesh(tri, [0, 1, 2], targets=tgts, weights=[0.1 * (k + 1) for k in range(targets)])
    for target, values in zip(b.doc["meshes"][mesh]["primitives"][0]["targets"], tgts):
        accessor = b.doc["accessors"][target["POSITION"]]  # min/max, which POSITION accessors must have
        accessor["min"], accessor["max"] = values.min(0).tolist(), values.max(0).tolist()
    b.add_node(name="root", children=[1, 3], translation=[0.0, 0.5, 0.0])
    b.add_node(name="arm", children=[2], translation=[1.0, 0.0, 0.0], rotation=qaxis([0, 0, 1], 30))
    b.add_node(name="hand", scale=[1.0, 2.0, 1.0])
    b.add_node(name="morph", mesh=mesh, translation=[-1.0, 0.0, 0.0])
    b.add_animation(channels, name="case")
    b.add_scene([0])
    return b


def query_times(channel_times: list[list[float]], max_keys: int | None = None) -> tuple[float, list[float]]:
    """(duration, sorted unique query times) for channels' float32 key times (given as float64)."""
    keys = sorted({t for ts in channel_times for t in ts})
    duration = max(keys) if keys else 0.0
    if max_keys is not None and len(keys) > max_keys:
        pick = np.unique(np.round(np.linspace(0, len(keys) - 1, max_keys)).astype(int))
        keys = [keys[i] for i in pick]
    times = {0.0, duration, duration + 0.25, 2 * duration + 0.1, *keys}
    times.update((a + b) / 2 for a, b in zip(keys, keys[1:]))
    for ts in channel_times:
        if ts and ts[0] > 0:
            times.add(ts[0] / 2)
        for a, b in zip(ts, ts[1:]):
            if a == b:
                times.update((a - 1e-3, a + 1e-3))
    return duration, sorted(t for t in times if t >= 0)


# -- families -----------------------------------------------------------------------------------------


def rand_times(rng, n, t0=0.0, span=2.0, irregular=True) -> list[float]:
    if n == 1:
        return [t0]
    if irregular:
        gaps = rng.uniform(0.05, 1.0, n - 1)
        gaps = gaps / gaps.sum() * span
    else:
        gaps = np.full(n - 1, span / (n - 1))
    return [t0, *(t0 + np.cumsum(gaps))]


def rand_quat(rng) -> list[float]:
    q = rng.normal(size=4)
    return list(q / np.linalg.norm(q))


def fam_step_keys(rng, k):
    lin_times = rand_times(rng, 5 + k % 3, span=1.0 + 0.25 * k, irregular=k % 2 == 1)
    step_times = lin_times[:: 1 + k % 2] if k % 3 else lin_times[1:]
    chans = [
        ch(1, "translation", lin_times, rng.uniform(-2, 2, (len(lin_times), 3))),
        ch(2, "translation", step_times, rng.uniform(-2, 2, (len(step_times), 3)), "STEP"),
    ]
    if k % 2 == 0:
        chans.append(ch(0, "rotation", step_times, [rand_quat(rng) for _ in step_times], "STEP"))
    if k % 3 == 0:
        chans.append(ch(1, "scale", step_times, rng.uniform(0.5, 2, (len(step_times), 3)), "STEP"))
    if k % 4 == 1:
        chans.append(ch(3, "weights", step_times, rng.uniform(0, 1, (len(step_times), 2)), "STEP"))
    return chans, 2


def fam_lin_t(rng, k):
    n = 2 + k % 5
    times = rand_times(rng, n, span=0.5 + k * 0.3, irregular=k % 2 == 0)
    chans = [ch(1 + k % 3, "translation", times, rng.uniform(-3, 3, (n, 3)))]
    if k % 3 == 2:
        chans.append(ch(0, "translation", times[::-1][::-1], rng.uniform(-1, 1, (n, 3))))
    return chans, 2


def fam_lin_s(rng, k):
    n = 2 + k % 4
    times = rand_times(rng, n, span=1.0 + k * 0.2, irregular=k % 2 == 1)
    vals = rng.uniform(0.2, 3, (n, 3))
    if k == 3:
        vals[1] = [0.0, 0.0, 0.0]  # collapse to zero scale and back
    if k == 5:
        vals[:, 0] *= -1  # negative scale on x
    return [ch(k % 3, "scale", times, vals)], 2


ROT_BIG = [181, 185, 190, 200, 240, 270, 300, 330, 350, 359, 179, 175]


def fam_rot_big(rng, k):
    axis = [[0, 0, 1], [0, 1, 0], [1, 0, 0], [1, 1, 0], [1, -2, 3]][k % 5]
    angle = ROT_BIG[k % len(ROT_BIG)]
    base = rng.uniform(0, 60)
    q0 = qaxis(axis, base)
    q1 = qaxis(axis, base + angle)  # more than 180 degrees about the axis: dot < 0
    if k >= 12:  # the same key pair, the second negated (same rotation, other hemisphere)
        q1 = [-x for x in q1]
    times = rand_times(rng, 2, span=1.0 + 0.1 * k)
    quats = [q0, q1]
    if k % 4 == 3:  # a third key turning on by the same angle
        times = rand_times(rng, 3, span=2.0)
        quats.append(qaxis(axis, base + 2 * angle))
    return [ch(1 + k % 2, "rotation", times, quats)], 2


NEAR = [10.0, 5.0, 1.0, 0.1, 0.05, 0.01, 1e-3, 1e-4, 0.0, 16.0]  # degrees; dot = cos(angle / 2)


def fam_rot_near(rng, k):
    angle = NEAR[k % len(NEAR)]
    q0 = rand_quat(rng)
    q1 = qmul(q0, qaxis(rng.normal(size=3), angle))
    if k >= len(NEAR):  # the second key negated: dot near -1
        q1 = [-x for x in q1]
    times = rand_times(rng, 2, span=1.0)
    return [ch(1, "rotation", times, [q0, q1]), ch(2, "translation", times, [[0, 0, 0], [0, 1, 0]])], 2


def fam_cubic_t(rng, k):
    n = 2 + k % 5
    times = rand_times(rng, n, span=0.3 + 0.4 * k, irregular=True)
    scale = [0.0, 0.01, 1.0, 10.0, 50.0, 200.0][k % 6]
    vals = rng.uniform(-2, 2, (n, 3))
    tin, tout = rng.normal(size=(n, 3)) * scale, rng.normal(size=(n, 3)) * scale
    if k % 4 == 1:
        tout = tin.copy()  # smooth (C1) spline
    path = "scale" if k % 7 == 6 else "translation"
    return [ch(k % 3, path, times, cubic(vals, tin, tout), "CUBICSPLINE")], 2


def fam_cubic_r(rng, k):
    n = 2 + k % 4
    times = rand_times(rng, n, span=0.5 + 0.3 * k, irregular=True)
    scale = [0.0, 0.01, 0.5, 2.0, 10.0][k % 5]
    quats = [rand_quat(rng) for _ in range(n)]
    if k % 3 == 0:  # keys close together, as an exporter writes them
        base = rand_quat(rng)
        quats = [qmul(base, qaxis([0, 1, 0], 20 * i)) for i in range(n)]
    tin, tout = rng.normal(size=(n, 4)) * scale, rng.normal(size=(n, 4)) * scale
    return [ch(1 + k % 2, "rotation", times, cubic(quats, tin, tout), "CUBICSPLINE")], 2


def fam_cubic_w(rng, k):
    targets = 2 + k % 7
    n = 2 + k % 4
    times = rand_times(rng, n, span=0.5 + 0.25 * k)
    scale = [0.0, 0.1, 1.0, 5.0, 30.0][k % 5]
    vals = rng.uniform(0, 1, (n, targets))
    tin, tout = rng.normal(size=(n, targets)) * scale, rng.normal(size=(n, targets)) * scale
    return [ch(3, "weights", times, cubic(vals, tin, tout), "CUBICSPLINE")], targets


def fam_lead_in(rng, k):
    t0 = [0.25, 0.5, 1.0, 0.1, 2.0][k % 5]
    n = 2 + k % 3
    times = rand_times(rng, n, t0=t0, span=1.0)
    interp = ["LINEAR", "STEP", "CUBICSPLINE"][k % 3]
    path = ["translation", "rotation", "scale", "weights"][k % 4]
    if path == "rotation":
        vals = np.array([rand_quat(rng) for _ in range(n)])
    elif path == "scale":
        vals = rng.uniform(0.5, 2, (n, 3))
    elif path == "weights":
        vals = rng.uniform(0, 1, (n, 3))
    else:
        vals = rng.uniform(-2, 2, (n, 3))
    if interp == "CUBICSPLINE":
        vals = cubic(vals, rng.normal(size=vals.shape), rng.normal(size=vals.shape))
    node = 3 if path == "weights" else 1 + k % 2
    chans = [ch(node, path, times, vals, interp)]
    if k >= 10:  # another channel starting at 0: only this one has a lead-in
        chans.append(ch(0, "translation", [0.0, times[-1] * 0.7], [[0, 0, 0], [1, 1, 1]]))
    return chans, 3 if path == "weights" else 2


def fam_one_key(rng, k):
    t = [0.0, 0.5, 1.5, 0.0, 2.0][k % 5]
    interp = ["LINEAR", "STEP", "CUBICSPLINE"][k % 3]
    path = ["translation", "rotation", "scale", "weights"][(k // 3) % 4]
    n = 3 if path == "weights" else {"translation": 3, "rotation": 4, "scale": 3}[path]
    if path == "rotation":
        vals = np.array([rand_quat(rng)])
    elif path == "weights":
        vals = rng.uniform(0, 1, (1, n))
    else:
        vals = rng.uniform(0.5, 2, (1, n))
    if interp == "CUBICSPLINE":
        vals = cubic(vals, rng.normal(size=vals.shape), rng.normal(size=vals.shape))
    node = 3 if path == "weights" else 1
    chans = [ch(node, path, [t], vals, interp)]
    if k % 2 == 1:  # with a longer channel beside it (otherwise the clip lasts t, maybe 0)
        chans.append(ch(2, "translation", [0.0, 1.0, 2.5], rng.uniform(-1, 1, (3, 3))))
    return chans, 3 if path == "weights" else 2


def fam_dup(rng, k):
    interp = ["LINEAR", "STEP", "CUBICSPLINE"][k % 3]
    path = ["translation", "rotation", "weights", "scale"][(k // 3) % 4]
    layouts = [
        [0.0, 0.5, 0.5, 1.0],
        [0.0, 0.0, 1.0],
        [0.0, 1.0, 1.0],
        [0.0, 0.4, 0.4, 0.4, 1.2],
        [0.2, 0.2, 0.6, 1.0],
        [0.0, 0.3, 0.3, 0.7, 0.7, 1.0],
    ]
    times = layouts[k % len(layouts)]
    n = len(times)
    if path == "rotation":
        vals = np.array([rand_quat(rng) for _ in range(n)])
    elif path == "weights":
        vals = rng.uniform(0, 1, (n, 4))
    elif path == "scale":
        vals = rng.uniform(0.5, 2, (n, 3))
    else:
        vals = rng.uniform(-2, 2, (n, 3))
    if interp == "CUBICSPLINE":
        vals = cubic(vals, rng.normal(size=vals.shape), rng.normal(size=vals.shape))
    node = 3 if path == "weights" else 2
    chans = [ch(node, path, times, vals, interp)]
    if k % 2 == 0:
        chans.append(ch(1, "translation", [0.0, 1.5], [[0, 0, 0], [0, 0, 3]]))
    return chans, 4 if path == "weights" else 2


def fam_w_lin(rng, k):
    targets = 2 + k % 7
    n = 2 + k % 5
    times = rand_times(rng, n, span=0.4 + 0.3 * k, irregular=k % 2 == 0)
    vals = rng.uniform(-0.5, 1.5 if k % 3 == 0 else 1.0, (n, targets))
    return [ch(3, "weights", times, vals)], targets


def fam_w_step(rng, k):
    targets = 2 + (k + 3) % 7
    n = 2 + k % 5
    times = rand_times(rng, n, span=0.4 + 0.3 * k, irregular=k % 2 == 1)
    chans = [ch(3, "weights", times, rng.uniform(0, 1, (n, targets)), "STEP")]
    if k % 3 == 0:  # a LINEAR channel keyed at the same times
        chans.append(ch(1, "translation", times, rng.uniform(-1, 1, (n, 3))))
    return chans, targets


def fam_multi_dur(rng, k):
    d = [0.5, 1.0, 2.0, 3.0, 0.25]
    chans = [
        ch(1, "translation", rand_times(rng, 3, span=d[k % 5]), rng.uniform(-1, 1, (3, 3))),
        ch(2, "rotation", rand_times(rng, 2, span=d[(k + 2) % 5]), [rand_quat(rng), rand_quat(rng)]),
        ch(0, "scale", rand_times(rng, 4, t0=0.1 * (k % 3), span=d[(k + 1) % 5]), rng.uniform(0.5, 2, (4, 3))),
    ]
    chans[k % 3]["interpolation"] = ["STEP", "CUBICSPLINE", "LINEAR"][k % 3]
    if chans[k % 3]["interpolation"] == "CUBICSPLINE":
        v = chans[k % 3]["values"]
        chans[k % 3]["values"] = cubic(v, rng.normal(size=v.shape), rng.normal(size=v.shape))
    targets = 2 + k % 5
    if k % 2 == 0:
        chans.append(ch(3, "weights", rand_times(rng, 3, span=d[(k + 3) % 5]), rng.uniform(0, 1, (3, targets))))
    return chans, targets


def fam_mixed(rng, k):
    targets = 2 + k % 7
    chans = []
    for node, path in [(0, "translation"), (1, "rotation"), (2, "scale"), (3, "weights"), (2, "rotation")]:
        if rng.uniform() < 0.35:
            continue
        n = int(rng.integers(1, 6))
        times = rand_times(rng, n, t0=float(rng.choice([0.0, 0.0, 0.3])), span=float(rng.uniform(0.3, 2.5)))
        width = {"translation": 3, "scale": 3, "rotation": 4, "weights": targets}[path]
        if path == "rotation":
            vals = np.array([rand_quat(rng) for _ in range(n)])
        else:
            vals = rng.uniform(0.2, 1.5, (n, width))
        interp = str(rng.choice(["LINEAR", "STEP", "CUBICSPLINE"]))
        if interp == "CUBICSPLINE":
            vals = cubic(vals, rng.normal(size=vals.shape), rng.normal(size=vals.shape))
        chans.append(ch(node, path, times, vals, interp))
    if not chans:
        chans.append(ch(1, "translation", [0.0, 1.0], [[0, 0, 0], [1, 0, 0]]))
    return chans, targets


FAMILIES = [
    ("step_keys", fam_step_keys, 16),
    ("lin_t", fam_lin_t, 12),
    ("lin_s", fam_lin_s, 10),
    ("rot_big", fam_rot_big, 24),
    ("rot_near", fam_rot_near, 20),
    ("cubic_t", fam_cubic_t, 18),
    ("cubic_r", fam_cubic_r, 15),
    ("cubic_w", fam_cubic_w, 14),
    ("lead_in", fam_lead_in, 15),
    ("one_key", fam_one_key, 24),
    ("dup", fam_dup, 24),
    ("w_lin", fam_w_lin, 14),
    ("w_step", fam_w_step, 14),
    ("multi_dur", fam_multi_dur, 15),
    ("mixed", fam_mixed, 20),
]


def generated_cases(out: Path) -> list[dict]:
    cases = []
    for fi, (family, make, count) in enumerate(FAMILIES):
        for k in range(count):
            rng = np.random.default_rng(1000 * fi + k)
            chans, targets = make(rng, k)
            name = f"{family}_{k:02d}"
            build_case(chans, targets).write_glb(out / f"{name}.glb")
            duration, times = query_times([f32(c["times"]) for c in chans])
            desc = [
                f"n{c['node']}.{c['path']} {c.get('interpolation', 'LINEAR')} keys {len(c['times'])} "
                f"@[{min(c['times']):.4g}..{max(c['times']):.4g}]"
                for c in chans
            ]
            cases.append(
                dict(
                    name=name,
                    file=f"{name}.glb",
                    animation=0,
                    family=family,
                    duration=duration,
                    times=times,
                    nodes=[0, 1, 2, 3],
                    weights_nodes=[3],
                    targets=targets,
                    channels=desc,
                    source="generated",
                )
            )
    return cases


# -- shared models ---------------------------------------------------------------------------------------


def _read(path: Path) -> tuple[dict, list[bytes]]:
    data = path.read_bytes()
    if data[:4] == b"glTF":
        doc, bin_chunk, offset = None, None, 12
        while offset + 8 <= len(data):
            size, kind = struct.unpack_from("<II", data, offset)
            chunk = data[offset + 8 : offset + 8 + size]
            if kind == 0x4E4F534A and doc is None:
                doc = json.loads(chunk)
            elif kind == 0x004E4942 and bin_chunk is None:
                bin_chunk = chunk
            offset += 8 + size
        buffers = []
        for b in doc.get("buffers", []):
            buffers.append(bin_chunk if "uri" not in b else _uri_bytes(path, b["uri"]))
        return doc, buffers
    doc = json.loads(data)
    return doc, [_uri_bytes(path, b["uri"]) for b in doc.get("buffers", [])]


def _uri_bytes(path: Path, uri: str) -> bytes:
    if uri.startswith("data:"):
        return base64.b64decode(uri.split(",", 1)[1])
    from urllib.parse import unquote

    return (path.parent / unquote(uri)).read_bytes()


def _strip_texture_infos(obj) -> None:
    if isinstance(obj, dict):
        for key in list(obj):
            v = obj[key]
            if key.endswith("Texture") and isinstance(v, dict) and isinstance(v.get("index"), int):
                del obj[key]
            else:
                _strip_texture_infos(v)
    elif isinstance(obj, list):
        for v in obj:
            _strip_texture_infos(v)


def repack(path: Path, out: Path) -> dict:
    """``path`` as a self-contained .glb at ``out`` with no images; returns its JSON."""
    doc, buffers = _read(path)
    merged, starts = bytearray(), []
    for data in buffers:
        merged += b"\0" * (-len(merged) % 16)
        starts.append(len(merged))
        merged += data
    for view in doc.get("bufferViews", []):
        view["byteOffset"] = view.get("byteOffset", 0) + starts[view.get("buffer", 0)]
        view["buffer"] = 0
    for key in ("images", "textures", "samplers"):
        doc.pop(key, None)
    _strip_texture_infos(doc.get("materials", []))
    drop = {"KHR_texture_transform", "KHR_texture_basisu", "EXT_texture_webp", "EXT_texture_avif"}
    for key in ("extensionsUsed", "extensionsRequired"):
        if key in doc:
            doc[key] = [e for e in doc[key] if e not in drop]
            if not doc[key]:
                del doc[key]
    merged += b"\0" * (-len(merged) % 4)
    if buffers:
        doc["buffers"] = [{"byteLength": len(merged)}]
    out.write_bytes(glb_bytes(doc, bytes(merged) if buffers else None))
    return doc


def _accessor_floats(doc: dict, buffer: bytes, index: int) -> list[float]:
    acc = doc["accessors"][index]
    view = doc["bufferViews"][acc["bufferView"]]
    start = view.get("byteOffset", 0) + acc.get("byteOffset", 0)
    assert acc["componentType"] == 5126 and acc["type"] == "SCALAR"
    stride = view.get("byteStride", 4)
    return [struct.unpack_from("<f", buffer, start + i * stride)[0] for i in range(acc["count"])]


def model_files() -> list[Path]:
    files = sorted(KHRONOS.glob("*/*.gltf")) + sorted(KHRONOS.glob("*/*.glb"))
    return sorted(files, key=lambda p: p.name) + sorted((ROOT / "assets").glob("*.gltf"))


def model_cases(out: Path) -> list[dict]:
    cases = []
    for path in model_files():
        stem = ("demo_" if path.parent.name == "assets" else "khr_") + path.stem
        doc = repack(path, out / f"{stem}.glb")
        _, bins = _read(out / f"{stem}.glb")
        buffer = bins[0] if bins else b""
        meshes = doc.get("meshes", [])
        for a, anim in enumerate(doc.get("animations", [])):
            chan_times, nodes = [], set()
            for c in anim["channels"]:
                node = c["target"].get("node")
                if node is None or c["target"]["path"] == "pointer":
                    continue
                nodes.add(node)
                chan_times.append(_accessor_floats(doc, buffer, anim["samplers"][c["sampler"]]["input"]))
            if not nodes:
                continue
            duration, times = query_times(chan_times, MAX_MODEL_KEYS)
            wnodes = sorted(
                n
                for n in nodes
                if "mesh" in doc["nodes"][n] and meshes[doc["nodes"][n]["mesh"]]["primitives"][0].get("targets")
            )
            cases.append(
                dict(
                    name=f"{stem}#{a}",
                    file=f"{stem}.glb",
                    animation=a,
                    family="model",
                    duration=duration,
                    times=times,
                    nodes=sorted(nodes),
                    weights_nodes=wnodes,
                    anim_name=anim.get("name"),
                    source=str(path.relative_to(ROOT.parent))
                    if KHRONOS in path.parents
                    else str(path.relative_to(ROOT)),
                )
            )
    return cases


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("outdir", type=Path)
    p.add_argument("--no-models", action="store_true", help="generated cases only")
    args = p.parse_args(argv)
    out = args.outdir / "cases"
    out.mkdir(parents=True, exist_ok=True)
    cases = generated_cases(out)
    if not args.no_models:
        cases += model_cases(out)
    (args.outdir / "manifest.json").write_text(json.dumps({"cases": cases}, indent=1))
    print(f"{len(cases)} cases ({sum(c['source'] == 'generated' for c in cases)} generated) in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
