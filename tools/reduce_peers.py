"""Run the keyframe reducers that animview's ``reduce`` is measured against, and measure what each one did.

    python tools/reduce_peers.py FILES_OR_DIRS... [-o OUTDIR] [--json OUT.json] [--markdown OUT.md]
        [--error E] [--skip-ours] [--fps F]

Why: a reducer's worth is how many keys and bytes it removes for how much world-space motion it changes. The
peers report neither their world-space error nor their animation bytes, so this script measures every output
itself, the same way for every tool, and measures the error twice -- with animview's own diff and with an
independent three.js player (``tools/engines/world_error.mjs``) -- so a bug in one measurement shows up as a
disagreement between the two columns.

Inputs: .gltf/.glb files, or folders: a folder holding .gltf/.glb files gives all of them, a folder of model
folders (``../shared/assets/khronos``) gives each model folder's first file (``compress_models.model_file``).
Outputs: ``OUTDIR/<input stem>/<tool>.glb`` (default OUTDIR: /tmp/reduce_bench/out). Tools, pinned:

* ``gltf-transform resample``: ``npx --yes @gltf-transform/cli@4.5.1 resample IN OUT`` (default tolerance 1e-4,
  a per-value tolerance on the channel's values, not a world-space one);
* ``gltfpack -af 30 -noq``, ``gltfpack -af 0 -noq``: ``npx --yes gltfpack@1.3.0 -i IN -o OUT -af N -noq -kn
  -km`` (no quantization, so only the animation changes; nodes and materials kept so names still match);
  gltfpack 1.3 resamples at N Hz (0: keeps the keys) and drops keys it finds redundant;
* ``gltfpack -cc``: ``... -i IN -o OUT -cc -kn -km`` (default quantization -- positions 14 bits, rotations 12
  bits, translations and scales 16 bits, 30 Hz -- and meshopt compression: the "meshopt" peer);
* ``animview reduce``: ``python -m viewer reduce IN -o OUT --max-error E --json REPORT`` (E: ``--error``,
  default 0.1mm); then once per peer at that peer's measured error (``--max-error <its max world error in
  scene units>``, the diff's figure at full precision, else three's; ``0`` when it measured 0) and, for
  ``gltfpack -cc``, with ``--meshopt`` too (rows left out while reduce answers that flag with exit 2,
  "unrecognized arguments"); the summary compares -cc with ours' ``--meshopt`` run where there is one.
  Exit 1 (written, but measured above E) is a result: the row is measured and flagged. Two runs with the
  same E are made once. A failing run (an error) is recorded with its message and the script goes on;
  ``--skip-ours`` leaves ours out.

Measured per output (the glTF/GLB JSON is read here, so files animview cannot load still count):
keys = the sum over every animation sampler of its input accessor's count; animation bytes = the stored size
of the unique accessors the samplers use (count x component size x components, each rounded up to 4 bytes;
for an accessor in a bufferView with EXT_/KHR_meshopt_compression, that extension's byteLength -- the
compressed size on disk -- once per view); file bytes = the .glb, or the .gltf plus the files it refers to;
max world error = ``compare.diff.diff_scenes(load(original), load(output))["max_distance"]`` and
``world_error.mjs``'s ``max_distance`` (both in the original's scene units, nodes and skinned/morphed vertices);
validator = the Khronos glTF validator's error/warning/info/hint counts (npm ``gltf-validator``, pinned below,
installed under /tmp/validator-node -- ``VALIDATOR_NODE`` -- never in the repo; its ``validateBytes`` API).

Summary (top of ``--markdown``, and ``comparisons`` / ``ours_above_e`` in ``--json``): per file and peer, ours
at that peer's error against the peer: (a) ours' max error <= the peer's by both evaluators, (b) ours' animation
bytes <= 60 % of the peer's, and the share of files meeting both per peer; ours' outputs measured above their
E (reduce's exit 1, the diff or three.js over the E reduce reports as ``max_error_allowed``); the validator's
findings on ours; the report's ``seconds`` of every run of ours.

Needs Node/npm (npm's cache: /tmp/npm-cache unless ``npm_config_cache`` is set) and three.js in
/tmp/engines-node (see tools/engines/package.json). Writes ``--json`` (every row) and ``--markdown`` (a table).
"""

