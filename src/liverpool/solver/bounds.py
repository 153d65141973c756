"""Lower bounds on the wilds a contract needs: cheap tests that cut the search.

Each bound is a relaxation (it may say "possible" of a hand that has no
lay-down, never the other way round): :func:`set_costs` for sets made from one
group of natural cards, :func:`lane_holes` for runs in one lane, and
:func:`min_plus` to share runs among lanes. The searches of
:mod:`liverpool.solver.partial` and the quick rejection of
:mod:`liverpool.solver.quick` add them up.

>>> set_costs(4, 2, 3)  # two sets of three from four kings: none, then two wilds
(0, 2)
"""

from __future__ import annotations

__all__ = ["NO_WAY", "lane_holes", "min_plus", "set_costs"]

def min_plus(a: tuple[int, ...], b: tuple[int, ...], k: int) -> tuple[int, ...]:
    """The fewest holes of 0..``k`` runs taken from two lanes whose fewest holes
    of 0..k runs are ``a`` and ``b`` (each starts with 0: no run, no hole)."""
    if k == 1:
        return (0, min(a[1], b[1]))
    if k == 2:
        return (0, min(a[1], b[1]), min(a[2], a[1] + b[1], b[2]))
    return tuple([min([a[i] + b[j - i] for i in range(j + 1)]) for j in range(k + 1)])


_SET_COSTS: dict[tuple[int, int, int], tuple[int, ...]] = {}


def set_costs(c: int, n: int, size: int) -> tuple[int, ...]:
    """The wilds that each of ``n`` minimal sets (of ``size`` cards) made in turn
    from a group of ``c`` natural cards needs: the first take ``size`` natural
    cards each, the next take the rest and wilds. Remembered."""
    key = (c, n, size)
    got = _SET_COSTS.get(key)
    if got is None:
        got = _SET_COSTS[key] = tuple(max(0, size * j - c) - max(0, size * (j - 1) - c)
                                      for j in range(1, n + 1))
    return got


_HOLES: dict[tuple[object, ...], tuple[int, ...]] = {}
NO_WAY = 1 << 10  # more wilds than any hand holds
#: per ``wrap``, the windows of 4 ranks: their count indices (rank - 1; without
#: wrapping the ace high is index 0 as well) and those as bits
_WINDOWS = {wrap: tuple((idx, sum(1 << i for i in idx))
                        for idx in (tuple((start + i) % 13 for i in range(4))
                                    for start in range(13 if wrap else 11)))
            for wrap in (False, True)}


def lane_holes(counts: tuple[int, ...], k: int, wrap: bool, two: bool) -> tuple[int, ...]:
    """Lower bounds on the wilds that 0..k runs of one lane need (``NO_WAY``: no
    such runs), for the natural ``counts`` of its ranks 1..13; ``two``: a deuce of
    spades may stand in the place of a two.

    A relaxation: every run holds a window of 4 ranks with no more holes and at
    least one natural card, so runs are taken as such windows (any start, no
    rule about wilds) sharing the natural cards of each rank; the holes are the
    places no natural card is left for. Remembered between calls.

    >>> lane_holes((1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1), 2, False, False)
    (0, 0, 3)
    """
    key = (counts, k, wrap, two)
    got = _HOLES.get(key)
    if got is not None:
        return got
    present = 0
    for i, c in enumerate(counts):
        if c:
            present |= 1 << i
    allowed = present | 2 if two else present
    windows = [w for w in _WINDOWS[wrap] if allowed & w[1]]
    best = [0] + [NO_WAY] * k
    if k and windows:
        best[1] = 4 - max((present & bits).bit_count() for _idx, bits in windows)
    if 1 < k <= 3 and windows:
        best[2:] = _few_runs_holes(counts, present, windows, k)
    elif k > 1 and windows:
        left = list(counts)
        nw = len(windows)

        def rec(first: int, j: int, holes: int) -> None:
            for wi in range(first, nw):
                taken = []
                add = 0
                for i in windows[wi][0]:
                    if left[i]:
                        left[i] -= 1
                        taken.append(i)
                    else:
                        add += 1
                h = holes + add
                if h < best[j + 1]:
                    best[j + 1] = h
                if j + 1 < k:
                    rec(wi, j + 1, h)
                for i in taken:
                    left[i] += 1

        rec(0, 0, 0)
    out = tuple(best)
    if len(_HOLES) > 50_000:
        _HOLES.clear()
    _HOLES[key] = out
    return out


def _few_runs_holes(counts: tuple[int, ...], present: int,
                    windows: list[tuple[tuple[int, ...], int]], k: int) -> list[int]:
    """The fewest holes of 2 (and, for ``k`` = 3, 3) windows of :func:`lane_holes`.

    The holes of some windows are, rank by rank, the windows over the rank beyond
    its natural cards: with ``n1``, ``n2``, ``n3`` the ranks holding fewer than 1,
    2, 3 cards, the ranks under at least one window in ``n1``, plus those under
    at least two in ``n2``, plus those under three in ``n3``. A window added
    to others adds at least its own holes, so with the windows in order of their
    own holes the search stops as soon as no better choice is left.
    """
    full = (1 << 13) - 1
    p2 = p3 = 0
    for i, c in enumerate(counts):
        if c > 1:
            p2 |= 1 << i
            if c > 2:
                p3 |= 1 << i
    n1 = full & ~present
    n2 = full & ~p2
    n3 = full & ~p3
    ws = sorted(((bits & n1).bit_count(), bits) for _idx, bits in windows)
    hs = [h for h, _b in ws]
    bs = [b for _h, b in ws]
    nw = len(ws)
    b2 = NO_WAY
    for i in range(nw):
        ha = hs[i]
        if 2 * ha >= b2:
            break
        a = bs[i]
        for j in range(i, nw):
            if ha + hs[j] >= b2:
                break
            b = bs[j]
            v = ((a | b) & n1).bit_count() + (a & b & n2).bit_count()
            if v < b2:
                b2 = v
    if k == 2:
        return [b2]
    b3 = NO_WAY
    for i in range(nw):
        ha = hs[i]
        if 3 * ha >= b3:
            break
        a = bs[i]
        for j in range(i, nw):
            hb = hs[j]
            if ha + 2 * hb >= b3:
                break
            b = bs[j]
            ab_or = a | b
            ab_and = a & b
            vab = (ab_or & n1).bit_count() + (ab_and & n2).bit_count()
            if vab + hb >= b3:
                continue
            for m in range(j, nw):
                if vab + hs[m] >= b3:
                    break
                c = bs[m]
                v = (((ab_or | c) & n1).bit_count()
                     + ((ab_and | (a & c) | (b & c)) & n2).bit_count()
                     + (ab_and & c & n3).bit_count())
                if v < b3:
                    b3 = v
    return [b2, b3]
