"""Serving: the models and their GPU entry points, sessions, limits from the environment."""
