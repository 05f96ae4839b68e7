"""``animview render FILE -o OUT``: pictures and videos without a window (EGL offscreen); with ``--outdir``,
``animview render PATH... --outdir DIR``: a library's previews and contact sheet (``render_library``).

``OUT.png`` is one frame at ``--time``; an ``OUT`` with ``%d`` / ``%04d`` is a numbered PNG sequence;
``OUT.gif`` and ``OUT.mp4`` cover the clip (or ``--start``..``--end``) at ``--fps``, the last frame
exactly at the end time (``viewer.export.frame_times``). Bad arguments raise ``UsageError`` (one
line, exit 2, printed by ``viewer.cli``); so does a file that is not glTF (``GltfError``).
"""

from __future__ import annotations

import sys
from pathlib import Path

from viewer.base.errors import UsageError
from viewer.cli import args as a

NAME = "render"

# Help too long to share a line with its flag's definition.
FILE_HELP = "a .gltf or .glb file (with --outdir: files and folders, searched below)"
OUTPUT_HELP = "OUT.png (one frame), OUT_%%04d.png (sequence), OUT.gif or OUT.mp4"
SIZE_HELP = "pixels (default 640x480; previews of --outdir: 320x240)"
FRAME_HELP = (
    "what the auto camera fits: the whole clip, or the pose at --time (auto: the pose for a single PNG of a "
    "model that crosses the scene, else the whole clip; not with --compare or --camera K)"
)
OVERLAY_HELP = (
    "draw the viewer's timeline and panels over the frames, as the window shows them (with --against: the "
    "divergence strip along the bottom)"
)
AGAINST_HELP = (
    "compare with file B: panes A | B side by side, one camera and time (B's clip matched to A's, or --animation-b; "
    "B's mode --mode-b)"
)
NODE_HELP = "with --compare: node the trails and curves follow (default: the three that move most)"
VARIANT_HELP = (
    "the file's material variant NAME or K (KHR_materials_variants); with --outdir, 'all': a thumbnail per "
    "variant besides the default one"
)


