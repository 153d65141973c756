"""The ruleset options (RULES.md §6): their names, what they mean and their values."""

from __future__ import annotations

import functools

from ..rules import Points, Rules
from ._catalog import N_, translations
from ._words import contract_words, language

__all__ = ["GROUP_TITLES", "OPTIONS", "RULES_LABELS", "VALUE_WORDS", "deck_summary",
           "describe_value", "final_round_note", "group_title", "option_description", "option_name",
           "points_table", "rules_label"]

#: Every option: its name for people and what it means (English msgids).
OPTIONS: dict[str, tuple[str, str]] = {
    "name": (N_("Name"), N_("the ruleset's name")),
    "players": (N_("Players"), N_("the allowed numbers of players, from the fewest to the most")),
    "decks": (N_("Decks"), N_("how many 52-card decks are shuffled together, by the number of "
                              "players")),
    "jokers_per_deck": (N_("Jokers per deck"), N_("jokers added with each deck")),
    "jokers_total": (N_("Jokers in all"), N_("when set, the number of jokers in the game "
                                             "(instead of jokers per deck)")),
    "wild_deuce_of_spades": (N_("Two of spades wild"), N_("every two of spades is a wild card")),
    "contracts": (N_("Contracts"), N_("the contract of each round: S a set, R a run")),
    "deal": (N_("Cards dealt"), N_("the cards dealt to each player in each round")),
    "initial_upcard": (N_("First discard"), N_("the top card of the stock is turned to start "
                                               "the discard pile")),
    "set_same_suit": (N_("Sets in one suit"), N_("a set must also be of one suit")),
    "run_same_suit": (N_("Runs in one suit"), N_("a run must be of one suit")),
    "run_wrap": (N_("Round the corner"), N_("whether a run may go on from the king through the "
                                            "ace to the two")),
    "min_naturals_set": (N_("Natural cards in a set"), N_("the natural cards a set must "
                                                          "keep")),
    "min_naturals_run": (N_("Natural cards in a run"), N_("the natural cards a run must "
                                                          "keep")),
    "naturals_at_least_wilds": (N_("No more wild than natural"), N_(
        "a meld never holds more wild cards than natural cards")),
    "no_adjacent_wilds_in_run": (N_("No wild cards side by side"), N_(
        "two wild cards may not lie next to each other in a run")),
    "contract_exact": (N_("Exact contract"), N_("the melds of a contract have exactly 3 (set) "
                                                "or 4 (run) cards")),
    "forbid_adjacent_same_suit_runs": (N_("No joining runs"), N_(
        "two runs of one suit in a contract may not join end to end")),
    "forbid_same_rank_sets": (N_("No sets of one rank"), N_(
        "two sets of the same rank may not be laid down as two melds")),
    "lay_off_same_turn": (N_("Lay off at once"), N_(
        "cards may be laid off in the turn the contract goes down")),
    "buying": (N_("Buying"), N_("players may buy the discard out of turn")),
    "buy_priority": (N_("Who may buy first"), N_("who is offered the discard first")),
    "buy_limit_per_round": (N_("Buys per round"), N_("how many buys each player may make in a "
                                                     "round")),
    "buy_penalty_cards": (N_("Penalty cards"), N_("the extra cards from the stock a buyer "
                                                  "takes")),
    "rebuy": (N_("Buying again"), N_("after a buy, whether the next discard is offered again")),
    "refill_empty_discard": (N_("Refill the discard pile"), N_(
        "an emptied discard pile is refilled with the top card of the stock")),
    "no_consecutive_buys": (N_("No two buys in a row"), N_("nobody buys twice in a row")),
    "joker_swap": (N_("Joker swap"), N_("where a wild card on the table may be swapped for the "
                                        "card it stands for")),
    "swapped_joker_must_be_played": (N_("Play the swapped joker"), N_(
        "a wild card taken in a swap must go onto the table in the same turn")),
    "discard_call": (N_("Discard call"), N_(
        "what other players may call on a discard that could have been laid off")),
    "call_last_discard": (N_("Call the last card"), N_(
        "the discard of a player's last card may be called too; the round then goes on")),
    "go_out_requires_discard": (N_("Go out with a discard"), N_(
        "the last card must be discarded to go out")),
    "final_round": (N_("Final round"), N_("how the last round is played")),
    "points": (N_("Points"), N_("the penalty points of the cards left in a hand")),
    "liverpool_cut": (N_("Liverpool cut"), N_(
        "the player right of the dealer cuts the deck; an exact cut scores a bonus")),
    "cut_bonus": (N_("Cut bonus"), N_("the points for an exact cut (negative: a reward)")),
    "cut_noise": (N_("Cut accuracy"), N_("how many cards the real cut may land from the number "
                                         "named")),
    "max_turns_per_round": (N_("Turn limit"), N_(
        "a safeguard: a round with this many turns ends without a winner")),
}

