"""Two versions side by side (``animview A --against B``): what each pane shows, and how far apart they are.

A pane's source is (scene, clip, mode): the compare view's panes are one scene's clip in several modes or as
engines play it (``mode_sources``; an engine's pane is its rewritten clip on its player's clock: ``players``),
the against view's are file A's clip and a clip of B in a mode, or as an engine plays it (``file_sources``). Every
pane after the first may be given its own clip and mode (``PaneChoice``: the Compare panel, ``--animation-b``,
``--mode-b``);
unchosen, it follows the first pane — the same clip, or in B the clip ``matching.match_clips``
pairs with it, and the same mode. The same B may be A itself with another clip or mode. How far apart the two
are comes from ``diff.diff_scenes`` once per (clips, modes) of the pair of files — its ``over_time`` is the
divergence strip (``Divergence``) — and, at the playhead, from the matched nodes' world positions
(``node_errors``), which colour the panes' joints and trail markers on the same scale as the strip
(``error_colors``). Pure numpy.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from viewer.animation.clip import Clip
from viewer.compare.diff import diff_scenes
from viewer.compare.matching import NodeMatch, match_clips, match_nodes
from viewer.compare.players import PANE_COLORS, Played, is_engine, played, title
from viewer.engines import Engine, get
from viewer.pose.pose import Pose
from viewer.scene.scene import Scene

RGB = tuple[float, float, float]
# A and B keep one colour each wherever they are told apart (labels, trails), away from the error scale's
# green-yellow-red and from the modes' colours.
FILE_COLORS: tuple[RGB, RGB] = ((1.0, 0.62, 0.25), (0.40, 0.78, 1.0))
# The error scale, from no difference to the clip's largest: green, yellow, red (sRGB 0..1).
SCALE_STOPS = np.array([[0.16, 0.55, 0.30], [0.95, 0.82, 0.22], [0.92, 0.22, 0.18]])


@dataclass(frozen=True)
class PaneSource:
    """What one pane shows: ``clip`` of ``scene`` (None: the rest pose) sampled in ``mode``, labelled ``label``;
    with ``engine``, at that engine's player time (``time``: the clock is shared, the players' ends are not)."""

    scene: Scene
    clip: Clip | None
    mode: str
    label: str
    color: RGB
    engine: Engine | None = None
    keys: np.ndarray | None = None  # the file's key times, where an engine's rewritten clip has more (its markers)

    def time(self, t):
        """The clip time(s) this pane shows at clock time(s) ``t`` (seconds)."""
        return Played(self.clip, self.mode, self.engine).time(t)


@dataclass(frozen=True)
class PaneChoice:
    """What was chosen for a pane after the first: ``clip``, an index into the pane's file's clips, and ``mode``.
    None follows the first pane (its clip — in another file, the clip matched with it — and its mode), so
    switching the window's clip or mode carries an unchosen pane along."""

    clip: int | None = None
    mode: str | None = None


def chosen_clip(scene: Scene, index: int | None) -> Clip | None:
    """Clip ``index`` of ``scene``; None when none was chosen or the file has no such clip (another file came)."""
    return scene.clips[index] if index is not None and 0 <= index < len(scene.clips) else None


def mode_sources(scene: Scene, clip: Clip | None, modes, clips=()) -> list[PaneSource]:
    """One pane per interpolation mode — or engine (``players.ITEMS``) — of one clip: the compare view (C,
    ``--compare``). ``clips``: per pane, a clip chosen instead (None: ``clip``); such a pane's label names its clip
    too. An engine's pane is labelled with the engine's title ("three.js")."""
    own = list(clips) + [None] * len(modes)
    out = []
    for m, chosen in zip(modes, own):
        shown = chosen if chosen is not None else clip
        label = title(m) if shown is clip or shown is None else f"{title(m)} · {shown.name}"
        p = played(scene, shown, m)
        keys = shown.key_times if shown is not None else None
        out.append(PaneSource(scene, p.clip, p.mode, label, PANE_COLORS[m], p.engine, keys))
    return out


def matched_clip(a: Scene, b: Scene, clip: Clip | None) -> Clip | None:
    """The clip of B that ``match_clips`` pairs with A's ``clip`` (by name, else index); None when none."""
    if clip is None or clip.index < 0:  # several clips combined: no one clip of B answers them
        return None
    pairs, _, _ = match_clips(a, b, clip)
    return pairs[0][1] if pairs else None


