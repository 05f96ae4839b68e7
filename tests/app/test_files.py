"""The viewer app's files: title, reload (R), drag-and-drop, screenshots (P), and the ``animview [FILE]`` command.

The app runs headless (moderngl-window ``headless`` window on EGL); the command runs in a subprocess with
``--window headless --backend egl --frames N`` so it exits by itself.
"""

from __future__ import annotations

import shutil
import subprocess
import sys

import numpy as np
from PIL import Image

from tests.app.conftest import Driver, demo
from tests.conftest import REPO_ROOT


def test_title_shows_file_and_clip():
    d = Driver(demo("skinned_arm.gltf"))
    try:
        assert d.wnd.title == "animview — skinned_arm.gltf — Wave (1/1)"
    finally:
        d.close()


def test_reload_keeps_clip_time_and_selection_and_shows_edits(tmp_path):
    path = tmp_path / "model.gltf"
    shutil.copy(demo("irregular.gltf"), path)
    d = Driver(path)
    try:
        d.clock.seek(1.6)
        d.app.state.select_node(0)
        old_scene = d.app.scene
        d.key("R")
        assert d.app.scene is not old_scene and d.app.state.scene is d.app.scene
        assert d.clock.t == 1.6 and d.app.state.selected_node == 0
        assert "reloaded" in d.app.state.message
        path.write_text(demo("morph_shape.gltf").read_text())  # the file changed on disk
        d.key("R")
        assert d.wnd.title == "animview — model.gltf — Morph (1/1)" and d.clock.t == 1.6
        assert d.wnd.ctx.error == "GL_NO_ERROR"
    finally:
        d.close()


def test_dropping_a_file_opens_it_and_a_bad_one_keeps_the_current(tmp_path):
    d = Driver(demo("irregular.gltf"))
    try:
        d.clock.seek(2.0)
        d.wnd.files_dropped_event_func(10, 10, [str(demo("triangle.gltf"))])
        d.frame()
        assert d.app.scene.path.name == "triangle.gltf" and "triangle.gltf" in d.wnd.title
        assert d.clock.t == 0.0 and d.clock.duration == 1.0
        bad = tmp_path / "bad.gltf"
        bad.write_text('{"asset": {}}')
        d.wnd.files_dropped_event_func(10, 10, [str(bad)])
        d.frame()
        assert d.app.scene.path.name == "triangle.gltf"
        assert "bad.gltf" in d.app.state.message
    finally:
        d.close()


def test_p_saves_the_frame_as_png(tmp_path):
    d = Driver(demo("interpolation.gltf"), screenshot_dir=tmp_path)
    try:
        d.clock.seek(1.5)
        d.frame()
        d.key("P")
        shown = d.pixels()
        (path,) = d.app.screenshots
        assert path.parent == tmp_path and path.name == "animview-interpolation-1.500s.png"
        saved = np.asarray(Image.open(path).convert("RGB"))
        assert saved.shape == shown.shape
        view = slice(0, int(d.layout.top))
        assert np.array_equal(saved[view], shown[view])  # the bar's message line changed after saving
        assert saved.std() > 10  # a picture, not a blank frame
        d.key("P")
        assert d.app.screenshots[1].name == "animview-interpolation-1.500s-1.png"
    finally:
        d.close()


def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "viewer", *args], cwd=REPO_ROOT, capture_output=True, text=True, timeout=120
    )


def test_command_opens_the_demo_and_a_file_headless():
    for args in ([], [str(demo("skinned_arm.gltf")), "--speed", "-2", "--time", "1", "--mode", "step"]):
        proc = run_cli(*args, "--window", "headless", "--backend", "egl", "--frames", "3")
        assert proc.returncode == 0, proc.stderr


def test_command_bad_input_is_one_line_and_status_2(tmp_path):
    bad = tmp_path / "bad.gltf"
    bad.write_text("not json")
    for args in (
        [str(bad)],
        [str(demo("triangle.gltf")), "--animation", "5"],
        ["--speed", "fast"],
        ["--fps", "0"],
        ["--time", "nan"],
    ):
        proc = run_cli(*args, "--window", "headless", "--backend", "egl", "--frames", "1")
        assert proc.returncode == 2, (args, proc.stderr)
        assert len(proc.stderr.strip().splitlines()) == 1, proc.stderr
