"""The words of a game review (:mod:`liverpool.review`): verdicts, the better
move with why it is better, and the labels of the report."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..cards import Card
from ._catalog import N_, translations
from ._render import Context, segments
from ._words import CardFormat, Segments, card_formatter, fill, language, to_text

__all__ = ["REVIEW_LABELS", "VERDICT_WORDS", "hint_text", "review_better", "review_label",
           "review_move", "review_verdict"]

#: The verdicts in words.
VERDICT_WORDS: dict[str, str] = {
    "good": N_("good"),
    "inaccuracy": N_("inaccuracy"),
    "mistake": N_("mistake"),
    "blunder": N_("blunder"),
}

#: Why the better move is better, by the reason codes of :mod:`liverpool.review`.
_REASONS: dict[str, str] = {
    "goes_out": N_("you go out"),
    "lay_down": N_("it lays your contract down now"),
    "lay_down_fewer": N_("it leaves {points} points fewer in your hand"),
    "lay_down_keeps": N_("it keeps the {card} in your hand"),
    "lay_off": N_("the {card} leaves your hand for the table"),
    "completes": N_("the {card} completes your contract"),
    "closer": N_("the {card} brings your contract a card closer"),
    "fits_table": N_("the {card} can be laid off at once"),
    "not_needed": N_("the {card} does not help your contract and adds to your hand"),
    "no_help": N_("the {card} does not help your contract"),
    "feeds": N_("the {card} fits a meld on the table: an opponent who is down can take it"),
    "keep": N_("keep the {card}: your contract needs it"),
    "pair": N_("keep the {card}: it makes a pair with your {other}"),
    "run_part": N_("keep the {card}: it can make a run with your {other}"),
    "shed": N_("the {card} would cost {points} points more left in your hand"),
    "wait": N_("wait with the lay-down"),
    "wild": N_("keep the {card}: a wild card helps any contract"),
}

#: The labels of ``liverpool review``'s report.
REVIEW_LABELS: dict[str, str] = {
    "title": N_("Review of {name}'s game ({rules}, {players} players)"),
    "summary": N_("Accuracy {accuracy} %; final total {total}; {samples} samples a decision"),
    "summary_one": N_("Accuracy {accuracy} %; final total {total}; 1 sample a decision"),
    "round": N_("round"),
    "accuracy": N_("accuracy"),
    "decisions": N_("decisions"),
    "rounds": N_("Accuracy per round"),
    "costliest": N_("The costliest decisions"),
    "step": N_("step"),
    "played": N_("played"),
    "verdict": N_("verdict"),
    "loss": N_("points lost"),
    # a decision's loss: the cautious one (the mean loss less one standard error), so "at least"
    "lost": N_("at least {points} points lost"),
    "better": N_("better"),
    "graph": N_("Expected final total along the game"),
    "all": N_("Other costly decisions"),
    "none": N_("None: every decision was good."),
    "expected": N_("expected total"),
    # the replay page's
    "button": N_("Review"),
    "seat": N_("Whose game"),
    "queued": N_("Waiting for the coach…"),
    "working": N_("The coach is reviewing: {done} of {total} decisions"),
    "failed": N_("The review failed: try again."),
    "goto": N_("Step {step}"),
}


def _shown(cards: CardFormat, symbols: bool, lang: str) -> Callable[[Card], str]:
    """How a review's or a hint's text shows a card: as ``cards`` and
    ``symbols`` say, but a joker by its name (``joker``, as the page's cards
    name it), not by the notation's ``*``."""
    return card_formatter(cards, symbols, lang, joker_word=True)


def review_label(key: str, lang: str = "en", **values: object) -> str:
    """A word of the review's report (a key of :data:`REVIEW_LABELS`), filled in."""
    return translations(language(lang)).gettext(REVIEW_LABELS[key]).format(**values)


def review_verdict(verdict: str, lang: str = "en") -> str:
    """A verdict (``good``, ``inaccuracy``, ``mistake``, ``blunder``) in words.

    >>> review_verdict("blunder", "nb"), review_verdict("mistake", "da")
    ('tabbe', 'fejl')
    """
    return translations(language(lang)).gettext(VERDICT_WORDS[verdict])


