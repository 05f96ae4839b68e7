"""Render the pictures of README and docs/ again: ``python docs/pictures.py`` (headless, EGL; from the repository root).

The screenshot is the viewer window itself (``ViewerApp`` on moderngl-window's headless window — the code
path a person's window runs), set up as a person would: the dope sheet open, a node selected, a loop range.
The compare picture, the engines' panes, the GIF, the materials picture and the Fox against its gltfpack copy
come from ``animview render`` (its ``--compare``, ``--against`` and ``--overlay`` sources), the library's contact
sheet from ``animview render PATH --outdir --contact-sheet``.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
from PIL import Image

from viewer.app.window import ViewerApp, ViewOptions
from viewer.cli.view import open_window

DOCS = Path(__file__).resolve().parent
ASSETS = DOCS.parent / "assets"
KHRONOS = Path(os.environ.get("ANIMVIEW_KHRONOS", DOCS.parent.parent / "shared" / "assets" / "khronos"))


def window_screenshot(out: Path, size=(1280, 720)) -> None:
    """The demo in the window: cubes at 1.6 s, one row per channel, the CUBICSPLINE cube selected, a loop range."""
    wnd = open_window("headless", size, "egl")
    app = ViewerApp(ctx=wnd.ctx, wnd=wnd, options=ViewOptions(path=ASSETS / "interpolation.gltf", paused=True))
    wnd.config = app
    s = app.state
    s.display.channels = True
    s.select_node(list(s.scene.nodes.names).index("CUBICSPLINE"))
    s.clock.set_range(1.0, 3.0)
    s.clock.seek(1.6)
    for _ in range(3):
        wnd.use()
        wnd.render(0.0, 1 / 60)
        wnd.swap_buffers()
    w, h = wnd.fbo.size
    rgb = np.frombuffer(wnd.fbo.read(viewport=(0, 0, w, h), components=3, alignment=1), np.uint8)
    Image.fromarray(rgb.reshape(h, w, 3)[::-1]).save(out)
    app.release()
    wnd.destroy()


RENDER = [sys.executable, "-c", "from viewer.cli.main import main_entry; main_entry()", "render"]


def materials_picture(out: Path) -> None:
    """The materials demo with the overlay (the View section's look open): at 1 s the sweeping spot lights the
    clearcoat sphere and the floor before it, and the glass beside it refracts the checker card behind."""
    subprocess.run(
        [
            *RENDER,
            str(ASSETS / "materials.gltf"),
            "--overlay",
            "--size",
            "1280x720",
            "--time",
            "1.0",
            "--yaw",
            "10",
            "--pitch",
            "14",
            "--zoom",
            "1.3",
            "-o",
            str(out),
        ],
        check=True,
    )


EXT = KHRONOS.parent / "khronos-ext"
# model, its file, screenshot, render flags chosen to come near the published view (camera, background)
EXT_VIEWS = [
    (
        "IridescenceSuzanne",
        "glTF-Binary/IridescenceSuzanne.glb",
        "screenshot/screenshot_large.jpg",
        ["--yaw", "0", "--pitch", "0", "--zoom", "1.0", "--background", "#9c9c9c"],
    ),
    (
        "AnisotropyStrengthTest",
        "glTF-Binary/AnisotropyStrengthTest.glb",
        "screenshot/screenshot.png",
        ["--yaw", "0", "--pitch", "0", "--zoom", "0.95", "--background", "#2b2f33"],
    ),
    (
        "AnisotropyBarnLamp",
        "glTF-KTX-BasisU/AnisotropyBarnLamp.gltf",
        "screenshot/screenshot_Large.jpg",
        ["--yaw", "-25", "--pitch", "5", "--zoom", "1.3", "--background", "#a8a8a8"],
    ),
    (
        "MaterialsVariantsShoe",
        "glTF/MaterialsVariantsShoe.gltf",
        "screenshot/screenshot.jpg",
        ["--yaw", "40", "--pitch", "20", "--zoom", "1.1", "--background", "#ffffff"],
    ),
]


def extension_models(out: Path, cell=(400, 300)) -> None:
    """Each material-extension sample model as ``animview render`` draws it (top row) above the screenshot its
    sample repository publishes (bottom row: the Khronos Sample Viewer, its own camera and environment)."""
    from PIL import ImageDraw

    sheet = Image.new("RGB", (cell[0] * len(EXT_VIEWS), 2 * cell[1]), (24, 24, 24))
    draw = ImageDraw.Draw(sheet)
    for k, (name, file, shot, flags) in enumerate(EXT_VIEWS):
        ours = DOCS / f"_{name}.png"
        size = f"{cell[0]}x{cell[1]}"
        command = [*RENDER, str(EXT / name / file), "--no-grid", "--no-axes", "--quiet", "--size", size, *flags]
        subprocess.run([*command, "-o", str(ours)], check=True)
        sheet.paste(Image.open(ours).convert("RGB"), (k * cell[0], 0))
        ours.unlink()
        published = Image.open(EXT / name / shot).convert("RGB")
        published.thumbnail(cell)
        x = k * cell[0] + (cell[0] - published.width) // 2
        sheet.paste(published, (x, cell[1] + (cell[1] - published.height) // 2))
        for y, label in ((4, f"animview: {name}"), (cell[1] + 4, "published screenshot")):
            draw.rectangle((k * cell[0] + 2, y, k * cell[0] + 10 + 6 * len(label), y + 14), fill=(0, 0, 0))
            draw.text((k * cell[0] + 6, y + 2), label, fill=(255, 255, 255))
    sheet.save(out, optimize=True)


def library_sheet(out: Path) -> None:
    """``animview render --outdir --contact-sheet`` over the shared Khronos models, the demo files and three
    broken files (what a library holds): one cell per clip, findings badges, the failures in red."""
    import shutil
    import tempfile

    khronos = KHRONOS
    with tempfile.TemporaryDirectory() as tmp:
        lib = Path(tmp, "library")
        shutil.copytree(khronos, lib / "khronos")
        shutil.copytree(ASSETS, lib / "demo", ignore=shutil.ignore_patterns("*.npz", "*.md"))
        (lib / "broken").mkdir()
        (lib / "broken" / "truncated.glb").write_bytes(b"glTF\x02\x00\x00\x00\xff\x00\x00\x00")
        (lib / "broken" / "not_json.gltf").write_text("{ this is not json")
        (lib / "broken" / "missing_bin.gltf").write_text(
            '{"asset": {"version": "2.0"}, "buffers": [{"uri": "nowhere.bin", "byteLength": 4}]}'
        )
        subprocess.run(
            [*RENDER, str(lib), "--outdir", str(Path(tmp, "out")), "--contact-sheet", str(out), "--quiet"],
            check=False,
            stdout=subprocess.DEVNULL,
        )


def diff_picture(out: Path) -> None:
    """The Fox against its gltfpack copy (``tests/data/gltfpack``, made by ``tools/gltfpack_models.py``): the two
    panes with trails coloured by the error and, under them, the divergence strip of the Walk clip."""
    subprocess.run(
        [
            *RENDER,
            str(KHRONOS / "Fox" / "Fox.glb"),
            "--against",
            str(DOCS.parent / "tests" / "data" / "gltfpack" / "Fox.glb"),
            "--animation",
            "Walk",
            "--overlay",
            "--trails",
            "--time",
            "0.3",
            "--size",
            "1280x560",
            "-o",
            str(out),
        ],
        check=True,
    )


def engines_picture(out: Path) -> None:
    """The demo's cubes at 1.0 s as the spec, three.js and Filament play them (``--compare spec,three,filament``):
    at its key's own time the STEP cube has its new key in the spec and three.js, still the old one in Filament."""
    subprocess.run(
        [
            *RENDER,
            str(ASSETS / "interpolation.gltf"),
            "--compare",
            "spec,three,filament",
            "--time",
            "1.0",
            "--size",
            "1200x400",
            "--yaw",
            "20",
            "--pitch",
            "18",
            "-o",
            str(out),
        ],
        check=True,
    )


def main() -> None:
    window_screenshot(DOCS / "screenshot.png")
    subprocess.run(
        [
            *RENDER,
            str(ASSETS / "irregular.gltf"),
            "--compare",
            "step,linear,catmull-rom",
            "--trails",
            "--curves",
            "--time",
            "0.9",
            "--size",
            "1200x640",
            "--yaw",
            "0",
            "--pitch",
            "12",
            "-o",
            str(DOCS / "compare.png"),
        ],
        check=True,
    )
    subprocess.run(
        [
            *RENDER,
            str(ASSETS / "interpolation.gltf"),
            "--overlay",
            "--size",
            "960x540",
            "--fps",
            "12",
            "-o",
            str(DOCS / "viewer.gif"),
        ],
        check=True,
    )
    materials_picture(DOCS / "materials.png")
    library_sheet(DOCS / "library.png")
    diff_picture(DOCS / "diff.png")
    engines_picture(DOCS / "engines.png")
    extension_models(DOCS / "extension_models.png")


if __name__ == "__main__":
    if len(sys.argv) > 1:  # only the named pictures, e.g. ``python docs/pictures.py extension_models``
        for picture in sys.argv[1:]:
            globals()[picture](DOCS / f"{picture}.png")
    else:
        main()
