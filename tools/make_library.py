"""Write a test asset library: real models, compressed copies, generated rigs, the tests' files, broken files.

    python tools/make_library.py OUTDIR [--generated N] [--broken N] [--no-models] [--no-compressed]

Folders under OUTDIR (each file a self-contained model; the mix is what ``animview check`` meets in a real
library, and what docs/library.md's benchmark runs on):

* ``models/``: the shared Khronos models (``$ANIMVIEW_KHRONOS``, default ``../shared/assets/khronos``, and its
  sibling ``khronos-pbr``, each folder copied
  with its license note), when present;
* ``compressed/draco``, ``compressed/meshopt``: a Draco (needs DracoPy) and a meshopt ``.glb`` of each animated
  model (``tools/compress_models.py``);
* ``demo/``: the repository's built-in demo files; ``built/``: the files the tests build by code (the fuzzer's
  built seeds, a 3 000-deep chain and a 3 000-wide fan from ``tests/extreme_files.py``);
* ``generated/``: N seeded random rigs — hierarchies with LINEAR / STEP / CUBICSPLINE channels of random key
  counts and timing, some with what ``check`` reports (flipped quaternion keys, zero scale, duplicate or
  collinear keys, absurd values, unused samplers and channels of hidden nodes), most clean;
* ``broken/``: N fuzzer mutants (``tests/fuzz``: seeded, mostly refused with one line, a few odd but
  loadable) and a handful of hand-broken files (empty, not JSON, truncated GLB, glTF 1.0).

Same arguments, same files: every random choice is seeded by the file's index.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from tests.gltf_builder import GltfBuilder  # noqa: E402

# The tests' one setting for the shared models (tests/conftest.py), with the same default.
KHRONOS = Path(os.environ.get("ANIMVIEW_KHRONOS", REPO.parent / "shared" / "assets" / "khronos"))
CUBE = (
    np.array([[x, y, z] for x in (-0.1, 0.1) for y in (-0.1, 0.1) for z in (-0.1, 0.1)], np.float32),
    np.array(
        [0, 1, 3, 0, 3, 2, 4, 6, 7, 4, 7, 5, 0, 4, 5, 0, 5, 1, 2, 3, 7, 2, 7, 6, 0, 2, 6, 0, 6, 4, 1, 5, 7, 1, 7, 3],
        np.uint16,
    ),
)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("outdir", type=Path)
    p.add_argument("--generated", type=int, default=200)
    p.add_argument("--broken", type=int, default=300)
    p.add_argument("--no-models", action="store_true", help="leave out the shared models and their copies")
    p.add_argument("--no-compressed", action="store_true")
    args = p.parse_args(argv)
    counts = make_library(
        args.outdir, args.generated, args.broken, not args.no_models, not args.no_compressed and not args.no_models
    )
    print(", ".join(f"{k} {v}" for k, v in counts.items()) + f"; {sum(counts.values())} files in {args.outdir}")
    return 0


def make_library(
    out: Path, generated: int = 200, broken: int = 300, models: bool = True, compressed: bool = True
) -> dict[str, int]:
    """Write the library; returns how many model files each folder got."""
    out.mkdir(parents=True, exist_ok=True)
    counts = {}
    if models:
        counts["models"] = copy_models(out / "models")
    if compressed:
        counts["compressed"] = compress_models(out / "models", out / "compressed")
    counts["demo"] = copy_demo(out / "demo")
    counts["built"] = built_files(out / "built")
    counts["generated"] = sum(1 for i in range(generated) if write_rig(out / "generated", i))
    counts["broken"] = broken_files(out / "broken", broken)
    return counts


def _models_in(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*") if p.suffix.lower() in (".gltf", ".glb"))


def copy_models(dest: Path) -> int:
    for source in (KHRONOS, KHRONOS.parent / "khronos-pbr"):
        if source.is_dir():
            for folder in sorted(p for p in source.iterdir() if p.is_dir()):
                shutil.copytree(folder, dest / folder.name, dirs_exist_ok=True)
    return len(_models_in(dest)) if dest.is_dir() else 0


def compress_models(models: Path, dest: Path) -> int:
    """Draco and meshopt copies of the animated models (the pbr models are material tests, left as they are)."""
    sys.path.insert(0, str(REPO / "tools"))
    import compress_models as cm

    made = 0
    for folder in (
        sorted(p for p in models.iterdir() if p.is_dir() and (KHRONOS / p.name).is_dir()) if models.is_dir() else []
    ):
        src = cm.model_file(folder)
        for kind, fn in (("draco", cm.compress_file), ("meshopt", cm.compress_meshopt_file)):
            (dest / kind).mkdir(parents=True, exist_ok=True)
            try:
                fn(src, dest / kind)
                made += 1
            except ImportError:  # DracoPy absent: no Draco copies
                continue
    return made


def copy_demo(dest: Path) -> int:
    dest.mkdir(parents=True, exist_ok=True)
    for f in sorted((REPO / "assets").glob("*.gltf")):
        shutil.copyfile(f, dest / f.name)
    return len(list(dest.glob("*.gltf")))


def built_files(dest: Path) -> int:
    from tests import extreme_files
    from tests.fuzz.seeds import built_seeds

    dest.mkdir(parents=True, exist_ok=True)
    for seed in built_seeds():
        name = seed.name.split("/")[-1]
        (dest / f"{name}.gltf").write_text(json.dumps(_embedded(seed.doc, seed.bin)))
    extreme_files.chain(3000).write_gltf(dest, "chain_3000.gltf")
    extreme_files.wide(3000).write_gltf(dest, "wide_3000.gltf")
    return len(list(dest.glob("*.gltf")))


def _embedded(doc: dict, data: bytes | None) -> dict:
    """``doc`` with buffer 0 as a data: URI (one self-contained file)."""
    import base64

    doc = json.loads(json.dumps(doc))
    if data is not None and doc.get("buffers"):
        doc["buffers"][0]["uri"] = "data:application/octet-stream;base64," + base64.b64encode(data).decode()
    return doc


def write_rig(dest: Path, index: int) -> Path:
    """Generated rig ``index``: 1–24 nodes in a random tree, a cube on each, one or two clips."""
    rng = np.random.default_rng(index)
    b = GltfBuilder()
    mesh = b.add_mesh(positions=CUBE[0], indices=CUBE[1])
    count = int(rng.integers(1, 25))
    parents = [-1] + [int(rng.integers(0, k)) for k in range(1, count)]
    children = [[k for k in range(count) if parents[k] == j] for j in range(count)]
    for j in range(count):
        extra = {"children": children[j]} if children[j] else {}
        b.add_node(mesh=mesh, translation=[float(v) for v in rng.normal(0, 0.3, 3)], **extra)
    hidden = None
    if rng.random() < 0.1:  # a node outside the scene, animated all the same
        hidden = b.add_node(mesh=mesh)
    for clip in range(int(rng.integers(1, 3))):
        channels = [
            _channel(rng, node, path)
            for node in range(count)
            for path in ("translation", "rotation", "scale")
            if rng.random() < 0.5
        ]
        if hidden is not None:
            channels.append(_channel(rng, hidden, "translation"))
        if not channels:
            channels = [_channel(rng, 0, "rotation")]
        b.add_animation(channels, name=f"clip {clip}")
    b.add_scene([0])
    doc = b.to_dict()
    if rng.random() < 0.05:  # a sampler no channel uses
        anim = doc["animations"][0]
        anim["samplers"].append(dict(anim["samplers"][0]))
    if rng.random() < 0.05:
        doc["extensionsUsed"] = ["EXT_unknown_vendor_thing"]
    path = dest / f"rig_{index:04d}.{'glb' if index % 3 == 0 else 'gltf'}"
    dest.mkdir(parents=True, exist_ok=True)
    b.doc = doc
    if path.suffix == ".glb":
        b.write_glb(path)
    else:
        b.write_gltf(dest, path.name, embed=True)
    return path


def _channel(rng: np.random.Generator, node: int, path: str) -> dict:
    """Random keys for one channel; now and then with what the checker looks for."""
    keys = int(rng.integers(2, 60))
    if rng.random() < 0.5:
        times = np.arange(keys) / float(rng.choice([24, 30, 60]))
    else:
        times = np.cumsum(rng.uniform(0.01, 0.2, keys)) - 0.01
        times[0] = 0.0
    if rng.random() < 0.04 and keys > 3:  # two keys 20 µs apart
        times[2] = times[1] + 2e-5
    interp = rng.choice(["LINEAR", "LINEAR", "LINEAR", "STEP", "CUBICSPLINE"])
    walk = np.cumsum(rng.normal(0, 0.05, (keys, 3)), axis=0)
    if path == "translation":
        values = walk
        if rng.random() < 0.05:
            values = values.copy()
            values[-1] = [3e7, 0, 0]
        if rng.random() < 0.1:  # a straight line: most keys redundant
            values = np.linspace(0, 1, keys)[:, None] * np.array([1.0, 0.5, 0.0])
    elif path == "rotation":
        axis = rng.normal(size=3)
        axis /= np.linalg.norm(axis)
        angle = np.cumsum(rng.uniform(0, 0.6, keys))
        values = np.column_stack([axis[None] * np.sin(angle / 2)[:, None], np.cos(angle / 2)])
        if rng.random() < 0.15:  # keys written with the opposite sign now and then
            values[1::4] *= -1.0
    else:
        values = 1.0 + 0.2 * np.abs(walk)
        if rng.random() < 0.08:
            values[keys // 2] = 0.0
    values = np.asarray(values, np.float32)
    if interp == "CUBICSPLINE":
        tangents = np.zeros_like(values)
        values = np.stack([tangents, values, tangents], axis=1).reshape(-1, values.shape[1])
    return dict(node=node, path=path, times=times.astype(np.float32), values=values, interpolation=str(interp))


BROKEN = {
    "empty.gltf": b"",
    "not_json.gltf": b"{ this is not json",
    "truncated.glb": b"glTF\x02\x00\x00\x00\xff\x00\x00\x00",
    "version1.gltf": json.dumps({"asset": {"version": "1.0"}}).encode(),
    "no_asset.gltf": b"{}",
    "missing_bin.gltf": json.dumps(
        {"asset": {"version": "2.0"}, "buffers": [{"uri": "nowhere.bin", "byteLength": 4}]}
    ).encode(),
}


def broken_files(dest: Path, count: int) -> int:
    from tests.fuzz.mutate import make_mutant, write_case
    from tests.fuzz.seeds import load_seeds

    dest.mkdir(parents=True, exist_ok=True)
    for name, data in BROKEN.items():
        (dest / name).write_bytes(data)
    seeds = load_seeds()
    made = len(BROKEN)
    for k in range(count):
        mutant = make_mutant(seeds, 7, k)
        mutant.fifos = []  # a FIFO in a library folder is not a model file; the loader's own tests cover them
        mutant.extras = {n: f for n, f in mutant.extras.items() if not n.lower().endswith((".gltf", ".glb"))}
        write_case(mutant, dest / f"case_{k:04d}")
        made += 1
    return made


if __name__ == "__main__":
    sys.exit(main())
