"""``animview sample FILE``: animation values at chosen times, as text or DESIGN's JSON schema."""

from __future__ import annotations

import json

from viewer.animation.modes import MODES
from viewer.cli import args as a

NAME = "sample"


def add_parser(subparsers) -> None:
    p = subparsers.add_parser(NAME, help="animation values at chosen times")
    a.add_file_arguments(p)
    p.add_argument("--json", action="store_true")
    a.add_animation_argument(p, default="every animation")
    g = p.add_mutually_exclusive_group()
    g.add_argument("--times", type=a.times, help="comma-separated seconds (default: keys and midpoints)")
    g.add_argument("--steps", type=a.count, help="N evenly spaced times from 0 to the clip's end")
    p.add_argument("--mode", choices=MODES, default="authored")
    a.add_engine_argument(p, "the values engine E's default player shows at those clock times (spec, three, …)")


def run(args) -> int:
    from viewer.files.sampling import sample_animations

    scene = a.load_scene(args, NAME, need_animation=True)
    index = None if args.animation is None else a.pick_clip(scene, args.animation, NAME).index
    engine = None
    if args.engine is not None:
        from viewer import engines

        engine = engines.get(args.engine)
    doc = sample_animations(scene, index, args.times, args.steps, args.mode, engine)
    if args.json:
        print(json.dumps(doc, separators=(",", ":")))
        return 0
    for anim in doc["animations"]:
        print(f"animation {anim['index']} {anim['name']!r} ({anim['duration']:.4f} s)")
        for s in anim["samples"]:
            for node, paths in s["nodes"].items():
                for path, v in paths.items():
                    print(f"  t={s['t']:.4f}  node {node:>3} {path:<11} {_values(v)}")
            for target, v in s.get("pointers", {}).items():
                print(f"  t={s['t']:.4f}  {target} {_values(v)}")
        for where, why in anim["ignored"].items():
            print(f"  ignored {where}: {why}")
    return 0


def _values(v) -> str:
    """A sampled value as text: a vector's components, a scalar, or a visibility's true / false."""
    if isinstance(v, bool):
        return str(v).lower()
    return " ".join(f"{x: .5f}" for x in (v if isinstance(v, list) else [v]))
