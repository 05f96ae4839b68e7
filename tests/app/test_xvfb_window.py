"""A real window under Xvfb: ``animview`` on a shared model, real X input from xdotool, screenshots of the screen.

Checks what a person would see: playing frames differ, paused frames are identical, Right steps to the next
key and a drag on the ruler scrubs (both change the pose, and the orange playhead lands where the pure
layout says that time is), and Esc closes the window with exit status 0 and nothing on stderr but warnings.
In compare view (``--compare``) at 1280×720 on a morph-only file, MorphStressTest and the shared model, it
plays without crashing and every pane's label and centre are on screen, not under a panel (framebuffer only:
the pane rectangles come from the pure layout, the subprocess's imgui rectangles cannot be read).
Screenshots are read straight from the X server (``XGetImage`` through ctypes: no extra package).
Skips cleanly when Xvfb or xdotool is missing (``.ci/run`` installs both: ``apt-get install xvfb xdotool``).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import shutil
import subprocess
import sys
import time

import numpy as np
import pytest

from tests.conftest import KHRONOS_DIR, REPO_ROOT
from viewer.base.resources import asset_path
from viewer.compare import views as compare
from viewer.scene.scene import load
from viewer.ui import timeline

pytestmark = pytest.mark.skipif(
    not (shutil.which("Xvfb") and shutil.which("xdotool") and ctypes.util.find_library("X11")),
    reason="needs Xvfb, xdotool and libX11 (apt-get install xvfb xdotool)",
)

SIZE = (960, 540)
PLAYHEAD = np.array([255, 160, 40])
SETTLE = 0.6  # seconds for the viewer to draw a few frames after an input


class XImage(ctypes.Structure):
    _fields_ = [
        ("width", ctypes.c_int),
        ("height", ctypes.c_int),
        ("xoffset", ctypes.c_int),
        ("format", ctypes.c_int),
        ("data", ctypes.POINTER(ctypes.c_uint8)),
        ("byte_order", ctypes.c_int),
        ("bitmap_unit", ctypes.c_int),
        ("bitmap_bit_order", ctypes.c_int),
        ("bitmap_pad", ctypes.c_int),
        ("depth", ctypes.c_int),
        ("bytes_per_line", ctypes.c_int),
        ("bits_per_pixel", ctypes.c_int),
    ]


class Screen:
    """Reads pixels of the X screen ``display`` (24-bit TrueColor, as Xvfb's ``-screen 0 WxHx24`` gives)."""

    def __init__(self, display: str) -> None:
        x11 = ctypes.cdll.LoadLibrary(ctypes.util.find_library("X11"))
        x11.XOpenDisplay.restype = ctypes.c_void_p
        x11.XOpenDisplay.argtypes = [ctypes.c_char_p]
        x11.XDefaultRootWindow.restype = ctypes.c_ulong
        x11.XDefaultRootWindow.argtypes = [ctypes.c_void_p]
        x11.XGetImage.restype = ctypes.POINTER(XImage)
        x11.XGetImage.argtypes = [
            ctypes.c_void_p,
            ctypes.c_ulong,
            ctypes.c_int,
            ctypes.c_int,
            ctypes.c_uint,
            ctypes.c_uint,
            ctypes.c_ulong,
            ctypes.c_int,
        ]
        x11.XCloseDisplay.argtypes = [ctypes.c_void_p]
        x11.XFree.argtypes = [ctypes.c_void_p]
        self.x11 = x11
        self.dpy = x11.XOpenDisplay(display.encode())
        assert self.dpy, f"cannot open X display {display}"
        self.root = x11.XDefaultRootWindow(self.dpy)

    def grab(self, x: int, y: int, w: int, h: int) -> np.ndarray:
        """(h, w, 3) uint8 RGB of a screen rectangle."""
        img = self.x11.XGetImage(self.dpy, self.root, x, y, w, h, 0xFFFFFFFF, 2)  # ZPixmap
        assert img, "XGetImage failed"
        im = img.contents
        assert im.bits_per_pixel == 32, im.bits_per_pixel
        raw = np.ctypeslib.as_array(im.data, shape=(im.height * im.bytes_per_line,)).copy()
        self.x11.XFree(ctypes.cast(im.data, ctypes.c_void_p))
        self.x11.XFree(ctypes.cast(img, ctypes.c_void_p))
        bgrx = raw.reshape(h, im.bytes_per_line // 4, 4)[:, :w]
        return bgrx[..., 2::-1].copy()

    def close(self) -> None:
        self.x11.XCloseDisplay(self.dpy)


def model_path():
    """A shared model (Khronos BoxAnimated) when the shared folder is there, else the built-in irregular demo."""
    box = KHRONOS_DIR / "BoxAnimated" / "BoxAnimated.gltf"
    return box if box.is_file() else asset_path("irregular.gltf")


@pytest.fixture
def display():
    read, write = os.pipe()
    xvfb = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write), "-screen", "0", "1280x800x24", "-nolisten", "tcp"],
        pass_fds=(write,),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    os.close(write)
    with os.fdopen(read) as f:
        number = f.readline().strip()
    if not number:
        xvfb.kill()
        pytest.skip("Xvfb did not start")
    yield f":{number}"
    xvfb.terminate()
    xvfb.wait(10)


