"""Record how real engines sample glTF animations (issue 25): three.js, Babylon.js and pygfx.

    python tools/engines_record.py [--engines three,babylon,pygfx] [--work /tmp/engines-work] [--no-models]
                                   [--install]

Writes the edge cases (tools/engine_cases.py) into WORK, runs each engine's harness on them and writes
tests/data/engines/{three,babylon,pygfx}.json and tests/data/engines/manifest.json, so tests can check the numpy
emulations against real engines without Node or pygfx. The engines live OUTSIDE the repository:

    mkdir -p /tmp/engines-node && cp tools/engines/package.json /tmp/engines-node/
    npm install --prefix /tmp/engines-node             # three 0.187.0, @babylonjs/core + loaders 9.28.0
    python3 -m venv /tmp/pygfx-venv && /tmp/pygfx-venv/bin/pip install pygfx==0.17.0 gltflib==1.0.13

(``--install`` runs these; ENGINES_NODE and PYGFX_PYTHON override the two places.) An engine whose harness
cannot start is skipped and its data file left as it was.

Each data file: {"engine", "version", "runtime", "player", "time", "read", "rounding", "cases_generated_by",
"cases": {name: {"file", "animation", "duration" (the engine's clip length, s), "times": [...],
"frames": [{node index: {"t": [3], "r": [4] (x, y, z, w), "s": [3], "w": [targets]?}} per time]}}}.
A frame the engine failed to compute is {"error": message}; a case it failed to load is {"file", "animation",
"error"}. Numbers are rounded to 9 significant digits; NaN and infinities are written as null.
manifest.json: the cases as tools/engine_cases.py made them (times, nodes, channels) and each .glb's sha256,
so a test can regenerate the files and know they are the ones recorded.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "engines"
NODE_DIR = Path(os.environ.get("ENGINES_NODE", "/tmp/engines-node"))
PYGFX_PYTHON = os.environ.get("PYGFX_PYTHON", "/tmp/pygfx-venv/bin/python")
PYGFX_PINS = ["pygfx==0.17.0", "gltflib==1.0.13"]

ENGINES = {
    "three": dict(
        command=["node", str(ROOT / "tools/engines/three_sample.mjs")],
        player="GLTFLoader.parse(ArrayBuffer of the .glb); AnimationMixer(gltf.scene); "
        "mixer.clipAction(gltf.animations[k]).play() with its defaults (LoopRepeat, repetitions Infinity, weight 1)",
        time="mixer.setTime(t) per query time (zeroes mixer and action time, then mixer.update(t): the action wraps "
        "t >= duration by floor(t / duration) * duration)",
        read="Object3D of glTF node n (parser.associations: object -> {nodes: n}): .position, .quaternion, .scale; "
        "morphTargetInfluences of the node's mesh",
        package="three",
    ),
    "babylon": dict(
        command=["node", str(ROOT / "tools/engines/babylon_sample.mjs")],
        player="NullEngine; fresh Scene (useRightHandedSystem) per case; AppendSceneAsync(.glb bytes) with "
        "animationStartMode NONE; scene.animationGroups[k] (the loader's: 60 fps, normalize(0): from 0 to the last "
        "key frame); per query time group.stop(); group.start(true) -- loop, speed 1, as the loader's default start",
        time="scene._animate(0) then scene._animate(t * 1000): the scene's per-frame animation step with an explicit "
        "delta in ms (what scene.render() does with the clock's delta); each RuntimeAnimation wraps the frame "
        "t * 60 itself (from + frame % (to - from)). goToFrame is not used: it clamps and never loops",
        read="the node whose _internalMetadata.gltf.pointers holds '/nodes/n': .position, .rotationQuaternion, "
        ".scaling; morphTargetManager target influences of its mesh",
        package="@babylonjs/core",
    ),
    "pygfx": dict(
        command=[PYGFX_PYTHON, str(ROOT / "tools/engines/pygfx_sample.py")],
        player="gfx.load_gltf machinery (_GLTF().load, no GPU, nothing rendered); gfx.AnimationMixer(); "
        "mixer.clip_action(gltf.animations[k]).play() with its defaults (repetitions inf, weight 1)",
        time="mixer.set_time(t) per query time (zeroes mixer and action time, then mixer.update(t): the action wraps "
        "t >= duration to t % duration; a clip of duration 0 disables the action)",
        read="the loader's own object for glTF node n (_GLTF._load_node(n), cached): .local.position, "
        ".local.rotation, .local.scale; morph_target_influences of the node's mesh",
        package=None,
    ),
}


def install() -> None:
    NODE_DIR.mkdir(parents=True, exist_ok=True)
    shutil.copy(ROOT / "tools/engines/package.json", NODE_DIR / "package.json")
    subprocess.run(["npm", "install", "--prefix", str(NODE_DIR)], check=True)
    if not Path(PYGFX_PYTHON).exists():
        venv = Path(PYGFX_PYTHON).parents[1]
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        subprocess.run([PYGFX_PYTHON, "-m", "pip", "install", *PYGFX_PINS], check=True)


def rounded(x):
    if isinstance(x, float):
        if not math.isfinite(x):
            return None
        return float(f"{x:.9g}")
    if isinstance(x, list):
        return [rounded(v) for v in x]
    if isinstance(x, dict):
        return {k: rounded(v) for k, v in x.items()}
    return x


def npm_version(package: str) -> str | None:
    path = NODE_DIR / "node_modules" / package / "package.json"
    return json.loads(path.read_text())["version"] if path.exists() else None


def run_engine(name: str, work: Path, manifest: dict) -> dict | None:
    spec = ENGINES[name]
    cmd = [*spec["command"], str(work / "manifest.json"), str(work / "cases")]
    env = dict(os.environ, ENGINES_NODE=str(NODE_DIR))
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=1800)
    except (OSError, subprocess.TimeoutExpired) as exc:
        print(f"{name}: skipped ({exc})", file=sys.stderr)
        return None
    lines = [json.loads(line) for line in proc.stdout.splitlines() if line.strip()]
    if proc.returncode != 0 or not lines:
        print(f"{name}: skipped (exit {proc.returncode}): {proc.stderr[-2000:]}", file=sys.stderr)
        return None
    head, results = lines[0], {r["case"]: r for r in lines[1:]}
    version = head["version"]
    if spec["package"]:
        version = npm_version(spec["package"]) or version
        if name == "babylon":
            version = f"@babylonjs/core {version}, @babylonjs/loaders {npm_version('@babylonjs/loaders')}"
        else:
            version = f"{version} (REVISION {head['version']})"
    runtime = head.get("node") or head.get("python")
    cases = {}
    for case in manifest["cases"]:
        r = results.get(case["name"], {"error": "no output"})
        entry = {"file": case["file"], "animation": case["animation"]}
        if "error" in r:
            entry["error"] = r["error"][:500]
        else:
            entry.update(duration=r["duration"], times=case["times"], frames=r["frames"])
        cases[case["name"]] = entry
    return {
        "engine": head["engine"],
        "version": version,
        "runtime": ("node " if head.get("node") else "python ") + runtime,
        "player": spec["player"],
        "time": spec["time"],
        "read": spec["read"],
        "rounding": "9 significant digits; NaN / inf -> null",
        "cases_generated_by": "tools/engine_cases.py (see manifest.json)",
        "cases": rounded(cases),
    }


def summary(name: str, data: dict) -> str:
    cases = data["cases"].values()
    failed = sum("error" in c for c in cases)
    frame_errors = sum(1 for c in cases for f in c.get("frames", []) if "error" in f)
    return f"{name}: {len(data['cases']) - failed} cases ran, {failed} failed to load, {frame_errors} frames failed"


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--engines", default="three,babylon,pygfx")
    p.add_argument("--work", type=Path, default=Path("/tmp/engines-work"))
    p.add_argument("--no-models", action="store_true", help="generated cases only, no Khronos / demo models")
    p.add_argument("--install", action="store_true", help="install the engines outside the repository first")
    args = p.parse_args(argv)
    if args.install:
        install()
    if args.work.exists():
        shutil.rmtree(args.work)
    gen = [sys.executable, str(ROOT / "tools/engine_cases.py"), str(args.work)]
    subprocess.run(gen + (["--no-models"] if args.no_models else []), check=True)
    manifest = json.loads((args.work / "manifest.json").read_text())
    for case in manifest["cases"]:
        case["sha256"] = hashlib.sha256((args.work / "cases" / case["file"]).read_bytes()).hexdigest()[:16]
    DATA.mkdir(parents=True, exist_ok=True)
    (DATA / "manifest.json").write_text(json.dumps(manifest, separators=(",", ":")) + "\n")
    for name in args.engines.split(","):
        data = run_engine(name, args.work, manifest)
        if data is None:
            continue
        out = DATA / f"{name}.json"
        out.write_text(json.dumps(data, separators=(",", ":")) + "\n")
        print(f"{summary(name, data)}; {out.relative_to(ROOT)} {out.stat().st_size / 1e6:.2f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