from __future__ import annotations

import argparse
import json
import os
import struct
import subprocess
import sys
import time
import traceback
from pathlib import Path
from urllib.parse import unquote

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

GLTF_TRANSFORM = "@gltf-transform/cli@4.5.1"
GLTFPACK = "gltfpack@1.3.0"
GLTF_VALIDATOR = "gltf-validator@2.0.0-dev.3.10"  # npm's latest on 2026-11-28
VALIDATOR_NODE = Path(os.environ.get("VALIDATOR_NODE", "/tmp/validator-node"))
# (a) ours' measured error <= the peer's, by both evaluators; (b) ours' animation bytes <= this share of the peer's
BYTES_SHARE = 0.6
WORLD_ERROR = REPO / "tools" / "engines" / "world_error.mjs"
DEFAULT_OUT = Path("/tmp/reduce_bench/out")
TIMEOUT = 1800
COMPONENT_SIZE = {5120: 1, 5121: 1, 5122: 2, 5123: 2, 5125: 4, 5126: 4}
COMPONENTS = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4, "MAT2": 4, "MAT3": 9, "MAT4": 16}
MESHOPT = ("EXT_meshopt_compression", "KHR_meshopt_compression")
# (tool name, gltfpack arguments)
GLTFPACK_PEERS = [
    ("gltfpack -af 30 -noq", ["-af", "30", "-noq", "-kn", "-km"]),
    ("gltfpack -af 0 -noq", ["-af", "0", "-noq", "-kn", "-km"]),
    ("gltfpack -cc", ["-cc", "-kn", "-km"]),
]


# --- reading glTF JSON --------------------------------------------------------------------------------------


def read_json(path: Path) -> dict:
    """The glTF JSON of a .gltf, or of a .glb's first chunk (12-byte header, then chunk length and type)."""
    data = path.read_bytes()
    if data[:4] == b"glTF":
        _magic, _version, _length = struct.unpack_from("<III", data, 0)
        chunk_length, chunk_type = struct.unpack_from("<II", data, 12)
        if chunk_type != 0x4E4F534A:
            raise ValueError(f"{path}: the first GLB chunk is not JSON")
        return json.loads(data[20 : 20 + chunk_length].decode("utf-8"))
    return json.loads(data.decode("utf-8-sig"))


def file_bytes(path: Path, doc: dict) -> int:
    """The .glb's size, or the .gltf's plus every file its buffers and images refer to (data: URIs are inside)."""
    total = path.stat().st_size
    if path.suffix.lower() == ".glb":
        return total
    for item in doc.get("buffers", []) + doc.get("images", []):
        uri = item.get("uri")
        if uri and not uri.startswith("data:"):
            f = path.parent / unquote(uri)
            if f.is_file():
                total += f.stat().st_size
    return total


def animation_figures(doc: dict) -> tuple[int, int]:
    """(keys, animation bytes): the samplers' input counts summed, and the stored size of their accessors."""
    accessors, views = doc.get("accessors", []), doc.get("bufferViews", [])
    keys = 0
    used: set[int] = set()
    for anim in doc.get("animations", []):
        for s in anim.get("samplers", []):
            keys += int(accessors[s["input"]].get("count", 0))
            used.update((s["input"], s["output"]))
    size = 0
    compressed_views: set[int] = set()
    for k in sorted(used):
        a = accessors[k]
        element = COMPONENT_SIZE.get(a.get("componentType"), 4) * COMPONENTS.get(a.get("type"), 1)
        view = a.get("bufferView")
        ext = (views[view].get("extensions") or {}) if view is not None and view < len(views) else {}
        meshopt = next((ext[e] for e in MESHOPT if e in ext), None)
        if meshopt is not None:
            if view not in compressed_views:
                compressed_views.add(view)
                size += int(meshopt.get("byteLength", 0))
        elif view is not None:
            size += _align4(int(a.get("count", 0)) * element)
        sparse = a.get("sparse")
        if sparse:  # the sparse indices and values are stored too
            n = int(sparse.get("count", 0))
            size += _align4(n * COMPONENT_SIZE.get(sparse["indices"].get("componentType"), 4)) + _align4(n * element)
    return keys, size


