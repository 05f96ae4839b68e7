"""Which files a library run reads: every .gltf / .glb under the given paths, each once.

Folders are walked without following symbolic links out of them: a link is taken only when what it names
lies inside one of the given paths (a library folder that links to ``/`` must not make a checker read the
machine). Hidden folders (``.git``, ``.cache``) are skipped. The same file reached twice — named directly
and inside a folder, or through a link — is one file. Order is sorted, so two runs list files alike.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path

from viewer.base.errors import UsageError

SUFFIXES = (".gltf", ".glb")


@dataclass(frozen=True)
class LibraryFile:
    """``label``: the file as a person names it (the given path's own name, then the path below it);
    ``path``: the resolved file; ``root``: the resolved given path it was found under (a folder, or the file
    itself), the limit of what loading it may read."""

    label: str
    path: Path
    root: Path

    @property
    def below_root(self) -> str:
        """The file's path below the folder it was found in (its name, when it was given itself): where its
        counterpart lies in a second library (``check --against``)."""
        return self.label.partition("/")[2] or self.label


def discover(paths: list[str | Path], command: str = "animview check") -> list[LibraryFile]:
    """Every model file under ``paths`` (files or folders), each once, sorted by label.

    Raises:
        UsageError: a path that does not exist, or a file that is not .gltf / .glb.
    """
    roots = []
    for given in paths:
        p = Path(given)
        if not p.exists():
            raise UsageError(f"{command}: {str(given)!r} does not exist")
        if p.is_file() and p.suffix.lower() not in SUFFIXES:
            raise UsageError(f"{command}: {str(given)!r} is not a .gltf or .glb file")
        if not (p.is_file() or p.is_dir()):
            raise UsageError(f"{command}: {str(given)!r} is neither a file nor a folder")
        roots.append((p, p.resolve()))
    resolved_roots = [r for _, r in roots]
    seen: dict[Path, LibraryFile] = {}
    for given, root in roots:
        base = given.name or root.name
        found = [root] if root.is_file() else _walk(root)
        for path in found:
            real = path.resolve()
            if real in seen or not _inside_any(real, resolved_roots):
                continue
            rel = path.relative_to(root).as_posix() if root.is_dir() else ""
            seen[real] = LibraryFile(f"{base}/{rel}" if rel else base, real, root)
    return sorted(seen.values(), key=lambda f: (f.label, str(f.path)))


def _walk(root: Path) -> list[Path]:
    """Model files below ``root``; folder links are not entered (``followlinks=False``), file links are
    returned for the caller to check where they point."""
    out = []
    for folder, dirs, files in os.walk(root, followlinks=False):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        out.extend(Path(folder, f) for f in sorted(files) if f.lower().endswith(SUFFIXES) and Path(folder, f).is_file())
    return out


def _inside_any(path: Path, roots: list[Path]) -> bool:
    return any(path == r or path.is_relative_to(r) for r in roots)


def output_stem(label: str) -> str:
    """A file name stem for a file's outputs (thumbnails, previews) that two labels never share: the label
    with folders joined by ``__`` and characters a file system or a URL might choke on replaced."""
    safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in label.replace("/", "__"))
    # Python's ``hash`` is salted per process: every worker must name a file's outputs alike.
    digest = hashlib.blake2s(label.encode("utf-8", "surrogateescape"), digest_size=4).hexdigest()
    return f"{safe[-80:]}-{digest}"