def add_parser(subparsers) -> None:
    """Add ``render`` to the ``animview`` subcommands (``subparsers`` from ``add_subparsers``)."""
    p = subparsers.add_parser(
        NAME,
        help="render a frame, a PNG sequence, a GIF or an MP4 headless; or, with "
        "--outdir, previews and a contact sheet of every file under the paths",
    )
    p.add_argument("file", nargs="+", metavar="FILE", help=FILE_HELP)
    a.add_outside_folder_argument(p)
    p.add_argument("-o", "--output", metavar="OUT", help=OUTPUT_HELP)
    p.add_argument("--time", type=a.seconds, default=0.0, help="seconds, for a single PNG (default 0)")
    p.add_argument("--size", type=a.size, default=None, metavar="WxH", help=SIZE_HELP)
    a.add_animation_argument(p)
    p.add_argument("--fps", type=a.positive, default=30.0, help="frames per second of a sequence (default 30)")
    p.add_argument("--start", type=a.seconds, default=None, help="first time of a sequence (default 0)")
    p.add_argument("--end", type=a.seconds, default=None, help="last time of a sequence (default: the clip's end)")
    a.add_camera_argument(p, "auto (orbit view fitted to the whole clip) or a glTF camera by index or name")
    a.add_variant_argument(p, VARIANT_HELP)
    p.add_argument("--frame", choices=("auto", "clip", "pose"), default="auto", help=FRAME_HELP)
    p.add_argument("--yaw", type=a.degrees, default=None, help="auto camera: degrees around +Y from +Z")
    p.add_argument("--pitch", type=a.degrees, default=None, help="auto camera: degrees above the ground")
    p.add_argument("--zoom", type=a.positive, default=1.0, help="auto camera: >1 moves closer")
    a.add_mode_argument(p)
    p.add_argument("--background", type=a.color, default=None, metavar="#RRGGBB", help="background colour")
    p.add_argument("--no-grid", action="store_true", help="hide the ground grid")
    p.add_argument("--no-axes", action="store_true", help="hide the axis gizmo")
    p.add_argument("--samples", type=int, choices=(0, 2, 4), default=4, help="MSAA samples (default 4)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    a.add_look_arguments(p)
    p.add_argument("--overlay", action="store_true", help=OVERLAY_HELP)
    a.add_compare_argument(p, "one pane per interpolation mode, side by side (2x2 for four), one camera and time")
    p.add_argument("--trails", action="store_true", help="with --compare: motion trails with key dots")
    p.add_argument("--ghosts", action="store_true", help="with --compare: the mesh at every key time, faded")
    p.add_argument("--curves", action="store_true", help="with --compare: plot the channel in every mode below")
    p.add_argument("--node", type=int, default=None, metavar="K", help=NODE_HELP)
    a.add_against_argument(p, AGAINST_HELP)
    p.add_argument("--overlay-b", action="store_true", help="with --against: B drawn translucent inside A's pane")
    from viewer.cli import render_library

    render_library.add_arguments(p)


def _output_kind(out: str) -> str:
    from viewer.export import is_sequence_pattern

    suffix = Path(out).suffix.lower()
    if is_sequence_pattern(out):
        if suffix != ".png":
            raise UsageError(f"animview render: a numbered sequence must be PNG files, got {out!r}")
        return "sequence"
    if suffix in (".png", ".gif", ".mp4"):
        return suffix[1:]
    raise UsageError(f"animview render: cannot write {out!r}: use .png, .gif, .mp4 or a %d pattern")


def run(args) -> int:
    """Run ``animview render``; returns the exit status (0 ok; 1 no OpenGL; bad input raises)."""
    if args.outdir is not None:
        from viewer.cli import render_library

        return render_library.run(args)
    if args.output is None:
        raise UsageError("animview render: give -o OUT for one file, or --outdir DIR for previews of a library")
    if len(args.file) != 1:
        raise UsageError("animview render: -o OUT renders one FILE; for several use --outdir DIR")
    args.file = args.file[0]
    if Path(args.file).is_dir():
        raise UsageError(
            f"animview render: {args.file!r} is a folder: -o OUT renders one FILE; for the files in a "
            "folder use --outdir DIR"
        )
    if args.size is None:
        args.size = (640, 480)
    from viewer import export
    from viewer.render.renderer import Look, RenderOptions

    out = args.output
    kind = _output_kind(out)
    parent = Path(out).parent
    if not parent.is_dir():
        raise UsageError(f"animview render: the folder {str(parent)!r} of {out!r} does not exist")
    if kind == "mp4" and (args.size[0] % 2 or args.size[1] % 2):
        raise UsageError(
            f"animview render: MP4 (H.264, yuv420p) needs an even width and height, got {args.size[0]}x{args.size[1]}"
        )
    scene = a.load_scene(args, NAME)
    clip = a.pick_clip(scene, args.animation, NAME)
    options = RenderOptions(grid=not args.no_grid, axes=not args.no_axes, look=Look(**a.look_options(args)))
    options.variant = a.pick_variant(scene, args.variant, NAME)
    if args.background is not None:
        options.background = args.background
    view = export.View(
        size=args.size,
        camera=a.pick_camera(scene, args.camera, NAME),
        yaw=args.yaw,
        pitch=args.pitch,
        zoom=args.zoom,
        samples=args.samples,
        mode=args.mode,
        options=options,
    )
    frame_pose, clip_box = _frame_pose(args, kind, scene, clip)
    if frame_pose:
        view.frame_at = args.time
    start = 0.0 if args.start is None else args.start
    end = (clip.duration if clip is not None else 0.0) if args.end is None else args.end
    if end < start:
        raise UsageError(f"animview render: --end {end} is before --start {start}")
    _check_against(args)
    against = a.load_against(args)
    choice_b = a.against_choice(args, against, NAME)
    panes = args.compare is not None or args.against is not None
    if not panes and (args.trails or args.ghosts or args.curves or args.node is not None):
        raise UsageError("animview render: --trails, --ghosts, --curves and --node go with --compare or --against")
    if args.compare is not None and args.mode != "authored":
        raise UsageError("animview render: --compare already names the modes; leave out --mode")
    if args.compare is not None and args.overlay:
        raise UsageError("animview render: --compare and --overlay cannot be combined")
    if args.node is not None and not 0 <= args.node < len(scene.nodes):
        raise UsageError(f"animview render: --node {args.node} is not in {scene.path}")
    try:
        if kind != "png":
            _kernels_if_worth_it(scene, clip, (end - start) * args.fps + 1)
        source = _frame_source(args, scene, clip, view, clip_box, against, choice_b)
        if kind == "png":
            export.write_png(source, out, args.time)
            count = 1
        else:
            count = export.write_clip(source, out, start, end, args.fps, quiet=args.quiet)
    except export.HeadlessError as exc:
        print(f"animview render: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:  # e.g. no permission to write OUT
        raise UsageError(f"animview render: cannot write {out!r}: {exc.strerror or exc}") from None
    if not args.quiet:
        print(f"wrote {out} ({count} frame{'s' if count != 1 else ''})", file=sys.stderr)
    return 0


# Estimated numpy pose cost per frame (s): a fixed part and a part per node (this VM, numpy 2.4).
NUMPY_POSE_S = (80e-6, 0.5e-6)


def _kernels_if_worth_it(scene, clip, frames: float) -> None:
    """Load the compiled frame in the background (``fast.start``) when posing every frame by numpy would
    take over a second: loading it costs ~0.7 s of this process's time even from a warm cache, more than a
    short clip's poses. Frames render on numpy until it is ready, then on it."""
    fixed, per_node = NUMPY_POSE_S
    if clip is not None and frames * (fixed + per_node * len(scene.nodes)) > 1.0:
        from viewer import fast

        fast.start()


def _frame_pose(args, kind: str, scene, clip):
    """Whether the auto camera fits the pose at --time rather than the whole clip (``--frame``), and the
    whole clip's bounds when deciding took them (else None): the plain source places its ground with them
    rather than sampling the clip a second time."""
    if args.frame == "clip" or args.camera != "auto" or clip is None:
        return False, None
    if args.frame == "pose":
        return True, None
    if kind != "png" or args.compare is not None or args.against is not None:
        return False, None
    from viewer.export.offscreen import pose_bounds_at, travels
    from viewer.pose.bounds import clip_bounds

    clip_box = clip_bounds(scene, clip, mode=args.mode)
    return travels(*clip_box, *pose_bounds_at(scene, clip, args.time, args.mode)), clip_box


def _check_against(args) -> None:
    """What goes with ``--against``: not ``--compare`` or ``--curves`` (the panes are the two files);
    ``--overlay-b`` only with it."""
    if args.against is None:
        if args.overlay_b:
            raise UsageError("animview render: --overlay-b goes with --against")
        return
    if args.compare is not None:
        raise UsageError("animview render: --against shows the two files side by side; leave out --compare")
    if args.curves:
        raise UsageError("animview render: --curves goes with --compare, not --against")


def _frame_source(args, scene, clip, view, clip_box=None, against=None, choice_b=(None, None)):
    """The offscreen source the options ask for: compare or against panes (B's clip and mode: ``choice_b``), the
    overlay, or the plain picture."""
    if args.compare is not None or against is not None:
        from viewer.compare.against import PaneChoice
        from viewer.export.compare import CompareLook, CompareOffscreen

        modes = args.compare or ()
        look = CompareLook(modes, args.trails, args.curves, args.node, args.ghosts, against, args.overlay)
        look.overlay_b, look.choice_b = args.overlay_b, PaneChoice(*choice_b)
        return CompareOffscreen(scene, clip, view, look=look)
    if args.overlay:
        from viewer.export.overlay import OverlayOffscreen

        return OverlayOffscreen(scene, clip, view)
    from viewer.export import Offscreen

    return Offscreen(scene, clip, view, clip_box=clip_box)