def _align4(n: int) -> int:
    return n + (-n % 4)


# --- running the tools --------------------------------------------------------------------------------------


def _env() -> dict:
    env = dict(os.environ)
    env.setdefault("npm_config_cache", "/tmp/npm-cache")
    env.setdefault("npm_config_update_notifier", "false")
    return env


def run(cmd: list[str], out: Path, accept: tuple[int, ...] = (0,)) -> dict:
    """Run one tool; ``{command, ok, exit, seconds, error?, stderr?}``; ``accept``: exit codes that count as
    done when the output was written (``animview reduce`` exits 1 when the file it wrote measured above E)."""
    out.unlink(missing_ok=True)
    start = time.perf_counter()
    try:
        done = subprocess.run(cmd, env=_env(), capture_output=True, text=True, timeout=TIMEOUT)
        seconds = time.perf_counter() - start
    except (OSError, subprocess.TimeoutExpired) as err:
        return {"command": cmd, "ok": False, "seconds": time.perf_counter() - start, "error": str(err)[-600:]}
    row = {"command": cmd, "ok": done.returncode in accept and out.is_file(), "exit": done.returncode}
    row["seconds"] = round(seconds, 3)
    if not row["ok"]:
        text = (done.stderr or "").strip() or (done.stdout or "").strip()
        row["error"] = f"exit {done.returncode}: {text[-600:]}"
    elif done.stderr.strip():
        row["stderr"] = done.stderr.strip()[-600:]
    return row


def gltf_transform(src: Path, out: Path) -> dict:
    return run(["npx", "--yes", GLTF_TRANSFORM, "resample", str(src), str(out)], out)


def gltfpack(src: Path, out: Path, args: list[str]) -> dict:
    return run(["npx", "--yes", GLTFPACK, "-i", str(src), "-o", str(out), *args], out)


def ours(src: Path, out: Path, max_error: str, meshopt: bool = False) -> dict:
    """``animview reduce``; exit 1 (written, but measured above E) still counts as a run, flagged ``above_e``."""
    report = out.with_suffix(".report.json")
    report.unlink(missing_ok=True)
    cmd = [sys.executable, "-m", "viewer", "reduce", str(src), "-o", str(out), "--max-error", max_error]
    cmd += ["--json", str(report), "--quiet"] + (["--meshopt"] if meshopt else [])
    row = run(cmd, out, accept=(0, 1))
    row["above_e"] = None
    if row["ok"] and report.is_file():
        try:
            rep = json.loads(report.read_text())
            # exit 1 is "written, measured above E" only with a report that says so; else it is a crash
            row["above_e"] = rep.get("within") is False
            if row["exit"] == 1 and not row["above_e"]:
                row.update(ok=False, error="exit 1 without a report saying 'within': false")
            row["report"] = {k: v for k, v in rep.items() if k not in ("clips", "file", "output")}
            row["reduce_seconds"] = rep.get("seconds")
            row["e"] = rep.get("max_error_allowed")  # E in scene units, as reduce resolved it
        except (OSError, ValueError) as err:
            row["report_error"] = str(err)
    elif row["ok"] and row["exit"] == 1:
        row.update(ok=False, error="exit 1 and no report")
    return row


def _unrecognized(row: dict) -> bool:
    return not row.get("ok") and row.get("exit") == 2 and "unrecognized arguments" in row.get("error", "")


VALIDATOR_JS = r"""
const fs = require('fs'), path = require('path');
const validator = require(path.join(process.argv[2], 'node_modules', 'gltf-validator'));
(async () => {
  const file = process.argv[3];
  const r = await validator.validateBytes(new Uint8Array(fs.readFileSync(file)), {
    uri: path.basename(file), maxIssues: 0,
    externalResourceFunction: (uri) => new Promise((res, rej) => fs.readFile(
      path.resolve(path.dirname(file), decodeURIComponent(uri)),
      (e, d) => e ? rej(e.toString()) : res(new Uint8Array(d)))),
  });
  const i = r.issues;
  const messages = i.messages.filter((m) => m.severity <= 1).slice(0, 20)
    .map((m) => ({code: m.code, severity: m.severity, message: m.message, pointer: m.pointer}));
  console.log(JSON.stringify({version: r.validatorVersion, errors: i.numErrors, warnings: i.numWarnings,
    infos: i.numInfos, hints: i.numHints, messages}));
})().catch((e) => { console.log(JSON.stringify({error: String(e)})); process.exit(1); });
"""


