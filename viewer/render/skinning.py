"""The joint-matrix texture: every skin's joint matrices, rewritten once per frame.

Layout (read by ``shaders/skinning.glsl``): RGBA32F, four texels per joint (the four columns of
world(joint) × inverseBindMatrix, math convention → column-major), joints of all skins one after the
other (skin k starts at ``offsets[k]``), wrapped in rows of ``JOINTS_PER_ROW`` joints. A texture has no
uniform-array limit: 1024 joints per row × (max texture size) rows.
"""
from __future__ import annotations

import moderngl
import numpy as np

from viewer.pose import Pose
from viewer.scene import Scene

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
        self.texture = ctx.texture((width * 4, rows), 4, dtype="f4")
        self.texture.filter = (moderngl.NEAREST, moderngl.NEAREST)
        self.texture.repeat_x = self.texture.repeat_y = False

    def update(self, pose: Pose) -> None:
        """Upload joint matrices of every skin for the pose as it is now (one texture write)."""
        if not self.total:
            return
        for k in range(len(pose.scene.skins)):
            a, b = self.offsets[k], self.offsets[k + 1]
            # (J, 4, 4) math convention → transpose so each joint's 16 floats are its 4 columns
            self._padded[a:b] = np.swapaxes(pose.joint_matrices(k), -1, -2)
        self.texture.write(self._padded.tobytes())

    def release(self) -> None:
        self.texture.release()
