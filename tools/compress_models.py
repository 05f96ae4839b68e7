"""Write Draco-compressed (KHR_draco_mesh_compression) or meshopt copies of glTF models, and check them.

    python tools/compress_models.py [MODEL ...] [--draco | --meshopt] [-o DIR] [--check]

MODEL: model folders or files (default: every model folder of ../shared/assets/khronos, next to the
repository). Each copy is a self-contained ``<name>.glb``. Every indexed or plain TRIANGLES primitive is
encoded with DracoPy: positions in 14 bits, float normals in 10, float TEXCOORD_0 in 12, other attributes
lossless as Draco generic attributes, vertex order kept (morph targets, never compressed, still fit).
Compressed primitives get new accessors without bufferViews, so an accessor that another primitive, a
morph target or an animation shares is left as it was (the uncompressed data stays in the buffer,
unreferenced). Signed-integer attributes, which DracoPy cannot store, stay plain accessors, as the
extension allows.

``--check`` compares each copy with its original: the largest position error relative to the model's
size, the ``sample --json`` report, and pictures at 640×480 under the original's camera at the start,
middle and end of every clip, whose share of pixels off by more than 8/255 must stay under 1 %.
Needs DracoPy (``pip install 'animview[compressed]'``); ``--check`` also needs an OpenGL context (EGL).

``--meshopt`` writes KHR_meshopt_compression copies instead (default folder /tmp/compressed/meshopt; ``--draco``
names the default): every bufferView but images' is compressed with ``tools/meshopt_encode.py`` (v1 streams,
each checked by decoding it): index views with TRIANGLES (one whole triangle list) or INDICES, rotation
outputs of LINEAR/STEP samplers stored as VEC4 SHORT normalized through the QUATERNION filter (12 bits),
everything else with ATTRIBUTES and no filter (lossless). The views' ``buffer`` is a placeholder fallback
(no uri, ``fallback: true``). Its ``--check``: every accessor exact (triangles up to rotation), filtered
rotations and sampled rotation channels within the filter's step, other channels exact, pictures as above.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from viewer.files import writer  # noqa: E402
from viewer.files.bake import copy_document  # noqa: E402
from viewer.gltf import Document, load_document  # noqa: E402
from viewer.gltf.accessors import element_size  # noqa: E402
from viewer.gltf.draco import EXTENSION  # noqa: E402

KHRONOS = REPO.parent / "shared" / "assets" / "khronos"
POSITION_BITS, NORMAL_BITS, TEXCOORD_BITS = 14, 10, 12
LEVEL, MAX_OFF = 8, 0.01  # the picture tests' rule: under 1 % of pixels off by more than 8/255
_KINDS = {0: "POSITION", 1: "NORMAL", 3: "TEXCOORD_0"}  # DracoPy.AttributeType → the glTF semantic it holds


def stored(doc: Document, a: int) -> np.ndarray:
    """Accessor ``a``'s values as stored: normalized integers quantized back (exact for unsigned ones)."""
    accessor, values = doc.raw["accessors"][a], doc.accessor(a)
    if not accessor.get("normalized"):
        return values
    dtype = writer.DTYPES[accessor["componentType"]]
    return np.round(values * np.iinfo(dtype).max).astype(dtype)


def encode_primitive(doc: Document, prim: dict) -> tuple[bytes, dict[str, int], np.ndarray] | None:
    """Draco data of one primitive, its attribute ids and decoded positions; None if it cannot be compressed."""
    import DracoPy

    accessors = doc.raw["accessors"]
    points = doc.accessor(prim["attributes"]["POSITION"])
    indices = doc.accessor(prim["indices"]) if "indices" in prim else np.arange(len(points))
    if prim.get("mode", 4) != 4 or len(indices) % 3 or not len(indices) or EXTENSION in prim.get("extensions", {}):
        return None
    named: dict[str, np.ndarray] = {}
    generic: dict[int, tuple[str, np.ndarray]] = {}
    for name, a in prim["attributes"].items():
        values = stored(doc, a)
        if name in ("NORMAL", "TEXCOORD_0") and accessors[a]["componentType"] == 5126:
            named[name] = values.astype(np.float64)  # DracoPy wants float64 here
        elif name != "POSITION" and values.dtype.kind in "uf" and values.ndim == 2:
            generic[len(generic)] = (name, values)
    data = DracoPy.encode(
        points,
        indices.reshape(-1, 3),
        quantization_bits=POSITION_BITS,
        compression_level=7,
        preserve_order=True,
        normals=named.get("NORMAL"),
        tex_coord=named.get("TEXCOORD_0"),
        normal_quantization_bits=NORMAL_BITS,
        tex_coord_quantization_bits=TEXCOORD_BITS,
        generic_attributes={uid: values for uid, (_, values) in generic.items()} or None,
    )
    decoded = DracoPy.decode(data)
    if len(decoded.points) != len(points) or not np.array_equal(decoded.faces.reshape(-1), indices):
        return None  # Draco changed the vertices: morph targets and shared accessors would no longer fit
    ids = {
        _KINDS[att["attribute_type"]]: att["unique_id"] for att in decoded.attributes if att["attribute_type"] in _KINDS
    }
    ids.update({name: uid for uid, (name, _) in generic.items()})
    return data, ids, decoded.points


