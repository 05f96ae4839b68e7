"""The KHR_animation_pointer demo (``assets/pointers.gltf``) rendered headless: each animated property changes
the picture as it should between two times, and two golden pictures through its camera 0.

Measurements use a fixed orthographic camera from the front, 30° above the slab (so the floor under the spot is
seen), and pixel regions found by projecting the demo's own layout; camera 0's zoom is measured through
``export.Offscreen`` with that camera. Every comparison is between two times of the same file, so what is
claimed is the animation's effect, not an absolute level.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from tests.render.conftest import FixedCamera, assert_matches_golden, gl_error, project, render_plain  # noqa: F401
from viewer import export
from viewer.base.math3d import look_at
from viewer.base.resources import REPO_ROOT
from viewer.demo import pointers as demo
from viewer.render.camera import orthographic
from viewer.render.renderer import RenderOptions
from viewer.scene.scene import load

SIZE, XMAG = (396, 120), 3.3
PIXELS_PER_UNIT = SIZE[0] / (2.0 * XMAG)  # 60
ELEVATION = math.radians(30.0)
UP = np.array([0.0, math.cos(ELEVATION), -math.sin(ELEVATION)])  # the picture's up, in the world
CENTRE = np.array([0.0, 0.2, 0.0])
BACK = np.array([0.0, math.sin(ELEVATION), math.cos(ELEVATION)])  # toward the camera
VIEW = look_at(CENTRE + 10.0 * BACK, CENTRE, UP)
PROJ = orthographic(XMAG, XMAG * SIZE[1] / SIZE[0], 0.1, 30.0)


@pytest.fixture(scope="module")
def scene():
    return load(REPO_ROOT / "assets" / "pointers.gltf")


def shot(gl, scene, t: float) -> np.ndarray:
    """(h, w, 3) float sRGB levels 0..255 at clip time ``t`` through the fixed camera, black background."""
    return render_plain(gl, scene, FixedCamera(VIEW, PROJ), SIZE, clip=scene.clips[0], t=t).astype(np.float64)


def region(*corners) -> tuple[slice, slice]:
    """Rows and columns of the pixels inside the screen box spanned by world points ``corners``."""
    px = project(np.array(corners, np.float64), VIEW, PROJ, SIZE)
    (x0, y0), (x1, y1) = np.floor(px.min(axis=0)).astype(int), np.ceil(px.max(axis=0)).astype(int)
    return slice(y0, y1), slice(x0, x1)


def around(point, half: float) -> tuple[slice, slice]:
    """A square of ``half`` units about ``point`` in the picture plane."""
    p, right = np.array(point, np.float64), np.array([half, 0.0, 0.0])
    return region(p - right - half * UP, p + right + half * UP)


def floor(x0: float, x1: float, z0: float, z1: float) -> tuple[slice, slice]:
    return region((x0, 0.0, z0), (x1, 0.0, z1))


BARE_FLOOR = floor(-3.0, -1.8, 0.6, 1.1)  # in front of the red sphere, where the spot never reaches


def test_base_colour_runs_from_red_to_blue(gl, scene):
    box = around((demo.slot_x(0), demo.RADIUS, 0.0), 0.25)
    red, blue = (shot(gl, scene, t)[box].reshape(-1, 3).mean(axis=0) for t in (0.0, 2.0))
    assert red[0] > 3.0 * red[2] and red[0] > 100  # measured (182, 34, 23)
    assert blue[2] > 3.0 * blue[0] and blue[2] > 100  # measured (24, 56, 185)


def test_emissive_strength_peaks_at_the_pulse(gl, scene):
    box = around((demo.slot_x(1), demo.RADIUS, 0.0), 0.25)
    dim, peak = (shot(gl, scene, t)[box].mean() for t in (0.0, 2.0))
    assert peak > dim + 60  # measured 49 → 156 mean level


def test_emissive_pulse_is_cubic_between_keys(scene):
    """Half way up the rise (1.8 s) the Hermite spline with the file's tangents, not the straight line."""
    channel = scene.clips[0].channels[1]
    assert channel.curve.interpolation == "CUBICSPLINE"
    (_, p0, m0), (m1, p1, _) = demo.EMISSIVE_STRENGTH[1], demo.EMISSIVE_STRENGTH[2]
    hermite = 0.5 * p0 + 0.125 * 0.4 * m0 + 0.5 * p1 - 0.125 * 0.4 * m1
    value = float(scene.clips[0].sample(1.8)[1, 0])
    assert value == pytest.approx(hermite, abs=1e-6) and abs(value - 0.5 * (p0 + p1)) > 0.15


