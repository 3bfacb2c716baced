"""Which estimates module the heuristic bots run: ``strategies.estimates``, compiled with the
engine when the install compiled it (``zsim.engine_build`` picks the build, ``BUILD`` says
which runs and why)."""

from __future__ import annotations

from strategies import estimates
from zsim.engine_build import ENGINE

ESTIMATES = estimates
BUILD = ENGINE
