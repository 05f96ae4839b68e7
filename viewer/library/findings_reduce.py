"""``reducible``: how many animation bytes ``animview reduce`` at 0.1 mm would save on a clip.

A hint, not a fault: the clip plays as authored; a copy written by ``reduce`` would hold the same motion within
0.1 mm in world space (every vertex, joint end, camera and light) in fewer bytes. Measured by the reduction's own
planning and world measurement (``reduce.clips.reduce_clip``), without writing the copy or diffing it: the
figure is what ``reduce`` plans, and the written file's diff confirms it when it runs. A clip past ``KEYS`` keys
or a scene past ``NODES`` nodes gets no hint (a library check must stay fast; ``reduce`` itself has no limit).
"""

from __future__ import annotations

import numpy as np

from viewer.compare.diff import scene_size
from viewer.library.report import Finding
from viewer.pose.pose import Pose
from viewer.reduce.clips import reduce_clip, stored_types
from viewer.reduce.levers import point_boxes
from viewer.scene.scene import Scene

ERROR = 1e-4  # 0.1 mm, glTF's metres
KEYS, NODES = 200_000, 5_000
MIN_SHARE, MIN_BYTES = 0.10, 256  # a hint only where a reduce saves at least this share and this many bytes


def reduce_findings(scene: Scene) -> dict[int, list[Finding]]:
    """{clip index: [a ``reducible`` finding]} for the clips a reduce at 0.1 mm would make markedly smaller."""
    out: dict[int, list[Finding]] = {}
    if not scene.clips or len(scene.nodes) > NODES:
        return out
    with np.errstate(all="ignore"):  # a broken file's overflowing pose is another finding's business
        return _findings(scene, out)


def _findings(scene: Scene, out: dict[int, list[Finding]]) -> dict[int, list[Finding]]:
    pose, size = Pose(scene), scene_size(scene)
    boxes = point_boxes(scene, {})
    for clip in scene.clips:
        keys = sum(len(c.curve.times) for c in clip.channels)
        if not clip.channels or keys > KEYS:
            continue
        try:
            r = reduce_clip(pose, clip, ERROR, boxes, size, stored_types(scene.document, clip))
        except ValueError:  # a clip that poses nodes beyond float range: other findings say so, no hint here
            continue
        before = sum(p.bytes_before for p in r.plans)
        saved = before - sum(p.bytes_after for p in r.plans)
        if saved >= MIN_BYTES and saved >= MIN_SHARE * before:
            after = sum(p.keys_after for p in r.plans)
            message = (
                f"animview reduce at 0.1 mm would save {saved} of {before} animation bytes "
                f"({100.0 * saved / before:.0f} %; keys {keys} → {after})"
            )
            out[clip.index] = [Finding("reducible", f"/animations/{clip.index}", message, saved)]
    return out