def file_sources(
    a: Scene, clip_a: Clip | None, b: Scene, clip_b: Clip | None, mode: str, mode_b: str | None = None
) -> list[PaneSource]:
    """Pane A and pane B (B in ``mode_b``, default A's ``mode``: a mode, or an engine's name — B as that engine
    plays it, ``players.played``), labelled with the file name, and the clip and mode where they say something."""
    mode_b = mode if mode_b is None else mode_b
    names = file_names(a.path, b.path)

    def label(name: str, clip: Clip | None, m: str) -> str:
        what = [name, clip.name if clip is not None else "rest pose"]
        return " · ".join(what + ([title(m)] if m != "authored" else []))

    p = played(b, clip_b, mode_b)
    keys = clip_b.key_times if p.engine is not None and clip_b is not None else None
    return [
        PaneSource(a, clip_a, mode, label(names[0], clip_a, mode), FILE_COLORS[0]),
        PaneSource(b, p.clip, p.mode, label(names[1], clip_b, mode_b), FILE_COLORS[1], p.engine, keys),
    ]


def file_names(a: Path, b: Path) -> tuple[str, str]:
    """The two files' names as the panes show them: just the names, or — two files of one name, an original
    and its copy in another folder — as many folders as tell them apart (``khronos/Fox.glb`` | ``pack/Fox.glb``)."""
    pa, pb = Path(a).resolve().parts, Path(b).resolve().parts
    if pa == pb:
        return pa[-1], pb[-1]
    k = 1
    while k < min(len(pa), len(pb)) and pa[-k:] == pb[-k:]:
        k += 1
    return "/".join(pa[-k:]), "/".join(pb[-k:])


@dataclass(frozen=True)
class Divergence:
    """One clip pair's distance over time, from the diff report (A's scene units).

    Attributes:
        times, distances: (F,) seconds and the largest distance of any matched node or vertex at each.
        worst_t, worst_what: when the largest distance happens and what moved there ("node Hips").
        max_distance: the largest distance; threshold: the report's "same animation" limit.
        clip_b: the name of B's clip measured.
        node_max: the largest distance of a matched node's origin (vertices of a skinned mesh move farther
            than the joints that drive them: the joints' colours take this as their top).
        clip_a, mode, mode_b: A's clip measured, and the modes A and B were played in (as the report says).
    """

    times: np.ndarray
    distances: np.ndarray
    worst_t: float
    worst_what: str
    max_distance: float
    threshold: float
    clip_b: str
    node_max: float = 0.0
    clip_a: str = ""
    mode: str = "authored"
    mode_b: str = "authored"

    def at(self, t: float) -> float:
        """The distance at time ``t`` (seconds), linearly between measured times."""
        return float(np.interp(t, self.times, self.distances)) if len(self.times) else 0.0

    @property
    def scale(self) -> float:
        """The distance the error colours call red: the largest, unless that is within the "same animation"
        threshold (float noise of a re-export), when every distance is green (0)."""
        return self.max_distance if self.max_distance > self.threshold else 0.0

    @property
    def node_scale(self) -> float:
        """The joints' red: the largest node distance, 0 (all green) when the files agree (``scale``)."""
        return self.node_max if self.scale > 0 and self.node_max > self.threshold else 0.0


def divergence(
    a: Scene, b: Scene, clip: Clip, mode: str, clip_b: Clip | None = None, mode_b: str | None = None
) -> Divergence | None:
    """``diff_scenes`` of A's ``clip`` in ``mode`` against B's ``clip_b`` (default: its match) in ``mode_b``
    (default: ``mode``; an engine's name: B as it plays), as the strip reads it; None when B has no clip."""
    clip_b = matched_clip(a, b, clip) if clip_b is None else clip_b
    if clip_b is None:
        return None
    engine = get(mode_b) if mode_b is not None and is_engine(mode_b) else None
    played_b = "authored" if engine is not None else mode_b
    report = diff_scenes(a, b, only=clip, mode=mode, mode_b=played_b, clip_b=clip_b, engines=(None, engine))
    if not report["clips"]:
        return None
    c = report["clips"][0]
    over = np.asarray(c["over_time"], dtype=np.float64).reshape(-1, 2)
    worst = c["worst"]
    return Divergence(
        over[:, 0],
        over[:, 1],
        float(worst["t"]),
        f"{worst['kind']} {worst['node']}",
        float(c["max_distance"]),
        float(report["threshold"]),
        c["b"],
        max((float(n["max_distance"]) for n in c["nodes"]), default=0.0),
        c["a"],
        c["mode"],
        c["mode_b"] if engine is None else mode_b,
    )


