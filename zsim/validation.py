"""One way to word pydantic's errors for files a user wrote (experiments, baselines)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from zsim.yamlload import AliasBomb, DuplicateKey, Unreadable, read_text, safe_load


def read_yaml(path: Path, error: type[Exception]) -> Any:
    """A YAML file's contents; an unreadable or invalid file raises ``error`` naming it."""
    try:
        return safe_load(read_text(path))
    except OSError as problem:
        raise error(f"{path}: cannot read: {problem.strerror}") from None
    except UnicodeDecodeError:
        raise error(f"{path}: not a YAML file: it is not UTF-8 text") from None
    except Unreadable as problem:
        raise error(str(problem) if str(problem).startswith(str(path)) else
                    f"{path}: {problem}") from None
    except (AliasBomb, DuplicateKey) as problem:
        raise error(f"{path}: {problem}") from None
    except yaml.YAMLError as problem:
        raise error(f"{path}: not valid YAML: {problem}") from None


def describe(error: ValidationError, source: str) -> str:
    """One line per problem, naming the source and the key: ``file.yaml: key 'games': ...``."""
    lines = []
    for problem in error.errors():
        key = ".".join(str(part) for part in problem["loc"])
        message = problem["msg"].removeprefix("Value error, ")
        lines.append(f"{source}: key {key!r}: {message}" if key else f"{source}: {message}")
    return "\n".join(lines)
