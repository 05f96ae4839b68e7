"""Headless export and ``animview render``: frame times, PNG / sequence / GIF / MP4, errors, no display.

The frame-time rule under test (``viewer.export.frame_times``): start + k/fps while before the end,
then the end itself — the last frame lands exactly on the end time.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys

import numpy as np
import pytest
from PIL import Image

from tests.conftest import REPO_ROOT, khronos_model
from tests.render.conftest import cli_render, gl_error, pixels_off
from viewer import export
from viewer.cli import main
from viewer.pose.bounds import clip_bounds
from viewer.pose.pose import Pose
from viewer.render.camera import OrbitCamera
from viewer.scene.scene import load


def test_frame_times_end_exactly_on_the_end():
    t = export.frame_times(0.0, 3.708333, 10)
    assert len(t) == 39
    np.testing.assert_allclose(t[:-1], np.arange(38) / 10)
    assert t[-1] == 3.708333


def test_frame_times_do_not_repeat_an_end_on_the_grid():
    t = export.frame_times(0.0, 1.0, 10)
    assert len(t) == 11 and t[-1] == 1.0 and np.all(np.diff(t) > 0.09)
    t = export.frame_times(0.5, 0.7, 10)  # 0.5 + 2/10 is 0.7 up to rounding: no extra sliver frame
    assert len(t) == 3 and t[-1] == 0.7


def test_frame_times_edge_cases():
    assert export.frame_times(2.0, 2.0, 30).tolist() == [2.0]
    t = export.frame_times(1.0, 2.0, 24)
    assert len(t) == 25 and t[0] == 1.0 and t[-1] == 2.0
    with pytest.raises(ValueError):
        export.frame_times(0.0, 1.0, 0)


def run_cli(*args: str) -> subprocess.CompletedProcess:
    """``python -m viewer`` in a fresh process with no display at all."""
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env["PYTHONPATH"] = str(REPO_ROOT)
    return subprocess.run([sys.executable, "-m", "viewer", *args], capture_output=True, text=True, env=env, timeout=300)


def test_gif_of_box_animated_has_one_frame_per_tenth_of_a_second(tmp_path):
    out = tmp_path / "box.gif"
    proc = run_cli("render", str(khronos_model("BoxAnimated")), "-o", str(out), "--fps", "10", "--size", "160x120")
    assert proc.returncode == 0, proc.stderr
    assert "box.gif" in proc.stderr  # the progress bar (and the summary) went to stderr
    with Image.open(out) as gif:
        assert gif.n_frames == 39  # 0, 0.1, …, 3.7 and 3.708 s
        assert gif.size == (160, 120)
        assert gif.info["duration"] == 100
        gif.seek(0)
        first = np.asarray(gif.convert("RGB"))
        gif.seek(15)
        middle = np.asarray(gif.convert("RGB"))
    assert pixels_off(first, middle).mean() > 0.005  # the boxes moved (the clip is a loop: 3.708 s looks like 0)


def test_png_sequence_numbered_from_zero_and_quiet(tmp_path, gl):
    pattern = tmp_path / "f_%04d.png"
    code = main(
        [
            "render",
            str(khronos_model("AnimatedTriangle")),
            "-o",
            str(pattern),
            "--fps",
            "4",
            "--size",
            "64x48",
            "--quiet",
        ]
    )
    assert code == 0
    names = sorted(p.name for p in tmp_path.glob("f_*.png"))
    assert names == [f"f_{k:04d}.png" for k in range(5)]  # 0, .25, .5, .75, 1.0 s
    assert Image.open(tmp_path / names[0]).size == (64, 48)


def test_mp4_over_a_clip(tmp_path, capfd):
    out = tmp_path / "walk.mp4"
    code = main(
        [
            "render",
            str(khronos_model("Fox")),
            "-o",
            str(out),
            "--animation",
            "Walk",
            "--fps",
            "20",
            "--size",
            "160x120",
            "--quiet",
        ]
    )
    assert code == 0
    assert capfd.readouterr().err == ""  # --quiet: nothing at all on stderr
    import imageio.v3 as iio

    frames = iio.imread(out, index=None)
    assert frames.shape[1:3] == (120, 160)
    assert len(frames) == len(export.frame_times(0.0, 0.70833, 20))  # 15


def test_single_png_size_and_background(tmp_path, gl):
    out = tmp_path / "one.png"
    rgb = cli_render(khronos_model("BoxAnimated"), out, "--time", "1.0", "--size", "200x100", "--background", "#ff0000")
    assert rgb.shape == (100, 200, 3)
    assert tuple(rgb[0, 0]) == (255, 0, 0) and tuple(rgb[-1, 0]) == (255, 0, 0)


def leg_region(scene, clip, times, size):
    """Pixel box around the Fox's legs (vertices mostly weighted to leg, arm, hand or foot joints) at ``times``,
    seen by the camera ``animview render`` uses (orbit camera fitted to the whole clip)."""
    node = int(np.flatnonzero(scene.nodes.mesh >= 0)[0])
    prim = scene.meshes[scene.nodes.mesh[node]].primitives[0]
    names, joints = scene.nodes.names, scene.skins[0].joints
    j, w = np.asarray(prim.attributes["JOINTS_0"]), np.asarray(prim.attributes["WEIGHTS_0"])
    main_joint = joints[j[np.arange(len(j)), np.argmax(w, axis=1)]]
    legs = np.array([bool(re.search("Leg|Foot|Arm|Hand", names[j])) for j in main_joint])
    cam = OrbitCamera().fit(*clip_bounds(scene, clip), size[0] / size[1])
    view, proj = cam.matrices(None, size[0] / size[1])
    pose, pts = Pose(scene), []
    for t in times:
        pose.set_time(clip, t)
        p = np.c_[pose.primitive_positions(node, prim)[legs], np.ones(legs.sum())] @ (proj @ view).T
        pts.append(np.stack([(p[:, 0] / p[:, 3] + 1) * size[0] / 2, (1 - p[:, 1] / p[:, 3]) * size[1] / 2], 1))
    pts = np.concatenate(pts)
    return pts.min(axis=0).astype(int), pts.max(axis=0).astype(int) + 1


def test_fox_at_0_4_and_1_9_differ_where_the_legs_are(tmp_path, gl):
    fox = khronos_model("Fox")
    for t in ("0.4", "1.9"):
        assert main(["render", str(fox), "--time", t, "-o", str(tmp_path / f"fox_{t}.png"), "--quiet"]) == 0
    a = np.asarray(Image.open(tmp_path / "fox_0.4.png").convert("RGB"))
    b = np.asarray(Image.open(tmp_path / "fox_1.9.png").convert("RGB"))
    scene = load(fox)
    (x0, y0), (x1, y1) = leg_region(scene, scene.clips[0], (0.4, 1.9), (640, 480))
    off = pixels_off(a, b, level=24)
    legs = off[y0:y1, x0:x1]
    assert legs.sum() > 300, f"only {legs.sum()} pixels changed in the leg box {(x0, y0, x1, y1)}"


@pytest.mark.parametrize(
    "args,message",
    [
        (["--size", "10"], "--size"),
        (["--size", "0x10"], "--size"),
        (["--animation", "7"], "--animation 7"),
        (["--fps", "0"], "--fps"),
        (["--time", "abc"], "--time"),
        (["--camera", "3"], "--camera 3"),
        (["--start", "2", "--end", "1", "-o", "x.gif"], "--end"),
        (["-o", "x.mp4", "--size", "321x240"], "even"),
        (["-o", "x.txt"], "x.txt"),
        (["-o", "frames_%d.jpg"], "PNG"),
        (["-o", "/no/such/folder/x.png"], "does not exist"),
    ],
)
def test_bad_arguments_are_one_line_and_exit_2(capsys, args, message):
    argv = ["render", str(khronos_model("Fox"))] + (args if "-o" in args else args + ["-o", "x.png"])
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err, err


def test_bad_file_is_one_line_and_exit_2(tmp_path, capsys):
    bad = tmp_path / "bad.gltf"
    bad.write_text("{not json")
    assert main(["render", str(bad), "-o", str(tmp_path / "x.png")]) == 2
    assert main(["render", str(tmp_path / "missing.glb"), "-o", str(tmp_path / "x.png")]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 2 and "bad.gltf" in err[0] and "missing.glb" in err[1]
    assert not (tmp_path / "x.png").exists()


def test_render_works_without_a_display(tmp_path):
    out = tmp_path / "tri.png"
    proc = run_cli(
        "render", str(khronos_model("AnimatedTriangle")), "-o", str(out), "--size", "64x64", "--time", "0.25"
    )
    assert proc.returncode == 0, proc.stderr
    assert np.asarray(Image.open(out)).std() > 0


def test_bench_measures_render_fps(gl):
    from viewer.bench.render import measure_render_fps

    fps = measure_render_fps(load(khronos_model("BoxAnimated")), size=(64, 48), frames=5, ctx=gl.ctx)
    assert fps > 0
    assert gl_error(gl) == "GL_NO_ERROR"


def _file_with_camera_and_bad_image(tmp_path, bad_image: bool):
    from tests.gltf_builder import GltfBuilder

    tmp_path.mkdir(parents=True, exist_ok=True)
    b = GltfBuilder()
    quad = np.array([[-1, -1, 0], [1, -1, 0], [1, 1, 0], [-1, 1, 0]], np.float32)
    prim = {
        "attributes": {
            "POSITION": b.add_accessor(quad, target=34962, min_max=True),
            "TEXCOORD_0": b.add_accessor(np.zeros((4, 2), np.float32), target=34962),
        },
        "indices": b.add_accessor(np.array([0, 1, 2, 0, 2, 3], np.uint16), target=34963),
    }
    if bad_image:
        b.add_image(b"not a png at all")
        b.add("textures", {"source": 0})
        prim["material"] = b.add("materials", {"pbrMetallicRoughness": {"baseColorTexture": {"index": 0}}})
    b.add_node(mesh=b.add("meshes", {"primitives": [prim]}))
    b.add("cameras", {"name": "front", "type": "perspective", "perspective": {"yfov": 0.5, "znear": 0.1}})
    b.add_node(camera=0, translation=[0.0, 0.0, 10.0])
    b.add_scene([0, 1])
    return b.write_gltf(tmp_path, "cam.gltf")


def test_gltf_camera_by_index_and_name(tmp_path, gl):
    path = _file_with_camera_and_bad_image(tmp_path, bad_image=False)
    pictures = {}
    for cam in ("auto", "0", "front"):
        out = tmp_path / f"{cam}.png"
        pictures[cam] = cli_render(path, out, "--camera", cam, "--size", "64x64")
    assert (pictures["0"] == pictures["front"]).all()
    assert (pictures["0"] != pictures["auto"]).any()
    lit = pictures["0"].max(axis=2) > 60  # the quad, ±1 at 10 units with yfov 0.5: (1 / (10 tan 0.25))² ≈ 15 %
    assert lit[32, 32] and not lit[2, 2] and 0.12 < lit.mean() < 0.19


def test_undecodable_image_is_one_line_and_exit_2(tmp_path, capsys):
    path = _file_with_camera_and_bad_image(tmp_path, bad_image=True)
    assert main(["render", str(path), "-o", str(tmp_path / "x.png")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "/images/0" in err and "decode" in err


def test_no_egl_is_one_line_and_exit_1(tmp_path, capsys, monkeypatch):
    import moderngl

    def no_egl(*args, **kwargs):
        raise Exception("eglGetDisplay failed")

    monkeypatch.setattr(moderngl, "create_standalone_context", no_egl)
    assert main(["render", str(khronos_model("BoxAnimated")), "-o", str(tmp_path / "x.png")]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "EGL" in err and "libegl1" in err


def test_a_single_picture_of_a_travelling_model_frames_its_pose(tmp_path):
    from tests.gltf_builder import GltfBuilder

    b = GltfBuilder()
    b.add_node(mesh=b.add_mesh(np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0]], np.float32), [0, 1, 2]))
    b.add_animation([dict(node=0, path="translation", times=[0, 1], values=[[0, 0, 0], [30, 0, 0]])])
    b.add_scene([0])
    path = b.write_gltf(tmp_path, "walker.gltf")
    lit = {}
    for frame in ("auto", "clip", "pose"):
        front = ("--size", "64x64", "--yaw", "0", "--pitch", "0")
        picture = cli_render(path, tmp_path / f"{frame}.png", "--time", "0.5", "--frame", frame, *front)
        lit[frame] = (picture.max(axis=2) > 60).mean()
    assert lit["auto"] == lit["pose"] > 10 * lit["clip"]  # the walker fills its frame, not a 30-unit strip


def test_a_context_knows_its_limits_even_when_first_asked_off_context():
    """moderngl keeps ``info`` from its first read; a second context made while the first is current must not
    be left with limits of 0 (a huge image would then go to the GPU unscaled)."""
    try:
        first = export.create_context()
    except export.HeadlessError as exc:
        pytest.skip(str(exc))
    second = export.create_context()
    with first:  # `second` is not current here
        assert int(second.info["GL_MAX_TEXTURE_SIZE"]) >= 2048
    second.release()
    first.release()


def test_a_30_fps_gif_plays_as_long_as_its_frames(tmp_path):
    """GIF delays are whole centiseconds: 33.3 ms frames alternate 30 and 40 ms, so the GIF lasts its time."""
    from viewer.export.writers import _write_gif

    rng = np.random.default_rng(0)
    frames = [rng.integers(0, 255, (8, 8, 3), dtype=np.uint8) for _ in range(31)]
    out = tmp_path / "thirty.gif"
    _write_gif(str(out), frames, 30.0)
    with Image.open(out) as gif:
        delays = []
        for k in range(gif.n_frames):
            gif.seek(k)
            delays.append(gif.info["duration"])
    assert len(delays) == 31 and set(delays) == {30, 40}
    assert sum(delays) == pytest.approx(31 / 30 * 1000, abs=10)
