"""Frames per second of the mesh shaders before and after a change, in one process: the same scenes, renderer code
and frames; only the GLSL differs (``--before DIR``: the ``shaders/`` of an older checkout, e.g. a ``git worktree``
of the last commit, against this checkout's). Blocks of frames alternate between the two, so a shared machine's
noise hits both alike; the median ratio after/before is what to read.

    git worktree add /tmp/before HEAD~3
    python tools/shader_ab.py --before /tmp/before/shaders ../shared/assets/khronos/*/*.gl*
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

import viewer.render.shaders as shaders
from viewer.export.offscreen import Offscreen, View
from viewer.scene.scene import load

SIZE = (640, 480)


def compare(path: Path, before: Path, blocks: int = 6, frames: int = 20) -> tuple[list[float], list[float]]:
    """(before fps per block, after fps per block) of ``path``'s first clip at 640×480."""
    side = {"now": "after"}
    original = shaders.shader_path
    shaders.shader_path = lambda name: (before / name) if side["now"] == "before" else original(name)
    try:
        scene = load(path)
        clip = scene.clips[0] if scene.clips else None
        views = {}
        for s in ("before", "after"):
            side["now"] = s
            views[s] = Offscreen(scene, clip, View(size=SIZE))
        fps: dict[str, list[float]] = {"before": [], "after": []}
        for b in range(blocks):
            for s in ("before", "after") if b % 2 == 0 else ("after", "before"):
                side["now"] = s  # programs compile on their first frame, from this side's sources
                views[s].frame(0.3)
                start = time.perf_counter()
                for k in range(frames):
                    views[s].frame(0.3 + 0.01 * k)
                views[s].ctx.finish()
                fps[s].append(frames / (time.perf_counter() - start))
        return fps["before"], fps["after"]
    finally:
        shaders.shader_path = original


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", type=Path, required=True, help="the shaders/ folder of the older checkout")
    parser.add_argument("files", nargs="+", type=Path)
    args = parser.parse_args()
    for path in args.files:
        b, a = compare(path, args.before)
        ratio = np.median(a) / np.median(b)
        print(
            f"{path.name:34s} before {min(b):6.1f}–{max(b):6.1f} fps  after {min(a):6.1f}–{max(a):6.1f} fps  "
            f"median ratio {ratio:.2f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