def xdotool(env, *args: str) -> str:
    return subprocess.run(["xdotool", *args], env=env, capture_output=True, text=True, timeout=30, check=True).stdout


def wait_for_window(env, app: subprocess.Popen, timeout: float = 30.0) -> str:
    """The viewer's X window id, once it is mapped; fails with the viewer's stderr if it exits first."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if app.poll() is not None:
            pytest.fail(f"animview exited with {app.returncode}: {app.stderr.read()}")
        found = subprocess.run(
            ["xdotool", "search", "--onlyvisible", "--name", "animview"],
            env=env,
            capture_output=True,
            text=True,
            timeout=30,
        ).stdout.split()
        if found:
            return found[0]
        time.sleep(0.2)
    pytest.fail("no animview window appeared")


def playhead_x(shot: np.ndarray, row: int) -> float:
    """Window x of the orange playhead line on one pixel row (the mean of its orange pixels)."""
    orange = np.flatnonzero(np.abs(shot[row, timeline.LABEL_W :].astype(int) - PLAYHEAD).sum(axis=1) < 60)
    assert len(orange), "no playhead on that row"
    return timeline.LABEL_W + float(orange.mean())  # right of the labels (a selected channel's is orange too)


def test_real_window_under_xvfb(display):
    path = model_path()
    clip = load(path).clips[0]
    env, app = start_viewer(display, path)
    screen = Screen(display)
    try:
        wid, (wx, wy, w, h) = window_geometry(env, app)
        assert (w, h) == SIZE
        lay = timeline.layout(w, h, clip.duration)  # the bar as the viewer lays it out (collapsed dope sheet)
        shot = lambda: screen.grab(wx, wy, w, h)  # noqa: E731
        view = lambda s: s[: int(lay.top) - 1, : w - timeline.side_width(w)]  # noqa: E731  the 3D view, left of the column

        deadline = time.monotonic() + 30
        while shot().std() < 5:  # the first frames are on screen
            assert time.monotonic() < deadline, "the window never showed a picture"
            time.sleep(0.2)
        xdotool(env, "mousemove", str(wx + w // 2), str(wy + 150))  # the pointer rests over the 3D view
        time.sleep(SETTLE)
        a = shot()
        time.sleep(0.4)
        b = shot()
        assert not np.array_equal(view(a), view(b)), "playing frames are identical"

        xdotool(env, "key", "space")
        time.sleep(SETTLE)
        c = shot()
        time.sleep(0.5)
        d = shot()
        still = lambda s: np.delete(s, np.s_[int(lay.controls_y) : int(lay.ruler_y)], axis=0)  # noqa: E731
        assert np.array_equal(still(c), still(d)), "paused frames differ"  # (the controls row has the fps)

        row = int(lay.summary_y + timeline.ROW_H - 2)
        xdotool(env, "key", "Home")
        time.sleep(SETTLE)
        home = shot()
        assert abs(playhead_x(home, row) - lay.ruler.x0) <= 1.5, "Home did not go to t = 0"
        xdotool(env, "key", "Right")
        time.sleep(SETTLE)
        e = shot()
        assert not np.array_equal(view(e), view(home)), "stepping to the next key did not change the pose"
        key_x = lay.ruler.x_of(min(k for k in clip.key_times if k > 0))
        assert abs(playhead_x(e, row) - key_x) <= 1.5, "the playhead is not on the next key"

        (x1, y1), (x2, _) = lay.ruler_point(0.8 * clip.duration), lay.ruler_point(0.3 * clip.duration)
        xdotool(env, "mousemove", str(wx + x1), str(wy + y1), "mousedown", "1")
        for x in np.linspace(x1, x2, 6)[1:]:
            time.sleep(0.05)
            xdotool(env, "mousemove", str(wx + round(x)), str(wy + y1))
        xdotool(env, "mouseup", "1")
        time.sleep(SETTLE)
        f = shot()
        assert not np.array_equal(view(f), view(e)), "dragging on the ruler did not change the pose"
        assert abs(playhead_x(f, row) - lay.ruler.x_of(lay.ruler.t_of(x2))) <= 1.5
        time.sleep(0.4)
        assert np.array_equal(still(f), still(shot())), "it plays after a drag that began paused"

        quit_with_escape(env, app)
    finally:
        close(screen, app)


def test_typed_shortcuts_and_esc_under_xvfb(display):
    """Issue 10 in a real pyglet window: "+", "?" and numpad +/- act (once a press); Esc closes help, then an
    open dropdown, and quits only from the bare view. A paused viewer draws identical frames, so "+" then "-"
    giving back the first picture shows each press stepped the speed exactly once (the measured-fps readout,
    right of the time field, is left out of every comparison: it changes as frames take their time)."""
    from tests.app.conftest import Driver

    path = model_path()
    probe = Driver(path, size=SIZE)  # where the clip combo sits: the overlay lays out the same in any window
    fx, fy, fw, fh = probe.app.overlay.widgets["time_field"]
    probe.close()
    env, app = start_viewer(display, path, "--paused")
    screen = Screen(display)
    try:
        wid, (wx, wy, w, h) = window_geometry(env, app)

        def shot() -> np.ndarray:
            rgb = screen.grab(wx, wy, w, h)
            rgb[int(fy) - 2 : int(fy + fh) + 3, int(fx + fw) :] = 0  # the fps readout
            return rgb

        deadline = time.monotonic() + 30
        while shot().std() < 5:
            assert time.monotonic() < deadline, "the window never showed a picture"
            time.sleep(0.2)
        rest = (str(wx + w // 2), str(wy + 150))  # the pointer rests over the 3D view
        xdotool(env, "mousemove", *rest)
        time.sleep(SETTLE)
        base = shot()

        def after(*keys: str) -> np.ndarray:
            xdotool(env, "key", "--window", wid, *keys)
            time.sleep(SETTLE)
            return shot()

        for up, down in (("plus", "minus"), ("KP_Add", "KP_Subtract")):
            assert not np.array_equal(after(up), base), f"{up} did not change the speed"
            assert np.array_equal(after(down), base), f"{up} then {down} is not back to the first speed"
        helped = after("question")
        assert (
            np.abs(
                helped[h // 3 : 2 * h // 3, w // 3 : 2 * w // 3].astype(int)
                - base[h // 3 : 2 * h // 3, w // 3 : 2 * w // 3]
            ).sum()
            > 0
        ), "? showed no help"
        assert np.array_equal(after("Escape"), base) and app.poll() is None, "Esc did not just close the help"

        combo = (str(wx + round(fx - 60)), str(wy + round(fy + fh / 2)))  # the clip combo, left of the time field

        def click_combo() -> np.ndarray:
            xdotool(env, "mousemove", *combo, "click", "1")
            xdotool(env, "mousemove", *rest)
            time.sleep(SETTLE)
            return shot()

        click_combo()
        bar_focused = click_combo()  # opened and closed by clicks: imgui's focus (title colours) is on the bar now
        assert not np.array_equal(click_combo(), bar_focused), "the clip dropdown did not open"
        closed = after("Escape")
        assert np.array_equal(closed, bar_focused) and app.poll() is None, "Esc did not just close the dropdown"
        quit_with_escape(env, app, "--window", wid)
    finally:
        close(screen, app)


def quit_with_escape(env: dict, app: subprocess.Popen, *where: str) -> None:
    """Esc from the bare view: the viewer exits with status 0 and no traceback."""
    xdotool(env, "key", *where, "Escape")
    _, err = app.communicate(timeout=30)
    assert app.returncode == 0, err
    assert "Traceback" not in err, err


def close(screen, app: subprocess.Popen) -> None:
    """Release the screen grabber and make sure the viewer is gone, whatever the test did."""
    screen.close()
    if app.poll() is None:
        app.kill()
        app.wait()


def start_viewer(display: str, path, *options: str, size: tuple[int, int] = SIZE) -> tuple[dict, subprocess.Popen]:
    """``animview FILE`` in a real pyglet window on ``display``; the environment and the process."""
    env = dict(os.environ, DISPLAY=display)
    env.pop("WAYLAND_DISPLAY", None)
    app = subprocess.Popen(
        [sys.executable, "-m", "viewer", str(path), "--window", "pyglet", *options, "--size", f"{size[0]}x{size[1]}"],
        cwd=REPO_ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    return env, app


def window_geometry(env: dict, app: subprocess.Popen) -> tuple[str, tuple[int, int, int, int]]:
    """The viewer's X window id and its (x, y, width, height) on the screen, once it is mapped."""
    wid = wait_for_window(env, app)
    geo = dict(line.split("=") for line in xdotool(env, "getwindowgeometry", "--shell", wid).split())
    return wid, tuple(int(geo[k]) for k in ("X", "Y", "WIDTH", "HEIGHT"))


