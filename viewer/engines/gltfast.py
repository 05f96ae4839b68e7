"""Unity glTFast 6.15 (``Runtime/Scripts/AnimationUtils.cs``, the same in 6.8.0) building legacy AnimationClips
(wrapMode Loop). Rotations are four component curves, so Unity blends them component-wise and renormalizes;
CUBICSPLINE morph weights of more than one target are read from the wrong indices. What Unity does before a
clip's first key and at t == duration is Unity's closed engine: inferred, marked so in
``docs/engines_sources.md`` §7."""

from viewer.engines.engine import Behaviour, Engine

UTILS = "atteneder/glTFast@bf011881 Runtime/Scripts/AnimationUtils.cs"

ENGINE = Engine(
    "gltfast",
    "Unity glTFast",
    "6.15.1 (6.8.0 alike)",
    "legacy Animation, wrapMode Loop (Unity's sampling inferred: first pose at t == duration)",
    (
        Behaviour(
            "rotation-lerp",
            UTILS + ":AddQuaternionCurves",
            "rotations are four component curves (sign-continuous keys): blended component-wise, renormalized",
        ),
        Behaviour(
            "cubic-weights-index",
            UTILS + ":AddScalarCurve",
            "CUBICSPLINE weights of M > 1 targets read as in/value/out triplets per target, not the spec's blocks",
        ),
        Behaviour(
            "end-of-loop", "Unity legacy Animation wrapMode Loop (closed source, inferred)", "t wraps at the end"
        ),
    ),
    lerp_above=-2.0,
    cubic_weights_interleaved=True,
    end="first",
)
