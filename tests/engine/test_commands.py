"""Commands against a World: each edit does what it says, and a refused one names
the field and changes nothing."""

import math

import numpy as np
import pytest

from classroom_sim import Body, World, commands
from classroom_sim.commands import CommandError
from classroom_sim.params import read_param


def world():
    w = World(gravity=(0.0, -9.81), bounds=(0.0, 0.0, 10.0, 10.0))
    w.add_body(Body("A", 2.0, 0.2, (2.0, 2.0), (1.0, 0.0), accelerations=[]))
    w.add_body(Body("B", 3.0, 0.3, (5.0, 5.0), gravity=False))
    w.add_acceleration("wind", (0.5, 0.0))
    return w


def state(w):
    s = w.snapshot()
    return (s.positions.tolist(), s.velocities.tolist(), s.accelerations.tolist(), s.masses.tolist(),
            s.radii.tolist(), s.colors, s.names, s.settings, s.own_accelerations, s.shared_on.tolist())


def test_the_acceleration_list_edits_change_the_summed_acceleration():
    w = world()
    commands.AddAcceleration("A", "thrust", (0.0, 4.0)).apply(w)
    assert w.body("A").acceleration == pytest.approx([0.5, 4.0 - 9.81])
    commands.SetAcceleration("A", "thrust", (1.0, 2.0)).apply(w)
    assert w.body("A").acceleration == pytest.approx([1.5, 2.0 - 9.81])
    commands.SetAcceleration(None, "wind", (-1.0, 0.0)).apply(w)
    assert w.body("A").acceleration == pytest.approx([0.0, 2.0 - 9.81])
    commands.RemoveAcceleration(None, "wind").apply(w)
    commands.RemoveAcceleration("A", "thrust").apply(w)
    assert w.body("A").acceleration == pytest.approx([0.0, -9.81])
    # B opts out of the shared list: only its own entries count
    commands.AddAcceleration("B", "rocket", (0.0, 3.0)).apply(w)
    assert w.body("B").acceleration == pytest.approx([0.0, 3.0])
    commands.SetBodyGravity("B", True).apply(w)
    assert w.body("B").acceleration == pytest.approx([0.0, 3.0 - 9.81])


def test_setting_an_acceleration_keeps_its_place_in_the_list():
    w = world()
    for name in ("a", "b", "c"):
        commands.AddAcceleration("A", name, (1.0, 0.0)).apply(w)
    commands.SetAcceleration("A", "b", (0.0, 1.0)).apply(w)
    assert [a.name for a in w.body("A").accelerations] == ["a", "b", "c"]
    assert w.snapshot().own_accelerations[0] == (("a", (1.0, 0.0)), ("b", (0.0, 1.0)), ("c", (1.0, 0.0)))


def test_world_settings_and_body_fields():
    w = world()
    commands.SetGravity((0.0, -1.62)).apply(w)
    commands.SetRestitution(0.5).apply(w)
    commands.SetWallRestitution(0.25).apply(w)
    commands.SetIntegrator("euler").apply(w)
    commands.SetMass("A", 4.0).apply(w)
    commands.SetRadius("A", 0.1).apply(w)
    commands.SetPosition("A", (3.0, 4.0)).apply(w)
    commands.SetVelocity("A", (0.0, -2.0)).apply(w)
    commands.SetColor("A", "#AABBCC").apply(w)
    s = w.snapshot()
    assert s.settings.gravity == (0.0, -1.62)
    assert (s.settings.restitution, s.settings.wall_restitution, s.settings.integrator) == (0.5, 0.25, "euler")
    a = w.body("A")
    assert (a.mass, a.radius, a.color) == (4.0, 0.1, "#aabbcc")
    assert a.position.tolist() == [3.0, 4.0] and a.velocity.tolist() == [0.0, -2.0]


def test_fixing_and_freeing_a_body_keeps_its_mass():
    w = world()
    commands.SetFixed("A", True).apply(w)
    assert w.body("A").fixed and w.body("A").velocity.tolist() == [0.0, 0.0]
    assert w.body("A").acceleration.tolist() == [0.0, 0.0]
    commands.SetFixed("A", False).apply(w)
    assert w.body("A").mass == 2.0


