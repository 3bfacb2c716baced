"""One way to word pydantic's errors for files a user wrote (experiments, baselines)."""

from __future__ import annotations

from pydantic import ValidationError


def describe(error: ValidationError, source: str) -> str:
    """One line per problem, naming the source and the key: ``file.yaml: key 'games': ...``."""
    lines = []
    for problem in error.errors():
        key = ".".join(str(part) for part in problem["loc"])
        message = problem["msg"].removeprefix("Value error, ")
        lines.append(f"{source}: key {key!r}: {message}" if key else f"{source}: {message}")
    return "\n".join(lines)
