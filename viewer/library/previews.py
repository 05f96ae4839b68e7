"""Thumbnails and previews of a library's files, from one EGL context a worker keeps for its lifetime.

A library worker renders file after file; making an EGL context and compiling the shaders (~50 ms a program
on llvmpipe) per file would cost more than rendering a small clip. ``Previews`` makes one context and one
``ProgramCache`` on first use and renders every file through them; each file's GPU resources (meshes,
textures, targets) are released as soon as its pictures are written, so memory stays flat over any number
of files.

Sharing the cache across scenes is safe: programs are keyed by file and ``#define``s (a scene's feature
set), every renderer looks its uniforms up afresh and sets each one a draw reads (per frame, per draw or
per material), and the studio environment in ``ProgramCache.resources`` does not depend on the scene.
The tests check that a scene rendered after another equals its render on a fresh context.

What is written, per clip K of a file named ``stem`` in ``outdir``:

- ``stem.clipK.png``: the thumbnail, at mid-clip, the auto camera fitted to the whole clip — the picture
  ``animview render FILE -o x.png --animation K --time MID --size WxH --frame clip`` writes.
- with ``preview="gif"`` or ``"mp4"``: ``stem.clipK.gif`` / ``.mp4``, the clip from its start at ``fps``,
  at most ``MAX_PREVIEW_SECONDS`` (10 s) of it (a longer clip is cut there: a preview, not an export);
- with ``preview="png"``: ``stem.clipK.preview.png``, a larger still at mid-clip.

A file without clips gives one still of its rest pose: ``stem.png`` (``stem.preview.png`` / ``.gif`` /
``.mp4``, one frame, for a preview).

With ``variants`` (``render --outdir --variant all|NAME|K``), a file with KHR_materials_variants gets the same
pictures again for each variant asked for, its index and name in the file name — ``stem.clipK.variant1-beach.png``
(``stem.variant1-beach.png`` without clips) — beside the default ones, which keep their names: a library's
reports and sheets find them where they always were. The scene is uploaded once; only the materials switch.
"""

from __future__ import annotations

from pathlib import Path

from viewer.base.errors import shorten
from viewer.export.offscreen import Offscreen, View, create_context, frame_times
from viewer.export.writers import render_frames, save_png, writer_for
from viewer.pose.bounds import clip_bounds
from viewer.pose.pose import Pose

PREVIEW_KINDS = ("gif", "png", "mp4")
MAX_PREVIEW_SECONDS = 10.0  # a gif / mp4 preview covers at most this much of a clip (from its start)


