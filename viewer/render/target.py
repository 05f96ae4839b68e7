"""An offscreen render target: a multisampled framebuffer, its resolve, and reading pixels back.

Any context will do (the EGL one from ``viewer.export``, or the window's). With ``samples > 0`` the scene
is drawn into a multisampled colour texture + depth pair and resolved into a plain RGBA8 framebuffer by
``antialias.resolve_pass`` (a GPU that multisamples renderbuffers beyond textures gets a renderbuffer and
``ctx.copy_framebuffer``); with ``fxaa`` it is drawn into a plain texture and the FXAA pass
(``render.antialias``) writes the plain framebuffer; otherwise it draws straight into the plain one.
"""

from __future__ import annotations

import moderngl
import numpy as np

from viewer.render.antialias import PostPass, resolve_pass
from viewer.render.shaders import ProgramCache

DEFAULT_SAMPLES = 4


class OffscreenTarget:
    """Framebuffers of one size.

    Attributes:
        size: (width, height) pixels.
        samples: MSAA samples actually used (clamped to what the context supports; 0 = none).
        fxaa: the FXAA pass runs between ``fbo`` and the picture (then ``samples`` is 0).
        fbo: the framebuffer to draw into.
        picture: the finished frame's texture (what ``read`` reads).
    """

    def __init__(
        self,
        ctx: moderngl.Context,
        size: tuple[int, int],
        samples: int = DEFAULT_SAMPLES,
        fxaa: bool = False,
        programs: ProgramCache | None = None,
    ) -> None:
        self.ctx = ctx
        self.size = (int(size[0]), int(size[1]))
        self.samples = min(int(samples), ctx.max_samples) if samples > 1 and not fxaa else 0
        self.fxaa = bool(fxaa)
        self._programs, self._own_programs = programs, False
        self._post: PostPass | None = None
        self._resolver: PostPass | None = None
        self._multisampled: moderngl.Texture | None = None  # the colour the resolve pass reads
        self._finished = False  # the FXAA pass has run on what fbo holds now
        if fxaa:
            self._frame = self._texture()
            self.fbo = ctx.framebuffer(self._frame, ctx.depth_renderbuffer(self.size))
            self.picture = self._texture()
            self._resolved = ctx.framebuffer(self.picture)
        elif self.samples:
            if self.samples <= int(ctx.info.get("GL_MAX_COLOR_TEXTURE_SAMPLES", 0)):
                colour = self._multisampled = ctx.texture(self.size, 4, samples=self.samples)
            else:
                colour = ctx.renderbuffer(self.size, 4, samples=self.samples)
            self.fbo = ctx.framebuffer(colour, ctx.depth_renderbuffer(self.size, samples=self.samples))
            self.picture = self._texture()
            # colour only: copy_framebuffer would also resolve depth into a depth attachment (slow on llvmpipe)
            self._resolved = ctx.framebuffer(self.picture)
        else:
            self.picture = self._texture()
            self.fbo = self._resolved = ctx.framebuffer(self.picture, ctx.depth_renderbuffer(self.size))
        self._pixels = bytearray(self.size[0] * self.size[1] * 4)

    def _texture(self) -> moderngl.Texture:
        tex = self.ctx.texture(self.size, 4)
        tex.repeat_x = tex.repeat_y = False
        return tex

    def _pass_programs(self) -> ProgramCache:
        if self._programs is None:
            self._programs, self._own_programs = ProgramCache(self.ctx), True
        return self._programs

    def _pass(self) -> PostPass:
        if self._post is None:
            self._post = PostPass(self._pass_programs())
        return self._post

    def _resolve(self) -> None:
        """The multisampled frame into ``picture``; the bound framebuffer stays bound (as a blit leaves it)."""
        if self._multisampled is None:
            self.ctx.copy_framebuffer(self._resolved, self.fbo)
            return
        if self._resolver is None:
            self._resolver = resolve_pass(self._pass_programs(), self.samples)
        bound = self.ctx.fbo
        self._resolver.draw(self._multisampled, self._resolved, (0, 0, *self.size))
        if bound is not None:
            bound.use()

    def finish(self) -> moderngl.Framebuffer:
        """End the 3D drawing: with FXAA, run the pass now; the framebuffer to draw on top with (text and
        panels that must not be smoothed), which ``read`` then reads as it is."""
        if not self.fxaa:
            return self.fbo
        if not self._finished:
            self._pass().draw(self._frame, self._resolved, (0, 0, *self.size), fxaa=True)
            self._finished = True
        return self._resolved

    def present(self, dst: moderngl.Framebuffer, viewport: tuple[int, int, int, int]) -> None:
        """Put the frame drawn into ``fbo`` into ``viewport`` of ``dst`` (the window): resolved, or FXAA'd on
        the way; the viewport must be this target's size."""
        full = dst.viewport
        if self.samples:
            self._resolve()
        self._pass().draw(self._frame if self.fxaa else self.picture, dst, viewport, fxaa=self.fxaa)
        dst.viewport = full

    def read(self, components: int = 4) -> np.ndarray:
        """The picture as (height, width, components) uint8, top row first (resolving MSAA first).

        The returned array is a new copy for ``components != 4``; for 4 it views a buffer reused by the
        next ``read`` — copy it to keep it.
        """
        if self.samples:
            self._resolve()
        self.finish()
        self._finished = False  # the next frame drawn into fbo gets its own pass
        self._resolved.read_into(self._pixels, components=4, alignment=1)
        rgba = np.frombuffer(self._pixels, dtype=np.uint8).reshape(self.size[1], self.size[0], 4)[::-1]
        return rgba if components == 4 else np.ascontiguousarray(rgba[..., :components])

    def read_depth(self) -> np.ndarray:
        """Window-space depth (height, width) float32 in [0, 1], top row first; only without MSAA."""
        if self.samples:
            raise ValueError("depth can be read back only from a target without multisampling")
        data = self.fbo.read(attachment=-1, dtype="f4")
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
        for post in (self._post, self._resolver):
            if post is not None:
                post.release()
        if self._own_programs:
            self._programs.release()
