"""Searching the heuristic's weights: tuning a bot, exploiting a rule set, balancing a value.

``arena`` plays a candidate bot against a field on numbered blocks of seeds (through the
runner), ``search`` drives an Optuna study over the heuristic's parameters on those blocks,
``validation`` replays the winner on seeds the study never saw, ``balance`` searches a component
value that evens a field's win shares, and ``figures`` draws what they found.
"""