def column_maxima(times: np.ndarray, values: np.ndarray, t0: float, t1: float, columns: int) -> np.ndarray:
    """The largest value in each of ``columns`` even time spans over [t0, t1] (a strip's pixel columns): a
    short spike stays visible however far the strip is zoomed out. A span holding no sample takes the value
    interpolated at its middle."""
    columns = max(int(columns), 1)
    edges = np.linspace(t0, t1, columns + 1)
    mid = np.interp(0.5 * (edges[:-1] + edges[1:]), times, values) if len(times) else np.zeros(columns)
    if not len(times):
        return mid
    which = np.clip(np.searchsorted(edges, times, side="right") - 1, 0, columns - 1)
    inside = (times >= t0) & (times <= t1)
    out = mid.copy()
    np.maximum.at(out, which[inside], values[inside])
    return out


def error_colors(values: np.ndarray, scale: float) -> np.ndarray:
    """(K, 3) sRGB colours of distances on the scale 0 (green) … ``scale`` (red), yellow halfway; NaN (a node
    with no partner) is grey. With ``scale`` 0 — the files agree — every finite value is green."""
    values = np.asarray(values, dtype=np.float64).reshape(-1)
    u = np.clip(np.nan_to_num(values / scale, nan=0.0) if scale > 0 else np.zeros(len(values)), 0.0, 1.0) * 2.0
    lo = np.minimum(u.astype(np.int64), 1)
    f = (u - lo)[:, None]
    out = SCALE_STOPS[lo] * (1.0 - f) + SCALE_STOPS[lo + 1] * f
    out[np.isnan(values)] = 0.5
    return out


def node_errors(world_a: np.ndarray, world_b: np.ndarray, match: NodeMatch) -> tuple[np.ndarray, np.ndarray]:
    """Distance between matched nodes' world positions, indexed by A's nodes and by B's ((Na,), (Nb,); NaN
    where a node has no partner)."""
    d = np.linalg.norm(world_a[match.a, :3, 3] - world_b[match.b, :3, 3], axis=-1)
    err_a, err_b = np.full(len(world_a), np.nan), np.full(len(world_b), np.nan)
    err_a[match.a], err_b[match.b] = d, d
    return err_a, err_b


class Against:
    """File B held against the viewer's file A: the node pairs, the divergence per (clips, modes), the poses
    of both at the playhead for the readout. Built once per pair of files."""

    def __init__(self, a: Scene, b: Scene) -> None:
        self.a, self.b = a, b
        self.match = match_nodes(a, b)
        self.pose_a, self.pose_b = Pose(a), Pose(b)
        self._divergence: dict[tuple, Divergence | None] = {}
        self._clips: dict[object, Clip | None] = {}

    def clip_b(self, clip_a: Clip | None) -> Clip | None:
        """B's clip for A's ``clip_a`` (``matched_clip``, kept: the panes ask every frame)."""
        key = None if clip_a is None else clip_a.key
        if key not in self._clips:
            self._clips[key] = matched_clip(self.a, self.b, clip_a)
        return self._clips[key]

    def source_b(self, clip_a: Clip | None, mode: str, choice: PaneChoice = PaneChoice()) -> tuple[Clip | None, str]:
        """B's clip and mode for A's ``clip_a`` in ``mode``: the ``choice``, else B's match and A's mode."""
        chosen = chosen_clip(self.b, choice.clip)
        return (chosen if chosen is not None else self.clip_b(clip_a)), (choice.mode or mode)

    def divergence(self, clip_a: Clip | None, mode: str, choice: PaneChoice = PaneChoice()) -> Divergence | None:
        """The strip's data for A's ``clip_a`` in ``mode`` against B's ``source_b``: measured on first ask (~0.2 s
        for Fox), then kept per (clips, modes)."""
        if clip_a is None or clip_a.index < 0:
            return None
        clip_b, mode_b = self.source_b(clip_a, mode, choice)
        key = (clip_a.index, mode, None if clip_b is None else clip_b.key, mode_b)
        if key not in self._divergence:
            self._divergence[key] = None if clip_b is None else divergence(self.a, self.b, clip_a, mode, clip_b, mode_b)
        return self._divergence[key]

    def errors_at(
        self, clip_a: Clip | None, t: float, mode: str, choice: PaneChoice = PaneChoice()
    ) -> tuple[np.ndarray, np.ndarray]:
        """``node_errors`` of A's clip and B's ``source_b`` posed at ``t`` (seconds; B's engine, if it has one,
        at its player's time)."""
        clip_b, mode_b = self.source_b(clip_a, mode, choice)
        b = played(self.b, clip_b, mode_b)
        self.pose_a.set_time(clip_a, t, mode)
        self.pose_b.set_time(b.clip, b.time(t), b.mode)
        return node_errors(self.pose_a.world, self.pose_b.world, self.match)
