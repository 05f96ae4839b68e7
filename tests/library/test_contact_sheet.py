"""``viewer.library.contact_sheet``: one PNG of a library's clips, their files and their findings.

The picture test uses thumbnails drawn by Pillow (not rendered), so the baseline depends only on Pillow and its
font, and compares under the golden rule of ``render_helpers`` (fewer than 1 % of pixels off by more than
8/255: room for another FreeType's antialiasing of the text, none for a moved cell or a changed colour).
"""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image, ImageDraw

from tests.render.conftest import assert_matches_golden
from viewer.library import contact_sheet as cs
from viewer.library.report import Finding


def finding(code: str, n: int = 1) -> dict:
    return Finding(code, "/animations/0", f"{code} here", n).as_dict()


def drawn_thumbnail(path, hue: int, size=(192, 144)):
    """A deterministic stand-in for a rendered thumbnail: a vertical gradient, a disc and a box."""
    w, h = size
    ramp = np.linspace(40, 90, h, dtype=np.float64)[:, None, None]
    rgb = np.broadcast_to(ramp, (h, w, 3)).astype(np.uint8).copy()
    im = Image.fromarray(rgb)
    d = ImageDraw.Draw(im)
    colour = [(220, 120, 60), (70, 160, 220), (120, 200, 90), (200, 90, 200)][hue % 4]
    d.ellipse((w * 0.15, h * 0.2, w * 0.55, h * 0.75), fill=colour)
    d.rectangle((w * 0.6, h * 0.35, w * 0.85, h * 0.8), fill=(230, 230, 230))
    d.line((0, h * 0.85, w, h * 0.85), fill=(200, 60, 60), width=2)
    im.save(path)
    return str(path)


def clip(index, name, duration, findings=(), thumbnail=None) -> dict:
    return {
        "index": index,
        "name": name,
        "duration": duration,
        "channels": 3,
        "keys": 30,
        "findings": list(findings),
        "thumbnail": thumbnail,
        "preview": None,
    }


def library(tmp_path) -> list[dict]:
    """Eight cells: clean, warned, errored, failed (two ways), no picture, unreadable picture, no clips."""
    t = [drawn_thumbnail(tmp_path / f"t{k}.png", k) for k in range(4)]
    small = drawn_thumbnail(tmp_path / "small.png", 1, size=(96, 96))  # another aspect: fitted, centred
    broken = tmp_path / "broken.png"
    broken.write_bytes(b"not a png")
    long_name = "characters/heroes/a_really_long_folder_name/Some_Very_Long_Character_Name_With_Many_Words_v2.glb"
    return [
        {
            "file": "props/Crate.gltf",
            "status": "ok",
            "error": None,
            "findings": [],
            "clips": [
                clip(0, "Open", 1.25, thumbnail=t[0]),
                clip(1, "Close", 0.5, [finding("rotation-flip"), finding("rotation-flip"), finding("loop-seam")], t[1]),
            ],
        },
        {
            "file": long_name,
            "status": "ok",
            "error": None,
            "findings": [finding("unused-extension")],
            "clips": [
                clip(
                    0,
                    "A clip name far too long to fit in one thumbnail cell",
                    12.0,
                    [finding("load-error"), finding("zero-scale")],
                    t[2],
                )
            ],
        },
        {
            "file": "broken/Truncated.glb",
            "status": "error",
            "findings": [finding("load-error")],
            "clips": [],
            "error": "broken/Truncated.glb: /bufferViews/3: byteOffset + byteLength (9000) is past the end of buffer 0 "
            "(4096 bytes)",
        },
        {
            "file": "slow/Huge.gltf",
            "status": "time-limit",
            "error": "over the per-file time limit (60 s)",
            "findings": [],
            "clips": [clip(0, "Idle", 2.0, thumbnail=t[3])],
        },
        {
            "file": "misc/NoPicture.gltf",
            "status": "ok",
            "error": None,
            "findings": [],
            "clips": [
                clip(0, "Wave", 3.0, [finding("redundant-keys"), finding("unused-channel")], None),
                clip(1, "Square", 1.0, [], small),
            ],
        },
        {
            "file": "misc/Unreadable.gltf",
            "status": "ok",
            "error": None,
            "findings": [],
            "clips": [clip(0, "Spin", 4.0, [], str(broken))],
        },
        {
            "file": "static/Statue.glb",
            "status": "ok",
            "error": None,
            "findings": [finding("unused-sampler")],
            "clips": [],
        },
    ]


def read(path) -> np.ndarray:
    return np.asarray(Image.open(path).convert("RGB"))


