"""Godot 4's glTF importer (``modules/gltf/gltf_document.cpp`` at 000ae4ed) with its default import settings
(animation/fps 30, trimming off) and an AnimationPlayer that does not loop (LOOP_NONE unless the animation is
marked looping). Its keyframe optimizer, on by default, is not modelled: which tracks it touches differs
between 4.x versions (``docs/engines_sources.md`` §6)."""

from viewer.engines.engine import Behaviour, Engine

IMPORT = "godotengine/godot@000ae4ed modules/gltf/gltf_document.cpp"

ENGINE = Engine(
    "godot",
    "Godot 4",
    "4.x master 000ae4ed, default import settings",
    "AnimationPlayer, LOOP_NONE: past the end the last pose",
    (
        Behaviour(
            "resampled",
            IMPORT + ":_import_animation",
            "translation, rotation, scale (and CUBICSPLINE weights) baked every 1/30 s and at the end; a STEP "
            "switch lands at the first baked time at or after its key",
        ),
        Behaviour(
            "cubic-rotation-slerp",
            IMPORT + ":_interpolate_track",
            "CUBICSPLINE rotations slerped between the keys' values, tangents ignored",
        ),
    ),
    cubic_tangents="dropped",
    resample_fps=30.0,
)
