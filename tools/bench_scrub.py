"""Measure how long the viewer's frames take while the ruler is scrubbed: the whole frame, the overlay's part and
the pose's part, on a headless window (EGL), with synthetic drag events as moderngl-window delivers them.

    python tools/bench_scrub.py TAKE.glb [--frames 240] [--size 1280x720] [--channels] [--view START END]
    python tools/bench_scrub.py TAKE.glb --overlay-only [--frames 240]

Why: issue 29 asks that scrubbing an hour of motion capture stays at the frame rate (no frame slower than
100 ms), and that the bar's Python cost does not grow with the clip's key count. A timed pytest would be
flaky and slow, so this is a measurement a person runs and reads, as ``animview bench`` is.

What: the app opens the take paused (the load and first frame are timed apart), waits for the compiled
frame kernels (``viewer.fast``) so the numbers are the ones a user gets, then presses on the ruler and drags
across it over ``--frames`` frames (each frame one drag event, then one ``on_render``), and releases. Printed
per part — the whole frame (GPU included), building the overlay, posing, drawing the 3D view (queued to the GPU) —
in milliseconds: median, 90th percentile and max of the frames while dragging. ``--channels`` opens
the dope sheet's channel rows (each row draws its keys), ``--view`` zooms the ruler to those clip seconds
first. ``--overlay-only`` times ``Overlay.frame`` (building the bar and panels) alone, with nothing moving,
which is the number to compare between a long take and a short one.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from viewer import fast  # noqa: E402
from viewer.app.window import ViewerApp, ViewOptions  # noqa: E402
from viewer.cli.view import open_window  # noqa: E402

FRAME_DT = 1.0 / 60.0


class Timed:
    """Wraps a bound method so each call's wall time (seconds) is appended to ``seconds``."""

    def __init__(self, method) -> None:
        self.method, self.seconds = method, []

    def __call__(self, *args, **kwargs):
        started = time.perf_counter()
        try:
            return self.method(*args, **kwargs)
        finally:
            self.seconds.append(time.perf_counter() - started)


def summary(name: str, seconds: list[float]) -> str:
    ms = sorted(1e3 * s for s in seconds)
    if not ms:
        return f"{name:>8}: no samples"
    p90 = ms[min(len(ms) - 1, int(0.9 * len(ms)))]
    return f"{name:>8}: median {statistics.median(ms):7.2f} ms   p90 {p90:7.2f} ms   max {ms[-1]:7.2f} ms  ({len(ms)})"


def render(wnd, clock: list[float]) -> float:
    """One frame as the window's loop runs it; returns its wall seconds."""
    started = time.perf_counter()
    wnd.use()
    wnd.render(clock[0], FRAME_DT)
    wnd.swap_buffers()
    wnd.ctx.finish()  # the GPU's part counts too (llvmpipe renders on the CPU)
    clock[0] += FRAME_DT
    return time.perf_counter() - started


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("take", type=Path, help="a .glb / .gltf with an animation")
    parser.add_argument("--frames", type=int, default=240, help="frames of dragging (default 240)")
    parser.add_argument("--size", default="1280x720", help="window size WxH (default 1280x720)")
    parser.add_argument("--channels", action="store_true", help="open the dope sheet's channel rows")
    parser.add_argument("--view", type=float, nargs=2, metavar=("START", "END"), help="zoom the ruler to these s")
    parser.add_argument("--overlay-only", action="store_true", help="time building the overlay alone")
    parser.add_argument("--no-wait", action="store_true", help="do not wait for the compiled kernels")
    args = parser.parse_args(argv)
    width, height = (int(v) for v in args.size.lower().split("x"))

    started = time.perf_counter()
    wnd = open_window("headless", (width, height), "egl")
    app = ViewerApp(ctx=wnd.ctx, wnd=wnd, options=ViewOptions(path=args.take, paused=True))
    wnd.config = app
    loaded = time.perf_counter() - started
    clock = [0.0]
    first = render(wnd, clock)
    print(f"{args.take.name}: load {loaded:.2f} s, first frame {first:.2f} s, duration {app.state.clock.duration} s")
    if not args.no_wait:
        fast.wait(600)
    print(f"kernels: {fast.state()}")
    state = app.state
    state.display.channels = args.channels
    if args.view:
        state.view_range = tuple(args.view)
    for _ in range(3):
        render(wnd, clock)

    overlay, pose, scene = Timed(app.overlay.frame), Timed(app._pose_at), Timed(app._draw_scene)
    app.overlay.frame, app._pose_at, app._draw_scene = overlay, pose, scene
    frames: list[float] = []
    if args.overlay_only:
        for _ in range(args.frames):
            frames.append(render(wnd, clock))
    else:
        lay = app.overlay.layout
        r = lay.ruler
        y = lay.ruler_y + 15
        x_from, x_to = r.x0 + 2, r.x1 - 2
        wnd.mouse_position_event_func(x_from, y, 0, 0)
        render(wnd, clock)
        wnd._handle_mouse_button_state_change(1, True)
        wnd.mouse_press_event_func(x_from, y, 1)
        render(wnd, clock)
        for part in (overlay, pose, scene):
            part.seconds.clear()
        for k in range(1, args.frames + 1):
            x = x_from + (x_to - x_from) * k / args.frames
            wnd.mouse_drag_event_func(x, y, 1, 0)
            frames.append(render(wnd, clock))
        wnd._handle_mouse_button_state_change(1, False)
        wnd.mouse_release_event_func(x_to, y, 1)
        render(wnd, clock)
        print(f"scrubbed to t = {state.clock.t:.3f} s over {args.frames} frames")
    print(summary("frame", frames))
    print(summary("overlay", overlay.seconds[: len(frames)]))
    print(summary("pose", pose.seconds))
    print(summary("3d view", scene.seconds[: len(frames)]))
    app.release()
    wnd.destroy()
    return 0


if __name__ == "__main__":
    sys.exit(main())