class Previews:
    """One EGL context (``viewer.export.create_context``) and one ``ProgramCache`` for a worker's lifetime.

    Use as a context manager, or call ``close()``; ``HeadlessError`` (no EGL) propagates from the first
    ``render``.
    """

    def __init__(self) -> None:
        self._ctx = None
        self._programs = None
        self._sources: dict[str, _ClipShots] = {}  # one source per picture kind, reused clip after clip of a file

    @property
    def ctx(self):
        """The context, made on first use (raises ``viewer.export.HeadlessError`` where EGL is missing)."""
        if self._ctx is None:
            from viewer.render.shaders import ProgramCache

            self._ctx = create_context()
            self._programs = ProgramCache(self._ctx)
        return self._ctx

    @property
    def programs(self):
        """The programs compiled on ``ctx``, shared by every scene rendered here."""
        self.ctx  # noqa: B018  (makes the context and its cache on first use)
        return self._programs

    def render(
        self,
        scene,
        outdir: Path,
        stem: str,
        thumb_size: tuple[int, int] = (192, 144),
        preview: str | None = None,
        preview_size: tuple[int, int] = (320, 240),
        fps: float = 15.0,
        variants: str | None = None,
    ) -> list[dict]:
        """For every clip of ``scene`` (or one still of the scene when it has no clips): a thumbnail PNG at
        mid-clip, ``outdir/f"{stem}.clip{index}.png"`` (no clips: ``f"{stem}.png"``), and when ``preview`` is
        "gif" | "png" | "mp4" a preview of the clip: gif / mp4, the clip at ``fps`` from its start, capped at
        ``MAX_PREVIEW_SECONDS`` (10 s) of frames; png, a still at mid-clip at ``preview_size``, written to
        ``f"{stem}.clip{index}.preview.png"`` so it does not overwrite the thumbnail.

        ``variants``: "all", or a variant's name or index (``Variants.find``): the pictures again in those
        KHR_materials_variants variants the file has (see the module docstring).

        Returns one dict per clip: ``{"index": K (None for a file without clips), "thumbnail": absolute path,
        "preview": absolute path or None}``, and after each one dict per variant drawn, the same with
        ``"variant": V, "variant_name": its name``.

        Raises:
            ValueError: an unknown ``preview`` kind, or an mp4 preview of odd width or height (H.264).
            viewer.export.HeadlessError: no offscreen context can be made (first call only).
        """
        if preview is not None and preview not in PREVIEW_KINDS:
            raise ValueError(f"preview must be one of {', '.join(PREVIEW_KINDS)} or None, got {preview!r}")
        if preview == "mp4" and (preview_size[0] % 2 or preview_size[1] % 2):
            raise ValueError(f"an mp4 preview needs an even width and height, got {preview_size}")
        outdir = Path(outdir).resolve()
        clips = list(scene.clips) or [None]
        self._sources = {}
        sizes = (thumb_size, preview_size)
        results = []
        try:
            for clip in clips:
                box = clip_bounds(scene, clip)  # the whole clip's, once for every picture of it
                for variant in (None, *chosen_variants(scene, variants)):
                    results.append(self._pictures(scene, clip, variant, box, outdir, stem, sizes, preview, fps))
        finally:
            for source in self._sources.values():
                source.release()  # the file's meshes, textures and targets; the programs stay
            self._sources = {}
        return results

    def _pictures(self, scene, clip, variant, box, outdir: Path, stem: str, sizes, preview, fps: float) -> dict:
        """One clip's thumbnail (and preview) in one variant; the sources (one per picture size) are kept in
        ``self._sources`` for the next clip and variant of the file."""
        thumb_size, preview_size = sizes
        name = stem if clip is None else f"{stem}.clip{clip.index}"
        if variant is not None:
            name += "." + variant_suffix(variant, scene.variants.names[variant])
        mid = 0.0 if clip is None else clip.duration / 2.0
        thumb = outdir / f"{name}.png"
        save_png(thumb, self._source("thumbs", scene, clip, thumb_size, box, variant).frame(mid))
        out = None
        if preview == "png":
            out = outdir / f"{name}.preview.png"
            save_png(out, self._source("stills", scene, clip, preview_size, box, variant).frame(mid))
        elif preview is not None:
            out = outdir / f"{name}.{preview}"
            end = 0.0 if clip is None else min(clip.duration, MAX_PREVIEW_SECONDS)
            moving = self._source("moving", scene, clip, preview_size, box, variant)
            writer_for(str(out))(str(out), render_frames(moving, frame_times(0.0, end, fps)), fps)
        made = {"index": None if clip is None else clip.index, "thumbnail": str(thumb), "preview": out and str(out)}
        if variant is not None:
            made.update(variant=variant, variant_name=scene.variants.names[variant])
        return made

    def _source(self, kind: str, scene, clip, size, box, variant) -> "_ClipShots":
        """The ``kind`` source turned to ``clip`` and material ``variant`` (made on first use: ``animview
        render``'s default look at ``size``)."""
        source = self._sources.get(kind)
        if source is None:
            view = View(size=tuple(size))
            source = self._sources[kind] = _ClipShots(
                scene, clip, view, ctx=self.ctx, programs=self.programs, clip_box=box
            )
        elif source.clip is not clip:
            source.use_clip(clip, box)
        source.view.options.variant = variant
        return source

    def close(self) -> None:
        """Release the programs and the context (a later ``render`` makes new ones)."""
        if self._ctx is not None:
            self._ctx.__enter__()
            self._programs.release()
            self._ctx.release()
            self._ctx = self._programs = None

    def __enter__(self) -> "Previews":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def chosen_variants(scene, text: str | None) -> list[int]:
    """The variants ``text`` asks for that ``scene`` has: every one for "all", else the one it names, if any."""
    if text is None:
        return []
    if text == "all":
        return list(range(len(scene.variants)))
    found = scene.variants.find(text)
    return [] if found is None else [found]


def variant_suffix(index: int, name: str) -> str:
    """``variant1-beach``: the index keeps two variants' pictures apart, the name tells a person which it is
    (kept to characters every file system and URL takes)."""
    safe = "".join(c if c.isalnum() or c in "-_" else "_" for c in shorten(name, 40).replace("…", "_"))
    return f"variant{index}-{safe}" if safe else f"variant{index}"


class _ClipShots(Offscreen):
    """An ``Offscreen`` that serves every clip of its scene in turn: the scene is uploaded to the GPU once
    per file, not once per clip (its textures are most of a small file's set-up)."""

    def use_clip(self, clip, box) -> None:
        """Take frames of ``clip`` from now on: ground and auto camera fitted to its bounds ``box``, as a new
        ``Offscreen(scene, clip, view, clip_box=box)`` would be."""
        self.clip = clip
        self.renderer.set_ground(*box)
        self.pose = Pose(self.scene)
        self.camera = self._camera(*box)
