"""One file's check: load it as the viewer would, then judge every clip (``findings``). No GL, no limits:
the sandbox around it bounds time and memory, and a library run calls exactly this for each file, so a
file's result in a run of ten thousand equals ``animview check`` of that file alone."""

from __future__ import annotations

import time
import warnings
from pathlib import Path

from viewer.base.errors import GltfError, GltfWarning, shorten
from viewer.library.findings import scene_findings
from viewer.library.report import Finding, counts
from viewer.scene.scene import load


def check_file(
    path: str | Path,
    label: str | None = None,
    keep_scene: bool = False,
    against: dict | None = None,
    engines: list[str] | tuple[str, ...] | None = None,
    reduce: bool = True,
):
    """The result dict of ``report`` for ``path`` (``label``: how the report names it; default the path).

    ``engines``: the engines whose playback is compared with the spec's (``findings_engines``: an
    ``engine-divergence`` finding per clip some of them play visibly differently); None (the default): every
    engine; empty: none. ``reduce``: a ``reducible`` hint per clip a reduce at 0.1 mm would make smaller.

    ``against``: its counterpart in a second library (``findings_diff`` describes the dict); the diff's
    findings join the file's and its clips', and the result gets an ``against`` summary.

    With ``keep_scene`` returns ``(result, scene)`` (scene None when the file does not load), for a caller
    that renders it next.
    """
    path = Path(path)
    start = time.perf_counter()
    result = {"file": label or str(path), "path": str(path), "status": "ok", "error": None, "findings": [], "clips": []}
    scene = None
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", GltfWarning)
        try:
            scene = load(path)
        except GltfError as exc:
            if isinstance(exc.__cause__, MemoryError):
                raise MemoryError() from exc  # the loader's one-line catch-all; here a limit, not a bad file
            # The report names the file already: the line keeps where in it (or which other file) and why.
            where = ":".join(([exc.file] if exc.file != str(path) else []) + ([exc.pointer] if exc.pointer else []))
            line = shorten((f"{where}: " if where else "") + exc.message.replace("\n", " "), 400)
            result.update(status="error", error=line, findings=[Finding("load-error", exc.pointer, line).as_dict()])
    if scene is not None:
        messages = [str(w.message) for w in caught if issubclass(w.category, GltfWarning)]
        file_findings, clip_findings = scene_findings(scene, messages)
        if engines is None or len(engines):
            _add_engines(clip_findings, scene, engines)
        if reduce:
            from viewer.library.findings_reduce import reduce_findings

            for index, found in reduce_findings(scene).items():
                clip_findings[index] = clip_findings.get(index, []) + found
        result["findings"] = [f.as_dict() for f in file_findings]
        result["clips"] = [
            {
                "index": clip.index,
                "name": clip.name,
                "duration": float(clip.duration),
                "channels": len(clip.channels),
                "keys": int(sum(len(ch.curve.times) for ch in clip.channels)),
                "findings": [f.as_dict() for f in clip_findings.get(clip.index, [])],
                "thumbnail": None,
                "preview": None,
            }
            for clip in scene.clips
        ]
        if against is not None:
            _add_against(result, scene, against)
    result["counts"] = counts(result)
    result["seconds"] = time.perf_counter() - start
    return (result, scene) if keep_scene else result


def _add_against(result: dict, scene, against: dict) -> None:
    """The counterpart's findings into ``result`` (after the file's own: they are about the pair)."""
    from viewer.library.findings_diff import against_findings

    file_findings, clip_findings, result["against"] = against_findings(scene, against)
    result["findings"] += [f.as_dict() for f in file_findings]
    for clip in result["clips"]:
        clip["findings"] += [f.as_dict() for f in clip_findings.get(clip["index"], [])]


def _add_engines(clip_findings: dict, scene, engines) -> None:
    """The engines' ``engine-divergence`` findings after each clip's own (imported here, as ``findings_diff``
    is: it brings the diff and the engines, which a run with ``--engines none`` does not need)."""
    from viewer.library.findings_engines import engine_findings

    for index, found in engine_findings(scene, None if engines is None else tuple(engines)).items():
        clip_findings[index] = clip_findings.get(index, []) + found
