"""The window's 3D view, drawn offscreen with the look's anti-aliasing and then put into the window.

The window's own framebuffer has no multisampling: which AA a view gets depends on the scene and the view's
size (``render.antialias.choose``), and a window cannot change its samples once open. So the view is drawn
into an ``OffscreenTarget`` of the view's size — the same target exports use — and copied (or FXAA'd) into
its place below the panels.
"""

from __future__ import annotations

import moderngl

from viewer.render.antialias import choose, drawn_triangles
from viewer.render.shaders import ProgramCache
from viewer.render.target import DEFAULT_SAMPLES, OffscreenTarget
from viewer.scene.scene import Scene


class ViewCanvas:
    """One offscreen target, remade when the view's size or the chosen anti-aliasing changes."""

    def __init__(self, ctx: moderngl.Context, programs: ProgramCache) -> None:
        self.ctx, self.programs = ctx, programs
        self.target: OffscreenTarget | None = None
        self._key: tuple | None = None
        self._triangles: tuple[int, int] = (0, 0)  # (id of the scene, its drawn triangles)

    def target_for(self, scene: Scene, aa: str, size: tuple[int, int]) -> OffscreenTarget:
        """The target to draw a view of ``size`` pixels into, with ``aa`` (``antialias.AA_MODES``) resolved."""
        if self._triangles[0] != id(scene):
            self._triangles = (id(scene), drawn_triangles(scene))
        size = (max(int(size[0]), 1), max(int(size[1]), 1))
        samples, fxaa = choose(aa, DEFAULT_SAMPLES, self._triangles[1], size)
        key = (size, samples, fxaa)
        if key != self._key:
            self.release()
            self.target = OffscreenTarget(self.ctx, size, samples, fxaa, self.programs)
            self._key = key
        return self.target

    @property
    def label(self) -> str:
        """What the current target does, for the look panel ("MSAA 4×", "FXAA", "off")."""
        t = self.target
        if t is None:
            return ""
        return "FXAA" if t.fxaa else f"MSAA {t.samples}×" if t.samples else "off"

    def release(self) -> None:
        if self.target is not None:
            self.target.release()
            self.target, self._key = None, None
