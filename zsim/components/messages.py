"""Validating a file against its pydantic model, and turning pydantic's errors into one plain
message per key path (``cards.yaml: cards[17].trigger: 'hire3' is not a Court action ...``)."""

from __future__ import annotations

import re
from typing import Any

from pydantic import BaseModel, ValidationError

from zsim.components.reading import KeyPath, PathKey, Source
from zsim.components.schema import COURT_ACTIONS, OFFICIALS, REGIONS, SUITS, Board

# Closed sets of values that deserve a name in error messages.
_VALUE_NOUNS = {
    frozenset(COURT_ACTIONS): "a Court action",
    frozenset(REGIONS): "a region",
    frozenset(SUITS): "a suit",
    frozenset(OFFICIALS): "an Official type",
}


def validate(source: Source, model: type[BaseModel]) -> tuple[Any, list[str]]:
    """Validate one file against its model; return the model (or None) and the messages."""
    data = source.data if model is Board else _inherit_assumption(source.data)
    try:
        return model.model_validate(data), []
    except ValidationError as exc:
        return None, _messages(source, data, exc, model)


def _inherit_assumption(data: dict[str, Any]) -> dict[str, Any]:
    """A file marked ``assumed`` as a whole marks each of its items, so every assumed item can be
    counted and listed; an item may still say ``assumed: false`` or give its own reason."""
    reason = data.get("reason")
    if data.get("assumed") is not True or not reason:
        return data

    def mark(item: Any) -> Any:
        return {"assumed": True, "reason": reason, **item} if isinstance(item, dict) else item

    out = dict(data)
    for key, value in data.items():
        if isinstance(value, list):
            out[key] = [mark(item) for item in value]
        elif isinstance(value, dict):
            out[key] = {k: mark(item) for k, item in value.items()}
    return out


def _messages(
    source: Source, data: Any, exc: ValidationError, model: type[BaseModel]
) -> list[str]:
    """Turn pydantic errors into one message per key path.

    pydantic reports a union field once per member (``where`` is a region, or ``here``, or
    ``any``), so errors at the same path are merged, and an error whose path is a prefix of a
    deeper one is dropped as the less specific of the two.
    """
    located = [(_data_path(data, error), error) for error in exc.errors()]
    paths = [path for path, _ in located]
    groups: dict[KeyPath, list[Any]] = {}
    for path, error in located:
        if not any(len(other) > len(path) and other[: len(path)] == path for other in paths):
            groups.setdefault(path, []).append(error)
    messages = []
    for path, errors in groups.items():
        text = _describe(errors)
        if len(path) == 1 and errors[0]["type"] == "extra_forbidden":
            text += f" (expected: {', '.join(model.model_fields)})"
        messages.append(source.problem(path, text))
    return messages


def _data_path(data: Any, error: Any) -> KeyPath:
    """The part of pydantic's ``loc`` that names real keys and indexes of the input: union member
    tags such as ``literal['any']`` or an effect name are skipped by walking the data itself."""
    loc = error["loc"]
    path: list[PathKey] = []
    node = data
    for position, part in enumerate(loc):
        if _holds(node, part):
            node = node[part]
        elif position == len(loc) - 1 and error["type"] == "missing":
            node = None
        else:
            continue
        path.append(part)
    return tuple(path)


def _holds(node: Any, part: PathKey) -> bool:
    if isinstance(node, dict):
        return part in node
    return isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node)


def _describe(errors: list[Any]) -> str:
    """Plain words for the errors found at one path."""
    if all(error["type"] == "literal_error" for error in errors):
        allowed = [v for error in errors for v in _split_expected(error["ctx"]["expected"])]
        return _not_one_of(errors[0]["input"], allowed)
    return "; ".join(dict.fromkeys(_describe_one(error) for error in errors))


def _split_expected(expected: str) -> list[str]:
    """pydantic writes allowed values as ``'a', 'b' or 'c'``; return ``[a, b, c]``."""
    return [part.strip("'") for part in re.split(r", | or ", expected)]


def _not_one_of(value: Any, allowed: list[str]) -> str:
    listed = ", ".join(allowed)
    noun = _VALUE_NOUNS.get(frozenset(allowed))
    if noun:
        return f"{_show(value)} is not {noun} (one of {listed})"
    return f"{_show(value)} is not one of {listed}"


def _describe_one(error: Any) -> str:
    kind, ctx = error["type"], error.get("ctx") or {}
    if kind == "missing":
        return "required key is missing"
    if kind == "extra_forbidden":
        return "unknown key"
    if kind == "union_tag_invalid":
        allowed = ", ".join(_split_expected(ctx["expected_tags"]))
        return f"{_show(ctx['tag'])} is not a known effect kind (one of {allowed})"
    if kind == "union_tag_not_found":
        return f"needs an {ctx['discriminator']} key"
    if kind == "value_error":
        return error["msg"].removeprefix("Value error, ")
    return f"{error['msg']} (got {_show(error['input'])})"


def _show(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