def validator_ready() -> str | None:
    """Install the pinned gltf-validator under VALIDATOR_NODE (not in the repo), write its runner; None or why not."""
    pkg = VALIDATOR_NODE / "node_modules" / "gltf-validator" / "package.json"
    want = GLTF_VALIDATOR.rsplit("@", 1)[1]
    try:
        if not pkg.is_file() or json.loads(pkg.read_text()).get("version") != want:
            VALIDATOR_NODE.mkdir(parents=True, exist_ok=True)
            if not (VALIDATOR_NODE / "package.json").is_file():
                (VALIDATOR_NODE / "package.json").write_text('{"name": "validator-node", "private": true}\n')
            cmd = ["npm", "install", "--no-audit", "--no-fund", "--prefix", str(VALIDATOR_NODE), GLTF_VALIDATOR]
            done = subprocess.run(cmd, env=_env(), capture_output=True, text=True, timeout=600)
            if done.returncode != 0:
                return f"npm install {GLTF_VALIDATOR}: exit {done.returncode}: {done.stderr.strip()[-400:]}"
        (VALIDATOR_NODE / "validate_one.cjs").write_text(VALIDATOR_JS)
    except (OSError, ValueError, subprocess.TimeoutExpired) as err:
        return str(err)
    return None


def validate(path: Path) -> dict:
    """The Khronos glTF validator's counts on one file: {errors, warnings, infos, hints, messages} or {error}."""
    cmd = ["node", str(VALIDATOR_NODE / "validate_one.cjs"), str(VALIDATOR_NODE), str(path)]
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
        return json.loads(done.stdout.strip().splitlines()[-1])
    except (OSError, subprocess.TimeoutExpired, ValueError, IndexError) as err:
        return {"error": f"{err}; {(done.stderr if 'done' in locals() else '').strip()[-300:]}"}


# --- measuring ----------------------------------------------------------------------------------------------


def diff_error(original: Path, copy: Path) -> tuple[float | None, str | None]:
    """animview's diff: the largest world-space distance, in the original's scene units."""
    try:
        import viewer
        from viewer.compare.diff import diff_scenes

        return float(diff_scenes(viewer.load(original), viewer.load(copy))["max_distance"]), None
    except Exception as err:  # noqa: BLE001 -- any failure is a result to record
        return None, f"{type(err).__name__}: {err}"[-600:] or traceback.format_exc()[-600:]


