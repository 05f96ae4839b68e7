"""What ``animview check`` tells an animator about one loaded file: findings per file and per clip.

Pure numpy over the scene model (no GL, no numba). ``scene_findings`` is the one entry point; the checks
live beside it: ``findings_keys`` (one channel's key times and values), ``findings_resample`` (keys a
linear resample reproduces) and ``findings_file`` (extensions, load warnings). Every finding points into the
file (RFC 6901) at the most precise place — a channel, a sampler, its input or output, an ``extensionsUsed``
entry — and there is one finding per (code, place), whose ``count`` says how many keys or intervals.

Clip findings come in file order: by the file's channel index (a sampler's findings with the channel that
plays it), codes in ``report.CODES`` order within a channel, unused samplers last.
"""

from __future__ import annotations

import numpy as np

from viewer.animation.clip import Channel, Clip
from viewer.animation.seams import loop_seams
from viewer.base.errors import pointer
from viewer.library import findings_file, findings_keys, findings_resample
from viewer.library.findings_keys import Place, one_line, quoted_name
from viewer.library.report import CODES, Finding
from viewer.scene.scene import Scene

CODE_RANK = {code: i for i, code in enumerate(CODES)}


def scene_findings(scene: Scene, load_warnings: list[str]) -> tuple[list[Finding], dict[int, list[Finding]]]:
    """(file-level findings, {clip.index: that clip's findings}) — every clip of scene.clips has a key (maybe
    an empty list). ``load_warnings``: the texts of the ``GltfWarning``s raised while the scene loaded."""
    raw = scene.document.raw
    clips = {clip.index: clip_findings(scene, clip) for clip in scene.clips}
    file_level = findings_file.extension_findings(raw)
    ignored_channels = {f.pointer for found in clips.values() for f in found if f.code == "ignored-channel"}
    ignored_extensions = {
        str(raw["extensionsUsed"][int(f.pointer.rsplit("/", 1)[1])])
        for f in file_level
        if f.code == "ignored-extension"
    }
    file_level += findings_file.load_warning_findings(
        load_warnings, str(scene.path), ignored_channels, ignored_extensions
    )
    return file_level, clips


def clip_findings(scene: Scene, clip: Clip) -> list[Finding]:
    """Every finding of one file clip, in file order (see the module docstring)."""
    raw_anim = scene.document.raw["animations"][clip.index]
    places = channel_places(scene, clip)
    found: list[tuple[int, Finding]] = []  # (the file's channel index, finding)
    found += ignored_channels(scene, clip.index)
    found += [(p.channel, f) for p, f in zip(places, loop_seam(clip, places)) if f]
    found += [(p.channel, f) for p, c in zip(places, clip.channels) if (f := unused_channel(scene, p, c))]
    steps = any(p.mode == "step" and len(p.curve.times) >= 2 for p in places)  # the only users of ``shared``
    shared = findings_keys.shared_times([c.curve for c in clip.channels]) if steps else np.zeros(0)
    for p in places:
        found += [(p.channel, f) for check in findings_keys.KEY_CHECKS if (f := check(p))]
        if f := findings_keys.step_on_key(p, shared, clip.duration):
            found.append((p.channel, f))
    found += [(p.channel, f) for p, f in zip(places, findings_resample.redundant_keys(places)) if f]
    found += [(len(raw_anim["channels"]) + s, f) for s, f in unused_samplers(clip.index, raw_anim)]
    found.sort(key=lambda item: (item[0], CODE_RANK[item[1].code], item[1].pointer))
    out, seen = [], set()
    for _, f in found:  # a sampler two channels share is reported once
        if (f.code, f.pointer) not in seen:
            seen.add((f.code, f.pointer))
            out.append(f)
    return out


def channel_places(scene: Scene, clip: Clip) -> list[Place]:
    """Each clip channel with its file channel index: the scene drops ignored channels and keeps the rest in
    file order, so the k-th channel of the clip is the k-th channel validation did not set aside."""
    doc, a = scene.document, clip.index
    raw = doc.raw
    kept = [c for c in range(len(raw["animations"][a]["channels"])) if (a, c) not in doc.ignored_channels]
    return [
        Place(a, c, ch.sampler, channel_label(raw, ch), ch.curve, ch.path, ch.node)
        for c, ch in zip(kept, clip.channels)
    ]


def channel_label(raw: dict, channel: Channel) -> str:
    """``node 3 "LeftArm" rotation``, ``node 1 "Face" weights[2]``, ``material 0 "Skin" baseColorFactor``."""
    element = f"[{channel.element}]" if channel.element is not None else ""
    objects = {"node": "nodes", "material": "materials", "camera": "cameras"}.get(channel.consumer)
    table = raw.get(objects, []) if objects else []
    named = table[channel.index] if 0 <= channel.index < len(table) else None
    return f"{channel.consumer} {channel.index}{quoted_name(named)} {channel.path}{element}"


def loop_seam(clip: Clip, places: list[Place]) -> list[Finding | None]:
    """Per channel: a ``loop-seam`` finding where the value or velocity jumps as the clip wraps.

    Why: most game clips loop; a pop or hitch at the wrap shows on every cycle, and it is invisible when the
    animator scrubs the clip once from start to end. ``viewer.animation.seams`` judges each jump against the
    channel's own motion, so a still channel's float noise is not a seam.
    """
    if not places:
        return []
    seams = loop_seams(clip)
    return [
        Finding("loop-seam", p.channel_pointer, one_line(f"{p.label}: {seams.text(c)}")) if flagged else None
        for c, (p, flagged) in enumerate(zip(places, seams.flagged))
    ]


def unused_channel(scene: Scene, place: Place, channel: Channel) -> Finding | None:
    """A channel of a node outside the displayed scene.

    Why: it animates nothing anyone sees (here, and in any engine that shows the file's default scene), so it
    is dead weight, or a sign the clip was exported against another scene than the one that ships.
    """
    if channel.consumer != "node" or channel.node < 0 or bool(scene.shown[channel.node]):
        return None
    default = scene.document.raw.get("scene", 0)
    return Finding(
        "unused-channel",
        place.channel_pointer,
        one_line(
            f"{place.label}: the node is not in the displayed scene {default}, so the channel animates nothing visible"
        ),
    )


def ignored_channels(scene: Scene, animation: int) -> list[tuple[int, Finding]]:
    """The channels validation set aside (no target node, a pointer that does not resolve, the loser of two
    channels on one property), with its reason.

    Why: the viewer (like any conforming engine) plays the clip without them, so what the animator keyed
    there never shows.
    """
    out = []
    for (a, c), reason in sorted(scene.document.ignored_channels.items()):
        if a == animation:
            out.append(
                (
                    c,
                    Finding(
                        "ignored-channel",
                        pointer("animations", a, "channels", c),
                        one_line(f"channel {c} is not applied: {reason}"),
                    ),
                )
            )
    return out


def unused_samplers(animation: int, raw_anim: dict) -> list[tuple[int, Finding]]:
    """Samplers no channel of the animation references (ignored channels count as references).

    Why: their keys are loaded and shipped but drive nothing; usually leftovers of a deleted channel.
    """
    used = {ch.get("sampler") for ch in raw_anim.get("channels", [])}
    samplers = raw_anim.get("samplers", [])
    out = []
    for s in np.flatnonzero([s not in used for s in range(len(samplers))]):
        s = int(s)
        out.append(
            (
                s,
                Finding(
                    "unused-sampler",
                    pointer("animations", animation, "samplers", s),
                    one_line(
                        f"sampler {s} is not used by any channel of animation {animation}: its keys drive nothing"
                    ),
                ),
            )
        )
    return out