#: The words of the options' text values.
VALUE_WORDS: dict[str, dict[str, str]] = {
    "run_wrap": {"never": N_("never"),
                 "three_beside_ace": N_("through the ace, with three cards on one side of it "
                                        "when laid down"),
                 "always": N_("always")},
    "buy_priority": {"turn_player_first": N_("the player whose turn it is"),
                     "others_first": N_("the other players")},
    "rebuy": {"none": N_("no"), "next_card": N_("yes, the next discard")},
    "joker_swap": {"none": N_("not allowed"), "runs": N_("in runs"),
                   "runs_and_sets": N_("in runs and sets")},
    "discard_call": {"none": N_("none"),
                     "liverpool": N_('"Liverpool!": the discarder takes the card back and a '
                                     'penalty card'),
                     "liverpool_pile": N_('"Liverpool!": the discarder takes the whole discard '
                                          'pile'),
                     "shanghai": N_('"Shanghai!": the caller lays the card on the table and '
                                    'the discarder draws a card from the caller\'s hand')},
    "final_round": {"normal": N_("played like the other rounds"),
                    "all_at_once": N_("the whole hand goes down at once as the contract, "
                                      "without a discard"),
                    "all_at_once_discard": N_("the whole hand but one card goes down at once; "
                                              "one card is discarded")},
    "buy_limit_per_round": {"unlimited": N_("unlimited")},
    "jokers_total": {"players_minus_one": N_("one fewer than the players")},
}

#: How ``liverpool rules`` groups the options.
GROUP_TITLES: tuple[str, ...] = (
    N_("Players & deck"), N_("Rounds"), N_("Melds & wilds"), N_("Buying"), N_("Table play"),
    N_("Going out & scoring"), N_("Other"),
)


#: The other words of ``liverpool rules``.
RULES_LABELS: dict[str, str] = {
    "title": N_("Ruleset {name}  (from {source})"),
    "preset": N_("preset {name}"),
    "deck": N_("(deck)"),
    "option": N_("option"),
    "value": N_("value"),
    "meaning": N_("meaning"),
    "round": N_("round"),
    "contract": N_("contract"),
    "code": N_("code"),
    "min_cards": N_("min cards"),
    "cards_dealt": N_("cards dealt"),
}


def rules_label(key: str, lang: str = "en", **values: object) -> str:
    """A word of ``liverpool rules`` (a key of :data:`RULES_LABELS`), filled with ``values``."""
    return translations(language(lang)).gettext(RULES_LABELS[key]).format(**values)


def option_name(key: str, lang: str = "en") -> str:
    """The option ``key`` (e.g. ``buy_limit_per_round``) named for people."""
    entry = OPTIONS.get(key)
    return translations(language(lang)).gettext(entry[0]) if entry else key


def option_description(key: str, lang: str = "en") -> str:
    """What the option ``key`` means, in one line."""
    entry = OPTIONS.get(key)
    return translations(language(lang)).gettext(entry[1]) if entry else ""


def group_title(title: str, lang: str = "en") -> str:
    """A group title of ``liverpool rules`` (one of :data:`GROUP_TITLES`) in ``lang``."""
    return translations(language(lang)).gettext(title)


def _plain(value: object, lang: str) -> str:
    t = translations(lang)
    if value is None:
        return "—"
    if isinstance(value, bool):
        return t.gettext("yes") if value else t.gettext("no")
    if isinstance(value, tuple | list):
        return "[" + ", ".join(_plain(v, lang) for v in value) + "]"
    return str(value)


