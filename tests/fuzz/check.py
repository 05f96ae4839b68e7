"""What the child process does with one case, and how the way it ends becomes an outcome.

Runs inside the forked child (``isolate.py``): load the file, sample every clip in every mode, pose
the scene at those times, maybe render one small frame, all with warnings recorded. The result is a
plain dict (written as JSON for the worker):

  * ``rejected``: a ``GltfError`` with a one-line message of at most 400 characters (fine);
  * ``long-message``: a ``GltfError`` whose line is longer or holds a newline (the CLI prints it raw);
  * ``crash``: any other exception, and a ``GltfError`` that masks a programming error (its cause is
    e.g. an OverflowError: the loader's catch-all turned a bug into a rejection);
  * ``oom``: MemoryError (the child's address space is capped);
  * ``nonfinite``: NaN/inf in a sampled value, world or joint matrix although the inputs were finite
    and no ``GltfWarning`` was given (a NaN the user is not told about is a silent wrong picture).

Sampling is thinned on long clips (``MAX_TIMES`` scalar times, ``MAX_POSE_TIMES`` posed times per
clip and mode, 3 in scenes of over ``BIG_SCENE`` nodes; ``pose_bounds`` in the authored mode only), so
the checker asks no more than opening the file in the viewer does (``clip_bounds`` poses up to every key
time) and a well-behaved case stays far below the CPU limit: a hang is the viewer's.
"""

from __future__ import annotations

import traceback
import warnings
from pathlib import Path
from typing import Callable

import numpy as np

import viewer
from viewer.animation.modes import MODES
from viewer.pose.bounds import pose_bounds
from viewer.pose.pose import Pose

MAX_TIMES = 400
MAX_POSE_TIMES = 12
BIG_SCENE = 1000  # nodes; above this a clip is posed at 3 times per mode (about what opening it in the viewer costs)
# Node products (see bounds._pose_cost) the checker spends posing one case over all clips and modes, and the
# fewest poses it makes: a 30 000-deep chain with 9 clips posed 3 times in 6 modes would spend seconds
# on the checker's own thoroughness, not on anything a viewer does.
POSE_WORK = 1_000_000
MIN_POSES = 12
LONG_MESSAGE = 400
BUG_TYPES = (
    AttributeError,
    TypeError,
    IndexError,
    KeyError,
    ArithmeticError,
    RecursionError,
    AssertionError,
    NameError,
    MemoryError,
)
REPO_ROOT = Path(__file__).resolve().parents[2]


def run_case(path: Path, render: bool, injected_nonfinite: bool) -> dict:
    """Load, sample, pose and maybe render ``path``; the outcome dict (see the module docstring)."""

    def body(record: dict) -> None:
        record["stage"] = "load"
        scene = viewer.load(path)
        record["loaded"] = True
        record["input_nonfinite"] = inputs_nonfinite(scene)
        exercise(scene, record)
        if render:
            record["stage"] = "render"
            render_frame(scene)
        record["rendered"] = render

    return guarded(body, injected_nonfinite)


def guarded(body: Callable[[dict], None], injected_nonfinite: bool = False) -> dict:
    """Run ``body(record)`` with warnings recorded; classify how it ended into ``record``."""
    record: dict = {"outcome": "ok", "injected_nonfinite": injected_nonfinite}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            body(record)
        except BaseException as exc:  # noqa: BLE001 - every way out is an outcome
            record.update(classify_exception(exc))
    record["gltf_warnings"] = [str(w.message)[:300] for w in caught if issubclass(w.category, viewer.GltfWarning)][:5]
    bad = record.get("nonfinite")
    excused = record["gltf_warnings"] or injected_nonfinite or record.get("input_nonfinite")
    if record["outcome"] == "ok" and bad and not excused:
        record.update(outcome="nonfinite", signature=f"nonfinite {bad['what']}", message=bad["where"])
    return record


def classify_exception(exc: BaseException) -> dict:
    if isinstance(exc, viewer.GltfError):
        cause = exc.__cause__
        if isinstance(cause, BUG_TYPES):
            out = classify_exception(cause)
            out["signature"] = f"GltfError masking {out['signature']}"
            out["message"] = str(exc)[:1000]
            return out
        line = str(exc)
        if len(line) > LONG_MESSAGE or "\n" in line:
            return {
                "outcome": "long-message",
                "signature": f"long GltfError line ({_message_kind(exc)})",
                "message": line[:600] + (f" …({len(line)} chars)" if len(line) > 600 else ""),
            }
        return {"outcome": "rejected", "message": line}
    frames = traceback.extract_tb(exc.__traceback__)
    where = project_frame([(f.filename, f.lineno, f.name) for f in frames])
    outcome = "oom" if isinstance(exc, MemoryError) else "crash"
    return {
        "outcome": outcome,
        "signature": f"{type(exc).__name__} at {where}",
        "message": f"{type(exc).__name__}: {str(exc)[:500]}",
        "last_frame": f"{frames[-1].filename}:{frames[-1].lineno} in {frames[-1].name}" if frames else "",
        "traceback": "".join(traceback.format_exception(exc))[-6000:],
    }


