"""Playback: the clock (play, pause, speed, loop modes, seeking, stepping) and the rules it applies.

Pure stdlib/numpy: no GL, no window. Looping and clamping to the clip live here, never in samplers.
"""

from viewer.playback.clock import Clock

__all__ = ["Clock"]
