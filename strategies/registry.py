"""Turn a strategy spec into a Strategy instance, and list what can be named.

A spec is ``TARGET[@PARAMS.yaml][(key=value, ...)]``:

- ``TARGET`` is a built-in name (``random``, ``basic``, ``human``, or a YAML bot of
  ``configs/strategies/``: ``greedy``, ``builder``...), a YAML bot file (``path/to/bot.yaml``),
  ``package.module:Class``, ``path/to/file.py:Class``, or a name another installed package
  registers in the ``zsim.strategies`` entry-point group;
- ``@PARAMS.yaml`` is a YAML mapping of parameters;
- ``(key=value, ...)`` are inline parameters, each value a Python literal (``1``, ``0.5``,
  ``'text'``, ``[1, 2]``); they override the file's.

Parameters go to the strategy class's constructor; for YAML bots they are the heuristic's
weights. The instance's ``name`` is the spec as written, so results say exactly which bot and
parameters played.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import inspect
import math
import re
import sys
from collections.abc import Callable
from importlib.metadata import EntryPoint, entry_points
from pathlib import Path
from typing import Any

import yaml

from zsim.errors import UserError
from zsim.paths import configs_dir
from zsim.rules.lisi import LiSiSeat
from zsim.strategies.base import Strategy, UnknownKind
from zsim.strategies.basic import BasicStrategy
from zsim.strategies.distilled import DistilledStrategy
from zsim.strategies.heuristic import (
    PARAMETERS,
    BotError,
    HeuristicStrategy,
    bot_plays,
    load_bot,
    load_bots,
)
from zsim.strategies.human import HumanStrategy
from zsim.strategies.lookahead import LookaheadStrategy
from zsim.strategies.mcts import MctsStrategy
from zsim.strategies.random_bot import RandomStrategy
from zsim.strategies.rollout import RolloutStrategy
from zsim.strategies.value import ValueStrategy
from zsim.yamlload import read_text, safe_load

BUILT_IN: dict[str, type[Strategy]] = {
    "random": RandomStrategy,
    "basic": BasicStrategy,
    "human": HumanStrategy,
    "rollout": RolloutStrategy,
    "lookahead": LookaheadStrategy,
    "mcts": MctsStrategy,
    "value": ValueStrategy,
    "distilled": DistilledStrategy,
}
BOTS_DIR = configs_dir("strategies")
ENTRY_POINT_GROUP = "zsim.strategies"
LISI = re.compile(r"lisi-(\d+)")  # the solo-mode automaton at a level, e.g. lisi-2
LISI_LEVELS = (1, 2, 3, 4)
SPEC = re.compile(r"^\s*(?P<target>[^@()]+?)\s*(?:@\s*(?P<file>[^()]+?))?\s*"
                  r"(?:\((?P<args>.*)\))?\s*$", re.DOTALL)


class UnknownStrategy(UserError, ValueError):
    """A strategy spec that cannot be turned into a bot (unknown name, bad parameters...)."""


class StrategyParameterError(UnknownStrategy):
    """The strategy exists but its parameters are wrong."""


def resolve(spec: str) -> Strategy | LiSiSeat:
    """The Strategy instance a spec names (Li Si's seat for ``lisi-LEVEL``), with its parameters
    applied."""
    target, params = parse_spec(spec)
    factory, label, accepted = _find(target)
    instance = _construct(factory, params, label, accepted)
    instance.name = " ".join(spec.split())
    return instance


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """(target, parameters) of a spec; the parameter file is read, inline values parsed."""
    match = SPEC.match(spec)
    if not match:
        raise UnknownStrategy(f"cannot read strategy spec {spec!r}: expected "
                              "NAME[@PARAMS.yaml][(key=value, ...)]")
    params: dict[str, Any] = {}
    if match["file"]:
        params.update(_params_file(Path(match["file"]), spec))
    if match["args"] is not None:
        params.update(_inline_params(match["args"], spec))
    for key, value in params.items():
        if not _finite(value):
            raise StrategyParameterError(f"strategy {spec!r}: parameter {key!r} is {value!r}; "
                                         "parameters must be finite numbers")
    return match["target"], params


def _finite(value: Any) -> bool:
    """No infinity or NaN in a parameter value, nor in the lists and mappings it holds: a bot
    weighing by them compares nothing (NaN) or everything alike (infinity)."""
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, list | tuple | set):
        return all(_finite(item) for item in value)
    if isinstance(value, dict):
        return all(_finite(item) for item in value.values())
    return True


def _params_file(path: Path, spec: str) -> dict[str, Any]:
    try:
        data = safe_load(read_text(path))
    except (OSError, yaml.YAMLError) as error:
        raise StrategyParameterError(f"strategy {spec!r}: cannot read parameter file "
                                     f"{str(path)!r}: {error}") from None
    if data is None:
        return {}
    if not isinstance(data, dict) or not all(isinstance(k, str) for k in data):
        raise StrategyParameterError(f"strategy {spec!r}: parameter file {str(path)!r} must be "
                                     "a mapping of parameter names to values")
    return data


def _inline_params(args: str, spec: str) -> dict[str, Any]:
    """Keyword arguments whose values are Python literals; nothing is ever evaluated."""
    try:
        call = ast.parse(f"_({args})", mode="eval").body
    except SyntaxError:
        raise StrategyParameterError(f"strategy {spec!r}: cannot read the parameters "
                                     f"({args}); write them as key=value, ...") from None
    if not isinstance(call, ast.Call) or call.args or any(k.arg is None for k in call.keywords):
        raise StrategyParameterError(f"strategy {spec!r}: parameters must be key=value pairs")
    params: dict[str, Any] = {}
    for keyword in call.keywords:
        assert keyword.arg is not None  # refused above
        try:
            params[keyword.arg] = ast.literal_eval(keyword.value)
        except ValueError:
            raise StrategyParameterError(
                f"strategy {spec!r}: parameter {keyword.arg!r} must be a literal value "
                f"(a number, 'quoted text', True, a list...), not "
                f"{ast.unparse(keyword.value)!r}") from None
    return params


# --- finding the target ------------------------------------------------------------------------

Factory = Callable[..., "Strategy | LiSiSeat"]


def _find(target: str) -> tuple[Factory, str, list[str] | None]:
    """(factory, label, accepted parameters or None for 'read the signature')."""
    if target in BUILT_IN:
        return BUILT_IN[target], target, None
    solo = LISI.fullmatch(target)
    if solo:
        level = int(solo[1])
        return (lambda: LiSiSeat(level)), target, []
    if target.endswith((".yaml", ".yml")):
        return _yaml_bot(Path(target), target)
    if ":" in target:
        where, _, attr = target.rpartition(":")
        module = _load_file(Path(where), target) if where.endswith(".py") else \
            _import(where, target)
        return _strategy_class(_class_in(module, attr, target), target), target, None
    path = BOTS_DIR / f"{target}.yaml"
    if path.exists():
        return _yaml_bot(path, target)
    point = _entry_points().get(target)
    if point is not None:
        try:
            loaded = point.load()
        except Exception as error:
            raise UnknownStrategy(f"strategy {target!r} (entry point {point.value!r} of "
                                  f"package group {ENTRY_POINT_GROUP!r}) failed to load: "
                                  f"{error}") from error
        return _strategy_class(loaded, f"{target} (entry point {point.value})"), target, None
    raise UnknownStrategy(f"unknown strategy {target!r}; available: "
                          f"{', '.join(available())}; or name a class as package.module:Class "
                          "or path/to/file.py:Class, or a bot file as path/to/bot.yaml")


def _yaml_bot(path: Path, label: str) -> tuple[Factory, str, list[str]]:
    try:
        description, params = load_bot(path, _known_bots(path))
    except BotError as error:
        raise UnknownStrategy(str(error)) from None

    base: type[HeuristicStrategy] = DistilledStrategy if bot_plays(path) == "distilled" else \
        HeuristicStrategy

    def make(**overrides: Any) -> Strategy:
        bot = base(**{**params, **overrides})
        bot.description = description
        return bot

    return make, label, list(PARAMETERS)


def _known_bots(path: Path) -> dict[str, tuple[str, dict[str, float]]]:
    """The built-in YAML bots, which bot files elsewhere may extend by name."""
    if path.resolve().parent == BOTS_DIR or not BOTS_DIR.is_dir():
        return {}
    return load_bots(BOTS_DIR)


def _import(module: str, spec: str) -> Any:
    try:
        return importlib.import_module(module)
    except ImportError as error:
        raise UnknownStrategy(f"strategy {spec!r}: cannot import module {module!r}: "
                              f"{error}") from None
    except UnknownKind as error:
        raise UnknownStrategy(f"strategy {spec!r}: {error}") from None


def _load_file(path: Path, spec: str) -> Any:
    """Import a Python file as a module of its own, picklable by value.

    The module is registered under a name made from its path (so classes in it pickle within
    this process), and with cloudpickle by value (so worker processes, which cannot import that
    name, still receive the class).
    """
    if not path.is_file():
        raise UnknownStrategy(f"strategy {spec!r}: no such file {str(path)!r}")
    name = "zsim_strategy_file_" + re.sub(r"\W", "_", str(path.resolve()))
    module = sys.modules.get(name)
    if module is None:
        loader_spec = importlib.util.spec_from_file_location(name, path)
        if loader_spec is None or loader_spec.loader is None:
            raise UnknownStrategy(f"strategy {spec!r}: cannot import {str(path)!r}")
        module = importlib.util.module_from_spec(loader_spec)
        sys.modules[name] = module
        try:
            loader_spec.loader.exec_module(module)
        except UnknownKind as error:
            del sys.modules[name]
            raise UnknownStrategy(f"strategy {spec!r}: {str(path)!r}: {error}") from None
        except Exception as error:
            del sys.modules[name]
            raise UnknownStrategy(f"strategy {spec!r}: importing {str(path)!r} failed: "
                                  f"{type(error).__name__}: {error}") from error
        _pickle_by_value(module)
    return module


def _pickle_by_value(module: Any) -> None:
    try:
        import cloudpickle  # what joblib's process pools pickle with
    except ImportError:  # no process pools here, so nothing to prepare for
        return
    cloudpickle.register_pickle_by_value(module)


def _strategy_class(found: object, spec: str) -> type[Strategy]:
    """``found`` itself when it is a subclass of Strategy, checked before anything is called:
    a spec names a class, never any callable (``os:system`` would run a command when called
    with the spec's parameters)."""
    if not (isinstance(found, type) and issubclass(found, Strategy)):
        what = "a class" if isinstance(found, type) else f"a {type(found).__name__}"
        raise UnknownStrategy(f"strategy {spec!r} is {what}, not a Strategy class (a subclass "
                              "of zsim.strategies.base.Strategy); nothing was called")
    return found


def _class_in(module: Any, attr: str, spec: str) -> object:
    factory = getattr(module, attr, None)
    if factory is None:
        found = sorted(name for name, obj in vars(module).items()
                       if isinstance(obj, type) and issubclass(obj, Strategy)
                       and obj.__module__ == module.__name__)
        raise UnknownStrategy(f"strategy {spec!r}: {attr!r} is not defined there; strategy "
                              f"classes defined there: {', '.join(found) or 'none'}")
    return factory


def _entry_points() -> dict[str, EntryPoint]:
    return {point.name: point for point in entry_points(group=ENTRY_POINT_GROUP)}


# --- building it ---------------------------------------------------------------------------


def _construct(factory: Factory, params: dict[str, Any], label: str,
               accepted: list[str] | None) -> Strategy | LiSiSeat:
    if accepted is None:
        accepted, open_ended = _signature(factory)
    else:
        open_ended = False
    unknown = sorted(set(params) - set(accepted))
    if unknown and not open_ended:
        raise StrategyParameterError(
            f"strategy {label!r} has no parameter {unknown[0]!r}; its parameters: "
            f"{', '.join(accepted) or 'none'}")
    if unknown and _extends_heuristic(factory):
        _refuse_unknown(label, accepted, unknown)
    try:
        instance = factory(**params)
    except (TypeError, ValueError) as error:
        raise StrategyParameterError(f"strategy {label!r}: {error}") from None
    if not isinstance(instance, (Strategy, LiSiSeat)):
        raise UnknownStrategy(f"strategy {label!r} is not a Strategy (a subclass of "
                              "zsim.strategies.base.Strategy)")
    return instance


def _extends_heuristic(factory: Factory) -> bool:
    """A built-in bot that passes the parameters it does not take to the heuristic (a bot of
    one's own may take more through ``**kwargs``: it says for itself what it refuses)."""
    return (factory in BUILT_IN.values() and isinstance(factory, type)
            and issubclass(factory, HeuristicStrategy))


def _refuse_unknown(label: str, accepted: list[str], unknown: list[str]) -> None:
    """Refuse a parameter that a bot extending the heuristic takes neither itself nor as a
    weight of the heuristic, listing both (the heuristic alone listed its own, so that a
    misspelt ``iterations`` of ``mcts`` was not shown among the names it could have been)."""
    wrong = [name for name in unknown if name not in PARAMETERS]
    if wrong:
        own = f"{', '.join(accepted)}; " if accepted else ""
        raise StrategyParameterError(
            f"strategy {label!r} has no parameter {wrong[0]!r}; its parameters: {own}and the "
            f"heuristic's: {', '.join(PARAMETERS)}")


def _signature(factory: Factory) -> tuple[list[str], bool]:
    """Keyword parameters a class or function accepts, and whether it takes **kwargs."""
    try:
        parameters = inspect.signature(factory).parameters.values()
    except (TypeError, ValueError):
        return [], True
    named = [p.name for p in parameters
             if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]
    return named, any(p.kind == p.VAR_KEYWORD for p in parameters)


# --- listing -------------------------------------------------------------------------------


def available() -> dict[str, str]:
    """Name -> one-line description of every strategy that can be named by a bare name."""
    found = {name: cls.description for name, cls in BUILT_IN.items()}
    # an instance's: on the compiled class the attribute is a descriptor, not the text
    found.update({f"lisi-{level}": f"{LiSiSeat(level).description}: level {level} (2 seats "
                                   f"only)" for level in LISI_LEVELS})
    if BOTS_DIR.is_dir():
        for path in sorted(BOTS_DIR.glob("*.yaml")):
            try:
                found.setdefault(path.stem, load_bot(path)[0])
            except BotError as error:
                found.setdefault(path.stem, f"(broken: {error})")
    for name, point in sorted(_entry_points().items()):
        if name in found:
            continue
        try:
            found[name] = getattr(point.load(), "description", "") or f"from {point.value}"
        except Exception as error:
            found[name] = f"(entry point {point.value} fails to load: {error})"
    return found


def parameters(spec: str) -> dict[str, Any]:
    """The parameters a spec's strategy accepts, with the values the spec gives them."""
    target, params = parse_spec(spec)
    factory, label, accepted = _find(target)
    if accepted is not None:
        instance = _construct(factory, params, label, accepted)
        # the YAML bots' parameters; Li Si's seat (accepted == []) has none
        return instance.params if isinstance(instance, HeuristicStrategy) else {}
    names, _ = _signature(factory)
    defaults = {p.name: p.default for p in inspect.signature(factory).parameters.values()
                if p.name in names}
    return {**defaults, **params}


# The strongest bot at about the heuristic's cost, per player count: what a report's findings are
# rechecked with by default and what the ladder's docs measure against. One table, so that the
# recheck, the docs and the benchmarks all follow a new shipped scorer at once.
# A plain `distilled` plays the strongest shipped scorer of the game's count
# (``zsim.strategies.distilled.STRONGEST_SCORER``: round 3 at 2 players, ``rewards`` at 3 and
# 4), so it is the entry at every count; the searches of the last turns cost 2.5 to 3 times
# `greedy`'s CPU (docs/strategies.md, "The ladder per player count").
STRONGEST_CHEAP: dict[int, str] = {2: "distilled", 3: "distilled", 4: "distilled"}


def strongest_cheap(n_players: int) -> str:
    """The spec of the strongest shipped bot at about the heuristic's cost for ``n_players``
    (2 to 4): the default referee of ``zsim report``'s recheck."""
    try:
        return STRONGEST_CHEAP[n_players]
    except KeyError:
        raise UnknownStrategy(f"no strong cheap bot for {n_players} players (2 to 4)") from None