def compress(doc: Document) -> tuple[dict, bytes, dict]:
    """A compressed copy of ``doc``: JSON, buffer, and counts (primitives, Draco bytes, bytes they replace)."""
    w, accessors = copy_document(doc), doc.raw["accessors"]
    stats = {"primitives": 0, "draco_bytes": 0, "plain_bytes": 0}
    for mesh in w.doc.get("meshes", []):
        for prim in mesh["primitives"]:
            encoded = encode_primitive(doc, prim)
            if encoded is None:
                continue
            data, ids, points = encoded
            replaced = [prim["attributes"][name] for name in ids] + ([prim["indices"]] if "indices" in prim else [])
            stats["plain_bytes"] += sum(
                accessors[a]["count"] * element_size(accessors[a]["type"], accessors[a]["componentType"])
                for a in replaced
            )
            stats["draco_bytes"] += len(data)
            stats["primitives"] += 1
            for name in ids:
                prim["attributes"][name] = fresh_accessor(
                    w, doc, prim["attributes"][name], points if name == "POSITION" else None
                )
            if "indices" in prim:
                prim["indices"] = fresh_accessor(w, doc, prim["indices"])
            view = w.add("bufferViews", {"buffer": 0, "byteOffset": w.append(data), "byteLength": len(data)})
            prim.setdefault("extensions", {})[EXTENSION] = {"bufferView": view, "attributes": ids}
    if stats["primitives"]:
        for key in ("extensionsUsed", "extensionsRequired"):
            w.doc[key] = sorted(set(w.doc.get(key, [])) | {EXTENSION})
    return w.to_dict(), w.bin_bytes(), stats


def fresh_accessor(w: writer.JsonWriter, doc: Document, a: int, points: np.ndarray | None = None) -> int:
    """A copy of accessor ``a`` without bufferView; POSITION's min/max from the decoded ``points``."""
    accessor = {
        k: v
        for k, v in doc.raw["accessors"][a].items()
        if k in ("componentType", "normalized", "count", "type", "name")
    }
    if points is not None:
        accessor["min"], accessor["max"] = writer.f32_list(points.min(0)), writer.f32_list(points.max(0))
    return w.add("accessors", accessor)


def compress_file(src: Path, out_dir: Path) -> tuple[Path, dict]:
    """Write ``out_dir/<src stem>.glb``; returns it and ``compress``'s counts."""
    doc, bin_data, stats = compress(load_document(src))
    return writer.save(doc, bin_data, out_dir / f"{src.stem}.glb"), stats


def check(original: Path, compressed: Path, pictures: bool = True, ctx=None, programs=None) -> dict:
    """A compressed copy against its original: largest position error (relative to the model's size),
    whether the sampling reports are equal, and with ``pictures`` the worst share of pixels off."""
    from viewer.files.sampling import sample_animations
    from viewer.scene.scene import load

    a, b = load(original), load(compressed)
    positions = [
        (pa.attributes["POSITION"], pb.attributes["POSITION"])
        for ma, mb in zip(a.meshes, b.meshes)
        for pa, pb in zip(ma.primitives, mb.primitives)
    ]
    size = float(np.ptp(np.concatenate([pa for pa, _ in positions]), axis=0).max()) or 1.0
    result = {
        "position_error": max(float(np.abs(pa - pb).max()) for pa, pb in positions) / size,
        "same_samples": sample_animations(a) == sample_animations(b),
    }
    if pictures:
        result["pixels_off"], result["frames"] = pixels_off(a, b, ctx, programs)
    return result


