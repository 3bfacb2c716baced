"""The rules of the game, one module per phase: they change the state and reach their game only
through the ``Table`` protocol (``zsim.decisions``). Compiled with the engine (setup.py), but for
this file, which only names the package."""