def _message_kind(exc: BaseException) -> str:
    """What kind of long line: the pointer's top-level part groups similar messages."""
    pointer = getattr(exc, "pointer", "")
    return "/" + pointer.split("/")[1] if pointer.count("/") else "file level"


def project_frame(frames: list[tuple[str, int, str]]) -> str:
    """``viewer/x.py:123 (func)`` for the innermost frame in the project (else the innermost at all)."""
    if not frames:
        return "?"
    inside = [f for f in frames if Path(f[0]).resolve().is_relative_to(REPO_ROOT / "viewer")]
    filename, line, func = (inside or frames)[-1]
    path = Path(filename).resolve()
    shown = path.relative_to(REPO_ROOT) if path.is_relative_to(REPO_ROOT) else Path(path.name)
    return f"{shown}:{line} ({func})"


def inputs_nonfinite(scene) -> bool:
    """Whether the binary data feeding samples or joint matrices holds NaN/inf as loaded.

    Only accessor data counts (key times, key values and tangents, inverse bind matrices): JSON numbers
    cannot be NaN or infinite, so rest TRS, matrices and weights are finite in the file, and a
    non-finite value derived from them (1e308 × 1e308) is the viewer's to catch or warn about.
    """
    arrays = [s.inverse_bind for s in scene.skins]
    for clip in scene.clips:
        for ch in clip.channels:
            c = ch.curve
            arrays += [c.times, c.values] + [t for t in (c.in_tangents, c.out_tangents) if t is not None]
    return any(not np.isfinite(np.asarray(a, dtype=np.float64)).all() for a in arrays)


def clip_times(clip) -> tuple[np.ndarray, np.ndarray]:
    """(scalar times, posed times): keys, midpoints, before, after, duration — thinned when long."""
    keys = np.asarray(clip.key_times, dtype=np.float64)
    if keys.size == 0:
        keys = np.zeros(1)
    mids = (keys[:-1] + keys[1:]) / 2.0
    before = keys[0] - 1.0 - abs(keys[0])
    after = keys[-1] + 1.0 + abs(keys[-1])
    edges = [before, after, float(clip.duration)]
    times = np.concatenate([keys, mids])
    times = np.concatenate([_thin(np.sort(times), MAX_TIMES - len(edges)), edges])
    posed = np.concatenate(
        [edges, keys[:1], keys[-1:], _thin(np.sort(np.concatenate([keys, mids])), MAX_POSE_TIMES - 5)]
    )
    return times, posed


def _thin(times: np.ndarray, limit: int) -> np.ndarray:
    if len(times) <= limit:
        return times
    return times[np.unique(np.linspace(0, len(times) - 1, limit).round().astype(int))]


def exercise(scene, record: dict) -> None:
    """Sample every clip in every mode (scalar and batch), pose at a subset, check for NaN/inf."""

    def note(what: str, where: str, values) -> None:
        if "nonfinite" not in record and not np.isfinite(values).all():
            record["nonfinite"] = {"what": what, "where": where}

    record["stage"] = "pose"
    pose = Pose(scene)
    check_pose(pose, scene, "rest pose", note)
    work = len(scene.nodes) + sum(len(dst) for dst, _ in pose.world_plan)  # node products of one pose
    poses_left = max(MIN_POSES, POSE_WORK // max(1, work))  # shared by every clip and mode
    for clip in scene.clips:
        times, posed = clip_times(clip)
        if len(scene.nodes) > BIG_SCENE:
            posed = _thin(posed, 3)
        valid = np.zeros((len(clip.channels), max([c.width for c in clip.channels], default=0)), dtype=bool)
        for c, ch in enumerate(clip.channels):
            valid[c, : ch.width] = True
        for mode in MODES:
            record["stage"] = f"sample clip {clip.index} {mode}"
            for t in times:
                value = clip.sample(float(t), mode)
                note("sample", f"clip {clip.index} {mode} t={t!r}", value[..., : valid.shape[1]][valid])
            batch = clip.sample(np.asarray(times), mode)
            note("batch sample", f"clip {clip.index} {mode} batch", batch[:, :, : valid.shape[1]][:, valid])
            record["stage"] = f"pose clip {clip.index} {mode}"
            for t in posed[:poses_left]:
                poses_left -= 1
                pose.set_time(clip, float(t), mode)
                check_pose(pose, scene, f"clip {clip.index} {mode} t={t!r}", note, bounds=mode == MODES[0])


def check_pose(pose, scene, where: str, note, bounds: bool = True) -> None:
    note("world matrix", where, pose.world)
    for k in range(len(scene.skins)):
        note("joint matrices", f"{where} skin {k}", pose.joint_matrices(k))
    if bounds:
        pose_bounds(pose)


def render_frame(scene) -> None:
    """One 64×48 frame, no MSAA, of the first clip at half its duration (the rest pose without clips)."""
    from viewer.export import Offscreen, View

    clip = scene.clips[0] if scene.clips else None
    off = Offscreen(scene, clip, View(size=(64, 48), samples=0))
    off.frame(clip.duration / 2 if clip is not None else 0.0)
    off.release()
