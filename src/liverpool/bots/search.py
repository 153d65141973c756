"""The ``search`` bot: determinized search over whole futures of the round.

At every decision where a choice matters the search player

1. samples the hidden cards consistently with what its seat has seen: each
   opponent holds the cards it was seen to take, buy or get back this round
   (:func:`~liverpool.bots.whereabouts.card_whereabouts`), and the unseen cards are
   shuffled among the rest of the other hands and the stock; of ``infer_pool``
   times as many such deals it keeps those whose hands fit best what their
   players passed over (``infer``);
2. builds the sampled game with :meth:`Game.from_view <liverpool.Game.from_view>`
   and, for every candidate action, plays a copy of it (``Game.copy``) to the
   end of the round with the candidate first and then every seat, its own
   included, played by the fast ``basic`` bot;
3. scores each future by the round's points relative to the others (the mean
   of the opponents' round points minus its own) plus ``out_bonus`` when it
   went out (or, with ``value="learned"``, plays each future only until the
   next turn begins and scores it by the points a network fitted to many
   games expects: :mod:`liverpool.bots.value`; where the network does not
   apply, the futures are played out), and chooses the candidate with the
   best mean over the samples (every candidate sees the same samples:
   common random numbers) — but leaves the *base* bot's choice
   (``expert``'s by default, or ``basic``'s) only for a candidate whose mean
   gain over it, sample by sample, exceeds ``confidence`` standard errors:
   the futures of a round vary by tens of points, and a few samples alone
   mostly measure noise.

The candidates are the base bot's choice, the ``basic`` bot's choice and
its alternatives: both draws, buy or pass, lay down or wait (the best
discards instead), a lay-off or joker swap or the best discard instead, the
best ``candidates`` discards by the ``basic`` order, a call or pass. A
decision with one legal action (or one candidate) is answered at once, and
so is the cut; with ``quick`` so are the decisions the search hardly ever
changed when it was measured: a lay-off or joker swap, and a pass in a buy
window when the seat is down or the card would not bring its hand nearer
the contract. In an all-at-once final round the base bot's choice stands
(``final_search`` off): ``expert`` plays that round by its own race to go
out, which its futures of ``basic`` play do not beat.

The budget is ``iterations`` samples per decision and a ``time_ms`` cap
(the base bot's own search included: ``expert`` gets a quarter of it): the
search stops before a sample that would overrun it. Every ``batch`` samples
it drops the alternatives whose futures have not gained on the base choice
so far, and it stops when none is left. With ``time_ms=float("inf")`` only
the iterations count and the bot is exactly reproducible from its seed.

>>> from liverpool import Game, load_rules
>>> rules = load_rules("liverpool")
>>> game = Game(rules, players=4, seed=2)
>>> bot = SearchBot(rules, seed=1, iterations=2, time_ms=float("inf"))
>>> game.can_apply(bot.choose(game.view(0), game.legal_actions()))
True
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence

from ..actions import Action, Buy, Call, Discard, Draw, LayDown, LayOff, Pass, SwapJoker
from ..cards import Card
from ..engine import Game
from ..errors import RecordError
from ..events import RoundEnded
from ..melds import cards_left, grow_lay_down, lay_down_mode
from ..rules import Rules
from ..solver import iter_lay_downs
from ..views import SeatView, SeatViews
from .base import Bot
from .basic import BasicBot
from .expert import ExpertBot
from .inference import fit_deal, wanted_count
from .planner import spare_of
from .value import ValueNet, features
from .whereabouts import card_whereabouts, passed_over

__all__ = ["SearchBot", "deal_sample", "play_from", "play_on", "play_out", "sample_game"]


class SearchBot:
    """The determinized (PIMC) search player (see the module text).

    Options: ``iterations`` (sampled deals per decision, default 8),
    ``time_ms`` (cap per decision, default 800), ``candidates`` (discards
    searched, default 2), ``out_bonus`` (points a future that goes out earns,
    default 10), ``max_actions`` (actions played per future before it is
    scored by the hands' points, default 600), ``confidence`` (how many
    standard errors an alternative's mean gain over the base choice must
    exceed to be chosen instead, default 1.5), ``batch`` (samples between the
    prunings of the alternatives, default 4; 0: never), ``base`` (whose
    choice stands unless beaten: ``"expert"``, the default, or ``"basic"``),
    ``quick`` (answer the settled decisions at once, default on),
    ``draw_search`` and ``buy_search`` (search those decisions, default on;
    off: the base bot's choice stands), ``infer`` (deal the samples from
    ``infer_pool`` times as many, keeping those whose hands fit best what
    their players passed over; default on; ``infer_pool`` default 8, the
    dealing stopped at a quarter of the time cap), ``fit`` (deal hands that
    look like the other players', :func:`~liverpool.bots.inference.fit_deal`;
    default off: it measured within the noise), ``final_search`` (search an
    all-at-once final round too; default off: the base bot's choice stands in
    that round, which measured better), ``lay_downs`` (other ways to lay the
    contract down searched beside the engine's suggestion, default 2),
    ``value`` (how a future is valued: ``"playout"``, the default, to the
    round's end; ``"learned"``, to the next turn and then by the network of
    :mod:`liverpool.bots.value` where it applies), ``fallback`` (with
    ``value="learned"``, where the network does not apply: ``"playout"``,
    the default, plays the futures out; ``"base"`` searches nothing and
    leaves the decision to the base bot, which then has the whole time cap).
    """

    def __init__(self, rules: Rules, seed: int = 0, *, iterations: int = 8,
                 time_ms: float = 800.0, candidates: int = 2, out_bonus: float = 10.0,
                 max_actions: int = 600, confidence: float = 1.5, batch: int = 4,
                 base: str = "expert", quick: bool = True, draw_search: bool = True,
                 buy_search: bool = True, infer: bool = True, infer_pool: int = 8,
                 fit: bool = False, final_search: bool = False, lay_downs: int = 2,
                 value: str = "playout", fallback: str = "playout") -> None:
        if iterations < 1:
            raise ValueError("iterations must be at least 1")
        if value not in ("playout", "learned"):
            raise ValueError(f"value must be 'playout' or 'learned', not {value!r}")
        if fallback not in ("playout", "base"):
            raise ValueError(f"fallback must be 'playout' or 'base', not {fallback!r}")
        self.name = "search"
        self.rules = rules
        self.rng = random.Random(seed)  # noqa: S311 - a bot's seeded choices, not secrets
        self.iterations = int(iterations)
        self.time_ms = float(time_ms)
        self.candidates = max(1, int(candidates))
        self.out_bonus = float(out_bonus)
        self.max_actions = int(max_actions)
        self.confidence = float(confidence)
        self.batch = max(0, int(batch))
        self.quick = bool(quick)
        self.draw_search = bool(draw_search)
        self.buy_search = bool(buy_search)
        self.infer = bool(infer)
        self.infer_pool = max(1, int(infer_pool))
        self.fit = bool(fit)
        self.final_search = bool(final_search)
        self.lay_downs = max(0, int(lay_downs))
        self.basic = BasicBot(rules, seed)
        if base not in ("basic", "expert"):
            raise ValueError(f"base must be 'basic' or 'expert', not {base!r}")
        #: the bot whose choice stands unless the search finds a clearly better one
        self.base: Bot = self.basic
        if base == "expert":
            self.base = ExpertBot(rules, seed, time_ms=self.time_ms / 4)
        #: ``value="learned"``: the network that values a future cut short at the next turn
        self.net: ValueNet | None = ValueNet.shipped() if value == "learned" else None
        self.fallback = fallback
        #: the playout policy: one ``basic`` bot per seat, built on first use
        self._policy: list[BasicBot] = []
        #: samples played at the last decision (0: answered without a search)
        self.last_iterations = 0
        #: did the time cap end the last decision's search?
        self.last_capped = False

    # -------------------------------------------------------------- choose
    def reseed(self, seed: int) -> None:
        """Play on as if built with ``seed`` (the RL environments call it at each reset)."""
        self.rng.seed(seed)
        self.basic.reseed(seed)
        self._policy.clear()
        reseed = getattr(self.base, "reseed", None)
        if self.base is not self.basic and callable(reseed):
            reseed(seed)

    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        if not legal:
            raise ValueError("there is no legal action to choose from")
        self.last_iterations = 0
        self.last_capped = False
        if len(legal) == 1:
            return legal[0]
        start = time.perf_counter()
        basic_choice = self.basic.choose(view, legal)
        seat = view.seat
        if seat is None or view.phase == "cut":
            return basic_choice
        if self.base_alone(view):
            return self._base_choice(view, legal)
        choice = basic_choice if self.base is self.basic else self.base.choose(view, legal)
        if self.quick and self._settled(view, seat, choice):
            return choice
        if (view.phase == "draw" and not self.draw_search) or (
                view.phase == "buy" and not self.buy_search):
            return choice
        if not self.final_search and lay_down_mode(self.rules, view.round) != "normal":
            return choice
        options = self.candidate_actions(view, legal, basic_choice)
        options = [choice] + [a for a in options if a != choice]
        if len(options) == 1:
            return options[0]
        return self._search(view, seat, options, start)

    @property
    def expert(self) -> ExpertBot | None:
        """The base bot when it is ``expert`` (its time cap changes with ``fallback``)."""
        return self.base if isinstance(self.base, ExpertBot) else None

    def base_alone(self, view: SeatView) -> bool:
        """Does the base bot decide alone here (``fallback="base"`` where the
        learned network does not apply)?"""
        net = self.net
        return (net is not None and self.fallback == "base"
                and not net.applies_to_round(self.rules, view.players, view.round))

    def _base_choice(self, view: SeatView, legal: Sequence[Action]) -> Action:
        """The base bot's choice, ``expert`` given the whole time cap for it
        (then its quarter of it again)."""
        expert = self.expert
        if expert is None:
            return self.base.choose(view, legal)
        expert.time_ms = self.time_ms
        try:
            return expert.choose(view, legal)
        finally:
            expert.time_ms = self.time_ms / 4

    def _settled(self, view: SeatView, seat: int, choice: Action) -> bool:
        """Is ``choice`` one the search hardly ever changes (``quick``)? A
        lay-off or joker swap, and a pass in a buy window when the seat is down
        or the card would not bring its hand nearer the contract."""
        if isinstance(choice, LayOff | SwapJoker):
            return True
        if view.phase != "buy" or not isinstance(choice, Pass) or view.offered_card is None:
            return False
        if view.laid_down[seat]:
            return True
        if lay_down_mode(self.rules, view.round) != "normal":
            return False
        planner = self.basic.planner
        c = view.contract
        return planner.need_with(view.hand, view.offered_card, c.sets, c.runs) >= \
            planner.need(view.hand, c.sets, c.runs)

    def candidate_actions(self, view: SeatView, legal: Sequence[Action],
                          basic_choice: Action) -> list[Action]:
        """The actions searched: the ``basic`` choice first, then its alternatives."""
        out: list[Action] = [basic_choice]
        phase = view.phase
        if phase in ("draw", "buy"):
            out += [a for a in legal if isinstance(a, Draw | Buy | Pass)]
        elif phase == "call":
            calls = [a for a in legal if isinstance(a, Call)]
            out += calls[:self.candidates]
            out += [a for a in legal if isinstance(a, Pass)]
        elif phase == "play":
            discards = self._best_discards(view, legal, basic_choice)
            if isinstance(basic_choice, Discard):
                out += discards
            elif isinstance(basic_choice, LayDown):
                out += self.other_lay_downs(view, basic_choice)  # which melds
                out += discards  # wait: lay down later
            elif isinstance(basic_choice, LayOff | SwapJoker):
                out += discards[:1]
        seen: list[Action] = []
        for a in out:
            if a not in seen:
                seen.append(a)
        return seen

    def other_lay_downs(self, view: SeatView, suggested: LayDown) -> list[Action]:
        """Up to ``lay_downs`` other ways to lay the contract down in a normal
        round, each leaving the hand other cards than ``suggested`` does (the
        choice of melds matters only through the cards kept): of the first 32
        lay-downs of the hand (:func:`~liverpool.solver.iter_lay_downs`, each
        grown as the engine grows its suggestion), those leaving the fewest
        points in hand.
        """
        rules = self.rules
        rnd = view.round
        if self.lay_downs <= 0 or lay_down_mode(rules, rnd) != "normal":
            return []
        hand = view.hand
        seen = {tuple(sorted(c.index for c in cards_left(hand, suggested.melds)))}
        found: list[tuple[int, int, LayDown]] = []
        for k, melds in enumerate(iter_lay_downs(hand, rules, rnd)):
            if k >= 32:
                break
            grown = grow_lay_down(melds, hand, rules, rnd)
            left = cards_left(hand, grown)
            key = tuple(sorted(c.index for c in left))
            if key not in seen:
                seen.add(key)
                found.append((rules.hand_points(left), k, LayDown(grown)))
        found.sort(key=lambda t: (t[0], t[1]))
        return [a for _p, _k, a in found[:self.lay_downs]]

    def _best_discards(self, view: SeatView, legal: Sequence[Action],
                       basic_choice: Action) -> list[Action]:
        """The legal discards of the ``candidates`` best cards by the ``basic`` order."""
        plain: dict[Card, Discard] = {}
        announced: dict[Card, Discard] = {}
        for a in legal:
            if isinstance(a, Discard):
                (announced if a.announce else plain)[a.card] = a
        if not plain and not announced:
            return []
        order = self.basic.discard_order(view, list({**plain, **announced}))
        announce = isinstance(basic_choice, Discard) and basic_choice.announce
        out: list[Action] = []
        for card in order[:self.candidates]:
            first, second = (announced, plain) if announce else (plain, announced)
            out.append(first.get(card) or second[card])
        return out

    # -------------------------------------------------------------- search
    def _search(self, view: SeatView, seat: int, options: list[Action], start: float
                ) -> Action:
        """The best of ``options`` (the first: the base bot's choice) by their
        futures in sampled deals, within the time cap counted from ``start``."""
        clock = time.perf_counter
        budget = self.time_ms / 1000.0
        unseen, known = card_whereabouts(self.rules, view)
        deals = None
        if self.infer:
            deals = self._inferred_deals(view, unseen, known, start + budget / 4)
        values: list[list[float]] = [[] for _ in options]
        alive = list(range(len(options)))
        done = 0
        slowest = 0.0
        batch = self.batch
        for _ in range(self.iterations):
            if done and clock() - start + slowest > budget:
                self.last_capped = True
                break
            t0 = clock()
            if deals is not None:
                if done >= len(deals):  # (only the time cap deals fewer)
                    self.last_capped = True
                    break
                hands, stock = deals[done]
                try:
                    game: Game | None = Game.from_view(self.rules, view, hands, stock,
                                                       seed=self.rng.randrange(1 << 30))
                except RecordError:
                    game = None
            else:
                game = self._sample(view, unseen, known)
            if game is None:
                break
            for i in alive:
                values[i].append(self.future(game, seat, options[i]))
            done += 1
            slowest = max(slowest, clock() - t0)
            if batch and done % batch == 0:
                # drop the alternatives that have not gained on the first candidate
                base = values[0]
                alive = [0] + [i for i in alive[1:] if sum(values[i]) > sum(base[:done])]
                if len(alive) == 1:
                    break
        self.last_iterations = done
        return options[alive[self.best([values[i] for i in alive])]]

    def best(self, values: list[list[float]]) -> int:
        """The index of the candidate chosen from the values of its futures
        (``values[i][k]``: candidate ``i`` in sample ``k``; candidate 0 is the
        base choice): the best mean among those whose mean gain over the
        base choice in the same samples exceeds ``confidence`` standard
        errors of that gain; 0 when none does.

        >>> from liverpool import load_rules
        >>> bot = SearchBot(load_rules("liverpool"), confidence=1.0)
        >>> bot.best([[0, 0, 0, 0], [5, 6, 4, 5], [9, -20, 30, -1]])
        1
        >>> bot.best([[0, 0, 0, 0], [1, -1, 2, -2]])
        0
        """
        base = values[0]
        n = len(base)
        if n == 0:
            return 0
        best, best_mean = 0, 0.0
        for i in range(1, len(values)):
            gains = [v - b for v, b in zip(values[i], base, strict=True)]
            mean = sum(gains) / n
            if mean <= best_mean:
                continue
            if n > 1:
                var = sum((g - mean) ** 2 for g in gains) / (n - 1)
                if mean <= self.confidence * (var / n) ** 0.5:
                    continue
            best, best_mean = i, mean
        return best

    def _inferred_deals(self, view: SeatView, unseen: list[Card], known: list[list[Card]],
                        deadline: float) -> list[tuple[list[list[Card]], list[Card]]]:
        """The ``iterations`` deals, of ``infer_pool`` times as many sampled, whose
        hands fit best what their players passed over
        (:func:`~liverpool.bots.whereabouts.passed_over`): a deal's misfits are
        the cards a player not yet down left or threw that would have brought
        its sampled hand a card nearer the contract; the deals with the fewest
        are kept (each once: a deal played twice would look like two that agree).
        No deal is sampled past ``deadline`` (a :func:`time.perf_counter` time)."""
        rng = self.rng
        passed = passed_over(view)
        planner = self.basic.planner
        c = view.contract
        mode = lay_down_mode(self.rules, view.round)
        spare = spare_of(mode)
        scored: list[tuple[int, int, tuple[list[list[Card]], list[Card]]]] = []
        for k in range(self.iterations * self.infer_pool):
            if k and time.perf_counter() > deadline:
                break
            hands, stock = deal_sample(view, unseen, known, rng)
            if self.fit:
                fit_deal(self.rules, view, known, hands, stock, rng, planner)
            misfits = 0
            for o, cards in enumerate(passed):
                if not cards or view.laid_down[o]:
                    continue
                misfits += wanted_count(planner, hands[o], cards, c.sets, c.runs, spare)
            scored.append((misfits, k, (hands, stock)))
        scored.sort(key=lambda t: (t[0], t[1]))
        return [deal for _m, _k, deal in scored[:self.iterations]]

    def _sample(self, view: SeatView, unseen: list[Card], known: list[list[Card]]
                ) -> Game | None:
        """:func:`sample_game` with the bot's generator; None when the view
        cannot be filled in (never in a real game)."""
        try:
            if not self.fit:
                return sample_game(self.rules, view, unseen, known, self.rng)
            hands, stock = deal_sample(view, unseen, known, self.rng)
            fit_deal(self.rules, view, known, hands, stock, self.rng, self.basic.planner)
            return Game.from_view(self.rules, view, hands, stock,
                                  seed=self.rng.randrange(1 << 30))
        except RecordError:
            return None

    def future(self, sample: Game, seat: int, action: Action) -> float:
        """The value for ``seat`` of ``action`` then the ``basic`` policy to the
        round's end, in a copy of ``sample`` (the score of the module text);
        with ``value="learned"``, where the network applies, to the next turn
        only (:meth:`learned_future`). A subclass may value its futures
        otherwise by overriding it."""
        net = self.net
        if net is not None and net.applies_to_round(self.rules, sample.num_players,
                                                    sample.state.round):
            return self.learned_future(sample, seat, action, net)
        scores, winner = play_out(sample, seat, action, self._playout_policy(sample),
                                  self.max_actions)
        return self._score(scores, seat, winner == seat)

    def learned_future(self, sample: Game, seat: int, action: Action, net: ValueNet) -> float:
        """``action`` then the ``basic`` policy until the next turn begins, in a
        copy of ``sample``, valued by ``net``: the mean of the others' points
        it expects less the seat's own, plus ``out_bonus`` times the chance it
        gives the seat of going out. A round that ends sooner is scored as
        :meth:`future` scores it."""
        game, ended = play_from(sample, seat, action, self._playout_policy(sample),
                                self.max_actions, turns=1)
        if ended is not None:
            scores, winner = ended
            return self._score(scores, seat, winner == seat)
        outs = [net(row) for row in features(self.basic, game,
                                             seat if net.as_expert else None)]
        odds = outs[seat][1]
        going_out = 1.0 / (1.0 + math.exp(-odds)) if odds > -500 else 0.0
        return self._score([p * 100 for p, _o in outs], seat, False) \
            + self.out_bonus * going_out

    def _playout_policy(self, sample: Game) -> list[BasicBot]:
        """One ``basic`` bot per seat of ``sample``, built on first use."""
        policy = self._policy
        if len(policy) != sample.num_players:
            policy[:] = [BasicBot(self.rules, s) for s in range(sample.num_players)]
        return policy

    def _score(self, scores: Sequence[float], seat: int, went_out: bool) -> float:
        """The mean of the others' round points less the seat's own, plus
        ``out_bonus`` when it went out."""
        n = len(scores)
        others = (sum(scores) - scores[seat]) / (n - 1)
        return others - scores[seat] + (self.out_bonus if went_out else 0.0)


def sample_game(rules: Rules, view: SeatView, unseen: Sequence[Card],
                known: Sequence[Sequence[Card]], rng: random.Random) -> Game:
    """A game consistent with ``view``: each other seat holds the cards it was
    seen to take (``known``, as :func:`~liverpool.bots.whereabouts.card_whereabouts`
    gives them with the ``unseen`` cards) and unseen ones at random up to its
    hand size; the rest is the stock, in a random order. Raises
    :class:`~liverpool.RecordError` when the view cannot be filled in."""
    hands, stock = deal_sample(view, unseen, known, rng)
    return Game.from_view(rules, view, hands, stock, seed=rng.randrange(1 << 30))


def deal_sample(view: SeatView, unseen: Sequence[Card], known: Sequence[Sequence[Card]],
                rng: random.Random) -> tuple[list[list[Card]], list[Card]]:
    """The hands and the stock of :func:`sample_game`, before the game is built."""
    pool = list(unseen)
    hands: list[list[Card]] = []
    for s in range(view.players):
        if s == view.seat:
            hands.append(list(view.hand))
            continue
        hands.append(list(known[s][:view.hand_sizes[s]]))
        pool += known[s][view.hand_sizes[s]:]
    rng.shuffle(pool)
    for s in range(view.players):
        if s != view.seat:
            need = view.hand_sizes[s] - len(hands[s])
            hands[s] += pool[:need]
            del pool[:need]
    return hands, pool


def play_out(sample: Game, seat: int, action: Action, policy: Sequence[Bot],
             max_actions: int = 600) -> tuple[list[int], int | None]:
    """Play ``action`` of ``seat`` and then the rest of the round, every seat
    played by its bot of ``policy``, in a copy of ``sample``; (every seat's
    round points, the seat that went out or None). A future cut short after
    ``max_actions`` actions counts the points in hand then, and nobody went out.

    >>> from liverpool import Game, load_rules
    >>> rules = load_rules("liverpool")
    >>> game = Game(rules, players=3, seed=5)
    >>> policy = [BasicBot(rules, s) for s in range(3)]
    >>> seat = game.to_move
    >>> scores, winner = play_out(game, seat, game.legal_actions()[0], policy)
    >>> len(scores), winner is None or scores[winner] == 0, game.round
    (3, True, 1)
    """
    game, ended = play_from(sample, seat, action, policy, max_actions)
    if ended is not None:
        return ended
    return [game.rules.hand_points(h) for h in game.state.hands], None


def play_from(sample: Game, seat: int, action: Action, policy: Sequence[Bot],
              max_actions: int = 600, turns: int = 0
              ) -> tuple[Game, tuple[list[int], int | None] | None]:
    """A copy of ``sample`` with ``action`` of ``seat`` applied and played on
    by :func:`play_on` (``max_actions``, ``turns``), and, when the round
    ended in it, (every seat's round points, the seat that went out or None)."""
    game = sample.copy()
    state = game.state
    rnd = state.round
    scored = len(state.round_scores)
    game.apply(action, seat)
    play_on(game, policy, SeatViews(game), max_actions, turns)
    if len(state.round_scores) > scored:
        winner = next((e.winner for e in reversed(game.events) if e.__class__ is RoundEnded),
                      None)
        return game, (list(state.round_scores[rnd - 1]), winner)
    return game, None


def play_on(game: Game, policy: Sequence[Bot], views: SeatViews, max_actions: int = 600,
            turns: int = 0) -> int:
    """Play ``game`` on in place, every seat played by its bot of ``policy``
    (``views``: the game's :class:`~liverpool.views.SeatViews`), until the
    round ends or ``max_actions`` actions were played, or with ``turns`` > 0
    until the ``turns``-th turn after the present one begins (its draw); the
    number of actions played.

    >>> from liverpool import Game, load_rules
    >>> rules = load_rules("liverpool")
    >>> game = Game(rules, players=4, seed=5)
    >>> policy = [BasicBot(rules, s) for s in range(4)]
    >>> turn = game.state.turn_number
    >>> played = play_on(game, policy, SeatViews(game), turns=1)
    >>> played > 0, game.state.phase, game.state.turn_number == turn + 1
    (True, 'draw', True)
    """
    state = game.state
    scored = len(state.round_scores)
    turn = state.turn_number if state.phase == "draw" else -1
    begun = played = 0
    while len(state.round_scores) == scored and played < max_actions:
        if turns and state.phase == "draw" and state.turn_number != turn:
            turn = state.turn_number
            begun += 1
            if begun >= turns:
                break
        mover = game.to_move
        if mover is None:
            break
        legal = game.legal_actions()
        game.apply(policy[mover].choose(views.view(mover, legal), legal))
        played += 1
    return played
