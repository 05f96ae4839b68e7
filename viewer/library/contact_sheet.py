"""One picture of a whole library: every clip's thumbnail with its file, its name and its findings.

``write_contact_sheet(results, out)`` takes the file results of a library run (``report``'s shapes) and writes
one PNG: a title bar with the library's totals and the badge colours' legend, then a grid with one cell per
clip — a file that failed (any status but "ok") gets one cell, and so does a file without clips. A cell shows

- the clip's thumbnail (``clip["thumbnail"]``; a file without clips may give ``result["thumbnail"]``), fitted
  into the cell; a hatched placeholder when there is none or it cannot be read;
- the file as given under its root, shortened in the middle (``viewer.base.errors.shorten``) to fit, and the clip's
  index, name and duration;
- with ``render --outdir --variant``, one more cell per clip and KHR_materials_variants variant drawn, right
  after the clip's own, its second line naming the variant first (``variant 1 beach · 0: Walk``: a shortened
  line keeps its ends, and the variant is what tells the cells apart);
- a badge coloured by the worst level among the clip's and its file's findings — error red, warning amber,
  info grey, none green — with the counts per level ("2 warn · 5 info"); a failed file's badge is its status,
  in red, with the error's line above it in red.

Size: ``columns`` defaults to what makes the sheet about 16:10, at most ``MAX_COLUMNS`` (8). A library of more
than ``MAX_CELLS`` (640) cells shows the first 639 and one "+N more" cell, so the picture stays at most
80 rows of 8 — 1 632 × 16 116 px at the default cell — however large the library; sort the results first to
choose what is seen. The output depends only on the inputs (Pillow's own font, no dates), so it can be tested
against a stored picture.
"""

from __future__ import annotations

import math
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from viewer.base.errors import shorten
from viewer.library.report import LEVELS, level_counts, summarize, worst_level

MAX_COLUMNS = 8
MAX_CELLS = 640  # the last one is "+N more" when the library has more
ASPECT = 16 / 10  # width / height the default column count aims at

PAD = 6  # px around a cell's contents
FONT_SIZE = 11
TITLE_SIZE = 14
LINE = FONT_SIZE + 5  # px per text line in a cell
TITLE_H = 30

BACKGROUND = (28, 29, 32)
CELL = (44, 46, 51)
PLACEHOLDER = (60, 62, 68)
HATCH = (78, 80, 87)
TEXT = (232, 233, 236)
DIM = (160, 163, 170)
ERROR_TEXT = (255, 118, 106)
# badge fill and its text colour, per worst level (None: no findings)
BADGE = {
    "error": ((198, 40, 40), (255, 255, 255)),
    "warning": ((240, 165, 0), (20, 20, 20)),
    "info": ((112, 116, 124), (255, 255, 255)),
    None: ((46, 150, 72), (255, 255, 255)),
}
SHORT = {"error": "err", "warning": "warn", "info": "info"}


def font(size: int):
    """Pillow's own scalable font at ``size`` px (Pillow ≥ 10.1 with FreeType); its fixed bitmap font
    where that is missing (smaller and fixed in size, but the sheet still lays out)."""
    try:
        return ImageFont.load_default(size=size)
    except (TypeError, ImportError, OSError, AttributeError):
        return ImageFont.load_default()


def wide(text: str) -> str:
    """``text`` with its spaces doubled: the default font's space is 2 px at 11 px, and words run together."""
    return text.replace(" ", "  ")


def fit(draw: ImageDraw.ImageDraw, text: str, face, width: float) -> str:
    """``text`` as drawn (``wide``), shortened in its middle (``shorten``) until it fits ``width`` px."""
    if draw.textlength(wide(text), font=face) <= width:
        return wide(text)
    lo, hi = 1, len(text)  # the longest limit that fits, by bisection (textlength grows with the limit)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if draw.textlength(wide(shorten(text, mid)), font=face) <= width:
            lo = mid
        else:
            hi = mid - 1
    return wide(shorten(text, lo))


def badge_text(counts: dict) -> str:
    """ "2 warn · 5 info" (levels worst first, zeros left out); "no findings" when all are zero."""
    parts = [f"{counts[level]} {SHORT[level]}" for level in reversed(LEVELS) if counts.get(level)]
    return " · ".join(parts) or "no findings"