def pixels_off(a, b, ctx=None, programs=None) -> tuple[float, int]:
    """The worst share of pixels off by more than 8/255 between scenes ``a`` and ``b`` at 640×480, under
    ``a``'s camera, at the start, middle and end of every clip; and the number of frames compared."""
    from viewer import export

    off = []
    for clip_a, clip_b in list(zip(a.clips, b.clips)) or [(None, None)]:
        view = export.View(size=(640, 480))
        oa, ob = export.Offscreen(a, clip_a, view, ctx, programs), export.Offscreen(b, clip_b, view, ctx, programs)
        ob.camera = oa.camera  # one camera: only the geometry may differ
        try:
            for t in np.linspace(0.0, clip_a.duration if clip_a else 0.0, 3):
                fa, fb = oa.frame(float(t)).astype(np.int16), ob.frame(float(t)).astype(np.int16)
                off.append(float((np.abs(fa - fb).max(axis=-1) > LEVEL).mean()))
        finally:
            oa.release()
            ob.release()
    return max(off), len(off)


# -- meshopt (KHR_meshopt_compression) -------------------------------------------------------------------------

MESHOPT = "KHR_meshopt_compression"
QUATERNION_BITS = 12  # meshoptimizer's (and gltfpack's) usual precision for rotations
# a QUATERNION-filtered component may be off by 1.5 steps of its K bits plus the int16 storage's rounding
QUATERNION_TOLERANCE = 1.5 / ((1 << (QUATERNION_BITS - 1)) - 1) + 1.0 / 32767
_INDEX_SIZES = {5121: 1, 5123: 2, 5125: 4}


def rotation_outputs(raw: dict) -> set[int]:
    """Float VEC4 accessors used only as outputs of LINEAR/STEP rotation samplers (CUBICSPLINE tangents are
    not unit quaternions, so they keep the lossless codec)."""
    uses: dict[int, list[bool]] = {}
    for anim in raw.get("animations", []):
        paths = {}
        for channel in anim.get("channels", []):
            paths.setdefault(channel["sampler"], set()).add(channel["target"]["path"])
        for s, sampler in enumerate(anim.get("samplers", [])):
            ok = paths.get(s) == {"rotation"} and sampler.get("interpolation", "LINEAR") != "CUBICSPLINE"
            uses.setdefault(sampler["output"], []).append(ok)
            uses.setdefault(sampler["input"], []).append(False)
    for mesh in raw.get("meshes", []):
        for prim in mesh.get("primitives", []):
            for a in (
                list(prim.get("attributes", {}).values())
                + [prim.get("indices")]
                + [a for t in prim.get("targets", []) for a in t.values()]
            ):
                if a is not None:
                    uses.setdefault(a, []).append(False)
    for skin in raw.get("skins", []):
        if "inverseBindMatrices" in skin:
            uses.setdefault(skin["inverseBindMatrices"], []).append(False)
    accessors = raw.get("accessors", [])
    return {
        a
        for a, flags in uses.items()
        if all(flags)
        and a < len(accessors)
        and accessors[a].get("componentType") == 5126
        and accessors[a].get("type") == "VEC4"
        and "bufferView" in accessors[a]
        and "sparse" not in accessors[a]
    }


