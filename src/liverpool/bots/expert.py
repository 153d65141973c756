"""The ``expert`` bot: information-set Monte Carlo over the seat's own future.

At the decisions that shape a hand — take the discard or draw, buy or pass,
which card to discard — the expert

1. works out the *unseen* cards: the full deck for this player count minus its
   own hand, the table, the discard pile and every card it saw go into another
   hand this round (taken or bought discards, cards given back by a call, a
   joker taken in a swap) and not come out again;
2. samples determinizations: random orders of the unseen cards, i.e. the
   stock it may draw from, consistent with everything it has seen;
3. for every candidate action, plays the same sampled futures out with a fast
   playout policy (the ``basic`` planner drawing from the sampled stock and
   discarding until the contract could go down; then the cards left over must
   still be shed) and scores each outcome by the points it expects to hold
   when the round ends: a small model of the round's end, measured on games of
   ``basic`` bots (:func:`~liverpool.bots.round_end.risk_tables`), gives the chance that an opponent goes
   out before each of its next turns from what the view shows (who is down,
   with how many cards, how far the round is).
   Going out first is worth a bonus on top (it hands every opponent the
   points of their hand): the chance of being first out in the playout times
   a share of the opponents' expected hand points, larger when the seat
   trails the best opponent's total and smaller when it leads;
4. chooses the action with the best mean outcome (common random numbers make
   the comparison fair); ties go to the ``basic`` choice.

Once down it searches its discards the same way (drawing, laying off what
fits and throwing its most expensive card in the playouts). In an
all-at-once final round with no discard it searches its draws and discards by the race to
put the whole hand down, and in the game's last round by its chance of
winning the game (:mod:`liverpool.bots.final_round`).
Every other decision (lay down, lay off, joker swap, call, cut, and the buys
of an all-at-once round) is the ``basic`` one. The bot is
deterministic under its seed for a given ``iterations`` budget; ``time_ms`` is a hard cap per decision
(when it cuts a search short, the result depends on the machine's speed).

>>> from liverpool import Game, load_rules
>>> rules = load_rules("remi")
>>> game = Game(rules, players=3, seed=2)
>>> bot = ExpertBot(rules, seed=1, iterations=8)
>>> game.can_apply(bot.choose(game.view(0), game.legal_actions()))
True
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence

from ..actions import Action, Buy, Discard, Draw, Pass
from ..cards import Card, make_deck
from ..melds import lay_down_mode, lay_off
from ..rules import Rules
from ..views import SeatView
from .basic import BasicBot
from .final_round import FinalRace, WinChances
from .planner import spare_of
from .race_plans import PlanRace
from .round_end import out_tables, risk_tables
from .whereabouts import card_whereabouts, unseen_cards

__all__ = ["ExpertBot", "card_whereabouts", "unseen_cards"]


class ExpertBot:
    """The search player (see the module text).

    Options: ``iterations`` (sampled futures per decision, default 64),
    ``time_ms`` (hard cap per decision, default 90), ``candidates`` (discards
    searched, default 6), ``horizon`` (own turns simulated, default 10),
    ``shed_search`` (search the discards after laying down too, default on),
    ``prior_weight`` (penalty per place behind in the ``basic`` discard
    order, default 0.1), ``out_bonus`` (the worth of going out first, in the
    opponents' mean hand size times a card's mean points, default 0.8),
    ``standing`` (the scale of the score sheet: the bonus is multiplied by
    1 + trail / (standing × √rounds left), within 0.25–3, where trail is how
    far the seat is behind the best opponent's total, negative when it leads;
    default 40, 0 ignores the score sheet), ``draw_search`` and
    ``buy_search`` (search those decisions, default on; off: ``basic``'s),
    ``final_race`` (search the draws of an all-at-once final round with
    :class:`~liverpool.bots.final_round.FinalRace` and throw its discards by
    their outs; default None: where the whole hand goes down with no discard,
    not in london's final round, where one card is discarded and it measured
    worse; True: in both; False: ``basic``'s play there), ``final_win``
    (score those playouts in the game's last round by the chance of winning
    the game, default on; off: by the points held and the going-out bonus),
    ``final_iterations`` (sampled futures per draw there, default 48),
    ``final_horizon`` (own turns simulated there, default 20),
    ``final_plans`` (choose that round's draws and discards by the plans of
    :class:`~liverpool.bots.race_plans.PlanRace` instead, where the contract
    is three runs of one suit; default None: where the hand holds 13 cards
    after the draw, liverpool's last round, not remi's or london's, where it
    measured no better; True: in all three, london's after its buy, with
    ``basic``'s play before it), ``plan_look`` (the upcard's
    worth there as a share of a draw, default 0.5), ``leftover_fits`` (after
    a lay-down in a playout, the cards that grow a planned run or fit a meld
    on the table are not left to shed: they go down with the lay-down or are
    laid off at the next turn; default on) and ``points_weight`` (the
    ``basic`` discard order it starts from — the candidates it searches,
    their prior and its own play where it does not search — weighs the
    cards' points as :class:`~liverpool.bots.basic.BasicBot`'s option does;
    default 10: it measured better on liverpool, 0 plays as before it).
    docs/bots-measured.md has what each measured.
    """

    def __init__(self, rules: Rules, seed: int = 0, *, iterations: int = 64,
                 time_ms: float = 90.0, candidates: int = 6, horizon: int = 10,
                 shed_search: bool = True, prior_weight: float = 0.1,
                 out_bonus: float = 0.8, standing: float = 40.0,
                 draw_search: bool = True, buy_search: bool = True,
                 final_race: bool | None = None, final_horizon: int = 20,
                 final_iterations: int = 48, final_win: bool = True,
                 final_plans: bool | None = None, plan_look: float = 0.5,
                 leftover_fits: bool = True, points_weight: float = 10.0) -> None:
        self.final_plans = final_plans
        self.leftover_fits = bool(leftover_fits)
        self._table_fits: dict[int, bool] = {}
        self._plans = PlanRace(rules, int(final_horizon), float(plan_look))
        self.name = "expert"
        self.rules = rules
        self.rng = random.Random(seed)  # noqa: S311 - a bot's seeded choices, not secrets
        self.iterations = max(1, int(iterations))
        self.time_ms = float(time_ms)
        self.candidates = max(1, int(candidates))
        self.horizon = max(1, int(horizon))
        self.draw_search = bool(draw_search)
        self.buy_search = bool(buy_search)
        self.standing = float(standing)
        self.basic = BasicBot(rules, seed, points_weight=points_weight)
        self.planner = self.basic.planner
        #: sampled futures of the last decision's search (0: it searched none),
        #: and whether the time cap cut that search short
        self.last_iterations = 0
        self.last_capped = False
        self.shed_search = bool(shed_search)
        self.prior_weight = float(prior_weight)
        self.out_bonus = float(out_bonus)
        self.final_race = final_race
        self.final_horizon = max(1, int(final_horizon))
        self.final_iterations = max(1, int(final_iterations))
        self.final_win = bool(final_win)
        for option, count in (("iterations", iterations), ("candidates", candidates),
                              ("horizon", horizon), ("final_horizon", final_horizon),
                              ("final_iterations", final_iterations)):
            if count < 1:
                raise ValueError(f"{option} must be at least 1, not {count}")
        self._race = FinalRace(rules, self.planner, self.final_horizon)
        self._ends: list[float] = []
        self._tail: list[list[float]] = []
        self._first: list[float] = []
        self._outp: list[list[float]] = []
        self._bonus = 0.0
        cards = [Card.from_index(i) for i in range(53)]
        self._points = [rules.card_points(c) for c in cards]
        self._wild = [rules.is_wild(c) for c in cards]
        deck = make_deck(1, rules.jokers_per_deck)
        self._mean_points = sum(rules.card_points(c) for c in deck) / len(deck)

    # -------------------------------------------------------------- choose
    def reseed(self, seed: int) -> None:
        """Play on as if built with ``seed`` (the RL environments call it at each reset)."""
        self.rng.seed(seed)
        self.basic.reseed(seed)

    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        if not legal:
            raise ValueError("there is no legal action to choose from")
        self._deadline = time.perf_counter() + self.time_ms / 1000.0
        self.last_iterations = 0
        self.last_capped = False
        basic_choice = self.basic.choose(view, legal)
        if len(legal) == 1:
            return legal[0]
        seat = view.seat if view.seat is not None else view.to_move
        if seat is None:
            return basic_choice
        phase = view.phase
        mode = lay_down_mode(self.rules, view.round)
        if mode != "normal":
            race = self.final_race
            if race is None:  # by default where the whole hand goes down with no
                # discard; where one card is discarded (london), only the plans if asked for
                race = mode == "all" or self.final_plans is True
            if race and not view.laid_down[seat]:
                return self._final_choice(view, legal, seat, basic_choice)
            return basic_choice  # all-at-once rounds: the search measured weaker
        self._prepare(view, seat)
        if view.laid_down[seat]:
            if (phase == "play" and isinstance(basic_choice, Discard) and self.shed_search
                    and mode == "normal"):
                return self._search_shed(view, legal, basic_choice)
            return basic_choice
        if phase == "play":
            if not isinstance(basic_choice, Discard):
                return basic_choice
            return self._search_discard(view, legal, basic_choice)
        if phase == "draw" and view.top_discard is not None and Draw("discard") in legal \
                and Draw("stock") in legal and self.draw_search:
            return self._search_draw(view, basic_choice)
        if phase == "buy" and view.offered_card is not None and self.buy_search:
            return self._search_buy(view, basic_choice)
        return basic_choice

    def _prepare(self, view: SeatView, seat: int, horizon: int | None = None) -> None:
        """The round-end tables of the playouts' expected points for this decision."""
        horizon = self.horizon if horizon is None else horizon
        self._table_fits = {}
        self._ends, self._tail = risk_tables(self.rules, view, seat, horizon)
        self._first, self._outp = out_tables(self._ends, view, self.rules, horizon)
        others = [view.hand_sizes[o] for o in range(view.players) if o != seat]
        bonus = self.out_bonus * self._mean_points * sum(others) / max(1, len(others))
        if self.standing and view.totals:
            # behind the leader: going out first (and handing the others their
            # points) matters more; far ahead: holding few points matters more
            behind = view.totals[seat] - min(t for o, t in enumerate(view.totals) if o != seat)
            left = max(1, self.rules.num_rounds - view.round + 1)
            z = behind / (self.standing * left ** 0.5)
            bonus *= min(3.0, max(0.25, 1.0 + z))
        self._bonus = bonus

    # ------------------------------------------------- the all-at-once round
    def _final_choice(self, view: SeatView, legal: Sequence[Action], seat: int,
                      basic_choice: Action) -> Action:
        """The draw and the discard of an all-at-once final round: the draw
        searched by the race to put the whole hand down
        (:meth:`FinalRace.playout`), in the game's last round by the chance of
        winning the game, and the discard by its outs
        (:meth:`FinalRace.discard_order`); or both by the plans."""
        phase = view.phase
        mode = lay_down_mode(self.rules, view.round)
        plans = self.final_plans
        if plans is None:  # by default where it measured better: liverpool's last round
            plans = len(view.hand) + (1 if phase == "draw" else 0) == 13 and mode == "all"
        if plans:
            got = self._plan_choice(view, legal, seat, basic_choice)
            if got is not None:
                return got
        if self.final_race is None and mode != "all":
            return basic_choice  # london: the race measured weaker than basic's play
        if phase == "play" and isinstance(basic_choice, Discard):
            order = self.basic.discard_order(view, [a.card for a in legal
                                                    if isinstance(a, Discard)])
            order = self._race.discard_order(view, order, unseen_cards(self.rules, view),
                                             self._deadline)
            return _discard_of(order[0], legal, basic_choice) if order else basic_choice
        top = view.top_discard
        if (phase != "draw" or top is None or Draw("discard") not in legal
                or Draw("stock") not in legal):
            return basic_choice
        starts = [([*view.hand, top], 0), (list(view.hand), 1)]
        self._prepare(view, seat, self.final_horizon)
        win = None
        if self.final_win and view.round >= self.rules.num_rounds and view.totals:
            win = WinChances(view.totals, seat, view.hand_sizes)
        race = self._race
        ends, first, bonus = self._ends, self._first, self._bonus
        pool = unseen_cards(self.rules, view)
        k = min(len(pool), self.final_horizon + 2)
        rng, deadline = self.rng, self._deadline
        totals = [0.0] * len(starts)
        done, began = 0, time.perf_counter()
        for _ in range(self.final_iterations):
            fut = rng.sample(pool, k)
            for i, (hand, draw) in enumerate(starts):
                totals[i] += race.playout(view, hand, fut, draw, ends, first, bonus, win)
            done += 1
            now = time.perf_counter()
            if now + (now - began) / done > deadline:
                break
        self.last_iterations = done
        self.last_capped = done < self.final_iterations
        if abs(totals[0] - totals[1]) < 1e-9:
            return basic_choice
        return Draw("discard") if totals[0] > totals[1] else Draw("stock")

    def _plan_choice(self, view: SeatView, legal: Sequence[Action], seat: int,
                     basic_choice: Action) -> Action | None:
        """The discard or the draw of an all-at-once round of three runs, chosen
        by :class:`~liverpool.bots.race_plans.PlanRace`: the chance of going out
        first with the hand kept, and in the game's last round the chance of
        winning the game it gives (going out first, or else holding the hand's points)."""
        phase = view.phase
        discard = phase == "play" and isinstance(basic_choice, Discard)
        draw = (phase == "draw" and view.top_discard is not None
                and Draw("discard") in legal and Draw("stock") in legal)
        size = len(view.hand) + (1 if phase == "draw" else 0)
        spare = 1 if lay_down_mode(self.rules, view.round) == "all_but_one" else 0
        contract = view.contract
        if not (discard or draw) or not PlanRace.applies(self.rules, contract.sets,
                                                         contract.runs, size, spare):
            return None
        self._prepare(view, seat, self.final_horizon)
        pool = unseen_cards(self.rules, view)
        plans = self._plans
        plans.setup(pool, self._first, size, spare)
        wild = self._wild
        points = self._points
        win = None
        if self.final_win and view.round >= self.rules.num_rounds and view.totals:
            win = WinChances(view.totals, seat, view.hand_sizes)

        def score(h: list[Card], near: bool = False) -> float:
            p = plans.value(h, near)
            if win is None:
                return p
            if p >= 1.0:
                return win.out
            return p * win.out + (1.0 - p) * win.held(sum(points[c.index] for c in h))

        hand = list(view.hand)
        if isinstance(basic_choice, Discard) and discard:
            order = self.basic.discard_order(view, [a.card for a in legal
                                                    if isinstance(a, Discard)])
            order = self._race.discard_order(view, order, pool, self._deadline)
            if len(order) < 2:
                return None
            best, best_v = order[0], -1.0
            for card in order:  # the outs' order breaks ties
                h = list(hand)
                h.remove(card)
                v = score(h)
                if v > best_v + 1e-12:
                    best, best_v = card, v
            return _discard_of(best, legal, basic_choice)

        def after(h: list[Card], cands: Sequence[Card]) -> float:
            """The best of going out now and of each discard of ``cands``."""
            best_v = score(h) if plans.value(h) >= 1.0 else 0.0
            for c in dict.fromkeys(cands):
                if wild[c.index]:
                    continue
                rest = list(h)
                rest.remove(c)
                v = score(rest)
                if v > best_v:
                    best_v = v
            return best_v

        top = view.top_discard
        if top is None:
            return None
        naturals = [c for c in dict.fromkeys(hand) if not wild[c.index]]

        def without(c: Card) -> list[Card]:
            h = list(hand)
            h.remove(c)
            return h

        ranked = sorted(naturals, key=lambda c: -plans.value(without(c)))
        v_up = after([*hand, top], [top, *naturals])
        stay = score(hand, near=True)
        near = plans.near
        counts: dict[Card, int] = {}
        for y in pool:
            counts[y] = counts.get(y, 0) + 1
        total = 0.0
        deadline = self._deadline
        for y, n in counts.items():
            if (wild[y.index] or (y.suit, y.rank) in near) and time.perf_counter() < deadline:
                total += n * max(after([*hand, y], [y, *ranked[:3]]), stay)
            else:
                # a card no good plan misses is thrown again and the hand stays
                # (past the time cap, every card left counts so)
                total += n * stay
        v_stock = total / max(1, len(pool))
        return Draw("discard") if v_up > v_stock else Draw("stock")

    # ------------------------------------------------------------- searches
    def _futures(self, view: SeatView) -> list[list[Card]]:
        pool = unseen_cards(self.rules, view)
        k = min(len(pool), self.horizon + 3)
        rng = self.rng
        return [rng.sample(pool, k) for _ in range(self.iterations)]

    def _search(self, view: SeatView, starts: list[tuple[list[Card], int]]) -> list[float]:
        """Mean playout score of each start (hand, extra draws first)."""
        futures = self._futures(view)
        deadline = self._deadline
        totals = [0.0] * len(starts)
        done = 0
        began = time.perf_counter()
        for fut in futures:
            for i, (hand, skip) in enumerate(starts):
                totals[i] += self._playout(view, hand, fut, skip)
            done += 1
            now = time.perf_counter()
            if now + (now - began) / done > deadline:
                break  # one more sampled future would overrun the time cap
        self.last_iterations = done
        self.last_capped = done < len(futures)
        return [t / max(1, done) for t in totals]

    def _search_discard(self, view: SeatView, legal: Sequence[Action],
                        basic_choice: Discard) -> Action:
        """The discard searched among the ``candidates`` best natural cards by
        the ``basic`` order (and ``basic``'s own), each a little behind for
        every place it stands behind in that order (which avoids feeding the
        next player)."""
        order = self.basic.discard_order(view, [a.card for a in legal
                                                if isinstance(a, Discard)])
        cands = [c for c in order if not self._wild[c.index]][:self.candidates]
        if basic_choice.card not in cands:
            cands.insert(0, basic_choice.card)
        if len(cands) < 2:
            return basic_choice
        starts = []
        for c in cands:
            hand = list(view.hand)
            hand.remove(c)
            starts.append((hand, 0))
        scores = self._search(view, starts)
        places = [order.index(c) for c in cands]
        return _discard_of(cands[_best_of(scores, places, self.prior_weight)], legal,
                           basic_choice)

    def _best_after(self, view: SeatView, hand: list[Card]) -> list[Card]:
        """``hand`` minus the discard the fast policy would make."""
        card = self._fast_discard(view, hand)
        rest = list(hand)
        rest.remove(card)
        return rest

    def _search_draw(self, view: SeatView, basic_choice: Action) -> Action:
        top = view.top_discard
        assert top is not None  # noqa: S101 - narrows the type for mypy
        take = self._best_after(view, [*view.hand, top])
        scores = self._search(view, [(take, -2), (list(view.hand), -1)])
        if abs(scores[0] - scores[1]) < 1e-9:
            return basic_choice
        return Draw("discard") if scores[0] > scores[1] else Draw("stock")

    def _search_buy(self, view: SeatView, basic_choice: Action) -> Action:
        card = view.offered_card
        assert card is not None  # noqa: S101 - narrows the type for mypy
        if not self.basic.wants_buy(view) and self.basic.gain(view, card) <= 0:
            return Pass()
        penalty = self.rules.buy_penalty_cards
        scores = self._search(view, [([*view.hand, card], penalty), (list(view.hand), 0)])
        if abs(scores[0] - scores[1]) < 1e-9:
            return basic_choice
        return Buy() if scores[0] > scores[1] else Pass()

    def _search_shed(self, view: SeatView, legal: Sequence[Action],
                     basic_choice: Discard) -> Action:
        """Once down: the discard that lets the rest of the hand go out soonest."""
        options = list(dict.fromkeys(a.card for a in legal if isinstance(a, Discard)))
        cands = [c for c in options if not self._wild[c.index]]
        if len(cands) < 2:
            return basic_choice
        futures = self._futures(view)
        deadline = self._deadline
        totals = [0.0] * len(cands)
        done = 0
        began = time.perf_counter()
        for fut in futures:
            for i, c in enumerate(cands):
                hand = list(view.hand)
                hand.remove(c)
                totals[i] += self._shed_playout(view, hand, fut)
            done += 1
            now = time.perf_counter()
            if now + (now - began) / done > deadline:
                break
        self.last_iterations = done
        self.last_capped = done < len(futures)
        prior = {c: i for i, c in enumerate(self.basic.discard_order(view, options))}
        best_i = max(range(len(cands)),
                     key=lambda i: (totals[i] / done - self.prior_weight * prior.get(cands[i], 0),
                                    cands[i] == basic_choice.card))
        return _discard_of(cands[best_i], legal, basic_choice)

    def _shed_playout(self, view: SeatView, hand: list[Card], future: list[Card]) -> float:
        """Own turns until the hand can go out, drawing ``future`` and laying off
        what fits (the table grows with the lay-offs); higher is better."""
        rules = self.rules
        table = list(view.table)
        h = hand
        points = self._points
        horizon = self.horizon
        keep_one = 1  # the last card goes out as the discard
        ends = self._ends
        cost = ends[0] * sum(points[c.index] for c in h)
        for t in range(1, min(horizon, len(future)) + 1):
            h.append(future[t - 1])
            changed = True
            while changed and len(h) > keep_one:
                changed = False
                for c in h:
                    i = self.basic.fit_index(table, c)
                    if i >= 0:
                        grown = lay_off(table[i], c, rules)
                        if grown is not None:
                            table[i] = grown
                            h.remove(c)
                            changed = True
                            break
            if len(h) <= keep_one:
                return self._bonus * self._first[t] - cost
            # discard the most expensive card
            h.remove(max(h, key=lambda c: (not self._wild[c.index], points[c.index], c.index)))
            cost += ends[t] * sum(points[c.index] for c in h)
        return -(cost + sum(ends[t + 1:]) * sum(points[c.index] for c in h))

    # ------------------------------------------------------------- playouts
    def _fast_discard(self, view: SeatView, hand: list[Card],
                      used: set[int] | None = None) -> Card:
        """The playout policy's discard: a card outside the plan, the one with
        the fewest partners and the most points first."""
        planner = self.planner
        s = view.contract.sets
        if used is None:
            used = planner.plan(hand, s, view.contract.runs)[1]
        rank_cnt = [0] * 14
        for c in hand:
            rank_cnt[c.rank] += 1
        points = self._points
        wild = self._wild
        best = hand[0]
        best_key = (9, 0, 0)
        for c in hand:
            i = c.index
            if wild[i]:
                continue
            key = (1 if i in used else 0, rank_cnt[c.rank] if s else 0, -points[i])
            if key < best_key:
                best, best_key = c, key
        return best

    def _playout(self, view: SeatView, hand: list[Card], future: list[Card],
                 skip: int) -> float:
        """Minus the expected points the seat holds when the round ends, for one
        sampled future, higher is better (``skip`` > 0: that many penalty
        cards come first, a buy; -1: the first future card is this turn's
        stock draw, the discard was not taken; -2: this turn's draw and
        discard are already in ``hand``): each own turn's hand
        is weighted by the chance the round ends before the next turn
        (:func:`~liverpool.bots.round_end.risk_tables`); after a lay-down the cards left over are shed as a
        typical player who is down sheds them."""
        s, r = view.contract.sets, view.contract.runs
        mode = lay_down_mode(self.rules, view.round)
        spare = spare_of(mode)
        assess = self.planner.assess
        points = self._points
        wild = self._wild
        ends = self._ends
        h = list(hand)
        pos = 0
        t = 0  # own turn index: 0 is the current one
        post_draw = False
        if skip > 0:
            h.extend(future[:skip])
            pos = skip
        elif skip == -1:
            h.append(future[0])
            pos = 1
            post_draw = True
        need, used = assess(h, s, r, spare)
        horizon = self.horizon
        n = len(future)
        cost = 0.0
        while need > 0:
            if post_draw:
                h.remove(self._fast_discard(view, h, used))
            cost += ends[t] * sum(points[c.index] for c in h)
            if t >= horizon or pos >= n:
                return -(cost + sum(ends[t + 1:]) * sum(points[c.index] for c in h))
            t += 1
            post_draw = True
            h.append(future[pos])
            pos += 1
            need, used = assess(h, s, r, spare)
        if spare >= 0:  # the whole hand goes down: out
            return self._bonus * self._first[t] - cost
        # lay down: the naturals outside the plan are left (wild cards lay off)
        left: list[int] = []
        if self.leftover_fits:
            # ... but not those that grow a planned run or fit a meld on the table
            _, used, melds = self.planner.plan(h, s, r)
            fits = self._table_fits
            table = view.table
            for c in self.planner.loose_cards(h, used, melds):
                i = c.index
                fit = fits.get(i)
                if fit is None:
                    fit = fits[i] = self.basic.fits_table(table, c)
                if not fit:
                    left.append(points[i])
        else:
            taken: set[int] = set()
            for c in h:
                i = c.index
                if wild[i]:
                    continue
                if i in used and i not in taken:
                    taken.add(i)
                    continue
                left.append(points[i])
        if post_draw and left:
            left.remove(max(left))
        if not left:
            return self._bonus * self._first[t] - cost
        k = min(6, len(left))
        return self._bonus * self._outp[t][k] - (cost + sum(left) * self._tail[t][k])


def _best_of(scores: Sequence[float], places: Sequence[int], weight: float) -> int:
    """The best score's index, less ``weight`` per place in the ``basic`` order."""
    best_i, best = 0, scores[0] - weight * places[0]
    for i in range(1, len(scores)):
        sc = scores[i] - weight * places[i]
        if sc > best + 1e-9:
            best, best_i = sc, i
    return best_i


def _discard_of(card: Card, legal: Sequence[Action], basic_choice: Discard) -> Action:
    """The legal discard of ``card`` (``basic_choice`` itself when it discards it)."""
    if card == basic_choice.card:
        return basic_choice
    for a in legal:
        if isinstance(a, Discard) and a.card == card:
            return a
    return basic_choice