def cells_of(results: list[dict]) -> list[dict]:
    """One cell per clip; one per failed file and per file without clips. Each: file, title (the second
    line), thumbnail, counts (None for a failed file), status, error."""
    cells = []
    for r in results:
        file = str(r.get("file") or r.get("path") or "?")
        status = r.get("status", "ok")
        if status != "ok":
            cells.append(
                {
                    "file": file,
                    "title": None,
                    "thumbnail": None,
                    "counts": None,
                    "status": status,
                    "error": r.get("error") or status,
                }
            )
            continue
        file_findings = list(r.get("findings", []))
        clips = r.get("clips", [])
        if not clips:
            cell = {"file": file, "title": "no animations", "thumbnail": r.get("thumbnail")}
            cells += _with_variants(cell, r, level_counts(file_findings), status)
        for clip in clips:
            title = f"{clip.get('index', '?')}: {clip.get('name', '')}"
            if clip.get("duration") is not None:
                title += f" · {clip['duration']:.2f} s"
            cell = {"file": file, "title": title, "thumbnail": clip.get("thumbnail")}
            cells += _with_variants(cell, clip, level_counts(file_findings + list(clip.get("findings", []))), status)
    return cells


def _with_variants(cell: dict, shown: dict, counts: dict, status: str) -> list[dict]:
    """``cell`` (a clip's, or a clip-less file's) and one like it per variant picture of ``shown``."""
    cell.update(counts=counts, status=status, error=None)
    out = [cell]
    for v in shown.get("variants") or []:
        title = f"variant {v.get('index', '?')} {v.get('name', '')} · {cell['title']}"
        out.append({**cell, "title": title, "thumbnail": v.get("thumbnail")})
    return out


def default_columns(n: int, cell_size: tuple[int, int]) -> int:
    """Columns that make ``n`` cells of ``cell_size`` about 16:10, from 1 to ``MAX_COLUMNS``."""
    w, h = cell_size
    return max(1, min(MAX_COLUMNS, n, round(math.sqrt(n * ASPECT * h / w))))


