"""Sampling, the heart of the viewer: every channel of a clip at any times, in the mode the file authored or one
it did not (``modes``), with one key search (``keyframes``), all channels packed and evaluated together in one
vectorized pass (``table``), clips and their combinations (``clip``) and the loop seam of each channel (``seams``).
Pure numpy; it returns arrays and changes nothing, so the pose, the compare panes and every report share it."""