def test_checker_scrolls_left_by_the_texture_offset(gl, scene):
    rows, cols = region((-0.45, 0.1, 0.02), (0.45, 1.1, 0.02))
    a, b = (shot(gl, scene, t)[rows, cols] for t in (0.0, 0.3))
    width = PIXELS_PER_UNIT * demo.CARD[0]  # card pixels across
    expected = -0.3 / demo.DURATION * width  # offset u grows by t / 4: the picture moves left
    errors = {s: np.abs(np.roll(a, s, axis=1)[:, 8:-8] - b[:, 8:-8]).mean() for s in range(-15, 16)}
    best = min(errors, key=errors.get)
    assert abs(best - expected) <= 1.0  # measured best shift −5 for an expected −4.5
    assert errors[best] < 0.2 * errors[0]  # measured 3.9 against 48.1 unshifted
    assert abs(a.mean() - b.mean()) < 3.0  # the same cells, moved: mean level 68.3 against 68.1


def test_spot_pool_grows_as_the_cone_opens(gl, scene):
    x, _, z = demo.SPOT
    pool = floor(x - 0.68, x + 0.68, z - 0.6, z + 0.6)
    bare = BARE_FLOOR
    areas = []
    for t in (0.0, 2.0):
        rgb = shot(gl, scene, t)
        areas.append(int((rgb[pool].mean(axis=-1) > rgb[bare].mean() + 15).sum()))
    assert areas[0] > 0 and areas[1] > 6 * areas[0]  # measured 116 → 1876 pixels


def test_hidden_box_shows_the_floor_and_its_child_the_background(gl, scene):
    x = demo.slot_x(4)
    box = around((x, 0.5 * demo.BOX, 0.5 * demo.BOX), 0.15)
    child = around((x, demo.BOX + demo.CHILD_RADIUS, 0.0), 0.08)
    for t, shown in ((0.5, True), (2.0, False), (3.2, True)):
        rgb = shot(gl, scene, t)
        green = rgb[box].mean(axis=(0, 1))
        yellow = rgb[child].mean(axis=(0, 1))
        if shown:
            assert green[1] > 2.0 * max(green[0], green[2]), t  # measured (18, 140, 64)
            assert min(yellow[:2]) > 3.0 * yellow[2] > 0.0, t  # measured (198, 182, 41)
        else:
            bare = rgb[BARE_FLOOR].mean(axis=(0, 1))
            assert np.abs(green - bare).max() < 4.0, t  # the floor: measured (142, 142, 145) for both
            assert yellow.max() < 1.0, t  # the black background


def camera_zero(gl, scene, t: float) -> np.ndarray:
    options = RenderOptions(background=(0.0, 0.0, 0.0), grid=False, axes=False)
    off = export.Offscreen(
        scene, scene.clips[0], export.View(size=(640, 480), camera=0, samples=0, options=options), gl.ctx, gl.programs
    )
    try:
        return off.frame(t)
    finally:
        off.release()


def test_camera_zero_zooms_by_its_yfov(gl, scene):
    """The row's height on screen scales by tan(yfov / 2): the narrow key (2 s) against the wide one (0 s)."""
    heights = []
    for t in (0.0, 2.0):
        rows = np.flatnonzero((camera_zero(gl, scene, t).max(axis=-1) > 10).any(axis=1))
        assert rows[0] > 0 and rows[-1] < 479  # nothing cut off, so the ratio is the zoom's
        heights.append(rows[-1] - rows[0] + 1)
    wide, narrow = demo.YFOV[0], demo.YFOV[1]
    want = math.tan(0.5 * wide) / math.tan(0.5 * narrow)  # 1.401
    assert heights[1] / heights[0] == pytest.approx(want, abs=0.05)  # measured 145 → 203 rows, 1.400


@pytest.mark.parametrize("t", [0.0, 2.0])
def test_golden_through_camera_zero(gl, scene, t):
    """Looked at when made. 0 s: a red sphere, a dim brown emissive sphere, the checker, a pin-point spot, the
    green box with its yellow ball, camera 0 wide. 2 s: zoomed in; the sphere blue, the emissive one glowing
    orange, the checker moved half a card left, a wide pool of light, the box and ball gone."""
    off = export.Offscreen(scene, scene.clips[0], export.View(size=(320, 240), camera=0), gl.ctx, gl.programs)
    try:
        rgb = off.frame(t)
    finally:
        off.release()
    assert gl_error(gl) == "GL_NO_ERROR"
    assert_matches_golden(f"pointer_t{t:g}", rgb)


def test_demo_file_regenerates_byte_for_byte():
    assert demo.pointers().encode("utf-8") == (REPO_ROOT / "assets" / "pointers.gltf").read_bytes()
