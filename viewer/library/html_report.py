"""One static HTML page over a library run's results (``animview check PATH... --html OUT.html``).

The page is a single file with its CSS and JS inline and no network access, so it can be mailed, attached to
a CI run or opened from a share. Thumbnails are referenced by URLs relative to the page's folder (the page and
its thumbnails folder move together), or embedded as data: URIs with ``inline_thumbnails=True``.

A library can hold tens of thousands of clips, so the rows are written here as HTML (the browser parses
HTML far faster than a script can build the same DOM from JSON) and the script only sorts and filters the
existing rows: sort keys are read once per column and cached, a sort is one ``Array.sort`` plus re-appending
the rows to the detached body, a filter is one pass setting ``hidden``. Rows are CSS grids with
``content-visibility: auto`` rather than table layout, so the browser lays out only the rows on screen (a
20 000-row table re-laid out whole took seconds per sort). Images are ``loading="lazy"``.

Everything that comes from a file (names, errors, messages, pointers, paths) is HTML-escaped; nothing from a
file is placed inside the script, and a Content-Security-Policy keeps the page off the network.
"""

from __future__ import annotations

import base64
import html
import os
import pathlib
import re
import urllib.parse
from collections import Counter

from . import report
from .html_assets import CSS, JS

# (header, css class, grid track): the order of the cells in every row
COLUMNS = (
    ("thumbnail", "", "112px"),
    ("file", "", "minmax(0, 2fr)"),
    ("clip", "", "minmax(0, 1.2fr)"),
    ("duration (s)", "num", "100px"),
    ("channels", "num", "84px"),
    ("keys", "num", "72px"),
    ("status", "", "92px"),
    ("findings", "", "minmax(0, 1.8fr)"),
    ("time (s)", "num", "68px"),
)

_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def write_html(
    results: list[dict], out: pathlib.Path, title: str = "animview check", inline_thumbnails: bool = False
) -> None:
    """Write the report of ``results`` (file result dicts, see ``report``) to ``out`` as one HTML file.

    ``inline_thumbnails`` embeds the PNGs as data: URIs (a page that travels alone, but larger); otherwise
    they are linked relative to ``out``'s folder.
    """
    out = pathlib.Path(out)
    base = os.path.dirname(os.path.abspath(out))
    rows = []
    code_rows: Counter = Counter()
    for result in results:
        for row, row_codes in _file_rows(result, base, inline_thumbnails):
            rows.append(row)
            code_rows.update(row_codes)
    page = "".join(
        (
            '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">\n',
            '<meta name="viewport" content="width=device-width, initial-scale=1">\n',
            # no network: the page may only use what it carries (images from files or data: URIs)
            "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; img-src file: data: 'self'; "
            "style-src 'unsafe-inline'; script-src 'unsafe-inline'\">\n",
            f"<title>{_esc(title)}</title>\n<style>{_css()}</style></head>\n<body>\n<header>\n",
            f"<h1>{_esc(title)}</h1>\n",
            f'<p class="summary">{_summary(results, len(rows))}</p>\n',
            _controls(code_rows, len(rows)),
            '</header>\n<table id="rows">\n<thead><tr>',
            "".join(
                f'<th class="{cls}" aria-sort="none"><button type="button">{_esc(name)}'
                f'<span class="arrow"></span></button></th>'
                for name, cls, _ in COLUMNS
            ),
            "</tr></thead>\n<tbody>\n",
            "\n".join(rows),
            f"\n</tbody></table>\n<script>{JS}</script>\n</body></html>\n",
        )
    )
    out.write_text(page, encoding="utf-8")


def _css() -> str:
    """The style sheet with the column tracks, one grid template for the header and every row."""
    return CSS.replace("COLUMN_TRACKS", " ".join(track for _, _, track in COLUMNS))


