"""``zsim serve``: a local web app where a designer plays a game (or a variant) against the bots.

The pieces, from the engine up:

- ``adapter``: what the app reads of a decision (its question and options in words, where on
  the board an option acts, an option as plain JSON), in one place;
- ``replay``: a game as plain data (its setup and every answer given), the file a game is saved
  as, which ``zsim view`` reads;
- ``live``: one game being played: the engine paused at a human seat's question, the bots
  answering on the way, the step record, undo and hints;
- ``seatview``: what one seat may see of the step record (no other hand, no deck);
- ``worker``: a live game in a process of its own, so that a bot that hangs is stopped by
  ending that process;
- ``sessions``: the games the server holds, their workers, and their files;
- ``app``: the Starlette application (pages and JSON API).

Only ``app`` and ``sessions`` need the optional web packages (``pip install 'zsim[serve]'``).
"""