def cell_origin(k: int, cols: int, cell=(192, 144)) -> tuple[int, int]:
    cell_w, cell_h = cell[0] + 2 * cs.PAD, cs.PAD + cell[1] + 4 + 3 * cs.LINE + cs.PAD
    return cs.PAD + (k % cols) * (cell_w + cs.PAD), cs.TITLE_H + cs.PAD + (k // cols) * (cell_h + cs.PAD)


def badge_colour(rgb: np.ndarray, k: int, cols: int, cell=(192, 144)) -> tuple[int, ...]:
    """The fill at the left end of cell k's badge (left of its text)."""
    x, y = cell_origin(k, cols, cell)
    by = y + cs.PAD + cell[1] + 4 + 2 * cs.LINE + (cs.LINE - 2) // 2
    return tuple(int(v) for v in rgb[by, x + cs.PAD + 2])


def test_contact_sheet_matches_baseline(tmp_path):
    out = tmp_path / "sheet.png"
    size = cs.write_contact_sheet(library(tmp_path), out)
    rgb = read(out)
    assert size == (rgb.shape[1], rgb.shape[0])
    assert_matches_golden("library_contact_sheet", rgb)


def test_badges_are_coloured_by_the_worst_level(tmp_path):
    out = tmp_path / "sheet.png"
    cs.write_contact_sheet(library(tmp_path), out, columns=4)
    rgb = read(out)
    expected = [None, "warning", "error", "error", "error", "info", None, None, "info"]  # failed files: red
    assert [badge_colour(rgb, k, 4) for k in range(9)] == [cs.BADGE[level][0] for level in expected]


def test_cells_one_per_clip_one_per_failed_or_clipless_file(tmp_path):
    cells = cs.cells_of(library(tmp_path))
    assert [c["file"].split("/")[0] for c in cells] == [
        "props",
        "props",
        "characters",
        "broken",
        "slow",
        "misc",
        "misc",
        "misc",
        "static",
    ]
    failed = [c for c in cells if c["counts"] is None]
    assert [c["status"] for c in failed] == ["error", "time-limit"]  # the timed-out file's clip is not listed
    assert cells[1]["counts"] == {"info": 1, "warning": 2, "error": 0}
    assert cells[2]["counts"] == {"info": 1, "warning": 1, "error": 1}  # the file's own findings count too
    assert cells[-1]["title"] == "no animations"


def test_badge_text():
    assert cs.badge_text({"error": 0, "warning": 2, "info": 5}) == "2 warn · 5 info"
    assert cs.badge_text({"error": 1, "warning": 0, "info": 0}) == "1 err"
    assert cs.badge_text({"error": 0, "warning": 0, "info": 0}) == "no findings"


def test_long_text_is_shortened_to_fit():
    draw = ImageDraw.Draw(Image.new("RGB", (10, 10)))
    face = cs.font(cs.FONT_SIZE)
    text = "characters/heroes/a_really_long_folder_name/Some_Very_Long_Character_Name.glb"
    short = cs.fit(draw, text, face, 192)
    assert "…" in short and short.endswith(".glb") and draw.textlength(short, font=face) <= 192
    assert cs.fit(draw, "Fox.glb", face, 192) == "Fox.glb"


@pytest.mark.parametrize("count, columns, expected", [(1, None, 1), (8, None, 4), (100, None, 8), (8, 3, 3), (2, 5, 2)])
def test_columns(tmp_path, count, columns, expected):
    results = [
        {"file": f"f{k}.gltf", "status": "ok", "findings": [], "clips": [clip(0, "a", 1.0)]} for k in range(count)
    ]
    w, h = cs.write_contact_sheet(results, tmp_path / "s.png", columns=columns, cell=(64, 48))
    cell_w, cell_h = 64 + 2 * cs.PAD, cs.PAD + 48 + 4 + 3 * cs.LINE + cs.PAD
    rows = -(-count // expected)
    assert w == max(expected * cell_w + (expected + 1) * cs.PAD, 480)
    assert h == cs.TITLE_H + rows * cell_h + (rows + 1) * cs.PAD
    if columns is None and count > 1:
        assert 1.0 < w / h < 2.6 or expected == cs.MAX_COLUMNS  # about 16:10 until the column cap


def test_a_huge_library_is_capped(tmp_path):
    results = [
        {"file": f"lib/f{k}.gltf", "status": "ok", "findings": [], "clips": [clip(0, "a", 1.0)]} for k in range(5000)
    ]
    w, h = cs.write_contact_sheet(results, tmp_path / "huge.png", cell=(32, 24))
    cell_h = cs.PAD + 24 + 4 + 3 * cs.LINE + cs.PAD
    rows = cs.MAX_CELLS // cs.MAX_COLUMNS
    assert h == cs.TITLE_H + rows * cell_h + (rows + 1) * cs.PAD


def test_more_cell_replaces_the_last_one(tmp_path, monkeypatch):
    monkeypatch.setattr(cs, "MAX_CELLS", 6)
    results = [{"file": f"f{k}.gltf", "status": "ok", "findings": [], "clips": [clip(0, "a", 1.0)]} for k in range(25)]
    out = tmp_path / "s.png"
    cs.write_contact_sheet(results, out, columns=3, cell=(64, 48))
    rgb = read(out)
    cell_h = cs.PAD + 48 + 4 + 3 * cs.LINE + cs.PAD
    assert rgb.shape[0] == cs.TITLE_H + 2 * cell_h + 3 * cs.PAD
    assert badge_colour(rgb, 4, 3, (64, 48)) == cs.BADGE[None][0]  # a clip's cell
    assert badge_colour(rgb, 5, 3, (64, 48)) == cs.CELL  # "+20 more": no badge
