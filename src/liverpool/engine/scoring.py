"""Scoring: the end of a round (each hand's penalty points) and the score sheet."""

from __future__ import annotations

from operator import attrgetter

from ..events import GameEnded, RoundEnded
from .core import GameCore
from .state import Results

__all__ = ["Scoring"]

_index = attrgetter("index")


class Scoring(GameCore):
    """The end of a round and the score sheet."""

    def _end_round(self, winner: int | None) -> None:
        state = self.state
        rules = self.rules
        scores = []
        for seat, hand in enumerate(state.hands):
            pts = 0 if seat == winner else rules.hand_points(hand)
            if seat == state.cut_bonus_seat:
                pts += rules.cut_bonus
            scores.append(pts)
        state.round_scores.append(scores)
        state.queue = []
        state.pending = {}
        self._emit(RoundEnded, state.round, winner, tuple(scores),
                   tuple(tuple(sorted(h, key=_index)) for h in state.hands))
        if state.round >= rules.num_rounds:
            state.phase = "game_over"
            res = self.results()
            self._emit(GameEnded, res.totals, res.winners)
            self._legal = None
            return
        self._start_round(state.round + 1)

    def results(self) -> Results:
        """The score sheet so far (final once the game is over)."""
        rs = tuple(tuple(r) for r in self.state.round_scores)
        totals = tuple(sum(r[i] for r in rs) for i in range(self.num_players))
        best = min(totals) if rs else 0
        over = self.state.phase == "game_over"
        winners = tuple(i for i, t in enumerate(totals) if t == best) if over else ()
        return Results(rs, totals, winners)
