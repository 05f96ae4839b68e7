"""How pygfx samples glTF animations: node local TRS and morph weights at given times (issue 25).

pygfx must NOT go into animview's venv; give it its own (as for tools/peer_pygfx.py):
    python3 -m venv /tmp/pygfx-venv && /tmp/pygfx-venv/bin/pip install pygfx==0.17.0 gltflib==1.0.13
    /tmp/pygfx-venv/bin/python tools/engines/pygfx_sample.py MANIFEST.json CASES_DIR > pygfx.jsonl

No GPU and no canvas: loading a glTF (gfx.load_gltf) and evaluating its animations are plain Python/numpy in
pygfx; nothing is rendered. Each case's .glb is loaded afresh. Player: gfx.AnimationMixer() with
mixer.clip_action(gltf.animations[case.animation]).play() (its default loop: repetitions inf, weight 1).
Time: for each query time t, mixer.set_time(t) -- zeroes the mixer's and the action's time, then
mixer.update(t); the action wraps t itself (AnimationAction._update_time: t >= duration -> t % duration; a clip
of duration 0 disables the action, which then leaves the nodes as they are).
Read: the WorldObject of each glTF node (the loader's own per-index cache, _GLTF._load_node(index), which is
what it built the scenes with) .local.position, .local.rotation (x, y, z, w), .local.scale, and
morph_target_influences of the node (a one-primitive mesh) or of its first child mesh (several primitives).
Prints one JSON line per case: {"case", "duration" (clip.duration), "frames": [{node: {t, r, s, w?}} ...]}
(a frame is {"error": message} where set_time raised at that time) or {"case", "error"} (loading failed);
a first line {"engine": "pygfx", "version", "python"}.
"""

from __future__ import annotations

import json
import logging
import os
import sys
from pathlib import Path

os.environ.setdefault("XDG_RUNTIME_DIR", "/tmp")

import numpy as np  # noqa: E402
import pygfx as gfx  # noqa: E402
from pygfx.utils.load_gltf import _GLTF  # noqa: E402

logging.getLogger("pygfx").setLevel(logging.ERROR)


def influences(obj):
    for o in [obj, *obj.children]:
        w = getattr(o, "morph_target_influences", None)
        if isinstance(o, gfx.Mesh) and w is not None:
            return [float(x) for x in np.asarray(w).reshape(-1)]
    return None


def sample_case(case: dict, cases_dir: Path) -> dict:
    loader = _GLTF()
    gltf = loader.load(str(cases_dir / case["file"]), quiet=True, remote_ok=False)
    clip = (gltf.animations or [])[case["animation"]]
    mixer = gfx.AnimationMixer()
    mixer.clip_action(clip).play()
    objects = {n: loader._load_node(n) for n in case["nodes"]}
    weighted = set(case["weights_nodes"])
    frames = []
    for t in case["times"]:
        try:
            mixer.set_time(t)
        except Exception as exc:  # this time only: set_time starts afresh at the next one
            frames.append({"error": f"{type(exc).__name__}: {exc}"})
            continue
        frame = {}
        for n, o in objects.items():
            rec = {
                "t": [float(x) for x in o.local.position],
                "r": [float(x) for x in o.local.rotation],
                "s": [float(x) for x in o.local.scale],
            }
            if n in weighted:
                w = influences(o)
                if w is not None:
                    rec["w"] = w
            frame[str(n)] = rec
        frames.append(frame)
    return {"case": case["name"], "duration": float(clip.duration), "frames": frames}


def main(argv=None) -> int:
    manifest_path, cases_dir = (argv or sys.argv[1:])[:2]
    manifest = json.loads(Path(manifest_path).read_text())
    print(json.dumps({"engine": "pygfx", "version": gfx.__version__, "python": sys.version.split()[0]}), flush=True)
    for case in manifest["cases"]:
        try:
            out = sample_case(case, Path(cases_dir))
        except Exception as exc:  # report and go on with the next case
            out = {"case": case["name"], "error": f"{type(exc).__name__}: {exc}"}
        print(json.dumps(out), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
