"""Write Draco-compressed (KHR_draco_mesh_compression) copies of glTF models, and check them.

    python tools/compress_models.py [MODEL ...] [-o /tmp/compressed/draco] [--check]

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
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from viewer import writer  # noqa: E402
from viewer.bake import copy_document  # noqa: E402
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
    data = DracoPy.encode(points, indices.reshape(-1, 3), quantization_bits=POSITION_BITS, compression_level=7,
                          preserve_order=True, normals=named.get("NORMAL"), tex_coord=named.get("TEXCOORD_0"),
                          normal_quantization_bits=NORMAL_BITS, tex_coord_quantization_bits=TEXCOORD_BITS,
                          generic_attributes={uid: values for uid, (_, values) in generic.items()} or None)
    decoded = DracoPy.decode(data)
    if len(decoded.points) != len(points) or not np.array_equal(decoded.faces.reshape(-1), indices):
        return None  # Draco changed the vertices: morph targets and shared accessors would no longer fit
    ids = {_KINDS[att["attribute_type"]]: att["unique_id"] for att in decoded.attributes
           if att["attribute_type"] in _KINDS}
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
            stats["plain_bytes"] += sum(accessors[a]["count"] * element_size(accessors[a]["type"],
                                                                            accessors[a]["componentType"])
                                        for a in replaced)
            stats["draco_bytes"] += len(data)
            stats["primitives"] += 1
            for name in ids:
                prim["attributes"][name] = fresh_accessor(w, doc, prim["attributes"][name],
                                                          points if name == "POSITION" else None)
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
    accessor = {k: v for k, v in doc.raw["accessors"][a].items()
                if k in ("componentType", "normalized", "count", "type", "name")}
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
    from viewer.sampling import sample_animations
    from viewer.scene import load

    a, b = load(original), load(compressed)
    positions = [(pa.attributes["POSITION"], pb.attributes["POSITION"])
                 for ma, mb in zip(a.meshes, b.meshes) for pa, pb in zip(ma.primitives, mb.primitives)]
    size = float(np.ptp(np.concatenate([pa for pa, _ in positions]), axis=0).max()) or 1.0
    result = {"position_error": max(float(np.abs(pa - pb).max()) for pa, pb in positions) / size,
              "same_samples": sample_animations(a) == sample_animations(b)}
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
    parser.add_argument("-o", "--output", type=Path, default=Path("/tmp/compressed/draco"), help="output folder")
    parser.add_argument("--check", action="store_true", help="compare each copy with its original")
    args = parser.parse_args(argv)
    models = args.models or sorted(p for p in KHRONOS.iterdir() if p.is_dir())
    args.output.mkdir(parents=True, exist_ok=True)
    bad = 0
    for src in map(model_file, models):
        out, n = compress_file(src, args.output)
        line = (f"{src.stem:20} {n['primitives']:3} primitive(s): {n['plain_bytes']:7} bytes of vertices and indices "
                f"-> {n['draco_bytes']:6} of Draco")
        if args.check:
            r = check(src, out)
            ok = r["same_samples"] and r["pixels_off"] < MAX_OFF
            bad += not ok
            line += (f"  position error {r['position_error']:.2e} of size, samples "
                     f"{'same' if r['same_samples'] else 'DIFFER'}, worst of {r['frames']} frames "
                     f"{r['pixels_off']:.3%} pixels off{'' if ok else '  FAIL'}")
        print(line)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
