"""GLSL programs from ``shaders/*.glsl``: a tiny preprocessor and a cache of compiled variants.

Each file is one program in moderngl-window's layout (``#version`` first, then
``#if defined VERTEX_SHADER … #elif defined FRAGMENT_SHADER … #endif``). Shared pieces are pulled in
with ``#include "name.glsl"`` (resolved here, textually, once per file; a file included twice is
inserted once). Features are ``#define``s inserted right after ``#version``, so one source gives every
variant (skinned or not, N morph targets, textured, alpha mask, instanced, debug output…).
"""

from __future__ import annotations

import re
from typing import Iterable, Mapping

import moderngl

from viewer.base.resources import shader_path

_INCLUDE = re.compile(r'^\s*#include\s+"([^"]+)"\s*$', re.MULTILINE)

Defines = tuple[tuple[str, str], ...]


def read_source(filename: str, _seen: set[str] | None = None) -> str:
    """The text of a shader file with its ``#include``s expanded (each file at most once)."""
    seen = set() if _seen is None else _seen
    seen.add(filename)
    text = shader_path(filename).read_text(encoding="utf-8")

    def expand(match: re.Match) -> str:
        name = match.group(1)
        if name in seen:
            return f"// {name} already included"
        body = read_source(name, seen)
        return f"// begin {name}\n{body}\n// end {name}"

    return _INCLUDE.sub(expand, text)


def stage_source(source: str, stage: str, defines: Defines) -> str:
    """One stage's source: ``#version`` line, then ``#define <STAGE>`` and the feature defines."""
    lines = source.splitlines()
    if not lines or not lines[0].startswith("#version"):
        raise ValueError("a shader file must start with its #version line")
    head = [lines[0], f"#define {stage}"] + [f"#define {k} {v}".rstrip() for k, v in defines]
    # `#line 2` keeps the compiler's line numbers pointing into the file (after the #version line)
    return "\n".join(head + ["#line 2"] + lines[1:]) + "\n"


def normalize_defines(defines: Mapping[str, object] | Iterable[str]) -> Defines:
    """Defines as a sorted, hashable tuple of (name, value); a bare name maps to ""."""
    items = defines.items() if isinstance(defines, Mapping) else ((d, "") for d in defines)
    return tuple(sorted((str(k), "" if v is None or v is True else str(v)) for k, v in items))


def active_uniforms(prog: moderngl.Program) -> dict[str, moderngl.Uniform]:
    """The uniforms a compiled program still has. The GLSL compiler drops what it can prove unused, and
    what it proves depends on the #defines: with MORPH_TARGETS 1 the index ``k * u_morph_vertex_count``
    folds to 0 and that uniform is gone. So no uniform may be assumed present: see ``set_uniform``."""
    return {n: prog[n] for n in prog if isinstance(prog[n], moderngl.Uniform)}


def set_uniform(uniforms: dict[str, moderngl.Uniform], name: str, value) -> None:
    """Set uniform ``name`` when the program has it: bytes are written as they are (an array the compiler
    shortened — it keeps only the elements it can prove used — takes the leading part), other values assigned."""
    u = uniforms.get(name)
    if u is None:
        return
    if isinstance(value, bytes):
        size = 4 * u.array_length * u.dimension
        u.write(value[:size] if len(value) >= size else value + bytes(size - len(value)))
    else:
        u.value = value


class ProgramCache:
    """Compiled programs of one context, keyed by (file, defines); compiling is slow on llvmpipe (~50 ms),
    so the window and every renderer on a context share it."""

    def __init__(self, ctx: moderngl.Context) -> None:
        self.ctx = ctx
        self._programs: dict[tuple[str, Defines], moderngl.Program] = {}
        self._sources: dict[str, str] = {}
        # GPU data every renderer on the context shares (the studio environment): made once, released here
        self.resources: dict[str, object] = {}

    def get(self, filename: str, defines: Mapping[str, object] | Iterable[str] = ()) -> moderngl.Program:
        """The program of ``filename`` compiled with ``defines`` (compiled on first use)."""
        key = (filename, normalize_defines(defines))
        prog = self._programs.get(key)
        if prog is None:
            if filename not in self._sources:
                self._sources[filename] = read_source(filename)
            src = self._sources[filename]
            prog = self.ctx.program(
                vertex_shader=stage_source(src, "VERTEX_SHADER", key[1]),
                fragment_shader=stage_source(src, "FRAGMENT_SHADER", key[1]),
            )
            self._programs[key] = prog
        return prog

    def release(self) -> None:
        for prog in self._programs.values():
            prog.release()
        self._programs.clear()
        for resource in self.resources.values():
            resource.release()
        self.resources.clear()
