"""The shipped lessons: one scene file (TOML) each, read by classroom_sim.scene."""
