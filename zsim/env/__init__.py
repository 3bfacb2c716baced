"""The game for reinforcement-learning libraries (the optional extra ``[rl]``): a PettingZoo AEC
environment (``pettingzoo_env``), a Gymnasium single-agent environment against zsim strategies
(``gym_env``) and an OpenSpiel game (``openspiel_game``), over one shared ``episode``.

Each module imports its library; this package imports none, so zsim plays without them.
"""