COMPARE_SIZE = (1280, 720)
COMPARE_MODES = ("step", "linear", "catmull-rom")
LABEL_CHAR_W, LABEL_TEXT_H = 7, 13  # imgui's default font (ProggyClean 13 px): 7 px a character
LABEL_MIN_PIXELS = 20  # pixels of the mode's colour in its label ("step", the shortest, has about 60)
PANEL_BG_OVER_VIEW = np.array([24, 27, 33])  # the panels' window background over the view's clear colour
SEPARATOR = np.array([77, 82, 92])  # the line between panes (``draw_pane_labels``)


def compare_model(name: str, tmp_path):
    """The built-in morph-only triangle (a clip of weights only), a shared Khronos model, or the module's model."""
    if name == "morph_only":
        from tests.gltf_builder import morph_only

        return morph_only().write_gltf(tmp_path, "morph_only.gltf")
    if name == "shared":
        return model_path()
    from tests.conftest import khronos_model

    return khronos_model(name)


@pytest.mark.parametrize("name", ["morph_only", "MorphStressTest", "shared"])
def test_compare_view_plays_and_its_panes_are_uncovered_under_xvfb(display, tmp_path, name):
    """``animview FILE --compare step,linear,catmull-rom`` at 1280×720 in a real window: it plays a second
    with the picture changing and without crashing, then, paused, every pane's label and centre show on
    screen, and Esc exits 0 with no traceback.

    The imgui window rectangles live in the subprocess, so this test reads the framebuffer only (the X
    server's screenshot) and takes the pane rectangles from the pure arithmetic the viewer uses:
    ``compare.pane_rects`` over ``Layout.scene_viewport`` of the bar's layout with the docked column at its
    default width ``timeline.side_width(width)``. The separator lines between panes and the column's left edge
    are checked where that arithmetic puts them, so a layout that drifted from it fails here; then per pane:
    the label (text at (x + 8, y + 6), ``compare_panel.draw_pane_labels``) holds the mode's colour (the
    panels are drawn over the labels, so a covered label loses it), and the 15 × 15 region around the centre
    pixel holds no pixel of the panels' background colour (a colour test: the 3D view's clear colour, grid
    and these models are far from it). ``test_app_panes_uncovered`` checks the same headless, exactly,
    against imgui's own window rectangles and a frame drawn without the overlay."""
    path = compare_model(name, tmp_path)
    clip = load(path).clips[0]
    env, app = start_viewer(display, path, "--compare", ",".join(COMPARE_MODES), size=COMPARE_SIZE)
    screen = Screen(display)
    try:
        wid, (wx, wy, w, h) = window_geometry(env, app)
        assert (w, h) == COMPARE_SIZE
        lay = timeline.layout(w, h, clip.duration, 0, timeline.side_width(w))
        _, _, view_w, view_h = lay.scene_viewport()
        rects = compare.pane_rects(len(COMPARE_MODES), view_w, view_h)
        shot = lambda: screen.grab(wx, wy, w, h)  # noqa: E731
        deadline = time.monotonic() + 30
        while shot().std() < 5:
            assert time.monotonic() < deadline, "the window never showed a picture"
            time.sleep(0.2)
        xdotool(env, "mousemove", str(wx + 3), str(wy + h - 3))  # the pointer rests on the bar's empty corner
        time.sleep(SETTLE)
        a = shot()
        time.sleep(0.5)
        b = shot()
        time.sleep(0.5)
        assert app.poll() is None, f"animview exited while playing compare view: {app.stderr.read()}"
        assert not np.array_equal(a[:view_h, :view_w], b[:view_h, :view_w]), "playing compare panes are identical"

        xdotool(env, "key", "space")
        time.sleep(SETTLE)
        c = shot().astype(int)
        check_panes_on_screen(c, rects, view_w, view_h)
        quit_with_escape(env, app)
    finally:
        close(screen, app)


