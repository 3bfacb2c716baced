"""A mapping of the box that cannot be written: the box is read by the engine and shown to the
strategies, so none of its tables may change once it is loaded.

``FrozenMap`` is a ``dict`` (lookups at a dict's speed, equal to a plain dict of the same
items, pickled and copied as one) whose every writing method raises ``TypeError``. Python keeps
nothing private: ``dict.__setitem__(m, k, v)`` still writes. That is why a strategy never sees
the engine's box but a copy of its own (``zsim.view``): a strategy that forces its way into its
copy changes what it alone sees.
"""

from __future__ import annotations

from typing import Any, NoReturn, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class FrozenMap(dict[K, V]):
    """A read-only ``dict``."""

    __slots__ = ()

    def _refuse(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise TypeError("the box is read-only: its tables cannot be changed")

    __setitem__ = __delitem__ = __ior__ = _refuse
    clear = pop = popitem = setdefault = update = _refuse

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled (and copied) as its items, rebuilt through the constructor."""
        return (type(self), (dict(self),))

    def __hash__(self) -> int:  # type: ignore[override]
        return hash(frozenset(self.items()))

    def __repr__(self) -> str:
        return f"FrozenMap({dict.__repr__(self)})"


def frozen(mapping: dict[K, V]) -> FrozenMap[K, V]:
    """``mapping`` as a ``FrozenMap`` (for a pydantic ``AfterValidator``)."""
    return FrozenMap(mapping)
