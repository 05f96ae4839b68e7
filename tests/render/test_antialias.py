"""Anti-aliasing: which kind ``auto`` picks, the FXAA pass itself, and where each path uses it (exports, the
window, the overlay's text left sharp)."""

from __future__ import annotations

import numpy as np
import pytest

from tests.gltf_builder import GltfBuilder
from tests.render.conftest import render_plain
from viewer import export
from viewer.render.antialias import DENSE_TRIANGLES_PER_PIXEL, PostPass, choose, drawn_triangles
from viewer.render.renderer import Look, RenderOptions
from viewer.scene.scene import load

UNLIT = {"extensions": {"KHR_materials_unlit": {}}, "pbrMetallicRoughness": {"baseColorFactor": [1, 1, 1, 1]}}


@pytest.mark.parametrize(
    "aa,samples,triangles,size,expected",
    [
        ("auto", 4, 1000, (640, 480), (4, False)),
        ("auto", 4, 76_800, (640, 480), (4, False)),  # exactly a quarter of the pixels: still MSAA
        ("auto", 4, 76_801, (640, 480), (0, True)),
        ("auto", 4, 76_801, (1280, 960), (4, False)),  # the same scene in a bigger frame: MSAA again
        ("auto", 0, 10**6, (640, 480), (0, False)),  # --samples 0 asks for no anti-aliasing at all
        ("msaa", 2, 10**6, (640, 480), (2, False)),
        ("msaa", 0, 10, (640, 480), (0, False)),
        ("fxaa", 4, 10, (640, 480), (0, True)),
        ("fxaa", 0, 10, (640, 480), (0, True)),
        ("off", 4, 10, (640, 480), (0, False)),
    ],
)
def test_choose_follows_the_triangle_density_rule(aa, samples, triangles, size, expected):
    assert DENSE_TRIANGLES_PER_PIXEL == 0.25
    assert choose(aa, samples, triangles, size) == expected


def test_choose_refuses_an_unknown_mode():
    with pytest.raises(ValueError, match="auto, msaa, fxaa, off"):
        choose("smaa", 4, 10, (64, 64))


def test_drawn_triangles_counts_each_shown_node_and_each_mode(tmp_path):
    b = GltfBuilder()
    quad = [[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 1, 0]]
    indexed = b.add_mesh(positions=quad, indices=[0, 1, 2, 2, 1, 3])  # 2 triangles
    loose = b.add_mesh(positions=quad[:3] * 3)  # 9 vertices, no indices: 3 triangles
    shown = [b.add_node(mesh=indexed), b.add_node(mesh=indexed), b.add_node(mesh=loose)]
    b.add_node(mesh=loose)  # in no scene: not drawn
    b.add_scene(shown)
    doc = b.doc
    doc["meshes"].append(
        {
            "primitives": [
                dict(doc["meshes"][0]["primitives"][0], mode=5),  # strip of 6 indices: 4
                dict(doc["meshes"][0]["primitives"][0], mode=1),
            ]
        }
    )  # lines: none
    doc["nodes"].append({"mesh": 2})
    doc["scenes"][0]["nodes"].append(4)
    scene = load(b.write_gltf(tmp_path, "t.gltf"))
    assert drawn_triangles(scene) == 2 + 2 + 3 + 4


def _edge_picture(w: int, h: int, slope: float, offset: float) -> np.ndarray:
    """A hard white-over-black edge y = slope·x + offset (rows counted from the bottom, as GL stores them)."""
    y, x = np.mgrid[0:h, 0:w]
    return np.where(y > slope * x + offset, 255, 0).astype(np.uint8)


def _fxaa(gl, grey: np.ndarray) -> np.ndarray:
    h, w = grey.shape
    rgba = np.ascontiguousarray(np.dstack([grey] * 3 + [np.full_like(grey, 255)]))
    with gl.ctx:
        tex = gl.ctx.texture((w, h), 4, rgba.tobytes())
        tex.repeat_x = tex.repeat_y = False  # as the targets' frames: taps past the border clamp, not wrap
        dst = gl.ctx.framebuffer(gl.ctx.renderbuffer((w, h), 4))
        post = PostPass(gl.programs)
        try:
            post.draw(tex, dst, (0, 0, w, h), fxaa=True)
            out = np.frombuffer(dst.read(components=1), np.uint8).reshape(h, w).copy()
        finally:
            post.release()
            gl.ctx.detect_framebuffer(0).use()  # moderngl re-binds the bound framebuffer later: not a freed one
            dst.release()
            tex.release()
    return out


def test_fxaa_smooths_a_slanted_edge_and_leaves_the_rest_alone(gl):
    src = _edge_picture(48, 48, 0.3, 10.0)
    out = _fxaa(gl, src)
    # every pixel stays within its 3×3 neighbourhood's range: no halo, no overshoot
    pad = np.pad(src, 1, mode="edge").astype(int)
    windows = np.lib.stride_tricks.sliding_window_view(pad, (3, 3))
    assert (out >= windows.min(axis=(2, 3))).all() and (out <= windows.max(axis=(2, 3))).all()
    # far from the edge nothing moved; on the staircase, grey steps appear where there were none
    near = np.abs(np.mgrid[0:48, 0:48][0] - (0.3 * np.mgrid[0:48, 0:48][1] + 10.0)) < 3
    assert np.array_equal(out[~near], src[~near])
    greys = (out > 20) & (out < 235)
    assert not ((src > 20) & (src < 235)).any() and greys[near].sum() >= 40
    # along each column the edge's grey runs at most 2 pixels across: smoothed, not blurred
    assert greys.sum(axis=0).max() <= 2


