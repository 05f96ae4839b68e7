"""Argument types and helpers every ``animview`` subcommand shares, written once.

A bad value is an ``argparse.ArgumentTypeError`` (argparse adds the option's name) or a ``UsageError``;
``cli.main`` prints either as one line and exits 2.
"""

from __future__ import annotations

import argparse
import math
import re

from viewer.base.errors import UsageError, shorten

# Any number (or comma list of numbers, for --times) that argparse should take as a value, not as an
# option: "-1e308", "-.5", "-inf", "-1,0.5". argparse's own pattern knows only "-5" and "-0.5", so
# "--time -1e308" failed with "expected one argument".
_UNSIGNED = r"(?:(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?|inf(?:inity)?|nan)"
NEGATIVE_NUMBER = re.compile(rf"^-{_UNSIGNED}(?:\s*,\s*[-+]?{_UNSIGNED})*$", re.IGNORECASE)
SIZE = re.compile(r"^(\d+)x(\d+)$")
MAX_SIZE = 16384  # pixels a side: the largest texture/framebuffer llvmpipe and most GPUs make


class Parser(argparse.ArgumentParser):
    """argparse, but a bad argument is one line and exit 2, not a usage dump."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._negative_number_matcher = NEGATIVE_NUMBER  # argparse's hook (3.10–3.13) for what a number is

    def error(self, message: str) -> None:  # noqa: D102 — argparse hook
        raise UsageError(f"{self.prog}: {shorten(message, 300)}")


def finite(text: str, unit: str = "a finite number") -> float:
    """A finite float; NaN and ±inf are refused (there is no frame at NaN seconds)."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"wants {unit}, got {shorten(text)!r}")
    return value


def seconds(text: str) -> float:
    return finite(text, "a finite number of seconds")


def degrees(text: str) -> float:
    return finite(text, "a finite number of degrees")


def positive(text: str) -> float:
    value = finite(text, "a positive number")
    if value <= 0:
        raise argparse.ArgumentTypeError(f"wants a positive number, got {shorten(text)!r}")
    return value


def nonnegative(text: str) -> float:
    value = finite(text, "a number of 0 or more")
    if value < 0:
        raise argparse.ArgumentTypeError(f"wants a number of 0 or more, got {shorten(text)!r}")
    return value


def stops(text: str) -> float:
    """Exposure in EV: within ±20 stops (2^20 is a million times brighter; beyond, only overflow)."""
    value = finite(text, "a number of stops")
    if abs(value) > 20:
        raise argparse.ArgumentTypeError(f"wants a number of stops from -20 to 20, got {shorten(text)!r}")
    return value


def count(text: str) -> int:
    """A whole number ≥ 1 (frames, steps)."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"wants a positive whole number, got {shorten(text)!r}")
    return value


def times(text: str) -> list[float]:
    """Comma-separated finite seconds (``--times=-0.5,0,1.2``)."""
    try:
        values = [float(x) for x in text.split(",") if x.strip()]
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"--times wants comma-separated seconds, got {shorten(text)!r}") from exc
    if not values or not all(math.isfinite(t) for t in values):
        raise argparse.ArgumentTypeError(f"--times wants comma-separated finite seconds, got {shorten(text)!r}")
    return values


def size(text: str) -> tuple[int, int]:
    """``WIDTHxHEIGHT`` in pixels, each side 1 … ``MAX_SIZE``."""
    m = SIZE.match(text.strip().lower())
    if not m or not (0 < int(m.group(1)) <= MAX_SIZE and 0 < int(m.group(2)) <= MAX_SIZE):
        raise argparse.ArgumentTypeError(f"--size wants WIDTHxHEIGHT in pixels (e.g. 640x480), got {shorten(text)!r}")
    return int(m.group(1)), int(m.group(2))


def color(text: str) -> tuple[float, float, float]:
    """``#rrggbb``, ``rrggbb`` or ``r,g,b`` (0..1 floats) → sRGB floats."""
    t = text.strip().lstrip("#")
    try:
        if re.fullmatch(r"[0-9a-fA-F]{6}", t):
            return tuple(int(t[i : i + 2], 16) / 255.0 for i in (0, 2, 4))
        parts = tuple(float(x) for x in t.split(","))
        if len(parts) == 3 and all(0.0 <= p <= 1.0 for p in parts):
            return parts
    except ValueError:
        pass
    raise argparse.ArgumentTypeError(f"--background wants #rrggbb or r,g,b in 0..1, got {shorten(text)!r}")


def modes_argument(text: str) -> tuple[str, ...]:
    """``--compare``'s list of modes and engines: ``viewer.compare.players.items_argument``, imported only when the
    flag is given (the compare module is no part of a plain render or of the viewer's start)."""
    from viewer.compare.players import items_argument as parse

    return parse(text)