def filter_rotations(w: writer.JsonWriter, doc: Document, rotations: set[int]) -> dict[int, np.ndarray]:
    """Store each rotation accessor as VEC4 SHORT normalized holding what the QUATERNION filter decodes to,
    in a bufferView of its own; returns those views and the filter input for each ((count, 8) bytes)."""
    from tools.meshopt_encode import encode_quaternion
    from viewer.gltf.meshopt_filters import FILTER_FUNCTIONS

    accessors, views = w.doc["accessors"], w.doc["bufferViews"]
    users: dict[int, int] = {}
    for accessor in accessors:
        if "bufferView" in accessor:
            users[accessor["bufferView"]] = users.get(accessor["bufferView"], 0) + 1
        for part in ("indices", "values"):
            v = accessor.get("sparse", {}).get(part, {}).get("bufferView")
            if v is not None:
                users[v] = users.get(v, 0) + 2
    for image in w.doc.get("images", []):
        if "bufferView" in image:
            users[image["bufferView"]] = users.get(image["bufferView"], 0) + 2
    out = {}
    for a in sorted(rotations):
        accessor, q = accessors[a], doc.accessor(a).astype(np.float64)
        if not len(q) or not np.all(np.isfinite(q)) or np.any(np.linalg.norm(q, axis=1) < 1e-6):
            continue
        raw = encode_quaternion(q, QUATERNION_BITS)
        decoded = raw.reshape(-1).copy()
        FILTER_FUNCTIONS["QUATERNION"](decoded, len(q), 8)
        offset = w.append(decoded.tobytes())
        new = {"buffer": 0, "byteOffset": offset, "byteLength": len(q) * 8}
        if users.get(accessor["bufferView"]) == 1:  # its own view: take it over
            v = accessor["bufferView"]
            keep = {k: views[v][k] for k in ("name", "extras") if k in views[v]}
            views[v] = {**new, **keep}
        else:
            v = w.add("bufferViews", new)
        accessor.update(bufferView=v, componentType=5122, normalized=True)
        for key in ("byteOffset", "min", "max"):
            accessor.pop(key, None)
        out[v] = raw
    return out


def index_views(raw: dict) -> dict[int, tuple[int, bool]]:
    """bufferView → (index size, whether it is exactly one triangle list) for views holding primitive indices."""
    found: dict[int, list[tuple[int, bool]]] = {}
    accessors = raw.get("accessors", [])
    for mesh in raw.get("meshes", []):
        for prim in mesh.get("primitives", []):
            a = prim.get("indices")
            if a is None or "bufferView" not in accessors[a]:
                continue
            acc = accessors[a]
            size = _INDEX_SIZES.get(acc["componentType"], 0)
            view = raw["bufferViews"][acc["bufferView"]]
            whole = acc.get("byteOffset", 0) == 0 and acc["count"] * size == view["byteLength"]
            found.setdefault(acc["bufferView"], []).append(
                (size, whole and prim.get("mode", 4) == 4 and acc["count"] % 3 == 0)
            )
    out = {}
    for v, uses in found.items():
        sizes = {s for s, _ in uses}
        if len(sizes) == 1:
            out[v] = (sizes.pop(), len(uses) == 1 and uses[0][1])
    return out


def _same_triangles(decoded: np.ndarray, original: np.ndarray) -> bool:
    d, o = decoded.astype(np.int64).reshape(-1, 3), original.astype(np.int64).reshape(-1, 3)
    return bool(np.stack([(np.roll(d, r, axis=1) == o).all(axis=1) for r in range(3)]).any(axis=0).all())


def encode_view(
    data: bytes, view: dict, index: tuple[int, bool] | None = None, quaternion: np.ndarray | None = None
) -> dict | None:
    """The smallest stream that decodes back to ``data`` (a bufferView's bytes), as ``meshopt_file`` wants it;
    None when no codec fits the view's length."""
    from tools.meshopt_encode import encode_index_buffer, encode_index_sequence, encode_vertex_buffer
    from viewer.gltf.meshopt_codecs import decode

    candidates = []
    if quaternion is not None:
        candidates.append(("ATTRIBUTES", "QUATERNION", 8))
    elif index is not None and index[0] in (2, 4):
        if index[1]:
            candidates.append(("TRIANGLES", "NONE", index[0]))
        candidates.append(("INDICES", "NONE", index[0]))
    else:
        strides = [view.get("byteStride", 0), 16, 12, 8, 4]
        candidates += [
            ("ATTRIBUTES", "NONE", s)
            for s in dict.fromkeys(strides)
            if s and s % 4 == 0 and s <= 256 and len(data) % s == 0
        ][:2]
    best = None
    for mode, filt, stride in candidates:
        count = len(data) // stride
        if not count or len(data) % stride:
            continue
        if mode == "ATTRIBUTES":
            elements = np.frombuffer(data, np.uint8)
            if filt == "QUATERNION":  # the stream holds the filter's input; the view, what it decodes to
                elements = quaternion
            stream = encode_vertex_buffer(elements.reshape(count, stride), version=1)
        else:
            values = np.frombuffer(data, {2: "<u2", 4: "<u4"}[stride])
            stream = (
                encode_index_buffer(values, version=1)
                if mode == "TRIANGLES"
                else encode_index_sequence(values, version=1)
            )
        decoded = decode(mode, filt, count, stride, stream)
        back = np.frombuffer(data, decoded.dtype) if decoded.dtype.itemsize > 1 else np.frombuffer(data, np.uint8)
        good = _same_triangles(decoded, back) if mode == "TRIANGLES" else decoded.tobytes() == bytes(data)
        if good and (best is None or len(stream) < len(best["stream"])):
            best = dict(mode=mode, filter=filt, stride=stride, count=count, stream=stream)
    return best


