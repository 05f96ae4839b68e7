"""The player in a real JupyterLab, driven through Chromium as a person would, and its nbconvert export offline.

The test starts its own JupyterLab (``conftest.jupyter_lab``: no token, a free port, killed in a ``finally``), opens
a notebook that shows the Khronos Fox (the demo file without the shared models) at 640×480, runs its cells from the
Run menu and then uses the widget: the picture changes while playing, a click on the time slider seeks — the kernel
sees that time when a cell prints it —, a mode button changes the picture. It saves the notebook (JupyterLab does
not store widget state by default), exports it with ``jupyter nbconvert --to html`` and opens the page from
``file://`` with the network cut: the static copy plays, scrubs and switches modes.

It also measures, in the browser, what README quotes: frames per second delivered while playing at 640×480, and
the scrub latency (slider click → the next new picture), printed, never asserted against a number. Screenshots land
in the test's temporary folder. Skips without Playwright, /usr/bin/chromium, JupyterLab or the notebook extra.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import KHRONOS_DIR
from tests.notebook.conftest import CHROMIUM, CHROMIUM_ARGS, DEMO, jupyter_lab, need_browser, need_notebook_extra

FOX = KHRONOS_DIR / "Fox" / "Fox.glb"
PLAY_SECONDS = 3.0
UI_MS = 60_000  # the longest any one wait may take (the first kernel start on 2 busy cores)

# Counts the view's picture changes (each is a frame delivered and shown) with their times, and notes when the
# slider is pressed: the scrub latency is the first picture after a press.
WATCH = """() => {
  const img = document.querySelector('.renderview-wrapper img');
  window.__frames = [];
  window.__press = null;
  new MutationObserver(() => window.__frames.push(performance.now()))
    .observe(img, {attributes: true, attributeFilter: ['src']});
  document.querySelector('.widget-hslider').addEventListener(
    'pointerdown', () => { window.__press = performance.now(); }, true);
}"""
PICTURE = """async () => {
  const img = document.querySelector('.renderview-wrapper img');
  await img.decode();
  const c = document.createElement('canvas');
  c.width = img.naturalWidth; c.height = img.naturalHeight;
  const g = c.getContext('2d');
  g.drawImage(img, 0, 0);
  const d = g.getImageData(0, 0, c.width, c.height).data;
  let h = 0;
  for (let i = 0; i < d.length; i += 7) { h = (h * 31 + d[i]) >>> 0; }
  return [c.width, c.height, h];
}"""


# A cell that says where a joint is drawn now: the node drawn farthest from any other, so a click there is its.
WHERE_IS_A_JOINT = """import numpy as np
from viewer.render.overlay_lines import to_window
p.frame()
plain = p.stage.plain
xy, front = to_window(plain.pose.world[:, :3, 3], plain.view_projection(), plain.view.size)
inside = front & (xy[:, 0] > 20) & (xy[:, 0] < 620) & (xy[:, 1] > 20) & (xy[:, 1] < 460)
apart = np.linalg.norm(xy[:, None] - xy[None], axis=2) + np.eye(len(xy)) * 1e9
node = int(np.argmax(np.where(inside, apart.min(axis=1), -1)))
print("JOINT", round(xy[node, 0], 1), round(xy[node, 1], 1), p.scene.nodes.names[node])"""


def _notebook(path: Path, model: Path, animation: str) -> None:
    import nbformat
    from nbformat.v4 import new_code_cell, new_notebook

    show = f"import viewer\np = viewer.show({str(model)!r}, animation={animation!r}, size=(640, 480))\np"
    cells = [show, 'print("T=%.4f" % p.time, p.mode, p.playing)', WHERE_IS_A_JOINT]
    nb = new_notebook(cells=[new_code_cell(c) for c in cells])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(nb, path)


def _frames_since(page, since: float) -> list[float]:
    return page.evaluate("s => window.__frames.filter(t => t > s)", since)


def _now(page) -> float:
    return page.evaluate("() => performance.now()")


def _wait_new_frame(page, since: float, timeout_s: float = 20.0) -> float:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        frames = _frames_since(page, since)
        if frames:
            return frames[0]
        time.sleep(0.02)
    pytest.fail(f"no new picture within {timeout_s} s")


def _run_cell(page, index: int) -> str:
    """Run cell ``index`` (click it, Ctrl+Enter) and return its new output once its execution count changed."""
    cell = page.locator(".jp-Notebook .jp-Cell").nth(index)
    prompt = cell.locator(".jp-InputPrompt")
    before = prompt.inner_text()
    cell.locator(".jp-InputArea-editor").click()
    page.keyboard.press("Escape")
    page.keyboard.press("Control+Enter")
    deadline = time.monotonic() + UI_MS / 1000
    while (now := prompt.inner_text()) in (before, "[*]:") and time.monotonic() < deadline:
        time.sleep(0.05)
    assert now not in (before, "[*]:"), f"cell {index} did not run ({now})"
    out = cell.locator(".jp-OutputArea-output")
    out.first.wait_for(timeout=UI_MS)
    return out.first.inner_text()


def test_player_in_jupyterlab_and_its_offline_export(tmp_path):
    need_notebook_extra()
    sync_playwright = need_browser()
    model, animation = (FOX, "Walk") if FOX.is_file() else (DEMO, None)
    root = tmp_path / "lab"
    root.mkdir()
    _notebook(root / "player.ipynb", model, animation)
    with jupyter_lab(root, tmp_path / "home") as url, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            page = browser.new_context(viewport={"width": 1280, "height": 1100}, device_scale_factor=1).new_page()
            errors = []
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            page.set_default_timeout(UI_MS)
            page.goto(url + "/lab/tree/player.ipynb")
            page.wait_for_function("() => document.body.innerText.includes('| Idle')")
            page.click("text=Run >> nth=0")
            page.click("text=Run All Cells")
            page.wait_for_function("() => document.querySelector('.renderview-wrapper img')?.src?.startsWith('blob:')")
            page.evaluate(WATCH)
            first = page.evaluate(PICTURE)
            assert first[:2] == [640, 480], f"frames at 640x480 CSS pixels, got {first[:2]}"
            page.screenshot(path=str(tmp_path / "lab_opened.png"))

            # playing: the picture changes; frames per second delivered, measured here
            play = page.locator(".widget-toggle-button").first
            start = _now(page)
            play.click()
            time.sleep(PLAY_SECONDS)
            shown = len(_frames_since(page, start))
            page.screenshot(path=str(tmp_path / "lab_playing.png"))
            play.click()
            fps = shown / PLAY_SECONDS
            assert shown >= 3, f"only {shown} pictures in {PLAY_SECONDS} s of play"
            assert page.evaluate(PICTURE) != first
            time.sleep(1.0)  # the last frames and the lossless one land

            # a click on the slider seeks; the kernel sees the time
            track = page.locator(".widget-hslider .noUi-base").first
            box = track.bounding_box()
            latencies = []
            for fraction in (0.2, 0.9, 0.4, 0.75):
                since = _now(page)
                page.mouse.click(box["x"] + fraction * box["width"], box["y"] + box["height"] / 2)
                shown_at = _wait_new_frame(page, since)
                latencies.append(shown_at - page.evaluate("() => window.__press"))
                time.sleep(0.6)
            printed = _run_cell(page, 1)
            seen = float(printed.split("T=")[1].split()[0])
            duration = 0.7083 if animation == "Walk" else 4.0
            assert abs(seen - 0.75 * duration) < 0.03 * duration + 0.01, (printed, 0.75 * duration)

            # a mode button changes the picture
            before = page.evaluate(PICTURE)
            since = _now(page)
            page.locator(".widget-toggle-buttons button", has_text="step").first.click()
            _wait_new_frame(page, since)
            time.sleep(0.8)  # the lossless frame after the JPEG
            assert page.evaluate(PICTURE) != before
            assert " step " in _run_cell(page, 1), "the kernel sees the mode the button chose"
            page.screenshot(path=str(tmp_path / "lab_step.png"))

            # a click on a joint selects it: its marker is drawn and its values show under the view
            x, y, name = _run_cell(page, 2).split("JOINT")[1].split(maxsplit=2)
            view = page.locator(".renderview-wrapper img")
            view.scroll_into_view_if_needed()
            box, before = view.bounding_box(), page.evaluate(PICTURE)
            since = _now(page)
            page.mouse.click(box["x"] + 1 + float(x), box["y"] + 1 + float(y))  # inside the view's 1 px border
            _wait_new_frame(page, since)
            page.wait_for_function(f"() => document.body.innerText.includes({name.strip()!r} + ' (node')")
            time.sleep(0.8)
            assert page.evaluate(PICTURE) != before, "the selected joint's marker"
            page.screenshot(path=str(tmp_path / "lab_joint.png"))
            page.keyboard.press("Control+s")
            time.sleep(1.0)
            assert not errors, errors
        finally:
            browser.close()
        scrub_ms = statistics.median(latencies)
        print(
            f"\n{model.name}: {fps:.1f} frames/s delivered at 640x480 while playing; scrub latency median "
            f"{scrub_ms:.0f} ms ({', '.join(f'{v:.0f}' for v in latencies)} ms); screenshots in {tmp_path}"
        )
        _check_offline_export(pw, root / "player.ipynb", tmp_path)


def _check_offline_export(pw, notebook: Path, tmp_path: Path) -> None:
    """nbconvert's HTML, opened from file:// with the network cut, plays through the static copy."""
    out = tmp_path / "player.html"
    subprocess.run(
        [sys.executable, "-m", "jupyter", "nbconvert", "--to", "html", str(notebook), "--output", str(out)],
        check=True,
        capture_output=True,
        timeout=120,
    )
    browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
    try:
        page = browser.new_context(offline=True).new_page()
        page.set_default_timeout(UI_MS)
        page.route("**/*", lambda r: r.continue_() if r.request.url.startswith(("file:", "data:")) else r.abort())
        errors = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(out.as_uri())
        copy = page.locator(".animview-fallback").first
        copy.scroll_into_view_if_needed()
        img = copy.locator("img")
        first = img.get_attribute("src")
        copy.locator("button.animview-play").click()
        page.wait_for_function("() => document.querySelector('.animview-fallback').dataset.index > 2")
        assert img.get_attribute("src") != first
        copy.locator("button.animview-play").click()
        slider = copy.locator("input[type=range]")
        middle = str(int(slider.get_attribute("max")) // 2)
        slider.fill(middle)
        assert copy.get_attribute("data-index") == middle
        there = img.get_attribute("src")
        copy.locator("button.animview-mode", has_text="step").click()
        assert img.get_attribute("src") != there
        copy.screenshot(path=str(tmp_path / "export_offline.png"))
        assert not errors, errors
    finally:
        browser.close()
