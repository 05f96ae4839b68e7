"""``animview diff A B``: is B still the same animation as A — where, when and by how much they part.

Exit 0 when every matched clip stays within ``--fail-above``, 1 when one goes beyond it (or a visibility,
morph weight or pointer value differs, or B lacks a clip of A), 2 for bad usage or a file that does not load —
so a pipeline can gate a re-export, a compression or a bake on it. The report is ``viewer.compare.diff``'s;
this module only prints it.
"""

from __future__ import annotations

import json
import os

from viewer.animation.modes import MODES
from viewer.base.errors import UsageError
from viewer.cli import args as a

NAME = "diff"
KERNEL_FILE_BYTES = 2 << 20  # files this big: load the compiled frame (worth it for thousands of nodes or keys)
TABLE_ROWS = 10  # nodes listed per clip in the text report (``--json`` has them all)


def fail_above(text: str) -> tuple[float, bool]:
    """``--fail-above``: a distance in scene units, or ``N%`` of A's scene size → (value, relative)."""
    relative = text.strip().endswith("%")
    value = a.nonnegative(text.strip()[:-1] if relative else text)
    return (value / 100.0 if relative else value), relative


def add_parser(subparsers) -> None:
    p = subparsers.add_parser(NAME, help="compare two versions of an animation: where, when and by how much")
    p.add_argument("file", help="A: the reference .gltf or .glb")
    p.add_argument("other", metavar="file_b", nargs="?", help="B: the version to compare with A (with --engine: A)")
    a.add_outside_folder_argument(p)
    p.add_argument("--animation", default="all", metavar="K|NAME|all", help="A's clip to compare (default: all)")
    a.add_mode_argument(p)
    p.add_argument("--mode-b", choices=MODES, default=None, help="B's interpolation mode (default: --mode)")
    p.add_argument("--fps", type=a.positive, default=120.0, help="grid of times over the clip (default 120)")
    a.add_engine_argument(p, "A as the spec plays it against A as engine E does; with B: E playing both")
    p.add_argument("--json", action="store_true", help="the report as JSON on stdout (schema in README)")
    p.add_argument(
        "--fail-above",
        type=fail_above,
        default=None,
        metavar="X|N%",
        help="exit 1 when a distance passes X scene units or N%% of A's size (default 1e-5 of the size)",
    )


def run(args) -> int:
    from viewer import fast
    from viewer.compare.diff import diff_scenes
    from viewer.scene.scene import load

    if args.other is None and args.engine is None:
        raise UsageError("animview diff: give file B, or --engine E to compare A with how E plays it")
    if sum(_size(f) for f in (args.file, args.other) if f is not None) > KERNEL_FILE_BYTES:
        fast.start()  # loads on the other core while the files load; the measuring uses it once ready
    scene_a = load(args.file, args.allow_outside_folder)
    scene_b = scene_a if args.other is None else load(args.other, args.allow_outside_folder)
    played = (None, None)
    if args.engine is not None:
        from viewer import engines

        engine = engines.get(args.engine)
        played = (None, engine) if args.other is None else (engine, engine)
    only = None if args.animation == "all" else a.pick_clip(scene_a, args.animation, NAME)
    if args.animation != "all" and only is None:
        raise UsageError(f"animview diff: {scene_a.path} has no animations (--animation {args.animation})")
    value, relative = args.fail_above or (None, False)
    report = diff_scenes(scene_a, scene_b, only, args.mode, args.fps, value, relative, args.mode_b, engines=played)
    if args.json:
        print(json.dumps(report, separators=(",", ":")))
    else:
        print("\n".join(text_report(report)))
    return 1 if report["differs"] else 0


def _size(path: str) -> int:
    try:
        return os.stat(path).st_size
    except OSError:
        return 0  # the loader says what is wrong with it


