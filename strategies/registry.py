"""Resolve strategy names to Strategy instances."""

from __future__ import annotations

from strategies.base import Strategy
from strategies.basic import BasicStrategy
from strategies.random_bot import RandomStrategy

BUILT_IN: dict[str, type[Strategy]] = {
    "random": RandomStrategy,
    "basic": BasicStrategy,
}


class UnknownStrategy(ValueError):
    """A strategy name that no registry knows."""


def resolve(name: str) -> Strategy:
    try:
        return BUILT_IN[name]()
    except KeyError:
        raise UnknownStrategy(
            f"unknown strategy {name!r}; available: {', '.join(sorted(BUILT_IN))}") from None


def available() -> dict[str, str]:
    """Name -> one-line description of every strategy that can be named."""
    return {name: cls.description for name, cls in sorted(BUILT_IN.items())}
