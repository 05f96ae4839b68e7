"""``animview render FILE -o OUT``: pictures and videos without a window (EGL offscreen).

``OUT.png`` is one frame at ``--time``; an ``OUT`` with ``%d`` / ``%04d`` is a numbered PNG sequence;
``OUT.gif`` and ``OUT.mp4`` cover the clip (or ``--start``..``--end``) at ``--fps``, the last frame
exactly at the end time (``viewer.headless.frame_times``). Bad arguments raise ``UsageError`` (one
line, exit 2, printed by ``viewer.cli``); so does a file that is not glTF (``GltfError``).
"""
from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from viewer.animation.modes import MODES
from viewer.cli_view import add_file_access_argument
from viewer.compare import modes_argument

SIZE = re.compile(r"^(\d+)x(\d+)$")
MAX_SIZE = 16384


def size_argument(text: str) -> tuple[int, int]:
    m = SIZE.match(text.strip().lower())
    if not m or not (0 < int(m.group(1)) <= MAX_SIZE and 0 < int(m.group(2)) <= MAX_SIZE):
        raise argparse.ArgumentTypeError(f"--size wants WIDTHxHEIGHT in pixels (e.g. 640x480), got {text!r}")
    return int(m.group(1)), int(m.group(2))


def _positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = 0.0
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"wants a positive number, got {text!r}")
    return value


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"wants seconds, got {text!r}") from None
    if value != value or value in (float("inf"), float("-inf")):
        raise argparse.ArgumentTypeError(f"wants a finite number of seconds, got {text!r}")
    return value


def _color(text: str) -> tuple[float, float, float]:
    """``#rrggbb``, ``rrggbb`` or ``r,g,b`` (0..1 floats) → sRGB floats."""
    t = text.strip().lstrip("#")
    try:
        if re.fullmatch(r"[0-9a-fA-F]{6}", t):
            return tuple(int(t[i:i + 2], 16) / 255.0 for i in (0, 2, 4))
        parts = tuple(float(x) for x in t.split(","))
        if len(parts) == 3 and all(0.0 <= p <= 1.0 for p in parts):
            return parts
    except ValueError:
        pass
    raise argparse.ArgumentTypeError(f"--background wants #rrggbb or r,g,b in 0..1, got {text!r}")


def add_render_parser(subparsers) -> argparse.ArgumentParser:
    """Add ``render`` to the ``animview`` subcommands (``subparsers`` from ``add_subparsers``)."""
    p = subparsers.add_parser("render", help="render a frame, a PNG sequence, a GIF or an MP4 headless")
    p.add_argument("file")
    p.add_argument("-o", "--output", required=True, metavar="OUT",
                   help="OUT.png (one frame), OUT_%%04d.png (sequence), OUT.gif or OUT.mp4")
    p.add_argument("--time", type=_seconds, default=0.0, help="seconds, for a single PNG (default 0)")
    p.add_argument("--size", type=size_argument, default=(640, 480), metavar="WxH", help="pixels (default 640x480)")
    p.add_argument("--animation", default=None, metavar="K", help="animation index or name (default: the first)")
    p.add_argument("--fps", type=_positive_float, default=30.0, help="frames per second of a sequence (default 30)")
    p.add_argument("--start", type=_seconds, default=None, help="first time of a sequence (default 0)")
    p.add_argument("--end", type=_seconds, default=None, help="last time of a sequence (default: the clip's end)")
    p.add_argument("--camera", default="auto", metavar="auto|K|NAME",
                   help="auto (orbit view fitted to the whole clip) or a glTF camera by index or name")
    p.add_argument("--yaw", type=_seconds, default=None, help="auto camera: degrees around +Y from +Z")
    p.add_argument("--pitch", type=_seconds, default=None, help="auto camera: degrees above the ground")
    p.add_argument("--zoom", type=_positive_float, default=1.0, help="auto camera: >1 moves closer")
    p.add_argument("--mode", choices=MODES, default="authored", help="interpolation mode")
    p.add_argument("--background", type=_color, default=None, metavar="#RRGGBB", help="background colour")
    p.add_argument("--no-grid", action="store_true", help="hide the ground grid")
    p.add_argument("--no-axes", action="store_true", help="hide the axis gizmo")
    p.add_argument("--samples", type=int, choices=(0, 2, 4), default=4, help="MSAA samples (default 4)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.add_argument("--overlay", action="store_true",
                   help="draw the viewer's timeline and panels over the frames, as the window shows them")
    p.add_argument("--compare", type=modes_argument, default=None, metavar="M1,M2[,M3[,M4]]",
                   help="one pane per interpolation mode, side by side (2x2 for four), one camera and time")
    p.add_argument("--trails", action="store_true", help="with --compare: motion trails with key dots")
    p.add_argument("--ghosts", action="store_true", help="with --compare: the mesh at every key time, faded")
    p.add_argument("--curves", action="store_true", help="with --compare: plot the channel in every mode below")
    p.add_argument("--node", type=int, default=None, metavar="K",
                   help="with --compare: node the trails and curves follow (default: every animated node)")
    add_file_access_argument(p)
    return p


