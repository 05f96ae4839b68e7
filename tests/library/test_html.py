"""The library report page (viewer/library/html_report.py) in a real headless Chromium.

What a person does with the page is what is tested: rows, thumbnails that load (lazy ones too), sorting by a
header, the filters and their counter, details on click, hostile file names staying text, and that a page
of 20 000 rows stays usable (its write time, size and sort time are printed, not asserted).

Needs Playwright's Python package and a Chromium at /usr/bin/chromium (Debian's ``chromium``); the browser
tests skip, saying which is missing, without them.
"""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest
from PIL import Image

from tests.conftest import CHROMIUM, CHROMIUM_ARGS, need_browser
from viewer.library import html_report

HOSTILE_FILE = "evil/<script>alert(1)</script> \"dq\" 'sq' 🦊.gltf"
HOSTILE_CLIP = '<img src=x onerror=alert(2)>"🎬'

# JS: scroll each image into view (they are lazy), wait for it to load or fail, return [src, naturalWidth]
LOAD_IMAGES = """async () => {
  const out = [];
  for (const img of Array.from(document.images)) {
    img.scrollIntoView();
    await Promise.race([
      new Promise(r => { if (img.complete && img.naturalWidth) r(); else {
        img.addEventListener('load', r, {once: true}); img.addEventListener('error', r, {once: true}); } }),
      new Promise(r => setTimeout(r, 5000))]);
    out.push([img.getAttribute('src'), img.naturalWidth]);
  }
  window.scrollTo(0, 0);
  return out;
}"""


def finding(code, pointer="/animations/0", message="a message", count=1):
    level = html_report.report.CODES[code][0]
    return {"code": code, "level": level, "pointer": pointer, "message": message, "count": count}


def clip(index, name, duration, thumbnail=None, findings=()):
    return {
        "index": index,
        "name": name,
        "duration": duration,
        "channels": 3 + index,
        "keys": 100 * (index + 1),
        "findings": list(findings),
        "thumbnail": thumbnail,
        "preview": None,
    }


def file_result(file, root, clips=(), status="ok", error=None, findings=(), seconds=0.25):
    result = {
        "file": file,
        "path": str(root / file),
        "status": status,
        "error": error,
        "findings": list(findings),
        "clips": list(clips),
        "seconds": seconds,
        "peak_mb": 120.0,
        "attempts": 1,
        "worker": "local-0",
    }
    result["counts"] = html_report.report.counts(result)
    return result


def thumbnail(folder: Path, name: str, colour) -> str:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    Image.new("RGB", (96, 54), colour).save(path)
    return str(path)


def sample_results(tmp_path: Path) -> list[dict]:
    """Five files: three clips with thumbnails and findings, two clips without a usable thumbnail (none,
    and one whose PNG is gone), a hostile name, a file that does not load and one over the time limit:
    6 clips + 2 failed files = 8 rows."""
    thumbs = tmp_path / "thumbs"
    root = tmp_path / "lib"
    return [
        file_result(
            "chars/Fox.gltf",
            root,
            [
                clip(
                    0,
                    "Survey",
                    3.41,
                    thumbnail(thumbs, "fox_0.png", (200, 120, 40)),
                    [
                        finding("rotation-flip", "/animations/0/samplers/3/output", "keys 12-13 are 181° apart", 2),
                        finding("loop-seam", "/animations/0/channels/1", "position jumps 0.4 m at the loop"),
                    ],
                ),
                clip(1, "Walk", 0.7, thumbnail(thumbs, "fox_1.png", (40, 120, 200))),
                clip(
                    2,
                    "Run",
                    1.2,
                    thumbnail(thumbs, "fox 2 #ü.png", (40, 200, 90)),
                    [finding("redundant-keys", "/animations/2/samplers/0/output", "40 keys", 40)],
                ),
            ],
            seconds=0.5,
        ),
        file_result(
            "props/Box.glb",
            root,
            [
                clip(0, "Spin", 10.0, None),
                clip(1, "Hop", 0.5, str(thumbs / "gone.png")),
            ],
        ),
        file_result(
            HOSTILE_FILE,
            root,
            [
                clip(0, HOSTILE_CLIP, 2.0, thumbnail(thumbs, "evil.png", (120, 40, 160))),
            ],
            findings=[finding("ignored-extension", "/extensionsUsed/0", '<b>EXT_evil</b> "quoted" & more')],
        ),
        file_result(
            "broken/bad.gltf",
            root,
            status="error",
            error="JSON: unexpected '<' at line 1",
            findings=[finding("load-error", "", "JSON: unexpected '<' at line 1")],
        ),
        file_result(
            "big/huge.glb",
            root,
            status="time-limit",
            error="over the 60 s time limit",
            seconds=60.0,
            findings=[finding("time-limit", "", "over the 60 s time limit")],
        ),
    ]


