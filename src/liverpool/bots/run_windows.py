"""The run windows of the hand planner: its tables of four-rank windows.

A hand's natural cards of one suit are a *rank mask*: bit ``r`` for rank ``r``
(1 ace .. 13 king). A run window is four consecutive ranks (the ace also above
the king; with ``run_wrap = "always"`` round the corner too), as a mask as well.
:class:`BestWindows` answers, for a rank mask, the window that holds the most of
its ranks, and remembers the answer: the planner asks it again and again.

>>> windows = run_windows("never")
>>> len(windows), RANKS_OF[windows[0]], RANKS_OF[windows[-1]]
(11, (1, 2, 3, 4), (1, 11, 12, 13))
>>> table = best_windows(windows)
>>> held, window = table[1 << 5 | 1 << 6 | 1 << 9]
>>> held, RANKS_OF[window]
(2, (3, 4, 5, 6))
>>> RANKS_OF[grow_span(window, 1 << 2 | 1 << 8 | 1 << 12)]
(2, 3, 4, 5, 6)
"""

from __future__ import annotations

__all__ = ["RANKS_OF", "BestWindows", "best_window", "best_windows", "grow_span",
           "run_windows"]


def run_windows(run_wrap: str) -> tuple[int, ...]:
    """The four-rank run windows as rank masks: 1-4 up to 10-K, then J-Q-K-A, and
    with ``run_wrap`` ``"always"`` the two round the corner (Q-K-A-2, K-A-2-3)."""
    ranks: list[tuple[int, ...]] = [tuple(range(low, low + 4)) for low in range(1, 11)]
    ranks.append((11, 12, 13, 1))
    if run_wrap == "always":
        ranks += [(12, 13, 1, 2), (13, 1, 2, 3)]
    return tuple(sum(1 << r for r in window) for window in ranks)


class BestWindows(dict[int, tuple[int, int]]):
    """For a rank mask, the best run window: (cards held in it, window mask), the
    first window of the most cards held (for no card: the first window); filled
    on demand."""

    def __init__(self, windows: tuple[int, ...]) -> None:
        super().__init__()
        self.windows = windows

    def __missing__(self, ranks: int) -> tuple[int, int]:
        best, best_window = 0, self.windows[0]
        for window in self.windows:
            held = (ranks & window).bit_count()
            if held > best:
                best, best_window = held, window
        self[ranks] = (best, best_window)
        return best, best_window


_TABLES: dict[tuple[int, ...], BestWindows] = {}


def best_windows(windows: tuple[int, ...]) -> BestWindows:
    """The :class:`BestWindows` of ``windows``, one shared table per set of windows."""
    table = _TABLES.get(windows)
    if table is None:
        table = _TABLES[windows] = BestWindows(windows)
    return table


def best_window(masks: list[int], table: BestWindows, suits: int) -> tuple[int, int, int]:
    """The suit (of the first ``suits`` rank masks) whose best run window holds the
    most natural ranks: (naturals in it, window mask, suit); (0, the first window,
    0) when no suit has a card. The first suit wins ties."""
    best = -1
    best_mask = table.windows[0]
    best_suit = 0
    for suit in range(suits):
        ranks = masks[suit]
        if ranks:
            held, window = table[ranks]
            if held > best:
                best, best_mask, best_suit = held, window, suit
    if best < 0:
        best = 0
    return best, best_mask, best_suit


def grow_span(span: int, have: int) -> int:
    """The rank mask ``span`` grown by the neighbouring ranks of ``have``, again and
    again (the ace beside both the two and the king)."""
    while True:
        near = (span << 1) | (span >> 1)
        if span >> 13 & 1:
            near |= 2
        if span >> 1 & 1:
            near |= 1 << 13
        grow = near & have & ~span
        if not grow:
            return span
        span |= grow


class _RankLists(dict[int, tuple[int, ...]]):
    """For a rank mask, its ranks in ascending order; filled on demand."""

    def __missing__(self, ranks: int) -> tuple[int, ...]:
        got = self[ranks] = tuple(r for r in range(1, 14) if ranks >> r & 1)
        return got


#: for a rank mask (bits 1..13), its ranks in ascending order
RANKS_OF: dict[int, tuple[int, ...]] = _RankLists()