def test_fxaa_leaves_an_axis_aligned_edge_as_it_is(gl):
    src = np.zeros((32, 32), np.uint8)
    src[:, 16:] = 255
    assert np.array_equal(_fxaa(gl, src), src)


def _tilted_triangle(tmp_path):
    b = GltfBuilder()
    b.doc.setdefault("materials", []).append(UNLIT)
    mesh = b.add_mesh(positions=[[-0.9, -0.7, 0], [0.8, -0.9, 0], [-0.3, 0.85, 0]], indices=[0, 1, 2])
    b.doc["meshes"][mesh]["primitives"][0]["material"] = 0
    b.add_scene([b.add_node(mesh=mesh)])
    return load(b.write_gltf(tmp_path, "tri.gltf"))


def test_fxaa_picture_is_nearer_msaa_than_none_is(gl, tmp_path):
    scene = _tilted_triangle(tmp_path)
    msaa, fxaa, off = (
        render_plain(gl, scene, size=(96, 96), samples=s, fxaa=f, tonemap="none", environment=False).astype(float)
        for s, f in ((4, False), (0, True), (0, False))
    )
    edge = np.abs(msaa - off).max(axis=2) > 0
    assert edge.sum() > 100  # the triangle's three edges
    assert np.abs(fxaa - msaa)[edge].mean() < 0.75 * np.abs(off - msaa)[edge].mean()
    near = edge.copy()  # within 2 pixels of an edge pixel: where the pass may reach
    for dy in range(-2, 3):
        for dx in range(-2, 3):
            near |= np.roll(edge, (dy, dx), axis=(0, 1))
    assert np.array_equal(fxaa[~near], off[~near])


def _dense_file(tmp_path, triangles: int):
    """One grid mesh of about ``triangles`` triangles (two per cell)."""
    n = int(np.ceil(np.sqrt(triangles / 2)))
    g = np.linspace(-1, 1, n + 1)
    xx, yy = np.meshgrid(g, g)
    positions = np.stack([xx.ravel(), yy.ravel(), np.zeros(xx.size)], axis=1)
    k = np.arange(n * (n + 1)).reshape(n, n + 1)[:, :n].ravel()
    indices = np.stack([k, k + 1, k + n + 1, k + n + 1, k + 1, k + n + 2], axis=1).ravel()
    b = GltfBuilder()
    b.add_scene([b.add_node(mesh=b.add_mesh(positions=positions, indices=indices.astype(np.uint32)))])
    return load(b.write_gltf(tmp_path, "dense.gltf"))


def test_offscreen_auto_uses_fxaa_on_a_dense_scene_and_msaa_otherwise(gl, tmp_path):
    scene = _dense_file(tmp_path, 2_000)
    assert drawn_triangles(scene) >= 2_000
    for size, expect_fxaa in (((64, 48), True), ((320, 240), False)):
        off = export.Offscreen(scene, None, export.View(size=size), gl.ctx, gl.programs)
        try:
            assert off.target.fxaa is expect_fxaa and (off.target.samples == 0) is expect_fxaa
            assert off.frame(0.0).shape == (size[1], size[0], 3)
        finally:
            off.release()
    forced = export.View(size=(64, 48), options=RenderOptions(look=Look(aa="msaa")))
    off = export.Offscreen(scene, None, forced, gl.ctx, gl.programs)
    try:
        assert not off.target.fxaa and off.target.samples == 4
    finally:
        off.release()


def test_overlay_text_is_not_smoothed(gl):
    from viewer.base.resources import asset_path
    from viewer.export.overlay import OverlayLook, OverlayOffscreen

    scene = load(asset_path("interpolation.gltf"))
    pictures = {}
    for aa in ("off", "fxaa"):
        view = export.View(size=(960, 540), options=RenderOptions(look=Look(aa=aa)))
        off = OverlayOffscreen(scene, scene.clips[0], view, gl.ctx, look=OverlayLook(channels=False))
        try:
            pictures[aa] = off.frame(1.0)
            x, y, w, h = off.overlay.layout.scene_viewport()  # GL: from the bottom
        finally:
            off.release()
    top = 540 - (y + h)
    # the timeline bar under the view (text, buttons, ticks) is drawn after the pass; its top row only is
    # translucent, over the view's last row that the pass smoothed
    bar = pictures["off"][540 - y + 1 :]
    assert bar.std() > 10
    assert np.array_equal(pictures["fxaa"][540 - y + 1 :], bar)
    view_off, view_fxaa = (p[top : 540 - y, x : x + w].astype(int) for p in (pictures["off"], pictures["fxaa"]))
    assert np.abs(view_off - view_fxaa).max() > 30  # the 3D view's edges did change


def test_window_view_takes_the_look_s_anti_aliasing():
    from tests.app.conftest import Driver, demo

    d = Driver(demo("interpolation.gltf"))
    try:
        d.frame(0.0)
        assert d.app.state.aa_label == "MSAA 4×"  # a light demo: auto keeps MSAA
        pictures = {"auto": d.view_pixels().astype(int)}
        for aa, label in (("fxaa", "FXAA"), ("off", "off"), ("msaa", "MSAA 4×")):
            d.app.state.display.look.aa = aa
            d.frame(0.0)
            assert d.app.state.aa_label == label
            pictures[aa] = d.view_pixels().astype(int)
        assert np.array_equal(pictures["msaa"], pictures["auto"])
        for a, b in (("fxaa", "msaa"), ("off", "msaa"), ("fxaa", "off")):
            assert np.abs(pictures[a] - pictures[b]).max() > 30, (a, b)
    finally:
        d.close()
