"""File-level findings: declared extensions the viewer ignores or the file never uses, and load warnings.

These read the raw JSON and the warning texts only; nothing here needs the keys.
"""

from __future__ import annotations

import re
from typing import Iterable

from viewer.base.errors import pointer
from viewer.gltf import SUPPORTED_EXTENSIONS
from viewer.library.findings_keys import one_line
from viewer.library.report import Finding

# Extensions that change how core data is read without an ``extensions`` object anywhere (quantized
# accessor types): declaring them is their whole use, so they are never "unused".
WITHOUT_OBJECT = frozenset({"KHR_mesh_quantization"})
IGNORED_CHANNEL = "channel ignored:"  # how validate_animation words the warning for a channel it sets aside
_UNSUPPORTED = re.compile(r"^extension (\S+) is used but not supported")  # validate._check_extensions


def extension_findings(raw: dict) -> list[Finding]:
    """``ignored-extension`` and ``unused-extension`` per entry of ``extensionsUsed``, in file order.

    Why: an ignored extension means the viewer (and so this check's previews) shows the file without that
    data, which may not be what the target engine shows; a declared but unused one makes loaders that do not
    know it warn or, in ``extensionsRequired``, refuse the file for nothing.
    """
    used = raw.get("extensionsUsed")
    if not isinstance(used, list):
        return []
    present = extensions_present(raw)
    out = []
    for k, name in enumerate(used):
        if not isinstance(name, str):
            continue
        where = pointer("extensionsUsed", k)
        if name not in SUPPORTED_EXTENSIONS:
            out.append(
                Finding(
                    "ignored-extension",
                    where,
                    one_line(f"extension {name} is not implemented by the viewer: its data is ignored in previews"),
                )
            )
        if name not in present and name not in WITHOUT_OBJECT:
            out.append(
                Finding(
                    "unused-extension",
                    where,
                    one_line(
                        f"extension {name} is declared in extensionsUsed but no extensions object in the file uses it"
                    ),
                )
            )
    return out


def extensions_present(raw: object) -> set[str]:
    """Names of every key of every ``extensions`` object anywhere in the JSON (one iterative walk, so deep
    nesting cannot exhaust the stack)."""
    found: set[str] = set()
    stack = [raw]
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            ext = value.get("extensions")
            if isinstance(ext, dict):
                found.update(k for k in ext if isinstance(k, str))
            stack.extend(v for v in value.values() if isinstance(v, (dict, list)))
        elif isinstance(value, list):
            stack.extend(v for v in value if isinstance(v, (dict, list)))
    return found


def split_warning(text: str, file: str) -> tuple[str, str]:
    """(JSON pointer, message) of a ``GltfWarning`` text: ``"<file>:<pointer>: <message>"``, or
    ``"<file>: <message>"`` (pointer ""). ``file`` is stripped when the text starts with it (it may itself
    hold colons); otherwise the text up to the first ``:`` is taken for the file."""
    rest = text[len(file) + 1 :] if file and text.startswith(file + ":") else text.partition(":")[2]
    if rest.startswith("/"):
        where, sep, message = rest.partition(": ")
        if sep:
            return where, message.strip()
        return "", rest.strip()
    return "", rest.strip()


def load_warning_findings(
    load_warnings: Iterable[str], file: str, ignored_channels: set[str], ignored_extensions: set[str]
) -> list[Finding]:
    """One ``load-warning`` per distinct warning (``count``: how often it was raised), in the order raised,
    leaving out the ones another finding already reports: channels set aside (``ignored-channel``, same
    pointer) and unsupported extensions (``ignored-extension``, same name).

    Why: a warning while loading is the viewer telling the animator it tolerated something broken; the ones
    no specific check explains are listed as they were said.
    """
    seen: dict[tuple[str, str], int] = {}
    for text in load_warnings:
        where, message = split_warning(one_line(str(text)), file)
        if where in ignored_channels and message.startswith(IGNORED_CHANNEL):
            continue
        match = _UNSUPPORTED.match(message)
        if not where and match and match.group(1).rstrip(";,") in ignored_extensions:
            continue
        seen[(where, message)] = seen.get((where, message), 0) + 1
    return [Finding("load-warning", where, message or "warning", count) for (where, message), count in seen.items()]
