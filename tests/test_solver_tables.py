"""The quick rejection's tables (``liverpool.solver.quick``), made for every lane
at once with bit sets, agree with the plain per-lane functions they stand for;
the one run-window scan (``liverpool.solver.windows``) agrees with a plain
enumeration of the windows."""

from __future__ import annotations

import dataclasses

import pytest

from liverpool import load_rules
from liverpool.solver.quick import (
    HOLE_CAP,
    cover_table,
    fewest_holes,
    lane_cover,
    one_run_table,
)
from liverpool.solver.windows import RUN_RULES, has_run_window, lane_bits, run_rules_id, window_fits

VARIANTS = [
    ("liverpool", {}, False),
    ("liverpool", {"run_wrap": "always", "no_adjacent_wilds_in_run": False}, False),
    ("london", {"run_wrap": "three_beside_ace", "naturals_at_least_wilds": True}, False),
    ("remi", {"min_naturals_run": 2}, True),
]


@pytest.mark.parametrize(("preset", "overrides", "exact"), VARIANTS)
@pytest.mark.slow
def test_tables_match_the_per_lane_functions(preset: str, overrides: dict[str, object],
                                             exact: bool) -> None:
    rules = dataclasses.replace(load_rules(preset), **overrides)  # type: ignore[arg-type]
    rid = run_rules_id(rules, exact)
    table = one_run_table(rid)
    assert len(table) == 1 << 14
    for m in range(1 << 14):
        ranks = m & 0x3FFE
        assert table[m] == fewest_holes(ranks, rid) <= HOLE_CAP, (m, ranks)
    for wilds in (0, 1, 2):
        cover = cover_table(rid, wilds)
        assert len(cover) == 1 << 14
        for m in range(1 << 14):
            assert cover[m] == lane_cover(m & 0x3FFE, rid, wilds), (m, wilds)


def _windows(ranks: int, wilds: int, rules_id: int) -> list[tuple[int, int]]:
    """Every legal run window (start, length) of a lane whose ranks held are
    ``ranks`` (bits 1..13), its holes no more than ``wilds``: plainly, every start
    and every length."""
    wrap, beside_ace, need, nalw, no_adj, exact = RUN_RULES[rules_id]
    mask = lane_bits(ranks, -1, 0, wrap)
    out = []
    for start in range(1, 14 if wrap else 12):
        for length in range(4, 5 if exact else (14 if wrap else 16 - start)):
            bits = (mask >> start) & ((1 << length) - 1)
            if (length - bits.bit_count() <= wilds
                    and window_fits(bits, length, start, need, nalw, no_adj, beside_ace)):
                out.append((start, length))
    return out


def _holds(start: int, length: int, rank: int, wrap: bool) -> bool:
    if wrap:
        return (rank - start) % 13 < length
    return start <= rank < start + length or (rank == 1 and start + length == 15)


@pytest.mark.parametrize(("preset", "overrides", "exact"), VARIANTS)
@pytest.mark.slow
def test_the_window_scan_matches_every_window(preset: str, overrides: dict[str, object],
                                              exact: bool) -> None:
    rules = dataclasses.replace(load_rules(preset), **overrides)  # type: ignore[arg-type]
    rid = run_rules_id(rules, exact)
    wrap = RUN_RULES[rid][0]
    found = 0
    for ranks in range(0, 1 << 14, 18):  # every ninth set of ranks held (even: bit 0 is unused)
        ranks &= 0x3FFE
        mask = lane_bits(ranks, -1, 0, wrap)
        for wilds in (0, 1, 2, 4):
            windows = _windows(ranks, wilds, rid)
            assert has_run_window(mask, wilds, rid) == bool(windows), (ranks, wilds)
            for rank in range(1, 14):
                expected = any(_holds(s, n, rank, wrap) for s, n in windows)
                found += expected
                assert has_run_window(mask, wilds, rid, rank) == expected, (ranks, wilds, rank)
    assert found > 1000