def write_contact_sheet(
    results: list[dict], out: Path, columns: int | None = None, cell: tuple[int, int] = (192, 144)
) -> tuple[int, int]:
    """Write the library's contact sheet PNG to ``out`` (see the module docstring); returns its (width,
    height) in px. ``cell``: the thumbnail area of a cell; the text below adds three lines."""
    cells = cells_of(results)
    shown, hidden = (cells, 0) if len(cells) <= MAX_CELLS else (cells[: MAX_CELLS - 1], len(cells) - MAX_CELLS + 1)
    count = len(shown) + (1 if hidden else 0)
    cw, ch = cell
    cell_w, cell_h = cw + 2 * PAD, PAD + ch + 4 + 3 * LINE + PAD
    cols = max(1, min(columns or default_columns(count, (cell_w, cell_h)), count or 1))
    rows = max(1, math.ceil(count / cols))
    width = max(cols * cell_w + (cols + 1) * PAD, 480)
    height = TITLE_H + rows * cell_h + (rows + 1) * PAD
    sheet = Image.new("RGB", (width, height), BACKGROUND)
    draw = ImageDraw.Draw(sheet)
    face, title_face = font(FONT_SIZE), font(TITLE_SIZE)
    _title(draw, results, len(cells), width, title_face, face)
    for k, c in enumerate(shown):
        x = PAD + (k % cols) * (cell_w + PAD)
        y = TITLE_H + PAD + (k // cols) * (cell_h + PAD)
        _cell(sheet, draw, c, x, y, cell, face)
    if hidden:
        k = len(shown)
        x, y = PAD + (k % cols) * (cell_w + PAD), TITLE_H + PAD + (k // cols) * (cell_h + PAD)
        draw.rectangle((x, y, x + cell_w - 1, y + cell_h - 1), fill=CELL)
        failed = sum(1 for c in cells[len(shown) :] if c["counts"] is None)
        lines = [f"+{hidden} more", "cells not shown"] + ([f"({failed} failed)"] if failed else [])
        for i, text in enumerate(map(wide, lines)):
            tw = draw.textlength(text, font=title_face if i == 0 else face)
            draw.text(
                (x + (cell_w - tw) / 2, y + cell_h / 2 - 24 + i * 20),
                text,
                font=title_face if i == 0 else face,
                fill=TEXT if i == 0 else DIM,
            )
    Path(out).parent.mkdir(parents=True, exist_ok=True)
    sheet.save(out)
    return sheet.size


def _title(draw, results, cells: int, width: int, title_face, face) -> None:
    """Totals on the left; the badge colours' legend on the right."""
    summary = summarize(results)
    totals, clips = summary["findings"], summary["clips"]
    failed = summary["files"] - summary["status"]["ok"]
    plural = lambda n, word: f"{n} {word}{'' if n == 1 else 's'}"  # noqa: E731
    text = (
        f"{plural(len(results), 'file')} · {plural(clips, 'clip')} · {failed} failed · "
        f"{plural(totals['error'], 'error')} · {plural(totals['warning'], 'warning')} · {totals['info']} info"
    )
    legend = [("error", "error"), ("warning", "warning"), ("info", "info"), (None, "none")]
    legend_w = sum(draw.textlength(name, font=face) + 18 for _, name in legend)
    draw.text(
        (PAD + 2, (TITLE_H - TITLE_SIZE) / 2 - 1),
        fit(draw, text, title_face, width - legend_w - 3 * PAD),
        font=title_face,
        fill=TEXT,
    )
    x = width - PAD - legend_w
    for level, name in legend:
        draw.rectangle((x, TITLE_H / 2 - 5, x + 10, TITLE_H / 2 + 5), fill=BADGE[level][0])
        draw.text((x + 14, TITLE_H / 2 - FONT_SIZE / 2 - 1), name, font=face, fill=DIM)
        x += draw.textlength(name, font=face) + 18


def _cell(sheet, draw, c: dict, x: int, y: int, cell: tuple[int, int], face) -> None:
    cw, ch = cell
    failed = c["counts"] is None
    draw.rectangle(
        (x, y, x + cw + 2 * PAD - 1, y + ch + 4 + 3 * LINE + 2 * PAD - 1),
        fill=CELL,
        outline=BADGE["error"][0] if failed else None,
    )
    missing = "not loaded" if c["status"] == "error" else "no picture"
    _picture(sheet, draw, c["thumbnail"], x + PAD, y + PAD, cell, face, missing)
    ty = y + PAD + ch + 4
    draw.text((x + PAD, ty), fit(draw, c["file"], face, cw), font=face, fill=TEXT)
    if failed:  # its error in red, its status as the badge
        draw.text(
            (x + PAD, ty + LINE), fit(draw, error_line(c["error"], c["file"]), face, cw), font=face, fill=ERROR_TEXT
        )
        _badge(draw, x + PAD, ty + 2 * LINE, c["status"], "error", face, cw)
    else:
        draw.text((x + PAD, ty + LINE), fit(draw, c["title"], face, cw), font=face, fill=DIM)
        _badge(draw, x + PAD, ty + 2 * LINE, badge_text(c["counts"]), worst_level(c["counts"]), face, cw)


def error_line(error: str, file: str) -> str:
    """A failed file's error on one line, without the file's name in front (the line above shows it)."""
    text = " ".join(str(error).split())
    for name in (file, Path(file).name):
        if name and text.startswith(name + ":"):
            return text[len(name) + 1 :].lstrip()
    return text


def _badge(draw, x: int, y: int, text: str, level: str | None, face, width: int) -> None:
    fill, ink = BADGE[level]
    text = fit(draw, text, face, width - 10)
    w = draw.textlength(text, font=face) + 10
    draw.rounded_rectangle((x, y, x + w, y + LINE - 2), radius=4, fill=fill)
    draw.text((x + 5, y + (LINE - 2 - FONT_SIZE) / 2 - 1), text, font=face, fill=ink)


def _picture(sheet, draw, path, x: int, y: int, cell: tuple[int, int], face, missing: str) -> None:
    """The thumbnail fitted into the cell (aspect kept, centred), or a hatched placeholder saying ``missing``
    (or "unreadable" for a picture that cannot be read)."""
    cw, ch = cell
    if path:
        try:
            with Image.open(path) as im:
                im = im.convert("RGB")
                if im.size != (cw, ch):
                    scale = min(cw / im.width, ch / im.height)
                    im = im.resize(
                        (max(1, round(im.width * scale)), max(1, round(im.height * scale))), Image.Resampling.LANCZOS
                    )
            sheet.paste(im, (x + (cw - im.width) // 2, y + (ch - im.height) // 2))
            return
        except (OSError, ValueError, SyntaxError):
            missing = "unreadable"
    draw.rectangle((x, y, x + cw - 1, y + ch - 1), fill=PLACEHOLDER)
    for k in range(-ch, cw, 12):  # hatching, clipped to the box
        x0, y0 = max(k, 0), max(-k, 0)
        x1, y1 = min(k + ch, cw), min(cw - k, ch)
        if x1 > x0:
            draw.line((x + x0, y + y0, x + x1 - 1, y + y1 - 1), fill=HATCH)
    text = wide(missing)
    tw = draw.textlength(text, font=face)
    draw.rectangle((x + (cw - tw) / 2 - 4, y + ch / 2 - 9, x + (cw + tw) / 2 + 4, y + ch / 2 + 9), fill=PLACEHOLDER)
    draw.text((x + (cw - tw) / 2, y + ch / 2 - FONT_SIZE / 2 - 1), text, font=face, fill=DIM)
