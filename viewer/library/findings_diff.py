"""``check --against DIR``: each checked file against its counterpart in a second library, as findings.

A library is often kept twice — the authored originals and their optimized, compressed or re-exported copies —
and what a team wants to know of the copies is whether any still moves differently. The counterpart is the file
at the same path below DIR; it is compared with ``compare.diff`` (A = the checked file, B = the counterpart)
and every clip the diff says differs becomes a ``differs`` finding of that clip, with the largest distance (in
scene units and as a share of A's size), the place and the time. A counterpart that is missing, or that links
out of DIR, is ``no-counterpart``; one that does not load, ``counterpart-error``. Pure numpy, no GL: it runs in
the worker beside the other findings, under the same time and memory limits.

The request's ``against`` (built by ``run.requests_for``)::

    {"path": "/abs/DIR/sub/x.glb", "root": "/abs/DIR", "label": "DIR/sub/x.glb",
     "mode": "authored", "fps": 120.0, "fail_above": None | float, "relative": False}
"""

from __future__ import annotations

import warnings
from pathlib import Path

from viewer.base.errors import GltfError, GltfWarning, shorten
from viewer.compare.diff import DEFAULT_FPS, diff_scenes
from viewer.compare.diff_report import VALUE_TOLERANCE
from viewer.compare.matching import match_clips
from viewer.library.report import Finding
from viewer.scene.scene import Scene, load

MESSAGE_CHARS = 400


def against_findings(scene: Scene, against: dict) -> tuple[list[Finding], dict[int, list[Finding]], dict]:
    """(file findings, clip index → findings, the result's ``against`` summary) of ``scene`` against its
    counterpart. The summary's ``status`` is ``same``, ``differs``, ``missing`` or ``error``."""
    label = against["label"]
    summary = {"counterpart": label, "status": "missing", "max_distance": None, "max_distance_rel": None}
    found = _counterpart(against)
    if isinstance(found, str):
        return [Finding("no-counterpart", "", shorten(found, MESSAGE_CHARS))], {}, summary
    try:
        with warnings.catch_warnings():  # B's load warnings are not A's: they must not become A's findings
            warnings.simplefilter("ignore", GltfWarning)
            other = load(found)
    except GltfError as exc:
        if isinstance(exc.__cause__, MemoryError):
            raise MemoryError() from exc  # a limit of this run, as for the checked file itself
        line = shorten(f"{label} does not load: {exc.message}".replace("\n", " "), MESSAGE_CHARS)
        return [Finding("counterpart-error", "", line)], {}, dict(summary, status="error")
    with warnings.catch_warnings():  # posing B may warn of B's undrawable nodes: not findings of A
        warnings.simplefilter("ignore", GltfWarning)
        report = diff_scenes(
            scene,
            other,
            mode=against.get("mode", "authored"),
            fps=float(against.get("fps") or DEFAULT_FPS),
            fail_above=against.get("fail_above"),
            relative=bool(against.get("relative")),
        )
    file_level, by_clip = _findings(scene, other, report, label)
    differs = bool(file_level or by_clip)
    summary.update(
        status="differs" if differs else "same",
        max_distance=report["max_distance"],
        max_distance_rel=report["max_distance_rel"],
    )
    return file_level, by_clip, summary


def _counterpart(against: dict) -> Path | str:
    """The counterpart's resolved path, or the line saying why there is none: absent, not a file, or a link
    out of DIR (a library must not make the checker read what lies outside the folders it was given)."""
    path, root, label = Path(against["path"]), Path(against["root"]), against["label"]
    if not path.is_file():
        return f"no counterpart: {label} does not exist"
    real = path.resolve()
    if real != root and not real.is_relative_to(root):
        return f"no counterpart: {label} links out of {root.name or root}"
    return real


def _findings(a: Scene, b: Scene, report: dict, label: str) -> tuple[list[Finding], dict[int, list[Finding]]]:
    """``differs`` findings: per differing clip, per clip of A that B lacks, and at file level the clips only B
    has (and the rest-pose comparison of files without clips)."""
    pairs, only_a, only_b = match_clips(a, b)
    file_level: list[Finding] = []
    by_clip: dict[int, list[Finding]] = {}
    if not pairs and report["clips"]:  # neither file has clips: the report compared rest poses
        c = report["clips"][0]
        if c["differs"]:
            file_level.append(Finding("differs", "", _message(c, report, label, "rest pose"), _over(c, report)))
    for (ca, _, _), c in zip(pairs, report["clips"]):
        if c["a"] != ca.name:  # the report's clips follow match_clips's pairs; a change there must not misplace
            raise AssertionError(f"diff report clip {c['a']!r} is not clip {ca.index} {ca.name!r}")
        if c["differs"]:
            text = _message(c, report, label, f"clip {c['b']!r}")
            finding = Finding("differs", f"/animations/{ca.index}", text, _over(c, report))
            by_clip.setdefault(ca.index, []).append(finding)
    for ca in only_a:
        text = f"differs from {label}: it has no clip matching this one (by name or index)"
        by_clip.setdefault(ca.index, []).append(Finding("differs", f"/animations/{ca.index}", text))
    if only_b:
        names = ", ".join(repr(c.name) for c in only_b)
        file_level.append(Finding("differs", "", shorten(f"{label} has clips this file lacks: {names}", MESSAGE_CHARS)))
    return file_level, by_clip


def _over(c: dict, report: dict) -> int:
    """How many nodes and meshes go past the threshold (at least 1: the clip differs by something); a mesh
    node counts once, by its mesh's vertices (``geometry``), not again by its origin."""
    threshold = report["threshold"]
    nodes = sum(e["max_distance"] > threshold for e in c["nodes"] if not e["geometry"])
    n = nodes + sum(e["max_distance"] > threshold for e in c["meshes"])
    return max(int(n), 1)


def _message(c: dict, report: dict, label: str, what: str) -> str:
    """One line: the largest distance and where and when, then what else differs (weights, values, visibility)."""
    w = c["worst"]
    place = f"node {w['node']!r}" if w["kind"] == "node" else f"mesh {w.get('mesh')!r} (node {w['node']!r})"
    parts = [
        f"differs from {label} ({what}, mode {c['mode']}): max distance {c['max_distance']:.6g} "
        f"({100 * c['max_distance_rel']:.3g} % of the scene size) at t={w['t']:.4f} s, {place}"
    ]
    if c["first_over"] is not None:
        parts.append(f"first past {report['threshold']:.3g} at t={c['first_over']:.4f} s")
    if c["weights"] and c["weights"][0]["max_difference"] > VALUE_TOLERANCE:
        e = c["weights"][0]
        parts.append(f"morph weights of {e['node']!r} by {e['max_difference']:.3g} at t={e['t']:.4f} s")
    e = max(c["pointers"], key=lambda e: e["max_difference"], default=None)
    if e is not None and e["max_difference"] > VALUE_TOLERANCE:
        parts.append(f"{e['pointer']} by {e['max_difference']:.3g} {e['unit']} at t={e['t']:.4f} s")
    if c["visibility"]:
        e = c["visibility"][0]
        parts.append(f"visibility of {e['node']!r} at {e['flips']} times from t={e['first_t']:.4f} s")
    return shorten("; ".join(parts), MESSAGE_CHARS)