def test_a_body_fixed_in_the_scene_is_freed_with_one_kilogram():
    w = world()
    commands.AddBody("wall", "fixed", 0.5, (8.0, 8.0)).apply(w)
    commands.SetFixed("wall", False).apply(w)
    assert w.body("wall").mass == commands.DEFAULT_FREE_MASS


def test_add_and_remove_a_body():
    w = world()
    commands.AddBody("C", 1.5, 0.1, (7.0, 1.0), (0.0, 2.0), "#00ff00", True, [("lift", (0.0, 9.81))]).apply(w)
    c = w.body("C")
    assert (c.mass, c.radius, c.color) == (1.5, 0.1, "#00ff00")
    assert c.acceleration == pytest.approx([0.5, 0.0])
    commands.RemoveBody("C").apply(w)
    assert w.names == ("A", "B")


@pytest.mark.parametrize("param, value, check", [
    ("world.gravity.y", -3.0, lambda w: w.gravity.tolist() == [0.0, -3.0]),
    ("world.gravity.x", 1.0, lambda w: w.gravity.tolist() == [1.0, -9.81]),
    ("world.restitution", 0.3, lambda w: w.restitution == 0.3),
    ("world.wall_restitution", 0.7, lambda w: w.wall_restitution == 0.7),
    ("bodies.A.mass", 5.0, lambda w: w.body("A").mass == 5.0),
    ("bodies.A.mass", "fixed", lambda w: w.body("A").fixed),
    ("bodies.A.radius", 0.5, lambda w: w.body("A").radius == 0.5),
    ("bodies.A.position.x", 4.0, lambda w: w.body("A").position.tolist() == [4.0, 2.0]),
    ("bodies.A.position.y", 6.0, lambda w: w.body("A").position.tolist() == [2.0, 6.0]),
    ("bodies.A.velocity.x", -1.0, lambda w: w.body("A").velocity.tolist() == [-1.0, 0.0]),
    ("bodies.A.velocity.y", 3.0, lambda w: w.body("A").velocity.tolist() == [1.0, 3.0]),
])
def test_set_parameter_by_path_and_read_it_back(param, value, check):
    w = world()
    commands.SetParameter(param, value).apply(w)
    assert check(w)
    expected = math.inf if value == "fixed" else value
    assert read_param(w.snapshot(), param) == expected


def test_a_body_whose_name_has_dots_is_found_by_path():
    w = world()
    commands.AddBody("ball.red", 1.0, 0.1, (1.0, 1.0)).apply(w)
    commands.SetParameter("bodies.ball.red.velocity.x", 2.0).apply(w)
    assert w.body("ball.red").velocity.tolist() == [2.0, 0.0]


