"""What the compare view shows, computed without GL: one pane per interpolation mode (pane rects, mode colours),
each mode's world-space trails and ghosts, per-channel curves and readouts (``views``). The panes, panels and
exports draw these arrays; they never sample a clip themselves."""