def _file_rows(result: dict, base: str, inline: bool):
    """(row html, the row's finding codes) for one file: a row per clip, or one row when it has no clips
    (a file that did not load, or one with no animations). File-level findings are shown on each of its rows
    (dashed badges), so filtering by a file-level code shows every clip of that file."""
    file_findings = list(result.get("findings") or [])
    status = result.get("status", "ok")
    clips = (result.get("clips") or []) if status == "ok" else []
    file_cell = f'<td title="{_esc(result.get("path") or "")}">{_file_name(result.get("file") or "")}</td>'
    # the run's figures ride in the time cell's tooltip: one attribute, no extra elements per row
    run = (
        f"peak {_fmt(result.get('peak_mb'), 0)} MB · attempts {result.get('attempts', '')} · "
        f"{result.get('worker') or ''}"
    )
    time_cell = _num_cell(result.get("seconds"), 2).replace("<td ", f'<td title="{_esc(run)}" ', 1)
    status_cell = f'<td class="{"st-ok" if status == "ok" else "st-bad"}">{_esc(status)}</td>'
    if not clips:
        if status == "ok":
            clip_cell = '<td><span class="idx">no animations</span></td>'
        else:
            clip_cell = f'<td class="err">{_esc(result.get("error") or status)}</td>'
        cells = (
            '<td data-v="0"><div class="ph">no preview</div></td>',
            file_cell,
            clip_cell,
            '<td class="num"></td>' * 3,
            status_cell,
            _findings_cell([], file_findings),
            time_cell,
        )
        yield _row(cells, [], file_findings, status != "ok")
        return
    for clip in clips:
        findings = list(clip.get("findings") or [])
        name = clip.get("name") or ""
        index = clip.get("index", 0)
        cells = (
            _thumb_cell(clip, base, inline),
            file_cell,
            f'<td data-s="{_esc(name.lower())}\t{int(index):06d}"><span class="idx">#{_esc(index)}</span> '
            f"{_esc(name)}</td>",
            _num_cell(clip.get("duration"), 2),
            _num_cell(clip.get("channels")),
            _num_cell(clip.get("keys")),
            status_cell,
            _findings_cell(findings, file_findings),
            time_cell,
        )
        yield _row(cells, findings, file_findings, False)


def _row(cells, findings, file_findings, failed: bool) -> tuple[str, set]:
    """A ``<tr>`` carrying what the filters test: its codes (data-c), levels (data-l), failed (data-f);
    and its set of codes (the code filter's counts)."""
    both = findings + file_findings
    codes = {f.get("code", "") for f in both}
    levels = " ".join(sorted({f.get("level", "") for f in both}))
    attrs = f' class="has-more" data-c="{_esc(" ".join(sorted(codes)))}" data-l="{_esc(levels)}"' if both else ""
    return f"<tr{attrs}{' data-f' if failed else ''}>{''.join(cells)}</tr>", codes


def _findings_cell(findings, file_findings) -> str:
    """Badges (one per code and level, with the summed count) and the hidden details a click opens:
    every finding's level, code, pointer and message. The sort key ranks errors over warnings over infos."""
    if not findings and not file_findings:
        return '<td data-v="0"></td>'
    badges = []
    per_level = Counter()
    for group, cls in ((findings, ""), (file_findings, " file")):
        summed = Counter()
        for f in group:
            summed[(f.get("level", "info"), f.get("code", ""))] += int(f.get("count", 1) or 1)
            per_level[f.get("level", "info")] += 1
        for (level, code), n in sorted(summed.items(), key=lambda kv: (-report.RANK.get(kv[0][0], 0), kv[0][1])):
            badges.append(f'<span class="badge {_esc(level)}{cls}">{_esc(code)}<b>{n}</b></span>')
    items = [_finding_item(f, "") for f in findings] + [_finding_item(f, "file: ") for f in file_findings]
    key = per_level["error"] * 1_000_000 + per_level["warning"] * 1000 + per_level["info"]
    toggle = '<button type="button" class="tg" aria-expanded="false">\u25b8</button>'
    return f'<td data-v="{key}">{toggle}{"".join(badges)}<ul class="more">{"".join(items)}</ul></td>'


def _finding_item(f: dict, prefix: str) -> str:
    level = f.get("level", "info")
    count = int(f.get("count", 1) or 1)
    return (
        f'<li><span class="lv {_esc(level)}">{_esc(level)}</span> {_esc(prefix)}<b>{_esc(f.get("code", ""))}</b>'
        f"{f' ×{count}' if count != 1 else ''} <code>{_esc(f.get('pointer') or '/')}</code> "
        f"{_esc(f.get('message') or '')}</li>"
    )


def _thumb_cell(clip: dict, base: str, inline: bool) -> str:
    """The clip's thumbnail (lazy), linked to its preview GIF when there is one; a placeholder when the PNG is
    missing, so a run without thumbnails shows no broken images."""
    path = clip.get("thumbnail")
    src = _image_src(path, base, inline) if path else None
    if src is None:
        return '<td data-v="0"><div class="ph">no preview</div></td>'
    img = f'<img class="thumb" loading="lazy" alt="" src="{_esc(src)}">'
    preview = clip.get("preview")
    if preview and os.path.isfile(preview):
        img = f'<a href="{_esc(_relative_url(preview, base))}" target="_blank">{img}</a>'
    return f'<td data-v="1">{img}</td>'