def compress_meshopt(doc: Document) -> tuple[dict, bytes, dict]:
    """A KHR_meshopt_compression copy of ``doc``: JSON, buffer 0 (streams and any view left plain) and counts
    (views compressed / left plain, their bytes before and after, rotation accessors filtered)."""
    from tools.meshopt_encode import meshopt_file

    w = copy_document(doc)
    rotations = rotation_outputs(w.doc)
    quaternion_views = filter_rotations(w, doc, rotations) if rotations else {}
    indices = index_views(w.doc)
    images = {image["bufferView"] for image in w.doc.get("images", []) if "bufferView" in image}
    streams: dict[int, dict] = {}
    stats = {"views": 0, "plain_views": 0, "plain_bytes": 0, "meshopt_bytes": 0, "rotations": len(quaternion_views)}
    for v, view in enumerate(w.doc.get("bufferViews", [])):
        data = bytes(w.bin[view["byteOffset"] : view["byteOffset"] + view["byteLength"]])
        spec = None if v in images else encode_view(data, view, indices.get(v), quaternion_views.get(v))
        if spec is None:
            stats["plain_views"] += 1
            continue
        streams[v] = spec
        stats["views"] += 1
        stats["plain_bytes"] += len(data)
        stats["meshopt_bytes"] += len(spec["stream"])
    out, new_bin, _ = meshopt_file(w.to_dict(), bytes(w.bin), streams, MESHOPT)
    return out, new_bin, stats


def compress_meshopt_file(src: Path, out_dir: Path) -> tuple[Path, dict]:
    """Write ``out_dir/<src stem>.glb`` with KHR_meshopt_compression; returns it and the counts."""
    doc, bin_data, stats = compress_meshopt(load_document(src))
    return writer.save(doc, bin_data, out_dir / f"{src.stem}.glb"), stats


def _quat_error(a: np.ndarray, b: np.ndarray) -> float:
    """Largest component difference between quaternion rows, q and −q being one rotation."""
    return float(np.minimum(np.abs(a - b).max(axis=-1), np.abs(a + b).max(axis=-1)).max()) if len(a) else 0.0


def check_meshopt(original: Path, compressed: Path, pictures: bool = True, ctx=None, programs=None) -> dict:
    """A meshopt copy against its original: every accessor (exact, triangles up to rotation, filtered rotations
    within ``QUATERNION_TOLERANCE``), the sampled clips at every key and midpoint (exact but for filtered
    rotation channels), and with ``pictures`` the worst share of pixels off."""
    from viewer.files.sampling import default_times
    from viewer.scene.scene import load

    da, db = load_document(original), load_document(compressed)
    exact, rotation_error = True, 0.0
    for a, (acc_a, acc_b) in enumerate(zip(da.raw.get("accessors", []), db.raw.get("accessors", []))):
        va, vb = da.accessor(a), db.accessor(a)
        if acc_b.get("componentType") != acc_a.get("componentType"):  # a QUATERNION-filtered rotation
            rotation_error = max(rotation_error, _quat_error(va.astype(np.float64), vb.astype(np.float64)))
        elif not np.array_equal(va, vb) and not (
            va.shape == vb.shape and va.size % 3 == 0 and va.ndim == 1 and _same_triangles(vb, va)
        ):
            exact = False
    a, b = load(original), load(compressed)
    sample_error = 0.0
    for clip_a, clip_b in zip(a.clips, b.clips):
        times = default_times(clip_a)
        sa, sb = clip_a.sample(times), clip_b.sample(times)
        for c, ch in enumerate(clip_a.channels):
            if ch.path == "rotation":
                sample_error = max(sample_error, _quat_error(sa[:, c, :4], sb[:, c, :4]))
            elif not np.array_equal(sa[:, c], sb[:, c]):
                sample_error = max(sample_error, float(np.nanmax(np.abs(sa[:, c] - sb[:, c]))))
    result = {
        "accessors_exact": exact and len(da.raw.get("accessors", [])) == len(db.raw.get("accessors", [])),
        "rotation_error": rotation_error,
        "sample_error": sample_error,
    }
    if pictures:
        result["pixels_off"], result["frames"] = pixels_off(a, b, ctx, programs)
    return result