def _pick_clip(scene, text: str | None):
    from viewer.cli import UsageError

    if not scene.clips:
        if text is not None:
            raise UsageError(f"animview render: {scene.path} has no animations (--animation {text})")
        return None
    if text is None:
        return scene.clips[0]
    if text.lstrip("-").isdigit():
        k = int(text)
        if 0 <= k < len(scene.clips):
            return scene.clips[k]
    for clip in scene.clips:
        if clip.name == text:
            return clip
    names = ", ".join(f"{c.index}:{c.name!r}" for c in scene.clips)
    raise UsageError(f"animview render: --animation {text} is not in {scene.path} (it has {names})")


def _pick_camera(scene, text: str):
    from viewer.cli import UsageError

    if text == "auto":
        return "auto"
    if text.isdigit() and int(text) < len(scene.cameras):
        index = int(text)
    else:
        named = [i for i, c in enumerate(scene.cameras) if c.name == text]
        if not named:
            raise UsageError(f"animview render: --camera {text} is not in {scene.path} "
                             f"(it has {len(scene.cameras)} cameras; use auto, an index or a name)")
        index = named[0]
    if not (scene.nodes.camera == index).any():
        raise UsageError(f"animview render: camera {text} is not placed on any node")
    return index


def _output_kind(out: str) -> str:
    from viewer.cli import UsageError
    from viewer.headless import is_sequence_pattern

    suffix = Path(out).suffix.lower()
    if is_sequence_pattern(out):
        if suffix != ".png":
            raise UsageError(f"animview render: a numbered sequence must be PNG files, got {out!r}")
        return "sequence"
    if suffix in (".png", ".gif", ".mp4"):
        return suffix[1:]
    raise UsageError(f"animview render: cannot write {out!r}: use .png, .gif, .mp4 or a %d pattern")


def run_render(args) -> int:
    """Run ``animview render``; returns the exit status (0 ok; 1 no OpenGL; bad input raises)."""
    from viewer import headless
    from viewer.cli import UsageError
    from viewer.render.renderer import RenderOptions
    from viewer.scene import load

    out = args.output
    kind = _output_kind(out)
    parent = Path(out).parent
    if not parent.is_dir():
        raise UsageError(f"animview render: the folder {str(parent)!r} of {out!r} does not exist")
    if kind == "mp4" and (args.size[0] % 2 or args.size[1] % 2):
        raise UsageError(f"animview render: MP4 (H.264, yuv420p) needs an even width and height, got "
                         f"{args.size[0]}x{args.size[1]}")
    scene = load(args.file, args.allow_outside_folder)
    clip = _pick_clip(scene, args.animation)
    options = RenderOptions(grid=not args.no_grid, axes=not args.no_axes)
    if args.background is not None:
        options.background = args.background
    view = headless.View(size=args.size, camera=_pick_camera(scene, args.camera), yaw=args.yaw,
                         pitch=args.pitch, zoom=args.zoom, samples=args.samples, mode=args.mode, options=options)
    start = 0.0 if args.start is None else args.start
    end = (clip.duration if clip is not None else 0.0) if args.end is None else args.end
    if end < start:
        raise UsageError(f"animview render: --end {end} is before --start {start}")
    render_png, export = headless.render_png, headless.export
    if args.compare is None and (args.trails or args.ghosts or args.curves or args.node is not None):
        raise UsageError("animview render: --trails, --ghosts, --curves and --node go with --compare")
    if args.compare is not None and args.mode != "authored":
        raise UsageError("animview render: --compare already names the modes; leave out --mode")
    if args.compare is not None:
        if args.overlay:
            raise UsageError("animview render: --compare and --overlay cannot be combined")
        if args.node is not None and not 0 <= args.node < len(scene.nodes):
            raise UsageError(f"animview render: --node {args.node} is not in {scene.path}")
        from functools import partial

        from viewer import compare_export

        look = compare_export.CompareLook(args.compare, args.trails, args.curves, args.node, args.ghosts)
        render_png = partial(compare_export.render_png, look=look)
        export = partial(compare_export.export, look=look)
    elif args.overlay:
        from viewer.ui import render_overlay

        render_png, export = render_overlay.render_png, render_overlay.export
    try:
        if kind == "png":
            render_png(scene, out, args.time, clip, view)
            count = 1
        else:
            count = export(scene, out, clip, start, end, args.fps, view, quiet=args.quiet)
    except headless.HeadlessError as exc:
        print(f"animview render: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:  # e.g. no permission to write OUT
        raise UsageError(f"animview render: cannot write {out!r}: {exc.strerror or exc}") from None
    if not args.quiet:
        print(f"wrote {out} ({count} frame{'s' if count != 1 else ''})", file=sys.stderr)
    return 0
