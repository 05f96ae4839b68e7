"""``animview [FILE] [options]``: open the viewer window (no FILE: the built-in demo from ``assets/``).

The file is loaded before any window opens, so a bad file or argument is one line on stderr and exit
status 2 (``cli.main`` turns ``GltfError`` / ``UsageError`` into that) rather than a window that flashes.
The main loop is moderngl-window's, written out so the viewer's GL objects are released while the context
still exists (``run_window_config_instance`` destroys the window first) and so it can stop after
``--frames`` frames (smoke tests, start-up timing) and cap the frame rate when there is no vsync (Xvfb).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from viewer.base.errors import UsageError
from viewer.cli import args as a
from viewer.demo import DEFAULT_DEMO

WINDOW_CLASSES = ("pyglet", "glfw", "sdl2", "pygame2", "pyqt5", "pyside2", "tk", "headless")
WINDOW_HELP = "moderngl-window window class (default pyglet; headless needs --backend egl)"
MAX_FPS = 60.0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The viewer's arguments (``animview [FILE] …``)."""
    a.add_file_arguments(parser, optional=True)
    a.add_animation_argument(parser)
    parser.add_argument("--speed", type=a.finite, default=1.0, metavar="S", help="playback speed, negative for reverse")
    parser.add_argument("--paused", action="store_true", help="start paused")
    parser.add_argument("--time", type=a.seconds, default=0.0, metavar="T", help="start at T seconds")
    a.add_mode_argument(parser)
    parser.add_argument("--fps", type=a.positive, default=30.0, help="frame rate for frame stepping and the ruler")
    a.add_compare_argument(parser, "start in compare view: one pane per interpolation mode (C toggles it)")
    a.add_against_argument(parser, "compare with file B: panes A | B on one clock and camera, a divergence strip")
    parser.add_argument("--window", choices=WINDOW_CLASSES, default="pyglet", help=WINDOW_HELP)
    parser.add_argument("--backend", help="context backend, e.g. egl for --window headless")
    parser.add_argument("--size", type=a.size, default=(1280, 720), help="window size WIDTHxHEIGHT")
    parser.add_argument("--frames", type=int, metavar="N", help="quit after N frames")
    a.add_camera_argument(parser, "look through the file's camera K (by index or name) instead of the orbit camera")
    a.add_variant_argument(parser, "start with the file's material variant NAME or K (KHR_materials_variants)")
    a.add_look_arguments(parser)
    parser.add_argument(
        "--screenshot-dir",
        type=Path,
        default=Path("."),
        help="where P saves screenshots and E saves GIFs of the loop range",
    )


def run(args: argparse.Namespace) -> int:
    """Open the window and run until Esc, the window's close button or ``--frames``; returns the exit status."""
    from viewer.base.resources import asset_path

    if not args.file:
        args.file = asset_path(DEFAULT_DEMO)
    path = Path(args.file)
    scene = a.load_scene(args, "")
    against = a.load_against(args)
    clip = a.pick_clip(scene, args.animation, "")
    against_clip, against_mode = a.against_choice(args, against, "")
    camera = a.pick_camera(scene, args.camera, "")
    variant = a.pick_variant(scene, args.variant, "")
    if args.against is not None and args.compare is not None:
        raise UsageError("animview: --against shows the two files side by side; leave out --compare")
    if args.speed == 0:
        raise UsageError("animview: --speed must not be 0 (use --paused)")

    from viewer.app.window import ViewerApp, ViewOptions

    options = ViewOptions(
        path=path,
        animation=clip.index if clip is not None else 0,
        speed=args.speed,
        paused=args.paused,
        time=args.time,
        mode=args.mode,
        fps=args.fps,
        screenshot_dir=args.screenshot_dir,
        compare=args.compare,
        allow_outside_folder=args.allow_outside_folder,
        camera=None if camera == "auto" else camera,
        look=a.look_options(args),
        variant=variant,
        against=Path(args.against) if args.against is not None else None,
        against_clip=against_clip,
        against_mode=against_mode,
    )
    try:
        wnd = open_window(args.window, args.size, args.backend)
    except Exception as exc:  # pyglet / glfw raise their own types when there is no display
        print(
            f"animview: cannot open a {args.window} window ({exc}); without a display use "
            "'--window headless --backend egl' or 'animview render'",
            file=sys.stderr,
        )
        return 1
    app = ViewerApp(ctx=wnd.ctx, wnd=wnd, options=options, scene=scene, against=against)
    if args.window == "glfw":  # moderngl-window 3.1's glfw window forwards no file drops; glfw reports them
        import glfw

        glfw.set_drop_callback(wnd._window, lambda _w, paths: app.on_files_dropped_event(0, 0, list(paths)))
    run_loop(app, args.frames)
    return 0


def open_window(name: str, size: tuple[int, int], backend: str | None = None):
    """A moderngl-window window of class ``name``, made current, with the viewer's settings."""
    import moderngl_window as mglw

    from viewer.app.window import ViewerApp

    mglw.setup_basic_logging(ViewerApp.log_level)
    cls = mglw.get_local_window_cls(name)
    wnd = cls(
        title=ViewerApp.title,
        size=size,
        fullscreen=False,
        resizable=ViewerApp.resizable,
        visible=True,
        gl_version=ViewerApp.gl_version,
        aspect_ratio=ViewerApp.aspect_ratio,
        vsync=ViewerApp.vsync,
        samples=0 if name == "headless" else ViewerApp.samples,
        cursor=True,
        backend=backend,
    )
    mglw.activate_context(window=wnd)
    return wnd


def run_loop(app, frames: int | None = None) -> None:
    """Render until the window closes, Esc, or ``frames`` frames; then free the viewer's GL objects."""
    from moderngl_window.timers.clock import Timer

    wnd = app.wnd
    wnd.config = app
    wnd.swap_buffers()
    wnd.set_default_viewport()
    timer = Timer()
    timer.start()
    count = 0
    while not wnd.is_closing and not app.quit_requested and (frames is None or count < frames):
        started = time.perf_counter()
        now, dt = timer.next_frame()
        wnd.use()
        wnd.render(now, dt)
        if not wnd.is_closing:
            wnd.swap_buffers()
        count += 1
        spare = 1.0 / MAX_FPS - (time.perf_counter() - started)
        if spare > 0 and not wnd.headless:
            time.sleep(spare)
    app.release()
    if not wnd.is_closing:
        wnd.close()
    wnd.destroy()
