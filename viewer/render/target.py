"""An offscreen render target: a multisampled framebuffer, its resolve, and reading pixels back.

Any context will do (the EGL one from ``viewer.export``, or the window's for screenshots). With
``samples > 0`` the scene is drawn into a multisampled colour + depth pair and resolved into a plain
RGBA8 framebuffer with ``ctx.copy_framebuffer``; ``samples=0`` draws straight into the plain one.
"""
from __future__ import annotations

import moderngl
import numpy as np

DEFAULT_SAMPLES = 4


class OffscreenTarget:
    """Framebuffers of one size.

    Attributes:
        size: (width, height) pixels.
        samples: MSAA samples actually used (clamped to what the context supports; 0 = none).
        fbo: the framebuffer to draw into.
    """

    def __init__(self, ctx: moderngl.Context, size: tuple[int, int], samples: int = DEFAULT_SAMPLES) -> None:
        self.ctx = ctx
        self.size = (int(size[0]), int(size[1]))
        self.samples = min(int(samples), ctx.max_samples) if samples > 1 else 0
        if self.samples:
            self.fbo = ctx.framebuffer(ctx.renderbuffer(self.size, 4, samples=self.samples),
                                       ctx.depth_renderbuffer(self.size, samples=self.samples))
            # colour only: copy_framebuffer would also resolve depth into a depth attachment (slow on llvmpipe)
            self._resolved = ctx.framebuffer(ctx.renderbuffer(self.size, 4))
        else:
            self.fbo = self._resolved = ctx.framebuffer(ctx.renderbuffer(self.size, 4),
                                                        ctx.depth_renderbuffer(self.size))
        self._pixels = bytearray(self.size[0] * self.size[1] * 4)

    def read(self, components: int = 4) -> np.ndarray:
        """The picture as (height, width, components) uint8, top row first (resolving MSAA first).

        The returned array is a new copy for ``components != 4``; for 4 it views a buffer reused by the
        next ``read`` — copy it to keep it.
        """
        if self.samples:
            self.ctx.copy_framebuffer(self._resolved, self.fbo)
        self._resolved.read_into(self._pixels, components=4, alignment=1)
        rgba = np.frombuffer(self._pixels, dtype=np.uint8).reshape(self.size[1], self.size[0], 4)[::-1]
        return rgba if components == 4 else np.ascontiguousarray(rgba[..., :components])

    def read_depth(self) -> np.ndarray:
        """Window-space depth (height, width) float32 in [0, 1], top row first; only without MSAA."""
        if self.samples:
            raise ValueError("depth can be read back only from a target without multisampling")
        data = self._resolved.read(attachment=-1, dtype="f4")
        return np.frombuffer(data, dtype=np.float32).reshape(self.size[1], self.size[0])[::-1].copy()

    def release(self) -> None:
        bound = self.ctx.fbo
        if bound is not None and bound.glo in (self.fbo.glo, self._resolved.glo):
            # moderngl re-binds the "current" framebuffer after creating another one: it must not be a
            # deleted one (GL_INVALID_OPERATION), so fall back to the default framebuffer first
            (self.ctx.screen or self.ctx.detect_framebuffer(0)).use()
        for fbo in {id(self.fbo): self.fbo, id(self._resolved): self._resolved}.values():
            for att in list(fbo.color_attachments) + [fbo.depth_attachment]:
                if att is not None:
                    att.release()
            fbo.release()
