"""The workspace in the real app, headless: several clips on one clock, the timeline's zoom, pan and fit,
the loop range in playback and in the export, motion in place and the follow camera."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image

from tests.app.conftest import Driver
from tests.gltf_builder import GltfBuilder
from viewer.export.offscreen import frame_times

TRIANGLE = np.array([[0, 0, 0], [0.3, 0, 0], [0, 0.3, 0]], np.float32)


@pytest.fixture
def two_clips(tmp_path):
    """Node 0 walks +x over 1 s (clip "Walk"); node 1 rises over 2 s (clip "Rise")."""
    b = GltfBuilder()
    mesh = b.add_mesh(TRIANGLE, [0, 1, 2])
    b.add_node(name="walker", mesh=mesh)
    b.add_node(name="riser", mesh=mesh, translation=[1.0, 0.0, 0.0])
    b.add_animation([dict(node=0, path="translation", times=[0, 1], values=[[0, 0, 0], [2, 0, 0]])], name="Walk")
    b.add_animation([dict(node=1, path="translation", times=[0, 2], values=[[1, 0, 0], [1, 1, 0]])], name="Rise")
    b.add_scene([0, 1])
    return b.write_gltf(tmp_path)


def test_several_clips_play_together_on_one_clock(two_clips):
    d = Driver(two_clips)
    try:
        s = d.app.state
        assert s.active == (0,) and d.clock.duration == 1.0
        d.key("A")
        assert s.active == (0, 1) and d.clock.duration == 2.0  # the timeline spans the longest
        d.clock.seek(1.5)
        d.frame(0.0)
        pos = d.app.pose.world[:, :3, 3]
        assert pos[0] == pytest.approx([2, 0, 0])  # Walk ended at 1 s: it holds its last pose
        assert pos[1] == pytest.approx([1, 0.75, 0])
        assert [r.label for r in s.dope_rows() if r.channel is None] == ["Walk (1 ch)", "Rise (1 ch)"]
        d.key("A")  # all play already: back to the clip picked last
        assert s.active == (0,)
        d.key("NUMBER_2")
        assert s.active == (1,) and s.clip.name == "Rise"
        assert s.toggle_active(0) and s.active == (0, 1)
        assert s.toggle_active(1) and s.active == (0,)
        assert not s.toggle_active(0)  # the last clip playing stays
    finally:
        d.close()


def test_wheel_zooms_the_ruler_around_the_pointer_and_f_fits(two_clips):
    d = Driver(two_clips)
    try:
        r = d.layout.ruler
        x, y = 700, d.layout.ruler_y + 10
        t = r.time_at(x)
        d.scroll(x, y, 2)
        d.frame(0.0)
        zoomed = d.layout.ruler
        assert zoomed.span == pytest.approx(r.span / 1.25**2)
        assert zoomed.time_at(x) == pytest.approx(t, abs=1e-9)
        camera = d.app.camera.distance
        d.scroll(x, y, 3)
        d.frame(0.0)
        assert d.app.camera.distance == camera  # the wheel on the timeline leaves the camera alone
        d.move(x, y)
        d.key("F")  # pointer on the timeline: fit the clip
        d.frame(0.0)
        assert d.app.state.view_range is None and d.layout.ruler.span == pytest.approx(1.0)
    finally:
        d.close()


def test_middle_drag_on_the_timeline_pans_it(two_clips):
    d = Driver(two_clips)
    try:
        d.app.state.view_range = (0.2, 0.6)
        d.frame(0.0)
        r = d.layout.ruler
        y = d.layout.ruler_y + 10
        d.move(800, y)
        d.frame(0.0)
        d.press(800, y, button=3)
        d.frame(0.0)
        step = r.px_per_second * 0.1  # 0.1 s of ruler
        d.move(800 - step, y)
        d.drag(800 - step, y, -step, 0)
        d.frame(0.0)
        d.release(800 - step, y, button=3)
        d.frame(0.0)
        assert d.app.state.view_range == pytest.approx((0.3, 0.7), abs=2e-3)
    finally:
        d.close()


def test_loop_range_keys_hold_playback_inside_it(two_clips):
    d = Driver(two_clips, paused=True)
    try:
        d.clock.seek(0.25)
        d.key("I")
        d.clock.seek(0.5)
        d.key("O")
        assert d.clock.range == (0.25, 0.5)
        d.key("SPACE")
        seen = []
        for _ in range(40):
            d.frame(1 / 60)
            seen.append(d.clock.t)
        assert min(seen) >= 0.25 - 1e-9 and max(seen) <= 0.5 + 1e-9
        assert max(seen) - min(seen) > 0.2  # it played round the range
        d.key("I", shift=True)
        assert d.clock.range is None
    finally:
        d.close()


def test_export_writes_the_loop_range_as_a_gif(two_clips, tmp_path):
    d = Driver(two_clips, screenshot_dir=tmp_path)
    try:
        d.clock.set_range(0.25, 0.75)
        d.clock.seek(0.1)
        d.key("E")
        d.frame(0.0)
        (path,) = d.app.exports
        with Image.open(path) as gif:
            frames = gif.n_frames
            size = gif.size
        assert frames == len(frame_times(0.25, 0.75, d.app.state.fps))
        assert size == tuple(d.app._view_size())
        assert "0.250-0.750s" in path.name and "saved" in d.app.state.message
        assert d.clock.t == 0.1  # the export leaves the playhead where it was
        assert d.app.pose.world[0, 0, 3] == pytest.approx(0.2)  # and the pose shows it again
    finally:
        d.close()


def test_motion_in_place_holds_the_root_and_follow_moves_the_camera(two_clips):
    d = Driver(two_clips)
    try:
        d.clock.seek(0.5)
        d.frame(0.0)
        assert d.app.pose.world[0, 0, 3] == pytest.approx(1.0)
        d.key("M")
        assert d.app.pose.world[0, 0, 3] == pytest.approx(0.0)  # walker held at its start on the ground
        d.key("M")
        d.key("T")
        d.app.state.select_node(0)
        d.frame(0.0)
        target = d.app.camera.target.copy()
        d.clock.seek(0.75)
        d.frame(0.0)
        assert d.app.camera.target - target == pytest.approx([0.5, 0, 0])
    finally:
        d.close()


def test_the_window_looks_through_the_files_camera_until_the_mouse_orbits(tmp_path, capsys):
    from tests.export.test_offscreen import _file_with_camera_and_bad_image
    from viewer.cli.main import main
    from viewer.render.camera import GltfCamera

    path = _file_with_camera_and_bad_image(tmp_path, bad_image=False)
    assert main(["--window", "headless", "--backend", "egl", "--frames", "1", "--camera", "nope", str(path)]) == 2
    assert "0:'front'" in capsys.readouterr().err  # the message lists the file's cameras
    for odd in ("²", "٣"):  # digits to str.isdigit, not to int(): still one line and exit 2
        assert main(["render", str(path), "-o", str(tmp_path / "x.png"), "--camera", odd]) == 2
        assert main(["render", str(path), "-o", str(tmp_path / "x.png"), "--animation", odd]) == 2
        assert capsys.readouterr().err.count("\n") == 2
    d = Driver(path, camera=0)
    try:
        assert d.app.state.cameras() == [0] and isinstance(d.app.view_camera(), GltfCamera)
        through_file = d.view_pixels()
        vp = d.layout.scene_viewport()
        d.press(vp[2] // 2, 100)
        d.drag(vp[2] // 2 + 40, 100, 40, 0)
        d.release(vp[2] // 2 + 40, 100)
        d.frame(0.0)
        assert d.app.state.view_camera is None and d.app.view_camera() is d.app.camera
        assert (d.view_pixels() != through_file).any()
    finally:
        d.close()


def test_thousands_of_keys_draw_as_bars_without_overflowing_the_ui(tmp_path):
    b = GltfBuilder()
    mesh = b.add_mesh(TRIANGLE, [0, 1, 2])
    times = np.arange(3000) / 100.0  # 3 000 keys per channel, 30 s at 100 keys/s
    for k in range(8):
        b.add_node(name=f"n{k}", mesh=mesh)
    b.add_animation(
        [
            dict(node=k, path="translation", times=times, values=np.c_[np.sin(times + k), times * 0, times * 0])
            for k in range(8)
        ]
    )
    b.add_scene(list(range(8)))
    d = Driver(b.write_gltf(tmp_path, "dense.gltf"), size=(1280, 720))
    try:
        d.app.state.display.channels = True
        d.frames(3, 0.0)  # moderngl-window's imgui renderer holds 65 536 indices per window: must not overflow
        r = d.layout.ruler
        from viewer.ui import timeline as tl
        from viewer.ui.channel_rows import MERGE_PX

        runs = tl.tick_runs(times, r, MERGE_PX)
        assert len(runs) <= (r.x1 - r.x0) / MERGE_PX + 1 and len(runs) < 10
        d.app.state.view_range = (1.0, 1.2)  # zoomed in, the keys stand apart again
        d.frames(2, 0.0)
        assert len(tl.tick_runs(times, d.layout.ruler, MERGE_PX)) == 21
    finally:
        d.close()


def test_reload_keeps_the_loop_range_and_the_zoom(two_clips):
    d = Driver(two_clips)
    try:
        d.clock.set_range(0.2, 0.6)
        d.app.state.view_range = (0.1, 0.5)
        d.key("R")
        d.frame(0.0)
        assert d.clock.range == (0.2, 0.6) and d.app.state.view_range == (0.1, 0.5)
    finally:
        d.close()