def _image_src(path: str, base: str, inline: bool) -> str | None:
    if not inline:
        return _relative_url(path, base) if os.path.isfile(path) else None
    try:
        data = pathlib.Path(path).read_bytes()
    except OSError:
        return None
    return "data:image/png;base64," + base64.b64encode(data).decode("ascii")


def _relative_url(path: str, base: str) -> str:
    """``path`` as a URL relative to the page's folder (so page and pictures move together); an absolute
    file: URL where there is no relative path (another drive on Windows)."""
    try:
        rel = os.path.relpath(path, base)
    except ValueError:
        return pathlib.Path(path).resolve().as_uri()
    return urllib.parse.quote(rel.replace(os.sep, "/"), safe="/", errors="surrogateescape")


def _summary(results: list[dict], n_rows: int) -> str:
    """Files, clips, failed files by status, findings per level, summed per-file time."""
    summary = report.summarize(results)
    n_clips, levels = summary["clips"], summary["findings"]
    failed = {status: n for status, n in summary["status"].items() if status != "ok" and n}
    seconds = sum(float(r.get("seconds") or 0.0) for r in results)
    parts = [
        f"{len(results)} file{'s' * (len(results) != 1)}",
        f"{n_clips} clip{'s' * (n_clips != 1)}",
        f"{n_rows} row{'s' * (n_rows != 1)}",
    ]
    if failed:
        parts.append(
            '<span class="failed">failed: ' + ", ".join(f"{n} {_esc(s)}" for s, n in sorted(failed.items())) + "</span>"
        )
    else:
        parts.append("none failed")
    parts.append(
        "findings: " + ", ".join(f'<span class="lv-{lv}">{levels[lv]} {lv}</span>' for lv in reversed(report.LEVELS))
    )
    parts.append(f"time {seconds:.1f} s (summed over files)")
    return " · ".join(parts)


def _controls(code_rows: Counter, n_rows: int) -> str:
    """The filters: finding code (only codes present, with how many rows have each), level, name text."""
    opts = [
        '<option value="">all rows</option>',
        '<option value="*any">any finding</option>',
        '<option value="*none">no findings</option>',
        '<option value="*failed">failed files</option>',
    ]
    for code in sorted(c for c in code_rows if c):
        level, what = report.CODES.get(code, ("", ""))
        label = f"{code} ({level}) — {what}" if what else code
        opts.append(f'<option value="{_esc(code)}">{_esc(label)}: {code_rows[code]} rows</option>')
    levels = "".join(f'<option value="{lv}">{lv}</option>' for lv in reversed(report.LEVELS))
    return (
        '<div class="controls">'
        f'<label>finding <select id="code">{"".join(opts)}</select></label>'
        f'<label>level <select id="level"><option value="">any level</option>{levels}</select></label>'
        '<label>name <input id="text" type="search" placeholder="file or clip name"></label>'
        f'<span id="shown">{n_rows} of {n_rows} rows shown</span></div>\n'
    )


def _file_name(name: str) -> str:
    """``dir/dir/name.gltf`` with the folders muted, so the file's own name stands out."""
    head, sep, tail = name.rpartition("/")
    return f'<span class="path">{_esc(head + sep)}</span>{_esc(tail)}' if sep else _esc(name)


def _num_cell(value, digits: int | None = None) -> str:
    """A right-aligned number whose full value is the sort key (data-v); NaN and None sort last."""
    if value is None:
        return '<td class="num"></td>'
    key = (
        ""
        if value != value
        else "Infinity"
        if value == float("inf")
        else "-Infinity"
        if value == -float("inf")
        else repr(value)
    )
    return f'<td class="num" data-v="{key}">{_fmt(value, digits)}</td>'


def _fmt(value, digits: int | None) -> str:
    if value is None:
        return ""
    if digits is None:
        return str(value)
    return f"{float(value):,.{digits}f}"


def _esc(value) -> str:
    """HTML-escape anything from a file, quotes included. Control characters (not allowed in HTML text) become
    U+FFFD, and lone surrogates (undecodable bytes in a file name) their ``\\udcxx`` spelling, so writing
    the page as UTF-8 never fails."""
    text = _CONTROL.sub("\ufffd", str(value))
    text = text.encode("utf-8", "backslashreplace").decode("utf-8")
    return html.escape(text, quote=True)
