"""The task function: what a worker does with one file, the same on this machine and on a Dask cluster.

A request is a plain dict (it crosses pipes and the network)::

    {"label": "lib/Fox/Fox.gltf", "path": "/abs/.../Fox.gltf",
     "previews": None | {"outdir": "/abs/out", "stem": "...", "thumb_size": [192, 144],
                         "preview": None | "gif" | "png" | "mp4", "preview_size": [320, 240], "fps": 15.0,
                         "variants": None | "all" | "NAME" | "K"},   # KHR_materials_variants pictures too
     "against": None | {"path": "/abs/DIR/.../Fox.gltf", "root": "/abs/DIR", ...},   # findings_diff
     "engines": None | ["three", "filament"]}   # findings_engines (None or absent: every engine; []: none)

``run`` checks the file (``check.check_file``; with ``against``, also against its counterpart) and, when
asked, renders its thumbnails and previews with the worker's one GL context (``previews.Previews``, made on
first use and kept for the worker's life).
"""

from __future__ import annotations

from pathlib import Path

from viewer.library.check import check_file
from viewer.library.report import Finding, counts

_previews = None  # the worker's Previews: one EGL context for every file it renders


def run(request: dict) -> dict:
    """The result dict (``report``) of one request."""
    want = request.get("previews")
    found = check_file(
        request["path"], request["label"], True, against=request.get("against"), engines=request.get("engines")
    )
    result, scene = found
    if want and scene is not None:
        _render(result, scene, want)
        result["counts"] = counts(result)
    return result


def _render(result: dict, scene, want: dict) -> None:
    """Thumbnails (and previews) into ``want["outdir"]``; a failure to render is a finding of the file, not
    a failed run: the check's findings stand."""
    global _previews
    from viewer.library.previews import Previews

    try:
        if _previews is None:
            _previews = Previews()
        made = _previews.render(
            scene,
            Path(want["outdir"]),
            want["stem"],
            tuple(want["thumb_size"]),
            want.get("preview"),
            tuple(want["preview_size"]),
            float(want["fps"]),
            want.get("variants"),
        )
    except Exception as exc:  # no GL here, or a driver or shader fault on this file: report it, keep the worker
        line = f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"
        result["findings"].append(Finding("render-error", "", line[:300]).as_dict())
        return
    by_index = {m["index"]: m for m in made if m.get("variant") is None}
    variants: dict = {}  # clip index → its pictures in the variants asked for (``render --outdir --variant``)
    for m in made:
        if m.get("variant") is not None:
            shot = {"index": m["variant"], "name": m["variant_name"], "thumbnail": m["thumbnail"]}
            variants.setdefault(m["index"], []).append({**shot, "preview": m["preview"]})
    for clip in result["clips"]:
        got = by_index.get(clip["index"], {})
        clip["thumbnail"], clip["preview"] = got.get("thumbnail"), got.get("preview")
        if clip["index"] in variants:
            clip["variants"] = variants[clip["index"]]
    if not result["clips"] and made:  # a file without clips: its still, as a clip-less row
        result["thumbnail"] = by_index.get(None, made[0]).get("thumbnail")
        if None in variants:
            result["variants"] = variants[None]