@functools.cache
def _points_words(lang: str) -> tuple[str, str, str, str, str, str]:
    t = translations(lang)
    return (t.gettext("2–9"), t.gettext("10"), t.gettext("J Q K"), t.gettext("A"),
            t.pgettext("points", "wild"), t.gettext("face value"))


def describe_value(key: str, value: object, lang: str = "en", rules: Rules | None = None) -> str:
    """The value of option ``key`` in words (``rules``, when given, explains
    values that depend on other options)."""
    lang = language(lang)
    t = translations(lang)
    words = VALUE_WORDS.get(key, {})
    if isinstance(value, str) and value in words:
        return t.gettext(words[value])
    if key == "jokers_total" and value is None:
        return t.gettext("— (jokers per deck count)")
    if key == "jokers_per_deck" and rules is not None and rules.jokers_total is not None:
        return t.gettext("{n} (not used: jokers in all is set)").format(n=value)
    if key == "points" and isinstance(value, Points | dict):
        return ", ".join(f"{label}: {points}" for label, points in points_table(value, lang))
    if key == "contracts" and isinstance(value, tuple | list):
        return "; ".join(contract_words(str(c).count("S"), str(c).count("R"), lang)
                         for c in value)
    if key == "deal" and isinstance(value, tuple | list):
        return ", ".join(str(n) for n in value)
    if key == "players" and isinstance(value, tuple | list) and len(value) == 2:
        return t.gettext("{low}–{high} players").format(low=value[0], high=value[1])
    if key == "decks" and isinstance(value, tuple | list):
        return "; ".join(t.ngettext("up to {players} players: {n} deck",
                                    "up to {players} players: {n} decks", int(n)).format(
                             players=up_to, n=n) for up_to, n in value)
    return _plain(value, lang)


def points_table(points: Points | dict[str, object], lang: str = "en") -> list[tuple[str, str]]:
    """The points of the cards left in a hand as rows of (cards, points) in ``lang``.

    >>> points_table(Points(), "en")[:2]
    [('2–9', '5'), ('10', '10')]
    """
    data = points if isinstance(points, dict) else {
        "two_to_nine": points.two_to_nine, "ten": points.ten, "face_cards": points.face_cards,
        "ace": points.ace, "wild": points.wild}
    two, ten, faces, ace, wild, face = _points_words(language(lang))
    low = data.get("two_to_nine")
    return [(two, face if low == "face" else str(low)), (ten, str(data.get("ten"))),
            (faces, str(data.get("face_cards"))), (ace, str(data.get("ace"))),
            (wild, str(data.get("wild")))]


def deck_summary(rules: Rules, lang: str = "en") -> str:
    """``3–4 players: 2 decks + 4 jokers = 108 cards; ...``"""
    t = translations(language(lang))
    lo, hi = rules.players
    groups: list[tuple[int, int, tuple[int, int]]] = []
    for n in range(lo, hi + 1):
        key = (rules.decks_for(n), rules.jokers_for(n))
        if groups and groups[-1][2] == key:
            groups[-1] = (groups[-1][0], n, key)
        else:
            groups.append((n, n, key))
    parts = []
    for first, last, (decks, jokers) in groups:
        who = f"{first}" if first == last else f"{first}–{last}"
        parts.append(t.gettext("{players} players: {decks} + {jokers} = {cards}").format(
            players=who,
            decks=t.ngettext("{n} deck", "{n} decks", decks).format(n=decks),
            jokers=t.ngettext("{n} joker", "{n} jokers", jokers).format(n=jokers),
            cards=t.ngettext("{n} card", "{n} cards", 52 * decks + jokers).format(
                n=52 * decks + jokers)))
    return "; ".join(parts)


def final_round_note(rules: Rules, lang: str = "en") -> str:
    """``Final round (round 7): all_at_once — the whole hand goes down at once ...``"""
    t = translations(language(lang))
    return t.gettext("Final round (round {round}): {mode} — {note}.").format(
        round=rules.num_rounds, mode=rules.final_round,
        note=describe_value("final_round", rules.final_round, lang))
