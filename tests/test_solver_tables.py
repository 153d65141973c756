"""The quick rejection's tables (``liverpool.solver``), made for every lane at once
with bit sets, agree with the plain per-lane functions they stand for."""

from __future__ import annotations

import dataclasses

import pytest

from liverpool import load_rules
from liverpool.solver import (
    _HOLE_CAP,
    _cover_table,
    _fewest_holes,
    _one_run_table,
    _run_cover,
    _run_rules_id,
)

VARIANTS = [
    ("liverpool", {}, False),
    ("liverpool", {"run_wrap": "always", "no_adjacent_wilds_in_run": False}, False),
    ("london", {"run_wrap": "three_beside_ace", "naturals_at_least_wilds": True}, False),
    ("remi", {"min_naturals_run": 2}, True),
]


@pytest.mark.parametrize(("preset", "overrides", "exact"), VARIANTS)
def test_tables_match_the_per_lane_functions(preset: str, overrides: dict[str, object],
                                             exact: bool) -> None:
    rules = dataclasses.replace(load_rules(preset), **overrides)  # type: ignore[arg-type]
    rid = _run_rules_id(rules, exact)
    table = _one_run_table(rid)
    assert len(table) == 1 << 14
    for m in range(1 << 14):
        ranks = m & 0x3FFE
        assert table[m] == _fewest_holes(ranks, rid) <= _HOLE_CAP, (m, ranks)
    for wilds in (0, 1, 2):
        cover = _cover_table(rid, wilds)
        assert len(cover) == 1 << 14
        for m in range(1 << 14):
            assert cover[m] == _run_cover(m & 0x3FFE, rid, wilds), (m, wilds)
