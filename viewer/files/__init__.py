"""Whole files and clips in and out, beyond loading: the one glTF writer (``writer``), clips resampled in a mode
and written back as a file any engine plays the same (``bake``), and the ``sample --json`` report of values at
chosen times (``sampling``). Commands that read a file and write another or a report live here, without GL."""
