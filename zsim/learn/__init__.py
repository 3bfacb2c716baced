"""Learned evaluation: positions recorded from games, value models fitted and validated on them,
and the plain-numpy inference the bots use (``zsim.learn.model``).

``model`` needs numpy and the observation encoding only, so that playing a bot on a model needs
nothing beyond zsim's own dependencies; fitting (``fit``) needs the ``[learn]`` extra.
"""
