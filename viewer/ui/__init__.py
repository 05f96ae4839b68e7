"""The imgui overlay (timeline, dope sheet, panels) and the pure pieces it stands on (layout, keys, state)."""
