"""A read-only sequence whose items are made on demand, by index."""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Sequence
from typing import TypeVar, overload

T = TypeVar("T")


class LazySequence(Sequence[T]):
    """Indexing with ints (negative ones too) and slices, over `_item(index)` and `__len__`.

    Batches of thousands of programs keep their answers in columns and make the
    per-program object only when someone asks for it.
    """

    @abstractmethod
    def _item(self, index: int) -> T: ...

    @overload
    def __getitem__(self, index: int) -> T: ...

    @overload
    def __getitem__(self, index: slice) -> list[T]: ...

    def __getitem__(self, index: int | slice) -> T | list[T]:
        if isinstance(index, slice):
            return [self._item(i) for i in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError(f"{type(self).__name__} index out of range")
        return self._item(index)


def positions_of(values: list[int], wanted: int) -> list[int]:
    """The positions holding `wanted`, in order, found at C speed (list.count and
    list.index): columns of statuses and value types hold few of the rare values."""
    found: list[int] = []
    at = -1
    for _ in range(values.count(wanted)):
        at = values.index(wanted, at + 1)
        found.append(at)
    return found
