"""classroom-sim's desktop app (PySide6). It reaches the engine only through Simulation."""
