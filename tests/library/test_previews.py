"""``viewer.library.previews.Previews``: a worker's thumbnails and previews from one EGL context.

The thumbnail of a clip is the picture ``animview render FILE -o x.png --animation K --time MID --size 192x144
--frame clip`` writes (checked under the golden rule of ``render_helpers``; on Mesa llvmpipe they are
identical), also for a scene rendered after other scenes on the shared context: nothing leaks from one
file's render into the next.
"""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image

from tests.conftest import khronos_model
from tests.gltf_builder import GltfBuilder, minimal_animated
from tests.render.conftest import MAX_FRACTION_OFF, pixels_off
from viewer import export
from viewer.cli.main import main
from viewer.library import previews as previews_module
from viewer.library.previews import MAX_PREVIEW_SECONDS, Previews
from viewer.scene.scene import load


@pytest.fixture(scope="module")
def previews():
    """One ``Previews`` for the module, as a worker keeps one; skips where no EGL context can be made."""
    p = Previews()
    try:
        p.ctx  # noqa: B018
    except export.HeadlessError as exc:
        pytest.skip(str(exc))
    yield p
    p.close()


def size_of(path) -> tuple[int, int]:
    with Image.open(path) as im:
        return im.size


def frames_of(path) -> int:
    with Image.open(path) as im:
        return im.n_frames


def cli_thumbnail(tmp_path, file, clip) -> np.ndarray:
    """What ``animview render`` writes for the clip's thumbnail (a fresh context of its own)."""
    out = tmp_path / "cli.png"
    args = ["render", str(file), "-o", str(out), "--size", "192x144", "--frame", "clip", "--quiet"]
    if clip is not None:
        args += ["--animation", str(clip.index), "--time", repr(clip.duration / 2.0)]
    assert main(args) == 0
    return np.asarray(Image.open(out).convert("RGB"))


def assert_same_picture(actual: np.ndarray, expected: np.ndarray) -> None:
    assert actual.shape == expected.shape
    assert pixels_off(actual, expected).mean() < MAX_FRACTION_OFF


def test_thumbnails_and_png_previews_of_shared_models(previews, tmp_path):
    for name in ("BoxAnimated", "Fox"):
        scene = load(khronos_model(name))
        results = previews.render(scene, tmp_path, name, preview="png", preview_size=(200, 100))
        assert [r["index"] for r in results] == [c.index for c in scene.clips]
        for r in results:
            thumb = tmp_path / f"{name}.clip{r['index']}.png"
            assert r["thumbnail"] == str(thumb.resolve()) and size_of(thumb) == (192, 144)
            assert r["preview"] == str((tmp_path / f"{name}.clip{r['index']}.preview.png").resolve())
            assert size_of(r["preview"]) == (200, 100)


def test_thumbnail_is_what_animview_render_writes(previews, tmp_path):
    # rendered after other scenes on the shared context (the test above, the generated file here): the
    # CLI's fresh context must agree, so no state leaks from one scene into the next
    generated = minimal_animated().write_gltf(tmp_path)
    previews.render(load(generated), tmp_path, "first")
    path = khronos_model("Fox")
    scene = load(path)
    results = previews.render(scene, tmp_path, "fox")
    assert len(results) == 3
    for clip, r in zip(scene.clips, results):
        assert_same_picture(np.asarray(Image.open(r["thumbnail"]).convert("RGB")), cli_thumbnail(tmp_path, path, clip))
    again = previews.render(load(generated), tmp_path, "again")
    assert_same_picture(
        np.asarray(Image.open(again[0]["thumbnail"]).convert("RGB")),
        cli_thumbnail(tmp_path, generated, load(generated).clips[0]),
    )


def test_gif_preview_covers_the_clip_at_fps(previews, tmp_path):
    scene = load(khronos_model("BoxAnimated"))  # 3.708 s: 0, 0.1, …, 3.7, then 3.708
    (r,) = previews.render(scene, tmp_path, "box", preview="gif", preview_size=(160, 120), fps=10)
    assert r["preview"].endswith("box.clip0.gif") and size_of(r["preview"]) == (160, 120)
    assert frames_of(r["preview"]) == len(export.frame_times(0.0, scene.clips[0].duration, 10)) == 39


def test_gif_preview_is_capped(previews, tmp_path, monkeypatch):
    assert MAX_PREVIEW_SECONDS == 10.0
    monkeypatch.setattr(previews_module, "MAX_PREVIEW_SECONDS", 1.0)
    scene = load(minimal_animated().write_gltf(tmp_path))  # a 2 s clip
    (r,) = previews.render(scene, tmp_path, "capped", preview="gif", preview_size=(64, 48), fps=10)
    assert frames_of(r["preview"]) == 11  # 0, 0.1, …, 1.0


def test_mp4_preview_of_a_generated_file(previews, tmp_path):
    scene = load(minimal_animated().write_gltf(tmp_path))
    (r,) = previews.render(scene, tmp_path, "gen", preview="mp4", preview_size=(64, 48), fps=5)
    assert r["preview"].endswith("gen.clip0.mp4")
    import imageio.v3 as iio

    assert iio.imread(r["preview"], index=None).shape[:3] == (11, 48, 64)  # 2 s at 5 fps, both ends
    assert size_of(r["thumbnail"]) == (192, 144)
    with pytest.raises(ValueError, match="even"):
        previews.render(scene, tmp_path, "odd", preview="mp4", preview_size=(65, 48))
    with pytest.raises(ValueError, match="preview must be"):
        previews.render(scene, tmp_path, "bad", preview="webm")


def test_file_without_clips_gets_one_still(previews, tmp_path):
    b = GltfBuilder()
    b.add_mesh(np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0]], np.float32), [0, 1, 2])
    b.add_node(name="triangle", mesh=0)
    b.add_scene([0])
    scene = load(b.write_gltf(tmp_path, "still.gltf"))
    assert not scene.clips
    (r,) = previews.render(scene, tmp_path, "still", preview="gif", preview_size=(64, 48))
    assert r == {
        "index": None,
        "thumbnail": str((tmp_path / "still.png").resolve()),
        "preview": str((tmp_path / "still.gif").resolve()),
    }
    assert frames_of(r["preview"]) == 1
    picture = np.asarray(Image.open(r["thumbnail"]).convert("RGB"))
    assert_same_picture(picture, cli_thumbnail(tmp_path, tmp_path / "still.gltf", None))


def test_one_context_for_many_scenes(tmp_path, monkeypatch):
    made = []

    def counting():
        made.append(export.create_context())
        return made[-1]

    monkeypatch.setattr(previews_module, "create_context", counting)
    p = Previews()
    assert not made  # lazily: nothing until the first render
    try:
        path = minimal_animated().write_gltf(tmp_path)
        for k in range(3):
            p.render(load(path), tmp_path, f"n{k}")
        p.render(load(khronos_model("BoxAnimated")), tmp_path, "box")
    except export.HeadlessError as exc:
        pytest.skip(str(exc))
    finally:
        p.close()
    assert len(made) == 1
    assert p._ctx is None  # closed; a later render would make a new one