def add_file_arguments(parser: argparse.ArgumentParser, optional: bool = False) -> None:
    """The FILE argument and ``--allow-outside-folder``, the one switch of the loader's file access policy."""
    if optional:
        parser.add_argument("file", nargs="?", help="a .gltf or .glb file (default: the built-in demo)")
    else:
        parser.add_argument("file", help="a .gltf or .glb file")
    add_outside_folder_argument(parser)


def add_outside_folder_argument(parser: argparse.ArgumentParser) -> None:
    """``--allow-outside-folder`` alone, for a command whose FILE argument is its own (``render``'s FILE...)."""
    parser.add_argument(
        "--allow-outside-folder",
        action="store_true",
        help="let the file's buffer and image URIs name files outside its folder (refused by "
        "default: only regular files inside the model's folder tree are read)",
    )


def add_animation_argument(parser: argparse.ArgumentParser, default: str = "the first") -> None:
    parser.add_argument("--animation", default=None, metavar="K", help=f"animation index or name (default: {default})")


def add_mode_argument(parser: argparse.ArgumentParser) -> None:
    """``--mode``, the interpolation mode every channel is played in (``render`` and the viewer)."""
    from viewer.animation.modes import MODES  # numpy: not for ``animview -h``

    parser.add_argument("--mode", choices=MODES, default="authored", help="interpolation mode")


def engine_name(text: str) -> str:
    """``--engine``'s value: one of ``viewer.engines.NAMES`` (imported only when the flag is given)."""
    from viewer.engines import NAMES

    if text not in NAMES:
        raise argparse.ArgumentTypeError(f"unknown engine {text!r}; choose from {', '.join(NAMES)}")
    return text


def mode_or_engine(text: str) -> str:
    """``--mode-b``'s value: an interpolation mode, or an engine's name — B as that engine plays it."""
    from viewer.animation.modes import MODES
    from viewer.engines import NAMES

    if text not in MODES and text not in NAMES:
        raise argparse.ArgumentTypeError(
            f"{text!r} is no interpolation mode ({', '.join(MODES)}) or engine ({', '.join(NAMES)})"
        )
    return text


def add_engine_argument(parser: argparse.ArgumentParser, help: str) -> None:
    """``--engine E``: play the clip as engine E does (``docs/engines.md``); ``help`` says what it changes."""
    parser.add_argument("--engine", type=engine_name, default=None, metavar="E", help=help)


def add_camera_argument(parser: argparse.ArgumentParser, help: str) -> None:
    """``--camera auto|K|NAME`` (``pick_camera`` reads it); ``help`` says what the command does with it."""
    parser.add_argument("--camera", default="auto", metavar="auto|K|NAME", help=help)


def add_compare_argument(parser: argparse.ArgumentParser, help: str) -> None:
    """``--compare M1,M2[,M3[,M4]]``, one pane per interpolation mode or engine (``spec,three,filament``: how each
    engine will play the clip); ``help`` says what the command draws."""
    parser.add_argument("--compare", type=modes_argument, default=None, metavar="M1,M2[,M3[,M4]]", help=help)


MODE_B_HELP = "with --against: B's mode, or an engine (three, filament, …) playing B (default: --mode)"
ANIMATION_B_HELP = "with --against: B's animation, index or name (default: A's match, by name else index)"


def add_against_argument(parser: argparse.ArgumentParser, help: str) -> None:
    """``--against B``: a second version of the file, compared pane by pane; ``help`` says what is drawn. With it,
    ``--animation-b`` and ``--mode-b`` choose B's clip and mode (default: the clip matched with A's, A's mode)."""
    parser.add_argument("--against", metavar="B", default=None, help=help)
    parser.add_argument("--animation-b", default=None, metavar="K", help=ANIMATION_B_HELP)
    parser.add_argument("--mode-b", type=mode_or_engine, default=None, metavar="M|E", help=MODE_B_HELP)


def against_choice(args: argparse.Namespace, b, command: str) -> tuple[int | None, str | None]:
    """B's clip (an index into ``b``'s clips) and mode from ``--animation-b`` / ``--mode-b``; None where not given.

    Raises:
        UsageError: either without ``--against``, or a clip B does not have.
    """
    if b is None:
        if args.animation_b is not None or args.mode_b is not None:
            raise UsageError(f"{prog(command)}: --animation-b and --mode-b go with --against")
        return None, None
    clip = pick_clip(b, args.animation_b, command, "--animation-b") if args.animation_b is not None else None
    return (clip.index if clip is not None else None), args.mode_b


def load_against(args: argparse.Namespace):
    """The scene of ``--against`` (None when not given), under the same file access policy as FILE."""
    if args.against is None:
        return None
    from viewer.scene.scene import load

    return load(args.against, args.allow_outside_folder)


def load_scene(args: argparse.Namespace, command: str, need_animation: bool = False):
    """The scene of ``args.file`` under the file access policy; a command that means nothing without an
    animation (``sample``, ``bench``) refuses a file that has none."""
    from viewer.scene.scene import load

    scene = load(args.file, args.allow_outside_folder)
    if need_animation and not scene.clips:
        raise UsageError(f"{prog(command)}: {shorten(str(args.file), 200)} has no animations")
    return scene


