"""The imgui overlay (timeline, dope sheet, panels) and the pure pieces it stands on (layout, keys, state). It
draws and sets state — clock, selection, modes — and never owns a GL context or writes a file, so the window and
the overlay export draw the same overlay from the same state."""