# ---------------------------------------------------------------- without a browser


def test_page_escapes_and_references_relatively(tmp_path):
    results = sample_results(tmp_path)
    out = tmp_path / "report" / "index.html"
    out.parent.mkdir()
    html_report.write_html(results, out, title="lib <check>")
    page = out.read_text(encoding="utf-8")
    assert "<script>alert" not in page and "<img src=x" not in page and "<b>EXT_evil" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert page.count("<script>") == 1  # only the page's own
    assert "<title>lib &lt;check&gt;</title>" in page
    assert 'src="../thumbs/fox_0.png"' in page and 'src="../thumbs/fox%202%20%23%C3%BC.png"' in page
    assert "gone.png" not in page  # a missing PNG is a placeholder, not a broken image
    assert page.count('class="ph"') == 2 + 2  # two clips without a thumbnail, two failed files
    assert "http:" not in page and "https:" not in page  # nothing from the network


def test_odd_names_do_not_break_writing(tmp_path):
    """Undecodable bytes (lone surrogates) and control characters in names must not stop the page."""
    results = [file_result("bad\udcff\x00name.gltf", tmp_path, [clip(0, "c\x07lip", float("nan"))])]
    out = tmp_path / "r.html"
    html_report.write_html(results, out)
    page = out.read_text(encoding="utf-8")
    assert "bad\\udcff\ufffdname.gltf" in page and "c\ufffdlip" in page


# ---------------------------------------------------------------- in a browser


@pytest.fixture(scope="module")
def browser():
    with need_browser()() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield browser
        browser.close()


class Page:
    """A page with its JS errors, console errors and dialogs recorded."""

    def __init__(self, browser, path: Path, width=1280, height=800):
        self.errors: list[str] = []
        self.dialogs: list[str] = []
        self.context = browser.new_context(viewport={"width": width, "height": height})
        self.page = self.context.new_page()
        self.page.on("pageerror", lambda exc: self.errors.append(f"pageerror: {exc}"))
        self.page.on("console", lambda msg: msg.type == "error" and self.errors.append(f"console: {msg.text}"))
        self.page.on("dialog", self._dialog)
        self.page.goto(path.as_uri())

    def _dialog(self, dialog):
        self.dialogs.append(dialog.message)
        dialog.dismiss()

    def column(self, index: int) -> list[str]:
        """The text of column ``index`` of the rows shown, top to bottom."""
        return self.page.eval_on_selector_all(
            "#rows tbody tr:not([hidden])", f"rows => rows.map(r => r.cells[{index}].textContent.trim())"
        )

    def shown(self) -> str:
        return self.page.inner_text("#shown")

    def expect_shown(self, text: str) -> None:
        """Wait for the counter (the text box filters after a short pause). Polls with ``expect``:
        the page's Content-Security-Policy forbids the eval that ``wait_for_function`` needs."""
        from playwright.sync_api import expect

        expect(self.page.locator("#shown")).to_have_text(text)

    def close(self):
        self.context.close()


@pytest.fixture
def report_page(browser, tmp_path):
    out = tmp_path / "report" / "index.html"
    out.parent.mkdir()
    html_report.write_html(sample_results(tmp_path), out)
    page = Page(browser, out)
    yield page
    page.close()


