"""The authoring guide's first example is a working lesson whose answers are the textbook's."""

import math
import re
from pathlib import Path

import pytest

from classroom_sim import answer_key, loads_scene

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "LESSONS.md"


def test_the_guides_example_lesson_loads_and_answers_right():
    example = re.search(r"```toml\n(.*?)```", GUIDE.read_text(encoding="utf-8"), re.S).group(1)
    world = loads_scene(example, "drop.toml")
    key = answer_key(world)
    drops = [5.0, 10.0]  # the centre's fall in each step, as the guide's text says
    assert [a.value for a in key] == pytest.approx([math.sqrt(2 * h / 9.81) for h in drops], rel=1e-12)
    for a, line in zip(key, re.findall(r"steps\[\d\] .*: time = ([0-9.]+) s", GUIDE.read_text(encoding="utf-8"))):
        assert float(line) == pytest.approx(a.value, rel=1e-15)  # the printed key in the guide is the real one
