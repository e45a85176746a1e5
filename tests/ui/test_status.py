"""The status bar says when a cap simplified steps: a step never degrades silently."""

from PySide6.QtCore import QSettings

from classroom_sim import Body, World, collisions
from ui.main_window import MainWindow


def test_simplified_steps_show_in_the_status_bar(qtbot, tmp_path):
    world = World(gravity=(0.0, 0.0))
    n = 3 * collisions.SEPARATION_PASSES
    for k in range(n):  # pressed half into each other and hit: more links than a step's passes
        world.add_body(Body(f"b{k}", 1.0, 0.5, (0.5 * k, 0.0)))
    world.add_body(Body("hammer", 1.0, 0.5, (0.5 * n + 0.5, 0.0), (-1.0, 0.0)))
    w = MainWindow(world, None, settings=QSettings(str(tmp_path / "s.ini"), QSettings.IniFormat))
    qtbot.addWidget(w)
    w.show()
    assert w.status_line.degraded.text() == ""
    w.play_action.trigger()
    qtbot.waitUntil(lambda: "simplified" in w.status_line.degraded.text(), timeout=10000)
    assert "pressed into each other" in w.status_line.degraded.toolTip()
    w.close()
