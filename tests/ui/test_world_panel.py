"""The world panel names each integrator in plain words, with a tooltip saying what it
does, and still sends the engine its identifier."""

import pytest
from PySide6.QtCore import Qt

from classroom_sim import INTEGRATORS, Body, World
from ui.bridge import SimulationBridge
from ui.panels.world_panel import WorldPanel


@pytest.fixture
def panel(qtbot):
    world = World(gravity=(0.0, -9.81), integrator="euler")
    world.add_body(Body("ball", 1.0, 0.1, (0.0, 10.0)))
    bridge = SimulationBridge(world)
    p = WorldPanel(bridge)
    qtbot.addWidget(p)
    p.refresh(bridge.latest)
    yield p, bridge
    bridge.close()


def test_every_integrator_is_named_in_words_with_a_tooltip(panel):
    p, _ = panel
    box = p.integrator
    assert [box.itemData(k) for k in range(box.count())] == list(INTEGRATORS)
    for k in range(box.count()):
        words, tip = box.itemText(k), box.itemData(k, Qt.ToolTipRole)
        assert words not in INTEGRATORS and len(words.split()) >= 3
        assert len(tip) > 60
    assert box.itemText(0).startswith("Exact for constant acceleration")
    assert len({box.itemText(k) for k in range(box.count())}) == box.count()


def test_the_panel_shows_the_engine_s_integrator_and_its_explanation(panel):
    p, _ = panel
    box = p.integrator
    assert box.currentData() == "euler" and "Euler" in box.currentText()
    assert box.toolTip() == box.itemData(box.currentIndex(), Qt.ToolTipRole)


def test_choosing_one_sends_its_identifier_to_the_engine(panel, qtbot):
    p, bridge = panel
    box = p.integrator
    k = box.findData("semi-implicit-euler")
    box.setCurrentIndex(k)
    box.activated.emit(k)
    qtbot.waitUntil(lambda: bridge.latest.settings.integrator == "semi-implicit-euler", timeout=5000)
    box.setCurrentIndex(0)
    p.refresh(bridge.latest)  # the panel shows what the engine runs
    assert box.currentIndex() == k and "first changes the velocity" in box.toolTip()
    k = box.findData("kinematic")
    box.setCurrentIndex(k)
    box.activated.emit(k)
    qtbot.waitUntil(lambda: bridge.latest.settings.integrator == "kinematic", timeout=5000)