def three_error(original: Path, copy: Path, fps: float) -> tuple[float | None, dict | None, str | None]:
    """world_error.mjs's largest distance, its summary, or the error text."""
    cmd = ["node", str(WORLD_ERROR), str(original), str(copy), "--fps", str(fps)]
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=TIMEOUT)
    except (OSError, subprocess.TimeoutExpired) as err:
        return None, None, str(err)
    try:
        report = json.loads(done.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        return None, None, f"exit {done.returncode}: {(done.stderr or done.stdout).strip()[-600:]}"
    if "error" in report:
        return None, None, report["error"][-600:]
    summary = {
        "unmatched": report.get("unmatched"),
        "matched": report.get("matched"),
        "worst": max(report["clips"], key=lambda c: c["max_distance"])["worst"] if report["clips"] else None,
        "vertex_rules": sorted({r["rule"] for r in report.get("vertex_rules", {}).values()}),
    }
    return float(report["max_distance"]), summary, None


def measure(original: Path, copy: Path, row: dict, fps: float) -> dict:
    """Add keys, bytes and both world errors of ``copy`` to ``row``."""
    try:
        doc = read_json(copy)
        row["keys"], row["anim_bytes"] = animation_figures(doc)
        row["file_bytes"] = file_bytes(copy, doc)
        row["extensions"] = doc.get("extensionsUsed", [])
    except (OSError, ValueError, KeyError, IndexError) as err:
        row["read_error"] = str(err)
    row["max_err_diff"], err = diff_error(original, copy)
    if err:
        row["diff_error"] = err
    row["max_err_three"], row["three"], err = three_error(original, copy, fps)
    if err:
        row["three_error"] = err
    row["validator"] = validate(copy)
    return row


def inputs(paths: list[Path]) -> list[Path]:
    """The files named, every .gltf/.glb in a folder holding some, or each model folder's first file."""
    from tools.compress_models import model_file

    files = []
    for p in paths:
        if p.is_file():
            files.append(p)
            continue
        here = sorted(p.glob("*.gltf")) + sorted(p.glob("*.glb"))
        if here:
            files += here
        else:
            files += [model_file(d) for d in sorted(p.iterdir()) if d.is_dir()]
    return files


def animated(path: Path) -> bool:
    try:
        return bool(read_json(path).get("animations"))
    except (OSError, ValueError):
        return True  # let the tools say what is wrong with it


def bench(src: Path, outdir: Path, error: str, with_ours: bool, fps: float, log) -> list[dict]:
    """Every tool on one file: the original's row, then the peers', then ours."""
    folder = outdir / src.stem
    folder.mkdir(parents=True, exist_ok=True)
    rows = []
    base = {"file": src.name, "path": str(src)}
    doc = read_json(src)
    keys, anim = animation_figures(doc)
    rows.append(dict(base, tool="original", ok=True, keys=keys, anim_bytes=anim, file_bytes=file_bytes(src, doc)))
    rows[-1].update(max_err_diff=0.0, max_err_three=0.0, seconds=0.0, validator=validate(src))
    log(rows[-1])
    jobs = [("gltf-transform resample", "gltf-transform", lambda o: gltf_transform(src, o))]
    for name, args in GLTFPACK_PEERS:
        slug = "gltfpack" + "".join(args[: 2 if args[0] == "-af" else 1]).replace("-", "_")
        jobs.append((name, slug, lambda o, a=args: gltfpack(src, o, a)))
    peers = []
    for name, slug, job in jobs:
        out = folder / f"{slug}.glb"
        row = dict(base, tool=name, output=str(out), **job(out))
        if row["ok"]:
            measure(src, out, row, fps)
        rows.append(row)
        peers.append(row)
        log(row)
    if not with_ours:
        return rows
    runs = [(f"animview reduce {error}", "ours", error, False, None)]
    for p in peers:
        err = p.get("max_err_diff") if p.get("max_err_diff") is not None else p.get("max_err_three")
        if err is None:
            continue
        # the peer's measured error at full precision (repr: a shortest round-trip decimal), so rounding never
        # hands ours a larger budget than the peer's; 0 stays "0"
        arg = "0" if err == 0 else repr(float(err))
        slug = "ours_at_" + Path(p["output"]).stem
        runs.append((f"animview reduce @ {p['tool']}", slug, arg, False, p))
        if p["tool"] == "gltfpack -cc" and MESHOPT_FLAG["supported"] is not False:
            runs.append((f"animview reduce --meshopt @ {p['tool']}", slug + "_meshopt", arg, True, p))
    done: dict[tuple[str, bool], dict] = {}  # (max error, meshopt) -> its row: the same run is not made twice
    for name, slug, max_error, meshopt, peer in runs:
        out = folder / f"{slug}.glb"
        if meshopt and MESHOPT_FLAG["supported"] is False:
            continue
        if (max_error, meshopt) in done:
            row = dict(done[(max_error, meshopt)], tool=name, same_run_as=done[(max_error, meshopt)]["tool"])
        else:
            row = dict(base, tool=name, output=str(out), max_error_arg=max_error, **ours(src, out, max_error, meshopt))
            if meshopt:
                if _unrecognized(row):  # --meshopt not implemented yet: no such rows, and no more tries
                    MESHOPT_FLAG["supported"] = False
                    MESHOPT_FLAG["message"] = row.get("error", "")[-300:]
                    continue
                MESHOPT_FLAG["supported"] = True
            if row["ok"]:
                measure(src, out, row, fps)
            done[(max_error, meshopt)] = row
        row["ours"] = True
        row["meshopt"] = meshopt
        if peer is not None:
            row["peer"] = peer["tool"]
        rows.append(row)
        log(row)
    return rows


MESHOPT_FLAG: dict = {"supported": None}


# --- reporting ----------------------------------------------------------------------------------------------


def _num(v, fmt: str = "{:,}") -> str:
    return "-" if v is None else fmt.format(v)


def _validator_cell(r: dict) -> str:
    v = r.get("validator")
    if not v:
        return "-"
    if "error" in v:
        return "failed"
    return f"{v['errors']}/{v['warnings']}"


def markdown(rows: list[dict]) -> str:
    lines = [
        "| file | tool | E | keys | anim bytes | file bytes | max err diff | max err three | validator err/warn "
        "| s | note |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for r in rows:
        note = ""
        if not r.get("ok"):
            note = "FAILED: " + r.get("error", "").replace("\n", " ").replace("|", "/")[:160]
        else:
            notes = [f"{k}: {r[k]}" for k in ("diff_error", "three_error", "read_error") if r.get(k)]
            three = r.get("three") or {}
            unmatched = three.get("unmatched") or {}
            if unmatched.get("nodes") or unmatched.get("meshes"):
                notes.append(f"three unmatched nodes {unmatched.get('nodes')}, meshes {unmatched.get('meshes')}")
            if r.get("above_e"):
                notes.insert(0, "reduce exit 1: measured above E")
            if r.get("same_run_as"):
                notes.append(f"same run as '{r['same_run_as']}'")
            note = "; ".join(n.replace("\n", " ").replace("|", "/")[:160] for n in notes)
        lines.append(
            f"| {r['file']} | {r['tool']} | {_num(r.get('e'), '{:.4g}')} | {_num(r.get('keys'))} | "
            f"{_num(r.get('anim_bytes'))} | {_num(r.get('file_bytes'))} | {_num(r.get('max_err_diff'), '{:.4g}')} | "
            f"{_num(r.get('max_err_three'), '{:.4g}')} | {_validator_cell(r)} | {_num(r.get('seconds'), '{:.1f}')} "
            f"| {note} |"
        )
    return "\n".join(lines) + "\n"


def _le(a, b) -> bool | None:
    return None if a is None or b is None else a <= b


def comparisons(rows: list[dict]) -> list[dict]:
    """Per file and peer: ours at that peer's measured error against the peer, (a) error and (b) bytes."""
    out = []
    for r in rows:
        if not r.get("ours") or not r.get("peer"):
            continue
        # gltfpack -cc quantizes and compresses: ours is compared with it through --meshopt; the run of ours
        # without --meshopt at -cc's error stays in the rows (and "every run of ours") but not in the summary
        if not r.get("meshopt") and any(
            o.get("ours") and o.get("meshopt") and o["file"] == r["file"] and o.get("peer") == r["peer"] for o in rows
        ):
            continue
        peer = next(p for p in rows if p["file"] == r["file"] and p["tool"] == r["peer"])
        c = {"file": r["file"], "peer": r["peer"], "ours_tool": r["tool"], "ours_ok": bool(r.get("ok"))}
        c.update(
            peer_err_diff=peer.get("max_err_diff"),
            peer_err_three=peer.get("max_err_three"),
            ours_err_diff=r.get("max_err_diff"),
            ours_err_three=r.get("max_err_three"),
            peer_anim_bytes=peer.get("anim_bytes"),
            ours_anim_bytes=r.get("anim_bytes"),
        )
        a_diff, a_three = _le(c["ours_err_diff"], c["peer_err_diff"]), _le(c["ours_err_three"], c["peer_err_three"])
        c["a"] = bool(a_diff and a_three)
        c["a_diff"], c["a_three"] = a_diff, a_three
        pb, ob = c["peer_anim_bytes"], c["ours_anim_bytes"]
        c["saving"] = None if not pb or ob is None else 1 - ob / pb
        c["b"] = bool(pb and ob is not None and ob <= BYTES_SHARE * pb)
        c["both"] = c["a"] and c["b"]
        out.append(c)
    return out


def above_e(rows: list[dict]) -> list[dict]:
    """Ours' outputs measured above their E: by reduce itself (exit 1), by the diff or by three.js."""
    bad = []
    for r in rows:
        if not r.get("ours") or not r.get("ok") or r.get("same_run_as"):
            continue
        e = r.get("e")
        why = []
        if r.get("above_e"):
            why.append("reduce exit 1")
        if e is not None and r.get("max_err_diff") is not None and r["max_err_diff"] > e:
            why.append(f"diff {r['max_err_diff']:.6g} > E {e:.6g}")
        if e is not None and r.get("max_err_three") is not None and r["max_err_three"] > e:
            why.append(f"three {r['max_err_three']:.6g} > E {e:.6g}")
        if why:
            bad.append({"file": r["file"], "tool": r["tool"], "e": e, "why": why})
    return bad


def summary(rows: list[dict]) -> str:
    """The markdown summary: ours at each peer's error vs that peer, shares per peer, ours above E, validator."""
    comps = comparisons(rows)

    def yn(v) -> str:
        return "-" if v is None else ("yes" if v else "no")

    def g(v) -> str:
        return _num(v, "{:.4g}")

    lines = [
        f"## Ours at each peer's measured error (a: error <= the peer's by both diff and three.js; "
        f"b: >= {1 - BYTES_SHARE:.0%} fewer animation bytes)",
        "",
        "| file | peer | peer err diff | ours err diff | peer err three | ours err three | (a) | peer anim bytes "
        "| ours anim bytes | fewer | (b) | both |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for c in comps:
        fewer = "-" if c["saving"] is None else f"{c['saving']:.0%}"
        a = yn(c["a"]) if c["ours_ok"] else "ours failed"
        lines.append(
            f"| {c['file']} | {c['peer']}{' (ours --meshopt)' if '--meshopt' in c['ours_tool'] else ''} "
            f"| {g(c['peer_err_diff'])} | {g(c['ours_err_diff'])} | "
            f"{g(c['peer_err_three'])} | {g(c['ours_err_three'])} | {a} | {_num(c['peer_anim_bytes'])} | "
            f"{_num(c['ours_anim_bytes'])} | {fewer} | {yn(c['b'])} | {yn(c['both'])} |"
        )
    lines += [
        "",
        "### Share of files meeting both, per peer",
        "",
        "| peer | (a) | (b) | both |",
        "|---|---:|---:|---:|",
    ]
    for peer in dict.fromkeys(c["peer"] for c in comps):
        cs = [c for c in comps if c["peer"] == peer]
        n = len(cs)
        a, b, both = (sum(1 for c in cs if c[k]) for k in ("a", "b", "both"))
        lines.append(f"| {peer} | {a}/{n} | {b}/{n} | {both}/{n} ({both / n:.0%}) |")
    bad = above_e(rows)
    ours_rows = [r for r in rows if r.get("ours") and not r.get("same_run_as")]
    failed = [r for r in ours_rows if not r.get("ok")]
    lines += ["", f"### Ours above E: {len(bad)} of {len(ours_rows)} outputs", ""]
    lines += [f"- {b['file']} / {b['tool']} (E {b['e']}): {', '.join(b['why'])}" for b in bad]
    lines += [f"- FAILED run: {r['file']} / {r['tool']}: {r.get('error', '')[:200]}" for r in failed]
    if MESHOPT_FLAG.get("supported") is False:
        lines += ["", f"`--meshopt` rows skipped: {MESHOPT_FLAG.get('message', '').strip()[-200:]}"]
    val = [r for r in ours_rows if r.get("validator")]
    verr = [r for r in val if "error" in r["validator"] or r["validator"].get("errors")]
    lines += [
        "",
        f"### {GLTF_VALIDATOR} on ours: {len(verr)} of {len(val)} outputs with errors, "
        f"{sum(1 for r in val if r['validator'].get('warnings'))} with warnings",
        "",
    ]
    for r in val:
        v = r["validator"]
        if "error" in v or v.get("errors") or v.get("warnings"):
            msgs = "; ".join(f"{m['code']} {m.get('pointer', '')}: {m['message']}" for m in v.get("messages", [])[:4])
            lines.append(f"- {r['file']} / {r['tool']}: {_validator_cell(r)} {v.get('error', '')} {msgs}")
    lines += [
        "",
        "### Every run of ours: E, both measurements, validator, runtime (report's `seconds`)",
        "",
        "| file | run | E | exit | diff | diff <= E | three | three <= E | validator err/warn | seconds |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in ours_rows:
        e = r.get("e")
        lines.append(
            f"| {r['file']} | {r['tool']} | {g(e)} | {r.get('exit', '-')} | {g(r.get('max_err_diff'))} | "
            f"{yn(_le(r.get('max_err_diff'), e))} | {g(r.get('max_err_three'))} | "
            f"{yn(_le(r.get('max_err_three'), e))} | {_validator_cell(r)} | {_num(r.get('reduce_seconds'), '{:.2f}')} |"
        )
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("inputs", nargs="+", type=Path, help=".gltf/.glb files or folders")
    parser.add_argument("-o", "--output", type=Path, default=DEFAULT_OUT, help=f"output folder ({DEFAULT_OUT})")
    parser.add_argument("--json", type=Path, help="write every row here")
    parser.add_argument("--markdown", type=Path, help="write the table here")
    parser.add_argument("--error", default="0.1mm", help="animview reduce's --max-error (default 0.1mm)")
    parser.add_argument("--skip-ours", action="store_true", help="run the peers only")
    parser.add_argument("--fps", type=float, default=120.0, help="world_error.mjs's time grid (default 120)")
    parser.add_argument("--from-json", action="store_true", help="run nothing: rewrite --markdown from --json")
    args = parser.parse_args(argv)
    if args.from_json:
        doc = json.loads(args.json.read_text())
        MESHOPT_FLAG.update(doc.get("meshopt_flag") or {})
        args.markdown.write_text(summary(doc["rows"]) + "\n## Every output\n\n" + markdown(doc["rows"]))
        return 0

    def log(r: dict) -> None:
        if r.get("ok"):
            print(
                f"{r['file']:28} {r['tool']:42} keys {_num(r.get('keys')):>10} anim {_num(r.get('anim_bytes')):>12} "
                f"file {_num(r.get('file_bytes')):>12} diff {_num(r.get('max_err_diff'), '{:.4g}'):>10} "
                f"three {_num(r.get('max_err_three'), '{:.4g}'):>10} val {_validator_cell(r)} {r['seconds']:.1f} s"
                + (" ABOVE E (exit 1)" if r.get("above_e") else ""),
                flush=True,
            )
        else:
            print(f"{r['file']:28} {r['tool']:42} FAILED {r.get('error', '')[:300]}", flush=True)

    why = validator_ready()
    if why:
        print(f"gltf-validator not available: {why}", file=sys.stderr, flush=True)
    rows: list[dict] = []
    started = time.perf_counter()
    for src in inputs(args.inputs):
        if not animated(src):
            print(f"{src}: no animations, skipped", flush=True)
            continue
        try:
            new = bench(src, args.output, args.error, not args.skip_ours, args.fps, log)
        except Exception as err:  # noqa: BLE001 -- one bad file must not end the run
            new = [{"file": src.name, "path": str(src), "tool": "-", "ok": False, "error": repr(err)}]
            log(new[0])
        rows += new
        if args.json:  # after every file, so a long run leaves what it has
            args.json.parent.mkdir(parents=True, exist_ok=True)
            write_json(args.json, rows, time.perf_counter() - started)
    if args.json:
        write_json(args.json, rows, time.perf_counter() - started)
    if args.markdown:
        args.markdown.parent.mkdir(parents=True, exist_ok=True)
        args.markdown.write_text(summary(rows) + "\n## Every output\n\n" + markdown(rows))
    print(f"{time.perf_counter() - started:.0f} s in all", flush=True)
    return 0


def write_json(path: Path, rows: list[dict], seconds: float) -> None:
    doc = {
        "gltf_transform": GLTF_TRANSFORM,
        "gltfpack": GLTFPACK,
        "gltf_validator": GLTF_VALIDATOR,
        "seconds": round(seconds, 1),
        "meshopt_flag": MESHOPT_FLAG,
        "comparisons": comparisons(rows),
        "ours_above_e": above_e(rows),
        "rows": rows,
    }
    path.write_text(json.dumps(doc, indent=1))


if __name__ == "__main__":
    raise SystemExit(main())
