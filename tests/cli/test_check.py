"""``animview check`` and ``animview render --outdir`` as a person runs them: exit statuses, the printed
report, ``--json``, and the HTML report and contact sheet opened in a real browser (every clip shown)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from tests.gltf_builder import GltfBuilder, minimal_animated
from tests.library.test_html import LOAD_IMAGES, browser  # noqa: F401  (the module's Chromium fixture)
from viewer.cli.main import main
from viewer.library.check import check_file
from viewer.library.contact_sheet import cells_of
from viewer.library.report import comparable


def clean_file(folder: Path, name: str) -> Path:
    """There and back again, one translation: nothing for ``check`` to say (no seam: it ends where it
    starts, and the turn at the seam is no sharper than the one in the middle)."""
    b = GltfBuilder()
    node = b.add_node(mesh=b.add_mesh(positions=[[0, 0, 0], [1, 0, 0], [0, 1, 0]], indices=[0, 1, 2]))
    b.add_animation(
        [dict(node=node, path="translation", times=[0, 1, 2], values=[[0, 0, 0], [1, 0, 0], [0, 0, 0]])], name="slide"
    )
    b.add_scene([node])
    return b.write_gltf(folder, name, embed=True)


def flipped_file(folder: Path, name: str) -> Path:
    """A rotation whose second key is written with the opposite sign: a ``rotation-flip`` warning."""
    b = GltfBuilder()
    node = b.add_node(mesh=b.add_mesh(positions=[[0, 0, 0], [1, 0, 0], [0, 1, 0]], indices=[0, 1, 2]))
    q = np.array([[0, 0, 0, 1], [0, 0, -0.3826834, -0.9238795], [0, 0, 0.7071068, 0.7071068]], np.float32)
    b.add_animation([dict(node=node, path="rotation", times=[0, 1, 2], values=q)], name="turn")
    b.add_scene([node])
    return b.write_gltf(folder, name, embed=True)


@pytest.fixture
def library(tmp_path) -> Path:
    lib = tmp_path / "lib"
    (lib / "good").mkdir(parents=True)
    clean_file(lib / "good", "a.gltf")
    clean_file(lib / "good", "b.gltf")
    flipped_file(lib, "flip.gltf")
    minimal_animated().write_glb(lib / "rig.glb")
    return lib


def run(capsys, *argv) -> tuple[int, str, str]:
    status = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return status, out, err


def test_a_clean_library_passes_and_says_so(capsys, library):
    status, out, _ = run(capsys, "check", library / "good", "--quiet", "--jobs", "1")
    assert status == 0
    assert out.strip().splitlines() == [out.strip().splitlines()[-1]]  # nothing to list: only the totals
    assert out.startswith("checked 2 files (2 loaded), 2 clips: 0 error, 0 warning, 0 info")


def test_fail_on_sets_the_exit_status_by_level(capsys, library):
    flip = library / "flip.gltf"
    status, out, _ = run(capsys, "check", flip, "--quiet")
    assert status == 0  # default: only errors fail
    assert "warning rotation-flip" in out and "/animations/0/samplers/0/output" in out
    assert run(capsys, "check", flip, "--quiet", "--fail-on", "warning")[0] == 1
    assert run(capsys, "check", library / "good", "--quiet", "--fail-on", "info")[0] == 0


def test_a_broken_file_fails_the_run_with_its_one_line(capsys, library):
    (library / "broken.gltf").write_text("{ not json")
    status, out, _ = run(capsys, "check", library, "--quiet")
    assert status == 1
    line = next(ln for ln in out.splitlines() if ln.startswith("lib/broken.gltf"))
    assert "ERROR" in line and "broken.gltf" in line
    assert run(capsys, "check", library, "--quiet", "--fail-on", "never")[0] == 0


def test_json_holds_every_file_as_checked_alone(capsys, library, tmp_path):
    out = tmp_path / "report.json"
    status, _, _ = run(capsys, "check", library, "--quiet", "--jobs", "2", "--json", out)
    data = json.loads(out.read_text())
    assert status == 0 and data["summary"]["files"] == 4 == len(data["results"])
    for result in data["results"]:
        assert comparable(result) == comparable(check_file(result["path"], result["file"]))
        assert result["attempts"] == 1 and result["seconds"] > 0 and result["peak_mb"] > 0
    assert data["summary"]["codes"].get("rotation-flip") == 1


def test_a_file_over_the_time_limit_is_reported_as_such(capsys, library):
    status, out, _ = run(capsys, "check", library / "rig.glb", "--quiet", "--time-limit", "0.0001")
    assert status == 1
    assert "TIME-LIMIT" in out and "0.0001 s" in out


@pytest.mark.parametrize(
    "argv, message",
    [
        (["check", "/no/such/folder"], "does not exist"),
        (["check", "{lib}", "--jobs", "2", "--scheduler", "tcp://127.0.0.1:1"], "exclude each other"),
        (["check", "{lib}", "--json", "/no/such/folder/r.json"], "does not exist"),
        (["render", "{lib}", "-o", "x.png"], "renders one FILE"),
        (["render", "{lib}/flip.gltf", "{lib}/rig.glb", "-o", "x.png"], "renders one FILE"),
        (["render", "{lib}"], "give -o OUT"),
        (["render", "{lib}", "--outdir", "{tmp}/o", "--compare", "step,linear"], "not with --outdir"),
        (["render", "{lib}", "--outdir", "{tmp}/o", "--contact-sheet", "{tmp}/sheet.jpg"], "writes a PNG"),
    ],
)
def test_bad_usage_is_one_line_and_status_2(capsys, library, tmp_path, argv, message):
    argv = [a.format(lib=library, tmp=tmp_path) for a in argv]
    status, out, err = run(capsys, *argv)
    assert status == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and message in err


def test_render_outdir_writes_previews_a_contact_sheet_and_a_report_a_browser_shows(capsys, library, tmp_path, browser):  # noqa: F811
    (library / "broken.gltf").write_text("{ not json")
    outdir, sheet, html = tmp_path / "previews", tmp_path / "sheet.png", tmp_path / "report.html"
    status, out, err = run(
        capsys,
        "render",
        library,
        "--outdir",
        outdir,
        "--gif",
        "--fps",
        "5",
        "--jobs",
        "2",
        "--contact-sheet",
        sheet,
        "--html",
        html,
        "--json",
        tmp_path / "r.json",
        "--quiet",
    )
    assert status == 1  # the broken file
    results = json.loads((tmp_path / "r.json").read_text())["results"]
    clips = [c for r in results for c in r["clips"]]
    assert len(results) == 5 and len(clips) == 4
    for c in clips:
        assert Image.open(c["thumbnail"]).size == (192, 144)
        assert Image.open(c["preview"]).n_frames >= 2 and Image.open(c["preview"]).size == (320, 240)
    width, height = Image.open(sheet).size
    assert len(cells_of(results)) == 5  # a cell per clip and one for the file that did not load
    assert width >= 3 * 192 and height >= 2 * 144
    page = browser.new_page()
    try:
        page.goto(html.as_uri())
        rows = page.locator("tbody tr")
        assert rows.count() == len(clips) + 1  # every clip, and the file that did not load
        images = page.evaluate(LOAD_IMAGES)
        assert len(images) == len(clips) and all(w == 192 for _, w in images)
        assert "broken.gltf" in page.locator("tbody").inner_text()
        page.goto(sheet.as_uri())  # the contact sheet opens as an image in a browser too
        assert page.evaluate("document.images[0].naturalWidth") == width
    finally:
        page.close()


def test_no_gl_makes_render_errors_not_crashes(capsys, library, tmp_path, monkeypatch):
    """Without an EGL device every file still gets its check, plus a render-error that says why."""
    monkeypatch.setenv("__EGL_VENDOR_LIBRARY_FILENAMES", str(tmp_path / "no_vendor.json"))
    status, out, _ = run(capsys, "render", library / "good", "--outdir", tmp_path / "o", "--quiet", "--jobs", "1")
    assert status == 1
    assert out.count("render-error") == 2 and "OpenGL" in out and "crashed" not in out