def _move(action: Any, card: Card | None, c: Context) -> Segments:
    """The better move; a draw or a buy names the card it takes."""
    kind = type(action).__name__
    if card is not None and kind == "Draw" and action.source == "discard":
        return fill(c.act("take {card} from the discard pile"), {"card": card})
    if card is not None and kind == "Buy":
        return fill(c.act("buy {card}"), {"card": card})
    return segments(action, c)


def _unbroken(text: str) -> str:
    """``text`` with the space before a per cent sign made a no-break space, so
    that a narrow screen never puts the sign alone on a line ("25 %")."""
    return text.replace(" %", "\u00a0%")


def review_move(action: Any, card: Card | None, lang: str = "en", cards: CardFormat = None, *,
                symbols: bool = True, table: Sequence[Any] | None = None) -> str:
    """An action of a review in words; a draw from the discard pile or a buy
    names the card it takes (``card``); with ``table`` (the melds on the
    table) a lay-off names its meld by its cards.

    >>> from liverpool.actions import Buy
    >>> review_move(Buy(), Card.parse("7H"), "nb")
    'kjøpe 7♥'
    """
    lang = language(lang)
    return to_text(_move(action, card, Context(lang, None, table or None)),
                   _shown(cards, symbols, lang))


def review_better(decision: Any, lang: str = "en", cards: CardFormat = None, *,
                  symbols: bool = True) -> str | None:
    """The sentence "better: …" of a reviewed decision (a
    :class:`liverpool.review.Decision`), None when nothing was better."""
    lang = language(lang)
    # (a lay-off names its meld by its cards, as the replay shows them, not by a number)
    c = Context(lang, None, getattr(decision, "table", None) or None, imperative=True)
    best = decision.best
    played = decision.played
    if best.action == played.action:
        return None
    parts: Segments = fill(c.t.gettext("Better: {move}"),
                           {"move": _move(best.action, decision.card, c)})
    if decision.reason is not None:
        code, params = decision.reason
        template = _REASONS.get(code)
        if template is not None:
            parts += [", "] + fill(c.t.gettext(template), params)
    parts += ["."]
    values = {"best": f"{best.points:.0f}", "played": f"{played.points:.0f}",
              "best_out": f"{100 * best.out:.0f}", "played_out": f"{100 * played.out:.0f}"}
    if values["best_out"] == values["played_out"]:  # (no "0 % instead of 0 %")
        parts += [" "] + fill(c.t.gettext(
            "Expected points at the round's end {best} instead of {played}."), values)
    else:
        parts += [" "] + fill(c.t.gettext(
            "Expected points at the round's end {best} instead of {played}; chance to go out "
            "first {best_out} % instead of {played_out} %."), values)
    return _unbroken(to_text(parts, _shown(cards, symbols, lang)))


def hint_text(hint: Any, lang: str = "en", cards: CardFormat = None, *,
              symbols: bool = True, table: Sequence[Any] | None = None) -> str:
    """The sentence of a hint (a :class:`liverpool.review.Hint`): the move,
    why (the coach's words), and its values when it was searched. With
    ``table`` (the melds on the table), a lay-off or a swap names its meld by
    its cards, as the player sees it, not by its number.

    >>> from liverpool.actions import Draw
    >>> from liverpool.review import Hint
    >>> hint_text(Hint(Draw("discard"), "draw", (), 0, ("completes", {"card": Card.parse("7H")}),
    ...                Card.parse("7H")), "nb")
    'Tips: ta 7♥ fra kastehaugen, 7♥ fullfører kontrakten din.'
    """
    lang = language(lang)
    c = Context(lang, None, table, imperative=True)
    parts: Segments = fill(c.t.gettext("Hint: {move}"), {"move": _move(hint.action, hint.card, c)})
    if hint.reason is not None:
        template = _REASONS.get(hint.reason[0])
        if template is not None:
            parts += [", "] + fill(c.t.gettext(template), hint.reason[1])
    parts += ["."]
    if hint.options:
        best = hint.options[0]
        parts += [" "] + fill(c.t.gettext(
            "Expected points at the round's end {points}; chance to go out first {out} %."),
            {"points": f"{best.points:.0f}", "out": f"{100 * best.out:.0f}"})
    return _unbroken(to_text(parts, _shown(cards, symbols, lang)))
