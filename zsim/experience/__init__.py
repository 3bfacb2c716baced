"""The game experience: how a game unfolds for its players, not only who wins it.

``record`` is the listener that turns a game's events into its trajectory (each seat's VP after
every turn and round), its decision counts and the bots' option values; ``metrics`` computes
the experience metrics (lead changes, drama, decisiveness, clarity...) from those tables alone;
``winprob`` estimates each seat's chance to win at every point; ``kingmaking`` replays the
choices of players who could no longer win; ``paired`` compares the metrics of two rule sets
game by game. ``docs/experience.md`` defines every metric.
"""
