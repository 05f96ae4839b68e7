"""Write gltfpack copies of glTF models and measure what they changed with ``animview diff``.

    python tools/gltfpack_models.py [MODEL ...] [-o DIR] [--record JSON] [--survey]

MODEL: model folders or files (default: every model folder of ../shared/assets/khronos). Each copy is
``DIR/<model folder>.glb`` (default DIR: ``tests/data/gltfpack``), written by gltfpack run as
``npx --yes gltfpack@1.3.0 -i IN -o OUT`` with its defaults: positions quantized to 14 bits (KHR_mesh_quantization,
the dequantizing transform on the mesh node or a new child of it), rotations to 12 bits, animations resampled at
30 Hz, constant tracks and unused nodes dropped. The version is pinned so a recorded table stays reproducible;
npm's cache goes to /tmp/npm-cache unless ``npm_config_cache`` says otherwise. Node and npm are needed here
only: the copies are small and kept with the tests, which then run without them.

Every copy is diffed with its original (``compare.diff.diff_scenes``, A = original, authored mode) and one line
per model printed: the largest distance (scene units and share of the size), the worst node or mesh and time,
the largest vertex displacement, and the diff's runtime. ``--record JSON`` writes those figures per clip
(``tests/compare/test_diff_models.py`` checks the diff still finds them). ``--survey`` also prints, per model,
the same figures for its ``animview bake`` copies (linear at 60 fps, cubicspline and catmull-rom at the keys,
diffed in the baked mode) and its Draco and meshopt copies (``tools/compress_models.py``), written to a
temporary folder. ``--no-pack`` measures the copies already in the folder (no Node needed).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from tools.compress_models import KHRONOS, model_file  # noqa: E402

GLTFPACK = "gltfpack@1.3.0"
DEFAULT_OUT = REPO / "tests" / "data" / "gltfpack"
# What a recorded figure means where it is not what gltfpack did to the motion (the diff core's matching, as of
# issue 24): the test holds the diff to these numbers until the core changes, and then they are recorded anew.
NOTES = {
    "BoxAnimated": "0.866 is node 3's origin: gltfpack put the dequantizing transform on that mesh node itself "
    "(its world vertices are unchanged)",
    "InterpolationTest": "Camera and Light (empty nodes gltfpack dropped) are paired by index with unrelated "
    "new nodes of the copy",
}


def gltfpack(src: Path, out: Path) -> Path:
    """Run the pinned gltfpack on ``src`` into ``out``; raises ``SystemExit`` with its output when it fails."""
    env = dict(os.environ)
    env.setdefault("npm_config_cache", "/tmp/npm-cache")
    cmd = ["npx", "--yes", GLTFPACK, "-i", str(src), "-o", str(out)]
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=600)
    if done.returncode != 0 or not out.is_file():
        raise SystemExit(f"{' '.join(cmd)} failed ({done.returncode}): {(done.stderr or done.stdout).strip()[-400:]}")
    return out


def measure(original: Path, copy: Path, mode: str = "authored") -> dict:
    """The diff's figures of ``copy`` against ``original``: per clip and overall, with the diff's runtime
    (loading both files excluded: it is the measuring that a library run repeats per file)."""
    from viewer.compare.diff import diff_scenes
    from viewer.scene.scene import load

    a, b = load(original), load(copy)
    start = time.perf_counter()
    report = diff_scenes(a, b, mode=mode)
    seconds = time.perf_counter() - start
    clips = []
    for c in report["clips"]:
        v = c["vertices"]
        clips.append(
            {
                "clip": c["a"],
                "max_distance": c["max_distance"],
                "max_distance_rel": c["max_distance_rel"],
                "worst": {k: c["worst"].get(k) for k in ("kind", "node", "mesh", "t")},
                "vertex_max": v["max_distance"] if v is not None else None,
                "vertex_rule": v["matched_by"] if v is not None else None,
                "max_weight_difference": max((w["max_difference"] for w in c["weights"]), default=0.0),
                "differs": c["differs"],
            }
        )
    return {
        "size": report["size"],
        "max_distance": report["max_distance"],
        "max_distance_rel": report["max_distance_rel"],
        "differs": report["differs"],
        "unmatched_nodes": [len(report["unmatched"]["nodes_a"]), len(report["unmatched"]["nodes_b"])],
        "clips": clips,
        "seconds": round(seconds, 3),
    }


def line(name: str, kind: str, m: dict) -> str:
    """One model and copy kind: the largest distance, where and when, the largest vertex displacement, runtime."""
    worst = max(m["clips"], key=lambda c: c["max_distance"], default=None)
    where = "-"
    if worst is not None:
        w = worst["worst"]
        place = w["node"] if w["kind"] == "node" else f"mesh {w['mesh']}"
        where = f"{worst['clip']!r} t={w['t']:.4f} {place}"
    vertex = max((c["vertex_max"] for c in m["clips"] if c["vertex_max"] is not None), default=None)
    vtext = f"{vertex:.3g}" if vertex is not None else "-"
    return (
        f"{name:20} {kind:22} max {m['max_distance']:<11.4g} rel {m['max_distance_rel']:<10.3g} {where:48} "
        f"vertices {vtext:9} {m['seconds']:.2f} s"
    )


def survey(src: Path, tmp: Path) -> list[tuple[str, dict]]:
    """The bake, Draco and meshopt copies of ``src`` (written under ``tmp``), each measured."""
    from tools.compress_models import compress_file, compress_meshopt_file
    from viewer.files.bake import bake_file
    from viewer.scene.scene import load

    out = []
    scene = load(src)
    for mode, fps in (("linear", 60.0), ("cubicspline", None), ("catmull-rom", None)):
        if not scene.clips:
            continue
        baked = tmp / f"{src.stem}-{mode}.glb"
        bake_file(scene, baked, mode, fps=fps, keys=fps is None)
        out.append((f"bake {mode} {'60 fps' if fps else 'keys'}", measure(src, baked, mode)))
    for kind, write in (("draco", compress_file), ("meshopt", compress_meshopt_file)):
        folder = tmp / kind
        folder.mkdir(exist_ok=True)
        copy, _ = write(src, folder)
        out.append((kind, measure(src, copy)))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("models", nargs="*", type=Path, help="model folders or files (default: the Khronos models)")
    parser.add_argument(
        "-o", "--output", type=Path, default=DEFAULT_OUT, help="copies' folder (default tests/data/gltfpack)"
    )
    parser.add_argument("--record", type=Path, default=None, metavar="JSON", help="write the figures per model")
    parser.add_argument("--survey", action="store_true", help="also bake, Draco and meshopt copies, measured")
    parser.add_argument("--no-pack", action="store_true", help="measure the copies already in the folder")
    args = parser.parse_args(argv)
    folders = args.models or sorted(p for p in KHRONOS.iterdir() if p.is_dir())
    args.output.mkdir(parents=True, exist_ok=True)
    record = {"gltfpack": GLTFPACK, "mode": "authored", "models": {}}
    with tempfile.TemporaryDirectory(prefix="animview-survey-") as tmp:
        for folder in folders:
            src = model_file(folder)
            name = folder.name if folder.is_dir() else folder.stem
            copy = args.output / f"{name}.glb"
            if not args.no_pack:
                gltfpack(src, copy)
            m = measure(src, copy)
            record["models"][name] = {"original": src.name, "copy": copy.name, **m, "note": NOTES.get(name)}
            print(line(name, "gltfpack", m), flush=True)
            if args.survey:
                for kind, result in survey(src, Path(tmp)):
                    print(line(name, kind, result), flush=True)
    if args.record:
        args.record.write_text(json.dumps(record, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