def test_rows_images_and_details(report_page):
    page = report_page.page
    assert page.locator("#rows tbody tr").count() == 6 + 2
    assert report_page.shown() == "8 of 8 rows shown"
    loaded = page.evaluate(LOAD_IMAGES)
    assert len(loaded) == 4 and all(width > 0 for _, width in loaded), loaded
    assert page.locator("img[loading=lazy]").count() == 4
    summary = page.inner_text(".summary")
    assert "5 files" in summary and "6 clips" in summary and "1 error, 1 time-limit" in summary
    # a failed file: its status and its error line, in red
    bad = page.locator("#rows tbody tr", has_text="bad.gltf")
    assert "JSON: unexpected '<' at line 1" in bad.inner_text() and "error" in bad.inner_text()
    assert bad.locator("td.err").evaluate("e => getComputedStyle(e).color") == "rgb(198, 40, 40)"
    # clicking a row shows its findings' pointers and messages; clicking again hides them
    row = page.locator("#rows tbody tr", has_text="Survey")
    details = row.locator(".more")
    assert not details.is_visible()
    row.locator("td").nth(2).click()
    assert details.is_visible()
    assert "/animations/0/samplers/3/output" in details.inner_text()
    assert "keys 12-13 are 181° apart" in details.inner_text()
    row.locator("td").nth(2).click()
    assert not details.is_visible()
    assert report_page.errors == []


def test_sort_by_header(report_page):
    page = report_page.page
    duration = page.locator("#rows thead th").nth(3)
    duration.click()
    assert report_page.column(3) == ["0.50", "0.70", "1.20", "2.00", "3.41", "10.00", "", ""]
    assert "▲" in duration.inner_text() and duration.get_attribute("aria-sort") == "ascending"
    duration.click()
    assert report_page.column(3) == ["10.00", "3.41", "2.00", "1.20", "0.70", "0.50", "", ""]
    assert "▼" in duration.inner_text() and "▲" not in page.locator("#rows thead").inner_text()
    clip_header = page.locator("#rows thead th").nth(2)  # text: case-insensitive, by name
    clip_header.click()
    names = [c.split(" ", 1)[1] for c in report_page.column(2)[:6] if c.startswith("#")]
    assert names == sorted(names, key=str.lower) and "▼" not in duration.inner_text()
    assert report_page.errors == []


def test_filters_and_counter(report_page):
    page = report_page.page
    options = page.eval_on_selector_all("#code option", "os => os.map(o => [o.value, o.textContent])")
    values = [v for v, _ in options]
    assert values[:4] == ["", "*any", "*none", "*failed"]
    assert set(values[4:]) == {
        "rotation-flip",
        "loop-seam",
        "redundant-keys",
        "ignored-extension",
        "load-error",
        "time-limit",
    }  # only codes present
    assert any("rotation-flip" in t and "rotation keys more than 180° apart" in t for _, t in options)

    page.select_option("#code", "rotation-flip")
    assert report_page.column(2) == ["#0 Survey"] and report_page.shown() == "1 of 8 rows shown"
    page.select_option("#code", "ignored-extension")  # a file-level finding: the file's clip
    assert report_page.column(2) == ["#0 " + HOSTILE_CLIP]
    page.select_option("#code", "*failed")
    assert len(report_page.column(0)) == 2 and report_page.shown() == "2 of 8 rows shown"
    page.select_option("#code", "*none")
    assert sorted(report_page.column(2)) == ["#0 Spin", "#1 Hop", "#1 Walk"]
    page.select_option("#code", "*any")
    assert report_page.shown() == "5 of 8 rows shown"
    page.select_option("#level", "warning")
    assert sorted(report_page.column(2)) == ["#0 " + HOSTILE_CLIP, "#0 Survey"]
    page.select_option("#level", "")
    page.select_option("#code", "")

    page.fill("#text", "WALK")
    report_page.expect_shown("1 of 8 rows shown")
    assert report_page.column(2) == ["#1 Walk"]
    page.fill("#text", "box.glb")
    report_page.expect_shown("2 of 8 rows shown")
    page.fill("#text", "🦊")
    report_page.expect_shown("1 of 8 rows shown")
    page.fill("#text", "")
    report_page.expect_shown("8 of 8 rows shown")
    assert report_page.errors == []


def test_hostile_names_stay_text(report_page):
    page = report_page.page
    page.evaluate(LOAD_IMAGES)
    page.locator("#rows tbody tr", has_text="EXT_evil").first.click()
    assert report_page.dialogs == []
    assert page.locator("script").count() == 1
    assert page.locator("img[src=x], b:text('EXT_evil')").count() == 0
    text = page.inner_text("#rows tbody")
    assert "<script>alert(1)</script> \"dq\" 'sq' 🦊.gltf" in text
    assert HOSTILE_CLIP in text and '<b>EXT_evil</b> "quoted" & more' in text
    assert report_page.errors == []


