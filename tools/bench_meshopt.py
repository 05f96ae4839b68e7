"""Measure the meshopt decoder: decoded MB/s of the numpy reference and of the compiled kernels (one thread,
and ``decode_many``'s threads), on the compressed bufferViews of the given files, checking that every path
gives the same bytes.

    python tools/bench_meshopt.py FILE_OR_DIR ... [--repeat N] [--skip-numpy] [--json]

Each round times every path once, in turn (numpy, compiled, compiled in parallel), so a busy machine slows
them alike; the table gives the range over ``--repeat`` rounds. Rates are decoded bytes over seconds of
decoding only (the file is read and its views found first), all views of a file counted together, and
per codec (attribute data with and without filters, triangles, index sequences). The compiled kernels are
loaded (from numba's cache, or compiled) before the first round; that time is printed separately.

Make files to measure with ``python tools/compress_models.py --meshopt`` (the shared models, every view
compressed) and ``python tools/mocap_clips.py DIR --take 3600 --meshopt plain`` (an hour of capture, 210 MB of
animation data). See docs/speed.md for the figures.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from viewer.gltf import meshopt, meshopt_codecs, meshopt_compiled  # noqa: E402
from viewer.gltf.glb import is_glb, split_glb  # noqa: E402


def jobs_of(path: Path) -> list[tuple[str, str, int, int, memoryview]]:
    """Every compressed bufferView of a .glb (or a .gltf whose buffers are its GLB chunk or a .bin beside it)."""
    data = path.read_bytes()
    json_bytes, chunk = split_glb(path, data) if is_glb(path, data) else (data, None)
    raw = json.loads(json_bytes)
    buffers = []
    for buffer in raw.get("buffers", []):
        uri = buffer.get("uri")
        buffers.append(chunk if uri is None else (path.parent / uri).read_bytes() if "://" not in uri else b"")
    jobs = []
    for v in meshopt.compressed_views(raw):
        ext = meshopt.compression(raw["bufferViews"][v])[1]
        start = ext.get("byteOffset", 0)
        data = memoryview(buffers[ext["buffer"]] or b"")[start : start + ext["byteLength"]]
        jobs.append((ext["mode"], ext.get("filter", "NONE"), ext["count"], ext["byteStride"], data))
    return jobs


def kind(job: tuple) -> str:
    mode, filt = job[0], job[1]
    return f"attributes/{filt.lower()}" if mode == "ATTRIBUTES" else mode.lower()


def measure(files: list[Path], repeat: int, numpy_too: bool) -> dict:
    started = time.perf_counter()
    meshopt_compiled.use(True)
    load_s = time.perf_counter() - started
    jobs = [job for f in files for job in jobs_of(f)]
    total = sum(j[2] * j[3] for j in jobs)
    paths = {
        "numpy": lambda: [meshopt_codecs.decode(*j) for j in jobs],
        "compiled": lambda: [meshopt_compiled.decode(*j) for j in jobs],
        "compiled_parallel": lambda: meshopt_compiled.decode_many(jobs),
    }
    if not numpy_too:
        del paths["numpy"]
    seconds: dict[str, list[float]] = {name: [] for name in paths}
    by_kind: dict[str, dict[str, list[float]]] = {}
    reference = None
    for _ in range(repeat):
        for name, run in paths.items():
            t = time.perf_counter()
            out = run()
            seconds[name].append(time.perf_counter() - t)
            if reference is None:
                reference = out
            elif not all(np.array_equal(a, b) for a, b in zip(reference, out)):
                raise SystemExit(f"{name} decoded other bytes than {next(iter(paths))}")
        for j in jobs:  # per codec, one thread, each path
            for name in ("numpy", "compiled") if numpy_too else ("compiled",):
                decode = meshopt_codecs.decode if name == "numpy" else meshopt_compiled.decode
                t = time.perf_counter()
                decode(*j)
                rows = by_kind.setdefault(kind(j), {"bytes": [0.0], "numpy": [], "compiled": []})
                rows[name].append(time.perf_counter() - t)
            by_kind[kind(j)]["bytes"][0] += j[2] * j[3] / repeat
    return {
        "files": [str(f) for f in files],
        "views": len(jobs),
        "decoded_mb": total / 1e6,
        "compressed_mb": sum(len(j[4]) for j in jobs) / 1e6,
        "load_s": load_s,
        "mb_per_s": {name: [total / 1e6 / s for s in seconds[name]] for name in paths},
        "by_codec_mb_per_s": {
            k: {name: total_k / 1e6 / (sum(v[name]) / repeat) for name in ("numpy", "compiled") if v[name]}
            for k, v in by_kind.items()
            for total_k in [v["bytes"][0]]
        },
    }


def _range(values: list[float]) -> str:
    low, high = min(values), max(values)
    return f"{low:,.0f}" if round(low) == round(high) else f"{low:,.0f}–{high:,.0f}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="+", type=Path, help=".glb / .gltf files, or folders of them")
    parser.add_argument("--repeat", type=int, default=3, help="rounds (default 3)")
    parser.add_argument("--skip-numpy", action="store_true", help="the compiled paths only (the reference is slow)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    files = [f for p in args.paths for f in (sorted(p.glob("*.gl*")) if p.is_dir() else [p])]
    result = measure(files, args.repeat, not args.skip_numpy)
    if args.json:
        print(json.dumps(result, indent=1))
        return 0
    print(
        f"{len(files)} file(s), {result['views']} compressed views, {result['compressed_mb']:.1f} MB → "
        f"{result['decoded_mb']:.1f} MB; kernels ready in {result['load_s']:.2f} s ({meshopt_compiled.state()})"
    )
    for name, rates in result["mb_per_s"].items():
        print(f"  {name:18s} {_range(rates)} MB/s")
    for k, rates in sorted(result["by_codec_mb_per_s"].items()):
        print("  " + k.ljust(22) + "  ".join(f"{name} {rate:,.0f} MB/s" for name, rate in rates.items()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
