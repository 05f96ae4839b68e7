"""Frame rate of the PEER viewer pygfx on glTF models -- a reference figure, not a measurement of animview.

Runs pygfx (wgpu; here Mesa lavapipe Vulkan on the CPU) offscreen and prints one JSON line per model:
    {"model", "fps_runs", "fps_best", "fps_range", "triangles", "animated", "pixel_scale", "ppaa", "pygfx", "wgpu"}
or {"model", "error", "pygfx"} for a model pygfx cannot load or draw (the run goes on with the next one).

pygfx must NOT go into animview's venv; give it its own:
    apt-get install -y mesa-vulkan-drivers libvulkan1
    python3 -m venv /tmp/pygfx-venv && /tmp/pygfx-venv/bin/pip install pygfx==0.17.0 gltflib imageio
    /tmp/pygfx-venv/bin/python tools/peer_pygfx.py MODEL.glb [MODEL2.gltf ...] [--frames 100] [--repeats 3]

Method (kept close to ``animview bench``'s render_fps): one offscreen canvas of --size (640x480); per model
a fresh scene with the glTF scene, pygfx's glTF-viewer lights (AmbientLight 0.3 + DirectionalLight 2.5 from
(0.5, 0, 0.866); no environment map), a 45-degree perspective camera fitted by ``camera.show_object``; the
first animation clip played if there is one (else the static model). WARMUP frames, then --frames frames,
each = mixer.update(clip duration / frames) + render + pixels read back to numpy (``canvas.draw()``).
fps = frames / wall seconds of that loop; best of --repeats runs, with the range of the runs.
Anti-aliasing is pygfx's own: by default pixel_scale 2 (2x2 supersampling) plus "ddaa" post-processing;
--pixel-scale 1 --ppaa none renders with no anti-aliasing at all.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("XDG_RUNTIME_DIR", "/tmp")  # silences lavapipe's warning on a headless box

import numpy as np  # noqa: E402
import pygfx as gfx  # noqa: E402
import wgpu  # noqa: E402

try:
    from rendercanvas.offscreen import RenderCanvas  # pygfx >= 0.10
except ImportError:  # older pygfx / wgpu-py
    from wgpu.gui.offscreen import WgpuCanvas as RenderCanvas

WARMUP = 30


def count_triangles(root) -> int:
    """Triangles over all meshes in ``root``'s tree (indexed or not)."""
    total = 0

    def visit(obj):
        nonlocal total
        geo = getattr(obj, "geometry", None)
        if not isinstance(obj, gfx.Mesh) or geo is None:
            return
        idx = getattr(geo, "indices", None)
        if idx is not None:
            total += int(np.asarray(idx.data).size // 3)
        elif getattr(geo, "positions", None) is not None:
            total += int(len(geo.positions.data) // 3)

    root.traverse(visit)
    return total


def build_scene(path: Path, aspect: float):
    """Scene, camera, mixer-step function (or None), triangle count for one model."""
    gltf = gfx.load_gltf(str(path), quiet=True)
    model = gltf.scene if gltf.scene is not None else gltf.scenes[0]
    scene = gfx.Scene()
    scene.add(gfx.Background.from_color((0.1, 0.1, 0.1, 1)))
    scene.add(gfx.AmbientLight(intensity=0.3))
    sun = gfx.DirectionalLight(intensity=2.5)
    sun.local.position = (0.5, 0.0, 0.866)
    scene.add(sun)
    scene.add(model)
    camera = gfx.PerspectiveCamera(45, aspect)
    camera.show_object(model)
    return scene, camera, gltf.animations or [], count_triangles(model)


def bench_model(canvas, renderer, path: Path, frames: int, repeats: int) -> dict:
    w, h = canvas.get_physical_size()
    scene, camera, clips, triangles = build_scene(path, w / h)
    mixer = None
    dt = 0.0
    if clips:
        mixer = gfx.AnimationMixer()
        mixer.clip_action(clips[0]).play()
        dt = max(clips[0].duration, 1e-6) / frames
    canvas.request_draw(lambda: renderer.render(scene, camera))

    def frame():
        if mixer is not None:
            mixer.update(dt)
        img = canvas.draw()
        assert img.shape[:2] == (h, w), img.shape

    for _ in range(WARMUP):
        frame()
    runs = []
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(frames):
            frame()
        runs.append(frames / (time.perf_counter() - start))
    return {
        "model": path.stem,
        "fps_runs": [round(f, 2) for f in runs],
        "fps_best": round(max(runs), 2),
        "fps_range": [round(min(runs), 2), round(max(runs), 2)],
        "triangles": triangles,
        "animated": bool(clips),
        "pixel_scale": renderer.pixel_scale,
        "ppaa": renderer.ppaa,
        "pygfx": gfx.__version__,
        "wgpu": wgpu.__version__,
    }


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("models", nargs="+", type=Path, help=".gltf / .glb files")
    p.add_argument("--frames", type=int, default=100, help="frames timed per run (100)")
    p.add_argument("--repeats", type=int, default=3, help="timed runs per model; best is reported (3)")
    p.add_argument("--size", default="640x480", help="WxH in pixels (640x480)")
    p.add_argument(
        "--pixel-scale",
        type=float,
        default=None,
        help="pygfx internal resolution factor (default: pygfx's own, 2 on a 1x screen)",
    )
    p.add_argument("--ppaa", default="default", help="post-process AA: default (ddaa), none, fxaa, ddaa")
    args = p.parse_args(argv)
    w, h = (int(v) for v in args.size.lower().split("x"))
    canvas = RenderCanvas(size=(w, h), pixel_ratio=1)
    renderer = gfx.WgpuRenderer(canvas, pixel_scale=args.pixel_scale, ppaa=args.ppaa)
    failed = 0
    for path in args.models:
        try:
            result = bench_model(canvas, renderer, path, args.frames, args.repeats)
        except Exception as exc:  # report and go on with the next model
            failed += 1
            result = {"model": path.stem, "error": f"{type(exc).__name__}: {exc}", "pygfx": gfx.__version__}
        print(json.dumps(result), flush=True)
    return 1 if failed == len(args.models) else 0


if __name__ == "__main__":
    sys.exit(main())