def test_screenshot(report_page, tmp_path):
    page = report_page.page
    page.evaluate(LOAD_IMAGES)
    page.locator("#rows tbody tr", has_text="Survey").locator("td").nth(2).click()
    shot = tmp_path / "html_report.png"
    page.screenshot(path=str(shot), full_page=True)
    shutil.copyfile(shot, "/tmp/html_report.png")  # for a person to look at
    with Image.open(shot) as image:
        assert image.width == 1280 and image.height >= 300


def test_inline_thumbnails_and_moving_the_folder(browser, tmp_path):
    """Linked thumbnails still load after the page and its thumbnails folder are moved together; inlined ones
    need no folder at all."""
    results = sample_results(tmp_path / "run")
    html_report.write_html(results, tmp_path / "run" / "report.html")
    html_report.write_html(results, tmp_path / "alone.html", inline_thumbnails=True)
    shutil.move(tmp_path / "run", tmp_path / "moved")
    shutil.rmtree(tmp_path / "moved" / "lib", ignore_errors=True)
    for path in (tmp_path / "moved" / "report.html", tmp_path / "alone.html"):
        page = Page(browser, path)
        try:
            loaded = page.page.evaluate(LOAD_IMAGES)
            assert len(loaded) == 4 and all(width > 0 for _, width in loaded), (path, loaded)
            assert page.errors == []
        finally:
            page.close()
    shutil.rmtree(tmp_path / "moved" / "thumbs")
    assert "data:image/png;base64," in (tmp_path / "alone.html").read_text(encoding="utf-8")


def big_results(tmp_path: Path, n_rows: int) -> list[dict]:
    """``n_rows`` clips, four to a file, with findings on most and a handful of shared thumbnails."""
    thumbs = [thumbnail(tmp_path / "thumbs", f"t{i}.png", (60 * i, 90, 200 - 40 * i)) for i in range(4)]
    codes = ("rotation-flip", "loop-seam", "redundant-keys", "zero-scale", "near-duplicate-keys")
    results = []
    for f in range(n_rows // 4):
        clips = [
            clip(
                c,
                f"Clip {(f * 7 + c) % 1000:03d}",
                round(((f * 31 + c * 17) % 997) / 10, 2),
                thumbs[c],
                [finding(codes[(f + c) % 5], f"/animations/{c}/samplers/0/output", "message", c + 1)]
                if (f + c) % 3
                else [],
            )
            for c in range(4)
        ]
        results.append(file_result(f"lib/{f // 100:03d}/asset_{f:05d}.glb", tmp_path, clips, seconds=0.1 + f % 5))
    return results


def test_twenty_thousand_rows(browser, tmp_path):
    n = 20_000
    results = big_results(tmp_path, n)
    out = tmp_path / "big.html"
    t0 = time.perf_counter()
    html_report.write_html(results, out)
    write_s = time.perf_counter() - t0
    size_mb = out.stat().st_size / 1e6

    page = Page(browser, out)
    try:
        load_ms = page.page.evaluate("performance.getEntriesByType('navigation')[0].loadEventEnd")
        assert page.page.locator("#rows tbody tr").count() == n
        # time from the click to the sorted rows being laid out
        timing = """col => { const t0 = performance.now();
            document.querySelectorAll('#rows thead th button')[col].click();
            document.body.offsetHeight; return performance.now() - t0; }"""
        sort_ms = [page.page.evaluate(timing, col) for col in (3, 3)]
        durations = [float(v) for v in page.column(3)]
        assert durations == sorted(durations, reverse=True)
        sort_ms += [page.page.evaluate(timing, col) for col in (1, 7)]
        filter_ms = page.page.evaluate("""() => { const t0 = performance.now();
            const s = document.getElementById('code'); s.value = 'rotation-flip';
            s.dispatchEvent(new Event('change')); document.body.offsetHeight; return performance.now() - t0; }""")
        shown = page.shown()
        assert page.errors == []
    finally:
        page.close()
    line = (
        f"20 000-row report: write {write_s:.2f} s, {size_mb:.1f} MB, browser load {load_ms:.0f} ms, "
        f"sort {', '.join(f'{ms:.0f}' for ms in sort_ms)} ms (duration asc, desc, file, findings), "
        f"filter {filter_ms:.0f} ms ({shown})"
    )
    print(line)
    Path("/tmp/html_report_perf.txt").write_text(line + "\n")