def check_panes_on_screen(rgb: np.ndarray, rects, view_w: int, view_h: int) -> None:
    """Each pane's label and centre in a screenshot ``rgb`` (int, window pixels) are the 3D view's."""
    near = lambda px, colour, tol: np.abs(px - colour).max(axis=-1) <= tol  # noqa: E731
    column = rgb[view_h // 2 : view_h - 20, view_w + 2 : view_w + 6]
    view_edge = rgb[view_h // 2 : view_h - 20, view_w - 6 : view_w - 2]
    assert near(column, PANEL_BG_OVER_VIEW, 4).mean() > 0.5 and near(view_edge, PANEL_BG_OVER_VIEW, 3).mean() < 0.1, (
        "the docked column's left edge is not where the layout puts it"
    )
    for (x, y, w, h), mode in zip(rects, COMPARE_MODES):
        where = f"{mode} pane {(x, y, w, h)}"
        if x > 0:  # the separator line on the pane's left edge, as the pure layout places it
            line = rgb[y + h // 4 : y + 3 * h // 4, x - 1 : x + 2]
            assert near(line, SEPARATOR, 6).any(axis=1).all(), f"{where}: no separator at x = {x}"
        label = rgb[y + 3 : y + 9 + LABEL_TEXT_H, x + 3 : x + 13 + LABEL_CHAR_W * len(mode)]
        count = near(label, np.array(compare.mode_rgb255(mode)), 10).sum()
        assert count >= LABEL_MIN_PIXELS, f"{where}: the label's colour is not on screen ({count} px)"
        cx, cy = x + w // 2, y + h // 2
        centre = rgb[cy - 7 : cy + 8, cx - 7 : cx + 8]
        assert not near(centre, PANEL_BG_OVER_VIEW, 3).any(), f"{where}: the centre shows a panel's background"
