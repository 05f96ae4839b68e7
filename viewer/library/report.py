"""The shapes a library run exchanges: findings, a clip's and a file's result, as plain JSON-able dicts.

A file's result crosses a pipe (local sandboxes) or the network (Dask) and lands in ``--json`` unchanged, so
it is a dict of str / int / float / list / None only. ``check`` of one file and a library run of ten
thousand produce the same dict for the same file (``Result.comparable`` drops what depends on the run:
timings, memory, the worker and where outputs were written).

Result of one file::

    {"file": "Fox/glTF/Fox.gltf",        # as given under its root (the root's own name first)
     "path": "/abs/Fox/glTF/Fox.gltf",
     "status": "ok" | "error" | "time-limit" | "memory-limit" | "crashed",
     "error": None | "one line",          # GltfError's line, or what the limit / crash was
     "findings": [finding, ...],          # file-level (extensions, load warnings, ...)
     "clips": [{"index": 0, "name": "Survey", "duration": 3.41, "channels": 24, "keys": 1992,
                "findings": [finding, ...], "thumbnail": None | "/abs/x.png", "preview": None | "/abs/x.gif",
                "variants": [{"index": 1, "name": "beach", "thumbnail": "/abs/x.png", "preview": None}]}],
                                          # a clip's "variants": only from render --outdir --variant
     "counts": {"error": 0, "warning": 2, "info": 5},   # over the file's and its clips' findings
     "thumbnail": None | "/abs/x.png",    # only a file without clips: its still (rendered runs only)
     "variants": [...],                   # only a file without clips, rendered with --variant: as a clip's
     "against": {"counterpart": "opt/Fox/Fox.gltf", "status": "same" | "differs" | "missing" | "error",
                 "max_distance": 0.0 | None, "max_distance_rel": 0.0 | None},   # only with --against
     "seconds": 0.12, "peak_mb": 143.0, "attempts": 1, "worker": "local-0"}

A finding::

    {"code": "rotation-flip", "level": "warning", "pointer": "/animations/0/samplers/3/output",
     "message": "one line for a person", "count": 2}
"""

from __future__ import annotations

from dataclasses import dataclass

LEVELS = ("info", "warning", "error")  # ascending; ``--fail-on LEVEL`` fails on that level and above
RANK = {name: i for i, name in enumerate(LEVELS)}

# code -> (level, what it means in a few words: the HTML filter and the contact sheet's legend use it)
CODES = {
    "load-error": ("error", "the file does not load"),
    "time-limit": ("error", "over the per-file time limit"),
    "memory-limit": ("error", "over the per-file memory limit"),
    "crashed": ("error", "the worker died on it twice"),
    "render-error": ("error", "loads, but a preview could not be rendered"),
    "loop-seam": ("info", "value or velocity jumps where the clip loops"),
    "step-on-key": ("warning", "STEP keys at another channel's key times"),
    "rotation-flip": ("warning", "rotation keys more than 180° apart"),
    "near-duplicate-keys": ("warning", "keys closer than a tenth of a millisecond"),
    "redundant-keys": ("info", "keys a linear resample reproduces"),
    "reducible": ("info", "bytes animview reduce at 0.1 mm would save"),
    "zero-scale": ("warning", "scale keys of zero"),
    "absurd-value": ("warning", "finite but absurd magnitudes"),
    "ignored-channel": ("warning", "channels the viewer does not apply"),
    "unused-channel": ("info", "channels of nodes the scene does not show"),
    "unused-sampler": ("info", "samplers no channel uses"),
    "ignored-extension": ("warning", "extensions the viewer does not implement"),
    "unused-extension": ("info", "extensions declared but not used"),
    "load-warning": ("warning", "other warnings while loading"),
    "engine-divergence": ("warning", "engines play it visibly differently from the spec"),
    "differs": ("warning", "moves differently from its counterpart (--against)"),
    "counterpart-error": ("warning", "its counterpart (--against) does not load"),
    "no-counterpart": ("info", "no file at the same path under --against"),
}
STATUSES = ("ok", "error", "time-limit", "memory-limit", "crashed")
RUN_KEYS = ("seconds", "peak_mb", "attempts", "worker")  # depend on the run, not the file
OUTPUT_KEYS = ("thumbnail", "preview", "variants")  # where this run wrote pictures


@dataclass(frozen=True)
class Finding:
    """One thing an animator should know, at one place in the file (``pointer``, RFC 6901)."""

    code: str
    pointer: str
    message: str
    count: int = 1

    @property
    def level(self) -> str:
        return CODES[self.code][0]

    def as_dict(self) -> dict:
        return {
            "code": self.code,
            "level": self.level,
            "pointer": self.pointer,
            "message": self.message,
            "count": int(self.count),
        }


def level_counts(findings) -> dict:
    """Findings per level (every level present, zeros included)."""
    out = {level: 0 for level in LEVELS}
    for f in findings:
        out[f["level"]] += 1
    return out


def worst_level(level_totals: dict) -> str | None:
    """The highest level with a non-zero count (None: none)."""
    present = [level for level in LEVELS if level_totals.get(level)]
    return present[-1] if present else None


def counts(result: dict) -> dict:
    """Findings per level over a file result's own and its clips' findings."""
    return level_counts(all_findings(result))


def all_findings(result: dict) -> list[dict]:
    """The file's findings, then each clip's, in order."""
    found = list(result.get("findings", []))
    for clip in result.get("clips", []):
        found.extend(clip.get("findings", []))
    return found


def worst(result: dict) -> str | None:
    """The highest level among a result's findings (None: no findings)."""
    return worst_level(counts(result))


def summarize(results: list[dict], seconds: float | None = None) -> dict:
    """Counts a person and a script want first: files by status, clips, findings by level and by code
    (``--json``'s summary, the terminal's last line, the HTML page's and the contact sheet's titles)."""
    by_status = {s: 0 for s in STATUSES}
    by_code: dict[str, int] = {}
    clips = 0
    found = []
    for r in results:
        by_status[r.get("status", "ok")] += 1
        clips += len(r.get("clips") or [])
        found.extend(all_findings(r))
    for f in found:
        by_code[f["code"]] = by_code.get(f["code"], 0) + 1
    out = {
        "files": len(results),
        "clips": clips,
        "status": by_status,
        "findings": level_counts(found),
        "codes": dict(sorted(by_code.items())),
        "retried": sum(1 for r in results if r.get("attempts", 1) > 1),
    }
    if seconds is not None:
        out["seconds"] = round(seconds, 3)
    return out


def comparable(result: dict) -> dict:
    """``result`` without what depends on the run (timings, worker, attempts, output paths): two runs over
    the same file, in one process or on a cluster, give equal comparables."""
    out = {k: v for k, v in result.items() if k not in RUN_KEYS and k not in OUTPUT_KEYS}
    out["clips"] = [{k: v for k, v in clip.items() if k not in OUTPUT_KEYS} for clip in result.get("clips", [])]
    return out