def model_file(path: Path) -> Path:
    """A model file, or the first .gltf/.glb in a model folder."""
    if path.is_file():
        return path
    files = sorted(path.glob("*.gltf")) + sorted(path.glob("*.glb"))
    if not files:
        raise SystemExit(f"no .gltf or .glb in {path}")
    return files[0]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("models", nargs="*", type=Path, help="model folders or files (default: the Khronos models)")
    parser.add_argument(
        "-o",
        "--output",
        type=Path,
        default=None,
        help="output folder (default /tmp/compressed/draco or /tmp/compressed/meshopt)",
    )
    parser.add_argument("--check", action="store_true", help="compare each copy with its original")
    kind = parser.add_mutually_exclusive_group()
    kind.add_argument(
        "--draco", dest="meshopt", action="store_false", help="KHR_draco_mesh_compression copies (the default)"
    )
    kind.add_argument("--meshopt", action="store_true", help="KHR_meshopt_compression copies")
    parser.set_defaults(meshopt=False)
    args = parser.parse_args(argv)
    models = args.models or sorted(p for p in KHRONOS.iterdir() if p.is_dir())
    output = args.output or Path("/tmp/compressed") / ("meshopt" if args.meshopt else "draco")
    output.mkdir(parents=True, exist_ok=True)
    bad = 0
    for src in map(model_file, models):
        if args.meshopt:
            line, ok = meshopt_line(src, output, args.check)
            bad += not ok
            print(line)
            continue
        out, n = compress_file(src, output)
        line = (
            f"{src.stem:20} {n['primitives']:3} primitive(s): {n['plain_bytes']:7} bytes of vertices and indices "
            f"-> {n['draco_bytes']:6} of Draco"
        )
        if args.check:
            r = check(src, out)
            ok = r["same_samples"] and r["pixels_off"] < MAX_OFF
            bad += not ok
            line += (
                f"  position error {r['position_error']:.2e} of size, samples "
                f"{'same' if r['same_samples'] else 'DIFFER'}, worst of {r['frames']} frames "
                f"{r['pixels_off']:.3%} pixels off{'' if ok else '  FAIL'}"
            )
        print(line)
    return 1 if bad else 0


def meshopt_line(src: Path, output: Path, with_check: bool, pictures: bool = True) -> tuple[str, bool]:
    """Write the meshopt copy of ``src``; its report line, and whether it passed ``--check`` (True without)."""
    out, n = compress_meshopt_file(src, output)
    size = (
        sum(
            f.stat().st_size
            for f in src.parent.iterdir()
            if f.is_file() and f.suffix.lower() in (".gltf", ".glb", ".bin")
        )
        if src.suffix == ".gltf"
        else src.stat().st_size
    )
    line = (
        f"{src.stem:20} {n['views']:3} view(s) ({n['rotations']} quaternion-filtered), {n['plain_views']} left "
        f"plain: {n['plain_bytes']:7} bytes -> {n['meshopt_bytes']:6} of meshopt; file {size:7} -> "
        f"{out.stat().st_size:7}"
    )
    if not with_check:
        return line, True
    r = check_meshopt(src, out, pictures)
    ok = (
        r["accessors_exact"]
        and r["rotation_error"] <= QUATERNION_TOLERANCE
        and r["sample_error"] <= QUATERNION_TOLERANCE
        and r.get("pixels_off", 0.0) < MAX_OFF
    )
    line += (
        f"  accessors {'exact' if r['accessors_exact'] else 'DIFFER'}, rotation error {r['rotation_error']:.1e}, "
        f"sample error {r['sample_error']:.1e} (tolerance {QUATERNION_TOLERANCE:.1e})"
    )
    if pictures:
        line += f", worst of {r['frames']} frames {r['pixels_off']:.3%} pixels off"
    return line + ("" if ok else "  FAIL"), ok


if __name__ == "__main__":
    sys.exit(main())