@pytest.mark.parametrize("command, message", [
    (commands.SetMass("A", -1), 'bodies.A.mass: must be > 0 or "fixed", got -1'),
    (commands.SetMass("Z", 1.0), "body: there is no body named 'Z'"),
    (commands.SetMass(["A"], 1.0), "body: there is no body named ['A']"),
    (commands.SetRadius("A", 0.0), "bodies.A.radius: must be > 0"),
    (commands.SetRadius("A", 3.0), "bodies.A.radius: (2.0, 2.0) with radius 3.0 is not inside the box"),
    (commands.SetPosition("A", (11.0, 2.0)), "bodies.A.position: (11.0, 2.0) with radius 0.2 is not inside"),
    (commands.SetPosition("A", (1.0,)), "bodies.A.position: must be a vector of two numbers"),
    (commands.SetVelocity("A", (math.nan, 0.0)), "bodies.A.velocity: must be finite"),
    (commands.SetColor("A", "red"), 'bodies.A.color: must be a colour like "#1f77b4"'),
    (commands.SetGravity("down"), "world.gravity: must be a vector of two numbers"),
    (commands.SetRestitution(1.5), "world.restitution: must be from 0 to 1"),
    (commands.SetWallRestitution(-0.1), "world.wall_restitution: must be from 0 to 1"),
    (commands.SetIntegrator("rk4"), "world.integrator: must be one of"),
    (commands.AddAcceleration("A", "", (0.0, 1.0)), "bodies.A.accelerations.name: must be a non-empty string"),
    (commands.AddAcceleration(None, "wind", (0.0, 1.0)), "world.accelerations: the name 'wind' is used twice"),
    (commands.SetAcceleration("A", "nope", (0.0, 1.0)), "bodies.A.accelerations: body 'A' has no acceleration named 'nope'"),
    (commands.RemoveAcceleration(None, "nope"), "world.accelerations: the world has no acceleration named 'nope'"),
    (commands.AddBody("A", 1.0, 0.1, (1.0, 1.0)), "bodies.A.name: 'A' is used by another body"),
    (commands.AddBody("C", 0, 0.1, (1.0, 1.0)), 'bodies.C.mass: must be > 0 or "fixed", got 0'),
    (commands.AddBody("C", 1.0, 0.1, (20.0, 1.0)), "bodies.C.position: (20.0, 1.0) with radius 0.1 is not inside"),
    (commands.AddBody("C", "fixed", 0.1, (1.0, 1.0), (1.0, 0.0)), "bodies.C.velocity: a fixed body cannot move"),
    (commands.AddBody("C", 1.0, 0.1, (1.0, 1.0), accelerations=["up"]), "bodies.C.accelerations[0]: must be a (name, vector) pair"),
    (commands.AddAcceleration("A", "up", (0.0, math.inf)), "bodies.A.accelerations.vector: must be finite"),
    (commands.AddBody("", 1.0, 0.1, (1.0, 1.0)), "body.name: must be a non-empty string"),
    (commands.RemoveBody("Z"), "body: there is no body named 'Z'"),
    (commands.SetFixed("A", "yes"), "bodies.A.mass: fixed must be true or false"),
    (commands.SetBodyGravity("A", 1), "bodies.A.gravity: must be true or false"),
    (commands.SetParameter("world.gravity.z", 1.0), "param: 'world.gravity.z' names no number of this scene"),
    (commands.SetParameter("bodies.Z.mass", 1.0), "param: 'bodies.Z.mass' names no number of this scene"),
    (commands.SetParameter("bodies.A.velocity.x", "fast"), "bodies.A.velocity.x: must be a finite number, got 'fast'"),
    (commands.SetParameter("bodies.A.position.x", 50.0), "bodies.A.position.x: (50.0, 2.0) with radius 0.2 is not inside"),
    (commands.SetParameter("world.restitution", 2.0), "world.restitution: must be from 0 to 1"),
])
def test_a_refused_command_names_the_field_and_changes_nothing(command, message):
    w = world()
    before = state(w)
    with pytest.raises(CommandError) as caught:
        command.apply(w)
    assert str(caught.value).startswith(message)
    assert state(w) == before


def test_commands_are_frozen_values():
    c = commands.SetGravity((0.0, -1.0))
    with pytest.raises(AttributeError):
        c.vector = (1.0, 1.0)
    assert c == commands.SetGravity((0.0, -1.0))
    assert np.array_equal(c.vector, (0.0, -1.0))


def test_every_edit_shows_in_the_next_snapshot():
    w = world()
    edits = [
        (commands.SetColor("A", "#123456"), lambda s: s.colors[0] == "#123456"),
        (commands.AddAcceleration("A", "up", (0.0, 1.0)), lambda s: s.own_accelerations[0] == (("up", (0.0, 1.0)),)),
        (commands.SetAcceleration("A", "up", (0.0, 2.0)), lambda s: s.accelerations[0].tolist() == [0.5, 2.0 - 9.81]),
        (commands.RemoveAcceleration("A", "up"), lambda s: s.own_accelerations[0] == ()),
        (commands.SetAcceleration(None, "wind", (1.0, 0.0)), lambda s: s.settings.accelerations == (("wind", (1.0, 0.0)),)),
        (commands.SetBodyGravity("A", False), lambda s: not s.shared_on[0] and s.accelerations[0].tolist() == [0.0, 0.0]),
        (commands.SetMass("B", "fixed"), lambda s: math.isinf(s.masses[1])),
        (commands.AddBody("C", 1.0, 0.1, (1.0, 1.0)), lambda s: s.names == ("A", "B", "C") and len(s.colors) == 3),
        (commands.RemoveBody("A"), lambda s: s.names == ("B", "C") and s.own_accelerations == ((), ())),
        (commands.SetGravity((0.0, -1.0)), lambda s: s.accelerations[1].tolist() == [1.0, -1.0]),
    ]
    revision = w.snapshot().revision
    for command, shows in edits:
        command.apply(w)
        snap = w.snapshot()
        assert shows(snap), command
        assert snap.revision > revision
        revision = snap.revision
