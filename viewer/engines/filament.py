"""Filament's gltfio Animator (``libs/gltfio/src/Animator.cpp`` at 2b029148, the newest read). Its key search
is left-continuous (STEP shows the old value at a key's time), its Hermite multiplies tangents by the normalized
parameter rather than the key interval, and samplers of one key are skipped (``docs/engines_sources.md`` §5)."""

from viewer.engines.engine import Behaviour, Engine

ANIMATOR = "google/filament@2b029148 libs/gltfio/src/Animator.cpp"

ENGINE = Engine(
    "filament",
    "Filament gltfio",
    "main 2b029148",
    "Animator::applyAnimation(index, time): time == duration kept, else fmod(time, duration)",
    (
        Behaviour(
            "step-at-key", ANIMATOR + ":applyAnimation", "lower_bound search: at a STEP key's time the old value"
        ),
        Behaviour(
            "cubic-tangent-scale",
            "google/filament@25db98ff libs/gltfio/include/gltfio/math.h:cubicSpline",
            "tangents multiplied by the normalized parameter, not by the key interval",
        ),
        Behaviour("one-key-sampler", ANIMATOR + ":applyAnimation", "samplers with fewer than 2 keys are not applied"),
        Behaviour("end-of-loop", ANIMATOR + ":applyAnimation", "time == duration is kept: the last pose shows"),
        Behaviour(
            "rotation-lerp",
            "google/filament@0fbc6658 libs/math/include/math/TQuatHelpers.h:slerp",
            "LINEAR rotations lerp and normalize where 1 - |dot| < 10 FLT_EPSILON, slerp below",
        ),
    ),
    step_at_key="old",
    cubic_tangents="times-u",
    min_keys=2,
    end="last",
    lerp_above=1.0 - 10 * 1.1920929e-07,
)
