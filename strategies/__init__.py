"""Bots that play zsim games. ``strategies.registry.resolve`` turns a name into a Strategy."""