def text_report(r: dict) -> list[str]:
    """The report for people: per clip the worst place and time, the nodes that moved most, the rest."""
    size = r["size"]
    lines = [
        f"A {r['a']}",
        f"B {r['b']}",
        f"scene size {size:.6g} (A's rest pose), threshold {r['threshold']:.3g} ({r['threshold'] / size:.3g} of it)",
        f"nodes matched: {r['matched_nodes']['by_path']} by name path, {r['matched_nodes']['by_index']} by index",
    ]
    for c in r["clips"]:
        lines += _clip_lines(c, size)
    for key, what in (("clips_a", "clips only in A"), ("clips_b", "clips only in B")):
        if r["unmatched"][key]:
            lines.append(f"{what}: {', '.join(repr(n) for n in r['unmatched'][key])}")
    for key, what in (("nodes_a", "nodes only in A"), ("nodes_b", "nodes only in B")):
        names = r["unmatched"][key]
        if names:
            more = f" … ({len(names)} in all)" if len(names) > TABLE_ROWS else ""
            lines.append(f"{what}: {', '.join(names[:TABLE_ROWS])}{more}")
    verdict = "DIFFERENT" if r["differs"] else "same"
    lines.append(f"{verdict}: max distance {r['max_distance']:.6g} ({_pct(r['max_distance_rel'])} of the scene size)")
    return lines


def _clip_lines(c: dict, size: float) -> list[str]:
    worst = c["worst"]
    where = f"node {worst['node']!r}" if worst["kind"] == "node" else f"mesh {worst['mesh']!r} (node {worst['node']!r})"
    lines = [
        f"clip {c['a']!r} ~ {c['b']!r} (matched by {c['matched_by']}, {_modes(c)}, {c['times']} times, "
        f"{c['duration_a']:.4g} s / {c['duration_b']:.4g} s)",
        f"  max {c['max_distance']:.6g} ({_pct(c['max_distance_rel'])}) at t={worst['t']:.4f} s, {where}",
    ]
    if c["first_over"] is not None:
        lines.append(f"  first past the threshold at t={c['first_over']:.4f} s")
    v = c["vertices"]
    if v is not None:
        lines.append(
            f"  vertices: mesh {v['mesh']!r} moved {v['max_distance']:.6g} at t={v['t']:.4f} s "
            f"({v['measured']} of {v['of']} vertices measured, matched by {v['matched_by']})"
        )
    moved = [n for n in c["nodes"] if n["max_distance"] > 0 or n["max_angle_deg"] > 0]
    if moved:
        lines.append(f"  {'node':<32} {'distance':>12} {'of size':>9} {'angle °':>9} {'at t':>9}")
        for n in moved[:TABLE_ROWS]:
            lines.append(
                f"  {n['name'][:32]:<32} {n['max_distance']:>12.6g} {_pct(n['max_distance_rel']):>9} "
                f"{n['max_angle_deg']:>9.4g} {n['t']:>9.4f}"
            )
        if len(moved) > TABLE_ROWS:
            lines.append(f"  … {len(moved) - TABLE_ROWS} more nodes moved (--json lists every node)")
    for w in c["weights"]:
        lines.append(f"  morph weights of {w['node']!r} differ by {w['max_difference']:.6g} at t={w['t']:.4f} s")
    for p in c["pointers"]:
        lines.append(f"  {p['pointer']} differs by {p['max_difference']:.6g} {p['unit']} at t={p['t']:.4f} s")
    for f in c["visibility"]:
        lines.append(f"  visibility of {f['node']!r} differs at {f['flips']} times, first t={f['first_t']:.4f} s")
    s = c["structure"]
    for key, what in (
        ("channels_a", "animated in A only"),
        ("channels_b", "animated in B only"),
        ("pointers_a", "pointer in A only"),
        ("pointers_b", "pointer in B only"),
    ):
        for item in s[key][:TABLE_ROWS]:
            lines.append(f"  {what}: {item}")
    lines += [f"  morph targets differ: {item}" for item in s["morph_targets"]]
    return lines


def _modes(c: dict) -> str:
    modes = f"mode {c['mode']}" if c["mode"] == c["mode_b"] else f"modes {c['mode']} / {c['mode_b']}"
    if c["engine"] == c["engine_b"] == "spec":
        return modes
    return modes + (
        f", as {c['engine']} plays it" if c["engine"] == c["engine_b"] else f", {c['engine']} / {c['engine_b']}"
    )


def _pct(fraction: float) -> str:
    return f"{100 * fraction:.3g}%"