def prog(command: str) -> str:
    """How messages name the command: "animview sample", or "animview" for the viewer itself."""
    return f"animview {command}" if command else "animview"


def pick_clip(scene, text: str | None, command: str, flag: str = "--animation"):
    """The clip ``flag`` (``--animation``) names, by index or by name; the first (or None) when not given."""
    if not scene.clips:
        if text is not None:
            raise UsageError(f"{prog(command)}: {scene.path} has no animations ({flag} {shorten(text)})")
        return None
    if text is None:
        return scene.clips[0]
    if text.isascii() and text.lstrip("-").isdigit() and 0 <= int(text) < len(scene.clips):
        return scene.clips[int(text)]
    for clip in scene.clips:
        if clip.name == text:
            return clip
    names = ", ".join(f"{c.index}:{c.name!r}" for c in scene.clips[:12]) + (" …" if len(scene.clips) > 12 else "")
    raise UsageError(f"{prog(command)}: {flag} {shorten(text)} is not in {scene.path} (it has {names})")


def add_variant_argument(parser: argparse.ArgumentParser, help: str) -> None:
    """``--variant NAME|K`` (``pick_variant`` reads it); ``help`` says what the command does with it."""
    parser.add_argument("--variant", default=None, metavar="NAME|K", help=help)


def pick_variant(scene, text: str | None, command: str) -> int | None:
    """The KHR_materials_variants variant ``--variant`` names (``Variants.resolve``); None when not given."""
    return None if text is None else scene.variants.resolve(text, prog(command), scene.path)


def pick_camera(scene, text: str, command: str) -> str | int:
    """``--camera auto|K|NAME`` → "auto" or the index of a glTF camera that a node carries.

    Raises:
        UsageError: no such camera, or no node carries it; the message lists the file's cameras.
    """
    if text == "auto":
        return "auto"
    placed = [i for i in range(len(scene.cameras)) if (scene.nodes.camera == i).any()]
    listed = ", ".join(f"{i}:{scene.cameras[i].name!r}" for i in placed[:12]) or "none placed on a node"
    if text.isascii() and text.isdigit() and int(text) < len(scene.cameras):
        index = int(text)
    else:
        named = [i for i, c in enumerate(scene.cameras) if c.name == text]
        if not named:
            raise UsageError(
                f"{prog(command)}: --camera {shorten(text)} is not in {scene.path} "
                f"(use auto or one of its cameras: {listed})"
            )
        index = named[0]
    if index not in placed:
        raise UsageError(
            f"{prog(command)}: camera {shorten(text)} is not placed on any node (cameras on nodes: {listed})"
        )
    return index


# Help of the look flags too long to share a line with the flag's definition.
ENVIRONMENT_HELP = "the studio environment's light on the materials (default on)"
ENV_INTENSITY_HELP = "environment light multiplier (default 1)"
TONEMAP_HELP = "tone mapper (default pbr-neutral: Khronos PBR Neutral)"
EXPOSURE_HELP = "exposure in stops: the shaded light is multiplied by 2^EV (default 0)"
LIGHTS_HELP = "the file's KHR_lights_punctual lights or the studio key light (auto: the file's when it has any)"
AA_HELP = (
    "anti-aliasing: MSAA (exact edges), FXAA (a post pass, cheaper on dense meshes) or off "
    "(default auto: MSAA unless the scene has more triangles than a quarter of the pixels)"
)


def add_look_arguments(parser: argparse.ArgumentParser) -> None:
    """The shading choices the View panel offers, as flags (``render`` and the viewer take the same)."""
    g = parser.add_argument_group("look")
    g.add_argument("--environment", choices=("on", "off"), default="on", help=ENVIRONMENT_HELP)
    g.add_argument("--env-intensity", type=nonnegative, default=1.0, metavar="X", help=ENV_INTENSITY_HELP)
    g.add_argument("--env-background", action="store_true", help="show the environment, blurred, as the background")
    g.add_argument("--tonemap", choices=("pbr-neutral", "aces", "none"), default="pbr-neutral", help=TONEMAP_HELP)
    g.add_argument("--exposure", type=stops, default=0.0, metavar="EV", help=EXPOSURE_HELP)
    g.add_argument("--lights", choices=("auto", "file", "studio"), default="auto", help=LIGHTS_HELP)
    g.add_argument("--aa", choices=("auto", "msaa", "fxaa", "off"), default="auto", help=AA_HELP)


def look_options(args: argparse.Namespace) -> dict:
    """The fields of ``render.renderer.Look`` set by ``add_look_arguments``' flags."""
    return {
        "environment": args.environment == "on",
        "env_intensity": args.env_intensity,
        "env_background": args.env_background,
        "tonemap": args.tonemap,
        "exposure": args.exposure,
        "lights": args.lights,
        "aa": args.aa,
    }
