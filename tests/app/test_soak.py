"""Soak: 10 minutes of simulated playback with 50 file reloads in one process, headless.

Every GL object the app makes is counted by wrapping the context's factory methods before the app
exists; an object counts as alive until its ``release()`` (moderngl then swaps its handle for an
``InvalidObject``). Checked: the live count is the same after the soak as after the first load of the
same file (reloads free what they replace), it is zero after ``release()``, and resident memory grows by
less than 5 MB from a baseline taken after the first 10 reloads (warm-up). The clock is synthetic: 6000 frames of
0.1 s (10 fps) at 320×180 pixels, skeleton, bounds and the expanded dope sheet on, so every drawing path runs
each frame. About 30 s on two cores; most of it is the imgui overlay, drawn every frame as in the window.
"""

from __future__ import annotations

import gc
import os
from pathlib import Path

import moderngl
import pytest

from tests.app.conftest import Driver, demo

FACTORIES = (
    "buffer",
    "texture",
    "texture_array",
    "texture3d",
    "texture_cube",
    "depth_texture",
    "renderbuffer",
    "depth_renderbuffer",
    "framebuffer",
    "vertex_array",
    "simple_vertex_array",
    "program",
    "sampler",
    "query",
    "scope",
    "compute_shader",
)
SIMULATED_SECONDS = 600.0
DT = 0.1
RELOADS = 50
RSS_LIMIT = 5 * 1024 * 1024
FIRST = "skinned_arm.gltf"
CYCLE = ("R", "morph_shape.gltf", "interpolation.gltf", "triangle.gltf", FIRST)  # R: reload; a name: drop it


class GlCensus:
    """Records every object made through a context's factory methods."""

    def __init__(self) -> None:
        self.made: list = []

    def install(self, ctx: moderngl.Context) -> None:
        for name in FACTORIES:
            original = getattr(ctx, name, None)
            if original is not None:
                setattr(ctx, name, self._recording(original))

    def _recording(self, factory):
        def make(*args, **kwargs):
            obj = factory(*args, **kwargs)
            self.made.append(obj)
            return obj

        return make

    def alive(self) -> dict[str, int]:
        """Count of objects made and not released, by type (distinct objects: a factory may call another)."""
        seen = {id(o): o for o in self.made}
        counts: dict[str, int] = {}
        for o in seen.values():
            if not isinstance(o.mglo, moderngl.mgl.InvalidObject):
                counts[type(o).__name__] = counts.get(type(o).__name__, 0) + 1
        return counts


def rss_bytes() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


@pytest.mark.skipif(not Path("/proc/self/statm").exists(), reason="reads resident memory from /proc")
def test_ten_minutes_and_fifty_reloads_leak_neither_memory_nor_gl_objects():
    census = GlCensus()
    first = demo(FIRST)
    d = Driver(first, size=(320, 180), ctx_hook=census.install, paused=False)
    try:
        state = d.app.state
        state.display.skeleton = state.display.bounds = state.display.channels = True
        alive_after_load = census.alive()
        assert sum(alive_after_load.values()) > 10  # the census sees the app's objects at all
        frames = round(SIMULATED_SECONDS / DT)
        every = frames // RELOADS
        baseline, on_first = None, {}
        reloads = 0
        for k in range(frames):
            d.frame(DT)
            if reloads and k % every == 1 and CYCLE[(reloads - 1) % len(CYCLE)] == FIRST:
                on_first[reloads] = census.alive()  # a frame after landing back on the first file
            if (k + 1) % every == 0 and reloads < RELOADS:
                step = CYCLE[reloads % len(CYCLE)]
                reloads += 1
                if step == "R":
                    d.key("R", frame=False)
                else:  # drop a file onto the window; the cycle (and the soak) ends on the first file
                    d.wnd.files_dropped_event_func(5, 5, [str(demo(step))])
                if reloads == 10:  # warmed up: caches, allocator pools and imgui buffers have grown
                    gc.collect()
                    baseline = rss_bytes()
        d.frame(DT)
        on_first[reloads] = census.alive()
        assert reloads == RELOADS and d.app.scene.path == first
        assert d.clock.playing and d.time == pytest.approx(SIMULATED_SECONDS + DT)
        gc.collect()
        growth = rss_bytes() - baseline
        assert growth < RSS_LIMIT, f"resident memory grew {growth / 2**20:.2f} MB"
        end = on_first[RELOADS]
        # programs are a cache of compiled variants shared by every file: it grows to the variants used
        # once, then never; everything else is per file and must be back to the first load's count
        assert {k: v for k, v in end.items() if k != "Program"} == {
            k: v for k, v in alive_after_load.items() if k != "Program"
        }, "reloads left GL objects behind"
        assert on_first[5] == on_first[10] == end, "GL objects pile up across reload cycles"
        assert d.wnd.ctx.error == "GL_NO_ERROR"
        made = len({id(o) for o in census.made})
        print(
            f"\nsoak: {frames} frames, {reloads} reloads, {made} GL objects made, "
            f"alive {end}, RSS growth {growth / 2**20:.2f} MB"
        )
    finally:
        d.app.release()
        assert census.alive() == {}, "release() left GL objects behind"
        d.wnd.destroy()
