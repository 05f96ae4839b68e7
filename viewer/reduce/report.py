"""What a reduction did, per file, clip and node: keys and bytes before and after, the errors, and why.

Bytes are animation bytes: every accessor an animation sampler reads, at its stored size (a meshopt-compressed
view counts its share of the compressed bytes), each once however many samplers share it. Errors are the
written file's, as ``animview diff`` measured it (max, and the 99th percentile over time of the worst point at
each time), and per node as the reduction's own world measurement bounded it. Plain JSON-able data: ``--json``
writes it as it is, and the text is made from it.
"""

from __future__ import annotations

import numpy as np

from viewer.gltf.accessors import element_size
from viewer.reduce.file import Outcome

RULES = ("linear", "slerp", "cubic", "step", "quantized", "constant", "rest", "exact")


def animation_bytes(doc: dict) -> tuple[int, int]:
    """(keys, bytes) of every animation's samplers: keys are input counts, bytes the accessors' stored sizes."""
    accessors, views = doc.get("accessors", []), doc.get("bufferViews", [])
    used, keys = set(), 0
    for anim in doc.get("animations", []):
        for s in anim.get("samplers", []):
            used.update((s.get("input"), s.get("output")))
            keys += int(accessors[s["input"]].get("count", 0)) if s.get("input") is not None else 0
    total = 0
    for i in sorted(x for x in used if isinstance(x, int) and 0 <= x < len(accessors)):
        acc = accessors[i]
        raw = int(acc.get("count", 0)) * element_size(acc["type"], acc["componentType"])
        raw += -raw % 4
        view = views[acc["bufferView"]] if isinstance(acc.get("bufferView"), int) else {}
        packed = {**view.get("extensions", {})}.get("EXT_meshopt_compression") or view.get("extensions", {}).get(
            "KHR_meshopt_compression"
        )
        if packed and view.get("byteLength"):
            raw = round(raw * int(packed.get("byteLength", view["byteLength"])) / int(view["byteLength"]))
        total += raw
    return keys, total


def p99(diff_clip: dict) -> float:
    """The 99th percentile, over the measured times, of the worst distance at each time."""
    over = np.asarray(diff_clip.get("over_time") or [[0.0, 0.0]], np.float64)
    return float(np.percentile(over[:, 1], 99))


def build(outcome: Outcome) -> dict:
    """The report of one reduction (README's schema for ``animview reduce --json``)."""
    size = outcome.size
    kb, bb = animation_bytes(outcome.source_doc)
    ka, ba = animation_bytes(outcome.written_doc)
    clips = [_clip(r, d, size, outcome.names) for r, d in zip(outcome.reduced, _matched(outcome))]
    worst = max((c["max_error"] for c in clips), default=0.0)
    return {
        "file": str(outcome.source),
        "output": str(outcome.path),
        "max_error_allowed": outcome.error,
        "size": size,
        "keys_before": kb,
        "keys_after": ka,
        "animation_bytes_before": bb,
        "animation_bytes_after": ba,
        "file_bytes_before": outcome.file_before,
        "file_bytes_after": outcome.file_after,
        "max_error": worst,
        "max_error_rel": worst / size,
        "p99_error": max((c["p99_error"] for c in clips), default=0.0),
        "within": worst <= outcome.error * (1 + 1e-9) + 1e-12 * size,
        "seconds": outcome.seconds,
        "unused_accessors_kept": outcome.pruned,
        "clips": clips,
    }


def _matched(outcome: Outcome) -> list[dict]:
    """The diff's clip entry for each reduced clip (the diff lists every clip of the file, matched by name)."""
    by_name = {c["a"]: c for c in outcome.diff["clips"]}
    return [by_name.get(r.clip.name, {"max_distance": 0.0}) for r in outcome.reduced]


def _clip(r, diff_clip: dict, size: float, names: tuple) -> dict:
    rules = {rule: {"channels": 0, "keys_removed": 0} for rule in RULES}
    nodes: dict[str, dict] = {}
    for p in r.plans:
        rules[p.rule]["channels"] += 1
        rules[p.rule]["keys_removed"] += p.keys_before - p.keys_after
        ch = p.source
        name = names[ch.node] if ch.consumer == "node" else f"{ch.consumer} {ch.index}"
        row = nodes.setdefault(
            name,
            {
                "node": name,
                "keys_before": 0,
                "keys_after": 0,
                "bytes_before": 0,
                "bytes_after": 0,
                "max_error": float(r.node_error[ch.node]) if ch.consumer == "node" else 0.0,
                "channels": {},
            },
        )
        row["keys_before"] += p.keys_before
        row["keys_after"] += p.keys_after
        row["bytes_before"] += p.bytes_before
        row["bytes_after"] += p.bytes_after
        row["channels"][ch.path if ch.element is None else f"{ch.path}[{ch.element}]"] = p.rule
    return {
        "name": r.clip.name,
        "index": r.clip.index,
        "keys_before": sum(p.keys_before for p in r.plans),
        "keys_after": sum(p.keys_after for p in r.plans),
        "bytes_before": sum(p.bytes_before for p in r.plans),
        "bytes_after": sum(p.bytes_after for p in r.plans),
        "max_error": float(diff_clip["max_distance"]),
        "max_error_rel": float(diff_clip["max_distance"]) / size,
        "p99_error": p99(diff_clip),
        "worst": diff_clip.get("worst"),
        "bound_error": float(r.node_error.max(initial=0.0)),
        "rounds": r.rounds,
        "rules": {k: v for k, v in rules.items() if v["channels"]},
        "nodes": sorted(nodes.values(), key=lambda n: -(n["bytes_before"] - n["bytes_after"])),
    }


def text(report: dict, rows: int = 8) -> str:
    """The report as lines for a terminal: the file's totals, then per clip its totals and its top nodes."""
    r = report
    unit = _unit(r["size"])

    def pct(a, b):
        return f"{100.0 * (1 - b / a):.0f}% less" if a else "—"

    lines = [
        f"wrote {r['output']} ({r['file_bytes_after']} bytes, was {r['file_bytes_before']})",
        f"  keys {r['keys_before']} → {r['keys_after']}, animation bytes {r['animation_bytes_before']} → "
        f"{r['animation_bytes_after']} ({pct(r['animation_bytes_before'], r['animation_bytes_after'])})",
        f"  error max {unit(r['max_error'])} ({100 * r['max_error_rel']:.2g}% of size), 99th percentile "
        f"{unit(r['p99_error'])}; allowed {unit(r['max_error_allowed'])} — {'within' if r['within'] else 'OVER'}",
    ]
    for c in r["clips"]:
        how = ", ".join(f"{k} {v['channels']}" for k, v in c["rules"].items())
        lines.append(
            f"  clip {c['index']} {c['name']!r}: keys {c['keys_before']} → {c['keys_after']}, "
            f"max {unit(c['max_error'])} ({how})"
        )
        for n in c["nodes"][:rows]:
            lines.append(
                f"    {n['node']}: keys {n['keys_before']} → {n['keys_after']}, bytes {n['bytes_before']} → "
                f"{n['bytes_after']}, bound {unit(n['max_error'])}"
            )
    return "\n".join(lines)


def _unit(size: float):
    """Distances in mm where the scene is human-sized in metres (glTF's unit), else in scene units."""
    metres = 0.05 <= size <= 50.0
    return (lambda d: f"{d * 1000:.3g} mm") if metres else (lambda d: f"{d:.3g}")
