"""``animview inspect FILE [--json]``: what is in a file, as a readable table or JSON."""

from __future__ import annotations

import json
import math

import numpy as np

from viewer.animation.clip import Channel
from viewer.base.errors import pointer
from viewer.cli import args as a
from viewer.gltf import pointer_rules
from viewer.scene.scene import Scene

NAME = "inspect"


def add_parser(subparsers) -> None:
    p = subparsers.add_parser(NAME, help="what is in the file")
    a.add_file_arguments(p)
    p.add_argument("--json", action="store_true")


def run(args) -> int:
    info = describe(a.load_scene(args, NAME))
    print(json.dumps(info, indent=1) if args.json else table(info))
    return 0


def describe(scene: Scene) -> dict:
    """Counts, skins, morph targets, lights, material variants (KHR_materials_variants: how many primitives each
    maps, and how many of those it gives another material than their own) and every animation channel (node,
    path, interpolation, keys, times)."""
    nodes = scene.nodes
    return {
        "file": str(scene.path),
        "scenes": len(scene.document.raw.get("scenes", [])),
        "nodes": len(nodes),
        "meshes": [
            {"index": i, "name": m.name, "primitives": len(m.primitives), "morph_targets": m.target_count}
            for i, m in enumerate(scene.meshes)
        ],
        "skins": [{"index": i, "name": s.name, "joints": int(len(s.joints))} for i, s in enumerate(scene.skins)],
        "cameras": [{"index": i, "name": c.name, "type": c.type} for i, c in enumerate(scene.cameras)],
        "lights": _lights(scene),
        "variants": _variants(scene),
        "animations": [
            {
                "index": clip.index,
                "name": clip.name,
                "duration": clip.duration,
                "keys": int(len(clip.key_times)),
                "channels": [_channel(scene, ch) for ch in clip.channels],
                "ignored": [
                    {"channel": pointer("animations", anim, "channels", c), "reason": why}
                    for (anim, c), why in sorted(scene.document.ignored_channels.items())
                    if anim == clip.index
                ],
            }
            for clip in scene.clips
        ],
    }


def _channel(scene: Scene, ch: Channel) -> dict:
    """One channel: its node (None for a material, camera or light) and path, and for a KHR_animation_pointer
    channel the pointer, what it animates and the Object Model type."""
    node = ch.node if ch.node >= 0 else None
    out = {
        "node": node,
        "node_name": scene.nodes.names[node] if node is not None else None,
        "path": ch.path,
        "interpolation": ch.curve.interpolation,
        "keys": int(len(ch.curve.times)),
        "start": float(ch.curve.times[0]),
        "end": float(ch.curve.times[-1]),
    }
    if ch.pointer:
        resolved = pointer_rules.resolve(scene.document.raw, ch.pointer)
        out.update(pointer=ch.pointer, target=ch.label(scene.nodes.names), type=resolved.property.type)
    return out


def _variants(scene: Scene) -> list[dict]:
    v = scene.variants
    return [
        {"index": k, "name": name, "primitives": v.mapping_count(k), "changed": v.changed_count(k)}
        for k, name in enumerate(v.names)
    ]


def _lights(scene: Scene) -> list[dict]:
    """Each light with the nodes that carry it (every node of the file, shown or not); cone angles in degrees,
    for spot lights only; range None: unlimited."""
    carriers: list[list[int]] = [[] for _ in scene.lights]
    for node in np.flatnonzero(scene.nodes.light >= 0).tolist():
        carriers[scene.nodes.light[node]].append(node)
    return [
        {
            "index": i,
            "name": light.name,
            "type": light.type,
            "color": light.color.tolist(),
            "intensity": light.intensity,
            "range": light.range,
            "inner_cone_deg": math.degrees(light.inner_cone) if light.type == "spot" else None,
            "outer_cone_deg": math.degrees(light.outer_cone) if light.type == "spot" else None,
            "nodes": carriers[i],
        }
        for i, light in enumerate(scene.lights)
    ]


def _light_line(light: dict) -> str:
    color = ", ".join(f"{c:.3g}" for c in light["color"])
    reach = "unlimited" if light["range"] is None else f"{light['range']:g}"
    cone = f", cone {light['inner_cone_deg']:.4g}°–{light['outer_cone_deg']:.4g}°" if light["type"] == "spot" else ""
    nodes = ", ".join(map(str, light["nodes"])) or "none"
    return (
        f"  light {light['index']} {light['name']!r}: {light['type']}, colour ({color}), intensity "
        f"{light['intensity']:g}, range {reach}{cone}; nodes {nodes}"
    )


def table(info: dict) -> str:
    """The same facts as ``describe``, laid out for a terminal."""
    lines = [
        info["file"],
        f"  scenes {info['scenes']}  nodes {info['nodes']}  meshes {len(info['meshes'])}  "
        f"skins {len(info['skins'])}  cameras {len(info['cameras'])}  lights {len(info['lights'])}  "
        f"animations {len(info['animations'])}",
    ]
    for m in info["meshes"]:
        if m["morph_targets"]:
            lines.append(f"  mesh {m['index']} {m['name']!r}: {m['morph_targets']} morph targets")
    for s in info["skins"]:
        lines.append(f"  skin {s['index']} {s['name']!r}: {s['joints']} joints")
    lines += [_light_line(light) for light in info["lights"]]
    for v in info["variants"]:
        plural = "" if v["primitives"] == 1 else "s"
        lines.append(
            f"  variant {v['index']} {v['name']!r}: {v['primitives']} primitive{plural} mapped, "
            f"{v['changed']} with another material than their own"
        )
    for anim in info["animations"]:
        lines.append(
            f"  animation {anim['index']} {anim['name']!r}: {anim['duration']:.4f} s, "
            f"{len(anim['channels'])} channels, {anim['keys']} distinct key times"
        )
        lines.append(f"    {'node':<28} {'path':<16} {'interp':<12} {'keys':>5}  time range (s)")
        for c in anim["channels"]:
            node = (f"{c['node']} {c['node_name']}" if c["node"] is not None else c["target"].split(" · ")[0])[:28]
            lines.append(
                f"    {node:<28} {c['path']:<16} {c['interpolation']:<12} {c['keys']:>5}  "
                f"{c['start']:.4f} – {c['end']:.4f}"
            )
            if "pointer" in c:
                lines.append(f"      pointer {c['pointer']} ({c['type']})")
        for skipped in anim["ignored"]:
            lines.append(f"    ignored {skipped['channel']}: {skipped['reason']}")
    return "\n".join(lines)
