"""The side panels: the world's settings and the selected body's inspector."""
