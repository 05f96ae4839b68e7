"""The joint-matrix texture: every skin's joint matrices, rewritten once per frame.

Layout (read by ``shaders/skinning.glsl``): RGBA32F, four texels per joint (the four columns of
world(joint) × inverseBindMatrix, math convention → column-major), joints of all skins one after the
other (skin k starts at ``offsets[k]``), wrapped in rows of ``JOINTS_PER_ROW`` joints. A texture has no
uniform-array limit: 1024 joints per row × (max texture size) rows.

A joint matrix the GPU cannot take (NaN from a broken inverse bind matrix, a joint at 1e300) is written
as zeros, so no NaN or inf reaches the texture, and its skin is marked not drawable (``ok``) for the
frame: the renderer skips that skin's draws rather than show a mesh collapsed onto the origin.
"""

from __future__ import annotations

import moderngl
import numpy as np

from viewer.pose.pose import Pose
from viewer.render.limits import drawable
from viewer.scene.scene import Scene

JOINTS_PER_ROW = 1024


class JointTexture:
    """GPU copy of the joint matrices of every skin in ``scene``."""

    def __init__(self, ctx: moderngl.Context, scene: Scene) -> None:
        counts = [len(s.joints) for s in scene.skins]
        self.offsets = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
        self.total = int(self.offsets[-1])
        width = min(max(self.total, 1), JOINTS_PER_ROW)
        rows = max(1, -(-self.total // JOINTS_PER_ROW))
        self._padded = np.zeros((rows * width, 4, 4), dtype=np.float32)
        self._matrices = np.zeros((self.total, 4, 4))  # float64 staging, checked before the float32 cast
        self.ok = np.ones(len(counts), dtype=bool)  # per skin: every joint matrix drawable this frame
        self.texture = ctx.texture((width * 4, rows), 4, dtype="f4")
        self.texture.filter = (moderngl.NEAREST, moderngl.NEAREST)
        self.texture.repeat_x = self.texture.repeat_y = False

    def update(self, pose: Pose) -> None:
        """Upload joint matrices of every skin for the pose as it is now (one texture write)."""
        if not self.total:
            return
        with np.errstate(over="ignore", invalid="ignore"):  # overflow / NaN products are caught below
            self._matrices[:] = pose.all_joint_matrices()
        bad = ~drawable(self._matrices)
        if bad.any():
            self._matrices[bad] = 0.0
            seen = np.concatenate([[0], np.cumsum(bad)])  # bad joints before each offset
            self.ok = seen[self.offsets[1:]] == seen[self.offsets[:-1]]
        else:
            self.ok[:] = True
        # (J, 4, 4) math convention → transpose so each joint's 16 floats are its 4 columns
        self._padded[: self.total] = np.swapaxes(self._matrices, -1, -2)
        self.texture.write(self._padded.tobytes())

    def release(self) -> None:
        self.texture.release()
