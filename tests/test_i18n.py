"""liverpool.i18n: every event, action, error and option in English, Norwegian and Danish,
and catalogs that are complete and compiled."""

from __future__ import annotations

import dataclasses
import gettext
import io
import re
import string
import typing
from pathlib import Path
from typing import Any

import pytest
from positions import card

from liverpool import actions, events, i18n
from liverpool.cards import Card, CardError, parse_cards
from liverpool.errors import MESSAGES, REASONS, GameError
from liverpool.i18n._catalog import LOCALE_DIR
from liverpool.i18n._options import VALUE_WORDS
from liverpool.melds import Meld, MeldError, check_lay_down, meld_error, meld_problem
from liverpool.rules import Contract, Points, Rules, RulesError
from liverpool.ruleset_io import PRESETS, load_rules

OTHER = ("nb", "da")
PACKAGE = Path(i18n.__file__).resolve().parent
SOURCES = PACKAGE.parent  # src/liverpool


RUN = Meld("run", tuple(parse_cards("5H 6H * 8H")), 5, 1)
SET = Meld("set", tuple(parse_cards("9S 9D 9C")), 9, -1)


def fields_of(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def leftover(text: str) -> list[str]:
    return re.findall(r"\{\w*\}", text)


# --------------------------------------------------------------------- catalogs
@pytest.fixture
def babel() -> Any:
    """Babel (the dev extra) reads, extracts and compiles the catalogs."""
    import babel as module  # the dev extra: a missing Babel fails these tests

    return module


def _po(lang: str, domain: str = "liverpool") -> Any:
    from babel.messages.pofile import read_po

    with open(LOCALE_DIR / lang / "LC_MESSAGES" / f"{domain}.po", "rb") as f:
        return read_po(f, locale=lang)


def _keys(catalog: Any) -> set[tuple[str | None, str]]:
    return {(m.context, m.id if isinstance(m.id, str) else m.id[0]) for m in catalog if m.id}


@pytest.mark.slow
def test_the_template_holds_every_message_of_the_sources(babel: Any) -> None:
    from babel.messages.extract import extract_from_dir
    from babel.messages.frontend import parse_mapping_cfg
    from babel.messages.pofile import read_po

    with open(PACKAGE / "babel.cfg", encoding="utf-8") as f:
        method_map, options_map = parse_mapping_cfg(f)
    found = {(context, message if isinstance(message, str) else message[0])
             for _file, _line, message, _comments, context in extract_from_dir(
                 str(SOURCES), method_map, options_map)}
    with open(LOCALE_DIR / "liverpool.pot", "rb") as f:
        template = _keys(read_po(f))
    assert found - template == set(), "run the pybabel extract/update of babel.cfg"
    assert template - found == set(), "messages no source uses any more: extract again"
    for lang in OTHER:
        assert _keys(_po(lang)) == template, f"{lang}: run pybabel update"


def test_the_click_catalogs_hold_the_messages_of_their_template(babel: Any) -> None:
    from babel.messages.pofile import read_po

    with open(LOCALE_DIR / "click.pot", "rb") as f:
        template = _keys(read_po(f))
    assert ("", "No such option {name!r}.") in {("" if c is None else c, i) for c, i in template}
    for lang in OTHER:
        assert _keys(_po(lang, "click")) == template, f"{lang}: run pybabel update -D click"


@pytest.mark.parametrize("domain", ["liverpool", "click"])
@pytest.mark.parametrize("lang", OTHER)
def test_every_message_is_translated(babel: Any, lang: str, domain: str) -> None:
    catalog = _po(lang, domain)
    assert catalog.plural_forms == "nplurals=2; plural=(n != 1);"
    for m in catalog:
        if not m.id:
            continue
        ids = (m.id,) if isinstance(m.id, str) else m.id
        strings = (m.string,) if isinstance(m.string, str) else m.string
        assert all(s.strip() for s in strings), f"{lang}: {m.id!r} has no translation"
        assert not m.fuzzy, f"{lang}: {m.id!r} is fuzzy"
        allowed = set().union(*(fields_of(i) for i in ids))
        for s in strings:
            assert fields_of(s) <= allowed, f"{lang}: {m.id!r} -> {s!r} has unknown fields"


@pytest.mark.parametrize("domain", ["liverpool", "click"])
@pytest.mark.parametrize("lang", OTHER)
def test_the_compiled_catalogs_are_those_of_the_po_files(babel: Any, lang: str,
                                                         domain: str) -> None:
    from babel.messages.mofile import write_mo

    buffer = io.BytesIO()
    write_mo(buffer, _po(lang, domain))
    buffer.seek(0)
    fresh = gettext.GNUTranslations(buffer)
    with open(LOCALE_DIR / lang / "LC_MESSAGES" / f"{domain}.mo", "rb") as f:
        shipped = gettext.GNUTranslations(f)
    assert shipped._catalog == fresh._catalog, "run pybabel compile (see babel.cfg)"  # type: ignore[attr-defined]


# --------------------------------------------------------------------- events
def _sample(cls: type[Any], **override: Any) -> Any:
    values: dict[str, Any] = {}
    for f in dataclasses.fields(cls):
        kind = str(f.type)
        name = f.name
        if name in override:
            values[name] = override[name]
        elif kind == "Card" or kind == "Card | None":
            values[name] = card("*") if name == "wild" else card("9H")
        elif kind == "tuple[Card, ...]":
            values[name] = tuple(parse_cards("2C 3D"))
        elif kind in ("Meld", "Meld | None"):
            values[name] = RUN
        elif kind == "tuple[Meld, ...]":
            values[name] = (SET, RUN)
        elif kind == "tuple[int, ...]":
            values[name] = (0, 2) if name == "winners" else (10, 35, 10)
        elif kind == "bool":
            values[name] = False
        elif kind == "str":
            values[name] = {"call": "liverpool", "window": "buy",
                            "reason": "exhausted"}.get(name, "x")
        else:  # int, int | None
            values[name] = 1
    return cls(**values)


def _event_variants() -> list[Any]:
    out = []
    for cls in events.EVENT_TYPES.values():
        out.append(_sample(cls))
        for f in dataclasses.fields(cls):
            kind = str(f.type)
            if kind.endswith("| None"):
                out.append(_sample(cls, **{f.name: None}))
            if kind == "bool":
                out.append(_sample(cls, **{f.name: True}))
            if kind == "tuple[Card, ...]":
                out.append(_sample(cls, **{f.name: ()}))
        out.append(_sample(cls).public())
    for call in ("liverpool", "liverpool_pile", "shanghai"):
        out.append(_sample(events.Called, call=call))
    out.append(_sample(events.RoundAbandoned, reason="stalled"))
    out.append(_sample(events.GameEnded, winners=(2,)))
    out.append(_sample(events.Bought, penalty_count=0, penalty=()))
    out.append(_sample(events.DeckCut, bonus=0))
    out.append(_sample(events.DeckCut, bonus=-50))
    return out


EVENT_VARIANTS = _event_variants()


def test_every_event_type_has_words() -> None:
    from liverpool.i18n._render import EVENT_TEXTS

    assert set(events.EVENT_TYPES) <= set(EVENT_TEXTS)


@pytest.mark.parametrize("event", EVENT_VARIANTS, ids=lambda e: e.type)
def test_every_event_renders_in_every_language(event: Any) -> None:
    names = ["Kari", "Ola", "Per"]
    english = i18n.render(event, "en", names)
    assert english
    assert not leftover(english)
    assert english[0].isupper(), english
    assert english.endswith((".", "!")), english
    for lang in OTHER:
        text = i18n.render(event, lang, names)
        assert not leftover(text), (lang, text)
        assert text != english, (lang, text)


def test_event_texts() -> None:
    drew = events.Drew(3, 0, card("9H"))
    assert i18n.render(drew) == "Seat 1 draws 9H from the stock."
    assert i18n.render(drew.public(), "nb") == "Plass 1 trekker fra bunken."
    assert i18n.render(drew, "da", ["Mette"], symbols=True) == "Mette trækker 9♥ fra bunken."
    lay = events.LaidDown(4, 1, (SET, RUN), 0)
    assert i18n.render(lay, "nb") == \
        "Plass 2 legger ned kontrakten: 9S 9D 9C | 5H 6H * 8H."
    off = events.LaidOff(5, 2, card("4H"), 0, Meld("run", tuple(parse_cards("4H 5H 6H * 8H")),
                                                    4, 1))
    assert i18n.render(off, "da") == "Plads 3 lægger 4H til kombination 1: 4H 5H 6H * 8H."
    over = events.RoundEnded(9, 2, 1, (25, 0, 40))
    assert i18n.render(over, "nb", ["A", "B", "C"]) == \
        "Runde 2 er over: B gikk ut. Straffepoeng: A 25, B 0, C 40."
    game = events.GameEnded(10, (30, 10, 10), (1, 2))
    assert i18n.render(game, "da") == \
        "Spillet er slut: Plads 2 og Plads 3 deler sejren med 10 point."


def test_the_servers_texts_name_a_joker_the_terminals_keep_the_notation() -> None:
    # the table's log and the replay (joker_word) name a joker in the
    # language, as the hints and the review do; the terminal game writes *
    names = ["Kari", "Ben"]
    discarded = events.Discarded(12, 1, card("*"))
    lay = events.LaidDown(4, 1, (SET, RUN), 0)
    for lang in i18n.LANGUAGES:
        word = i18n.card_name(card("*"), lang)
        text = i18n.render(discarded, lang, names, symbols=True, joker_word=True)
        assert text == i18n.render(discarded, lang, names, symbols=True).replace("*", word)
        assert "*" not in text
        laid = i18n.render(lay, lang, names, symbols=True, joker_word=True)
        assert f"5♥ 6♥ {word} 8♥" in laid, laid
        assert "*" not in i18n.render(lay, lang, names, joker_word=True)  # (letters too)
        assert "*" not in i18n.error_text(GameError("not_in_hand", card=card("*")), lang,
                                          symbols=True, joker_word=True)
    assert i18n.render(discarded, "nb", names, symbols=True) == "Ben kaster *."
    assert i18n.render(discarded, "nb", names, symbols=True, joker_word=True) == "Ben kaster joker."
    assert i18n.card_text(card("*"), "en", symbols=True) == "*"


def test_a_ten_reads_10_in_every_language() -> None:
    # what a player reads shows a ten as 10, as the cards on the page do; the
    # notation (records, the protocol, Card.symbol) keeps its T
    names = ["Kari", "Ben"]
    discarded = events.Discarded(12, 1, card("TS"))
    assert i18n.render(discarded, "en", names, symbols=True) == "Ben discards 10♠."
    assert i18n.render(discarded, "nb", names, symbols=True) == "Ben kaster 10♠."
    assert i18n.render(discarded, "da", names, symbols=True) == "Ben smider 10♠."
    assert i18n.render(discarded, "en", names) == "Ben discards 10S."
    bought = events.Bought(13, 0, card("TS"), 1, (card("4H"),)).public()
    for lang in i18n.LANGUAGES:
        text = i18n.render(bought, lang, names, symbols=True)
        assert "10♠" in text, text
        assert "T♠" not in text, text
        assert i18n.review_move(actions.Discard(card("TC")), None, lang).endswith("10♣")
        assert i18n.card_text(card("TD"), lang, symbols=True) == "10♦"
    err = GameError("does_not_fit", card=card("TH"), meld=Meld(
        "set", tuple(parse_cards("9S 9D 9C")), 9))
    assert i18n.render(err, "nb", symbols=True).startswith("10♥ ")
    assert card("TS").symbol() == "T♠"
    assert str(card("TS")) == "TS"


# --------------------------------------------------------------------- actions
def _action_classes() -> list[type[Any]]:
    return [getattr(actions, name) for name in actions.__all__
            if dataclasses.is_dataclass(getattr(actions, name))
            and hasattr(getattr(actions, name), "to_json")]


def _action_samples() -> list[Any]:
    out: list[Any] = []
    for cls in _action_classes():
        if cls is actions.Draw:
            out += [actions.Draw("stock"), actions.Draw("discard")]
        elif cls is actions.LayDown:
            out.append(actions.LayDown((SET, RUN)))
        elif cls is actions.Discard:
            out += [actions.Discard(card("KS")), actions.Discard(card("KS"), True)]
        elif cls is actions.Call:
            out += [actions.Call(), actions.Call(1), actions.Call(0, "high")]
        elif cls is actions.Cut:
            out += [actions.Cut(1), actions.Cut(41)]
        elif any(f.name == "end" for f in dataclasses.fields(cls)):
            out += [cls(card("9H"), 1), cls(card("9H"), 0, "low"), cls(card("9H"), 0, "high")]
        elif cls is actions.SwapJoker:
            out.append(actions.SwapJoker(card("7H"), 0, 2))
        else:
            out.append(cls())
    return out


def test_every_action_class_is_known() -> None:
    from liverpool.i18n._render import ACTION_TEXTS

    names = {cls.__name__ for cls in _action_classes()}
    assert {"Draw", "Buy", "Pass", "LayDown", "LayOff", "SwapJoker", "Discard", "Call",
            "Cut"} <= names
    assert names <= set(ACTION_TEXTS)


@pytest.mark.parametrize("action", _action_samples(), ids=repr)
def test_every_action_renders_in_every_language(action: Any) -> None:
    english = i18n.render(action)
    assert english
    assert not leftover(english)
    for lang in OTHER:
        text = i18n.render(action, lang)
        assert text, lang
        assert not leftover(text), (lang, text)
        assert text != english, (lang, text)


def test_action_texts() -> None:
    assert i18n.render(actions.LayOff(card("9H"), 1, "low")) == \
        "lay 9H off on the low end of meld 2"
    assert i18n.render(actions.Discard(card("KS")), "nb", symbols=True) == "kaste K♠"
    assert i18n.render(actions.Draw("stock"), "da") == "trække fra bunken"


# --------------------------------------------------------------------- errors
_PARAMS: dict[str, Any] = {
    "seat": 1, "card": card("9H"), "cards": tuple(parse_cards("5H 6S 7H")), "meld": RUN,
    "first": RUN, "second": SET, "result": RUN, "action": actions.Discard(card("KS")),
    "contract": Contract(2, 1), "given": Contract(1, 0), "kind": "run",
    "reason": "a set needs at least 3 cards", "key": "card", "value": "'x'", "text": "9X",
}
#: The parameters of the ruleset codes.
_RULES_PARAMS: dict[str, Any] = {
    "key": "run_wrap", "value": "sometimes", "choices": ("never", "always"), "type": "int",
    "what": "decks", "item": [4, 2], "previous": [6, 3], "word": "unlimited",
    "suggestion": "run_wrap", "names": PRESETS, "preset": "londen", "file": "x.toml",
    "path": "x.toml", "detail": "Invalid value (at line 2, column 10)", "cycle": "a -> a",
    "error": RulesError("rules_extends_here"), "contract": Contract(1, 2), "code": "SRR",
    "decks": 2, "naturals_at_least_wilds": True, "how": None,
}


def _error_of_code(code: str) -> GameError:
    fields = fields_of(MESSAGES[code])
    if code.startswith("rules_"):
        params = {name: _RULES_PARAMS.get(name, 2) for name in fields if name != "how"}
        if "how" in fields:
            params.update(dealt=10, best=11, discarded=True, buys=3, buy_cards=2)
        return RulesError(code, **params)
    return GameError(code, **{name: _PARAMS.get(name, 2) for name in fields})


@pytest.mark.parametrize("code", sorted(MESSAGES))
def test_every_error_code_renders_in_every_language(code: str) -> None:
    error = _error_of_code(code)
    english = i18n.render(error, "en", ["Kari", "Ola"])
    assert english
    assert not leftover(english), english
    for lang in OTHER:
        text = i18n.render(error, lang, ["Kari", "Ola"])
        assert text, lang
        assert not leftover(text), (lang, text)
        if MESSAGES[code] not in ("{reason}", "{meld}: {reason}"):
            assert text != english, (lang, text)


def test_error_texts() -> None:
    e = GameError("not_now_draw", action=actions.Discard(card("KS")), seat=0)
    assert str(e).startswith("you cannot discard KS now")  # str() stays English
    assert i18n.render(e, "nb", ["Kari"]) == \
        "du kan ikke kaste KS nå: Kari skal trekke fra bunken eller ta kortet i kastehaugen"
    shape = GameError("contract_shape", round=1, contract=Contract(2, 0), given=Contract(1, 0))
    assert i18n.render(shape, "da") == "kontrakten i runde 1 er 2 sæt, ikke 1 sæt"
    problem = GameError("meld_problem", meld=SET, reason="two wild cards may not lie side by "
                                                         "side in a run")
    assert i18n.render(problem, "nb") == \
        "9S 9D 9C: to jokere kan ikke ligge side om side i en straight"
    problem = GameError("run_wilds_adjacent", meld=SET)  # the code of the reason
    assert str(problem) == "9S 9D 9C: two wild cards may not lie side by side in a run"
    assert i18n.render(problem, "nb") == \
        "9S 9D 9C: to jokere kan ikke ligge side om side i en straight"
    assert i18n.render(ValueError("something else"), "nb") == "something else"
    bad = ValueError("'9X' is not a card: the suit must be one of S H D C (or ♠ ♥ ♦ ♣), "
                     "for example 9H, TD, AS, or * for a joker")
    assert i18n.render(bad, "da").startswith("'9X' er ikke et kort: kuløren skal være")


@pytest.mark.parametrize("text", [
    "a set needs at least 3 cards", "QS does not belong in a set of nines",
    "a set must hold at least 2 natural cards", "8H does not fit at that place in the run",
    "a run may not turn the corner (K-A-2)", "an empty string is not a card",
])
def test_reasons_of_the_meld_checks(text: str) -> None:
    for lang in OTHER:
        assert i18n.reason(text, lang) != text
    assert i18n.reason(text) == text
    assert i18n.reason("QS does not belong in a set of nines", "nb") == \
        "QS hører ikke hjemme i et tress av niere"


def test_meld_reasons_have_codes() -> None:
    rules = load_rules("liverpool")
    meld = Meld("set", tuple(parse_cards("9H 9S QS")), 9)
    assert meld_problem(meld, rules) == ("set_wrong_card", {"card": card("QS"), "ranks": 9})
    assert meld_error(meld, rules) == "QS does not belong in a set of nines"
    assert meld_problem(SET, rules) is None
    assert meld_error(SET, rules) is None
    assert i18n.reason(meld_problem(meld, rules), "da") == \
        "QS hører ikke til i et sæt af niere"  # type: ignore[arg-type]
    for code, template in REASONS.items():
        assert MESSAGES[code] == "{meld}: " + template


def test_a_refused_lay_down_in_norwegian() -> None:
    rules = load_rules("liverpool")
    hand = parse_cards("9H 9S QS 5C 6C 7C 2D")
    short = Meld("run", tuple(parse_cards("5C 6C 7C")), 5, 2)
    wrong = Meld("set", tuple(parse_cards("9H 9S QS")), 9)
    with pytest.raises(MeldError) as info:
        check_lay_down(hand, [wrong, short], dataclasses.replace(rules, contracts=("SR",)), 1)
    e = info.value
    assert (e.code, e.params) == ("set_wrong_card",
                                  {"meld": wrong, "card": card("QS"), "ranks": 9})
    assert str(e) == "9H 9S QS: QS does not belong in a set of nines"
    assert i18n.render(e, "nb") == "9H 9S QS: QS hører ikke hjemme i et tress av niere"
    assert i18n.render(e, "da", cards="words").startswith("hjerter ni spar ni spar dame: ")
    with pytest.raises(MeldError) as info:
        check_lay_down(parse_cards("9H 9S 9D 5C 6C 7C 2D"),
                       [Meld("set", tuple(parse_cards("9H 9S 9D")), 9), short],
                       dataclasses.replace(rules, contracts=("SR",)), 1)
    assert info.value.code == "run_too_short"
    assert i18n.render(info.value, "nb") == "5C 6C 7C: en straight trenger minst 4 kort"


def test_card_errors_have_codes() -> None:
    with pytest.raises(CardError) as info:
        parse_cards("9H 9X")
    e = info.value
    assert (e.code, e.params) == ("card_bad_suit", {"text": "9X"})
    assert str(e).startswith("'9X' is not a card: the suit must be one of S H D C")
    assert i18n.render(e, "nb").startswith("'9X' er ikke et kort: ")
    assert i18n.render(e, "da").startswith("'9X' er ikke et kort: kuløren skal være")
    with pytest.raises(CardError) as info:
        Card.parse("")
    assert info.value.code == "card_empty"
    assert i18n.render(info.value, "nb") != str(info.value)
    for value, shown in ((5, "5"), (None, "None"), (["9H", 7], "7")):
        with pytest.raises(CardError) as info:
            parse_cards(value)  # type: ignore[arg-type]
        assert (info.value.code, info.value.params) == ("card_not_text", {"value": shown})
        assert i18n.render(info.value, "da").startswith(f"{shown} er ikke et kort: et kort skrives")


# --------------------------------------------------------------------- ruleset errors
def _rules_error(*args: Any, **kwargs: Any) -> RulesError:
    with pytest.raises(RulesError) as info:
        load_rules(*args, **kwargs)
    return info.value


def _bad_rulesets(tmp: Path) -> list[RulesError]:
    (tmp / "a.toml").write_text('extends = "b.toml"\n', encoding="utf-8")
    (tmp / "b.toml").write_text('extends = "a.toml"\n', encoding="utf-8")
    (tmp / "bad.toml").write_text('extends = "london"\nbuying = false\n', encoding="utf-8")
    (tmp / "typo.toml").write_text('extends = "liverpool"\nbuy_limt = 2\n', encoding="utf-8")
    (tmp / "ext.toml").write_text('extends = "londen"\n', encoding="utf-8")
    (tmp / "syntax.toml").write_text("buying = \n", encoding="utf-8")
    (tmp / "huge.toml").write_text("#" * 70_000, encoding="utf-8")
    cases: list[tuple[tuple[Any, ...], dict[str, Any]]] = [
        (("liverpool",), {"run_wrap": "sometimes"}), (("liverpool",), {"buy_limt": 2}),
        (("liverpool",), {"zzz": 1}), (("liverpool",), {"players": [1, 5]}),
        (("liverpool",), {"deal": [10] * 6}), (("liverpool",), {"contracts": ["SS", "SX"]}),
        (("liverpool",), {"contracts": []}), (("liverpool",), {"deal": 10}),
        (("liverpool",), {"decks": [[4, 2], [3, 3]]}), (("liverpool",), {"decks": [[8, 0]]}),
        (("liverpool",), {"decks": [[8]]}), (("liverpool",), {"decks": [[4, 2], [6, 3]]}),
        (("liverpool",), {"jokers_total": -1}), (("liverpool",), {"jokers_per_deck": True}),
        (("liverpool",), {"cut_bonus": "50"}), (("liverpool",), {"buying": 1}),
        (("liverpool",), {"name": ""}), (("liverpool",), {"points": 5}),
        (("liverpool",), {"max_turns_per_round": 0}),
        (("liverpool",), {"points": {"aces": 15}}),
        (("liverpool",), {"points": {"two_to_nine": "flat"}}),
        (("liverpool",), {"deal": [10, 10, 10, 10, 12, 12, 30]}),
        (("london",), {"players": [3, 8], "decks": [[8, 2]], "deal": [13] * 7,
                       "initial_upcard": False}),
        (("london",), {"buying": False}), (("liverpool",), {"deal": [4] * 7,
                                                            "buy_limit_per_round": 1}),
        (("dansk",), {"set_same_suit": True}),
        (("liverpool",), {"set_same_suit": True, "min_naturals_set": 3}),
        (("liverpool",), {"min_naturals_run": 5}), (("liverpol",), {}), ((3,), {}),
        (("liverpool",), {"decks": [[8, 20000]]}), (("liverpool",), {"decks": [[9, 4]]}),
        (("liverpool",), {"jokers_per_deck": 5}), (("liverpool",), {"jokers_total": 99}),
        (("liverpool",), {"deal": [10] * 21}), (("liverpool",), {"deal": [31] * 7}),
        (("liverpool",), {"contracts": ["SSSSSSS"] * 7}), (("liverpool",), {"name": "x" * 81}),
        (("liverpool",), {"deal": [[[1]]]}), ((tmp / "huge.toml",), {}),
        (("liverpool",), {"extends": "remi"}), ((tmp / "nope.toml",), {}), ((tmp,), {}),
        ((tmp / "a.toml",), {}), ((tmp / "bad.toml",), {}), ((tmp / "typo.toml",), {}),
        ((tmp / "ext.toml",), {}), ((tmp / "syntax.toml",), {}),
    ]
    return [_rules_error(*args, **kwargs) for args, kwargs in cases]


#: English words of the ruleset errors that a translation leaves out.
_ENGLISH = re.compile(r"\b(must|should|unknown|needs|cannot|the|not|give|round|players)\b")


def test_ruleset_errors_in_every_language(tmp_path: Path) -> None:
    for e in _bad_rulesets(tmp_path):
        assert e.code in MESSAGES, e
        assert isinstance(e, GameError), e
        assert i18n.render(e) == str(e), e.code
        for lang in OTHER:
            text = i18n.render(e, lang)
            assert not leftover(text), (lang, text)
            assert text != str(e), (lang, text)
            bare = re.sub(r"'[^']*'|\"[^\"]*\"", "", text.replace(str(tmp_path), ""))
            words = _ENGLISH.findall(bare)  # (option keys and values stay as written)
            assert not words, (lang, text, words)


def test_ruleset_error_texts() -> None:
    e = _rules_error("liverpool", run_wrap="sometimes")
    assert (e.code, e.params["key"], e.params["value"]) == ("rules_one_of", "run_wrap",
                                                            "sometimes")
    assert i18n.render(e, "da") == \
        '\'run_wrap\' skal være en af "never", "three_beside_ace", "always", ikke "sometimes"'
    e = _rules_error("liverpool", buy_limt=2)
    assert i18n.render(e, "da") == "ukendt valg 'buy_limt' (mente du 'buy_limit_per_round'?)"
    assert i18n.render(e, "nb") == "ukjent valg 'buy_limt' (mente du 'buy_limit_per_round'?)"
    e = _rules_error("liverpool", buying=1)
    assert i18n.render(e, "da") == "'buying' skal være true eller false, ikke et heltal (1)"
    e = _rules_error("london", buying=False)
    assert i18n.render(e, "da").startswith(
        "'contracts' runde 7 (RRR: 3 sekvenser, mindst 12 kort) kan aldrig opfyldes: en spiller "
        "har højst 10 kort, når kontrakten lægges ned (10 givet + 1 trukket − 1 smidt); hæv "
        "'deal' for runde 7")
    e = _rules_error("liverpool", players=[3, 9])
    assert i18n.render(e, "da") == \
        "'players' skal være [min, max] med 2 <= min <= max <= 8, ikke [3, 9]"
    e = RulesError("rules_in_file", path="house.toml", error=RulesError(
        "rules_unknown_option", key="buy_limt", suggestion=None))
    assert str(e) == "house.toml: unknown option 'buy_limt'"
    assert i18n.render(e, "da") == "house.toml: ukendt valg 'buy_limt'"
    assert RulesError.__mro__[1] is GameError
    assert issubclass(RulesError, ValueError)
    legacy = RulesError("some text")  # a message without a code is shown as it is
    assert str(legacy) == "some text"
    assert i18n.render(legacy, "nb") == "some text"


# --------------------------------------------------------------------- words
def test_contracts_cards_and_names() -> None:
    assert i18n.contract_words(2, 1) == "2 sets + 1 run"
    assert i18n.contract_words(2, 1, "nb") == "2 tress + 1 straight"
    assert i18n.contract_words(2, 1, "da") == "2 sæt + 1 sekvens"
    assert i18n.contract_words(1, 3, "nb") == "1 tress + 3 straighter"
    assert i18n.contract_words(0, 2, "da") == "2 sekvenser"
    assert i18n.render(Contract(3, 0), "da") == "3 sæt"
    assert [i18n.default_name(0, lang) for lang in i18n.LANGUAGES] == \
        ["Seat 1", "Plass 1", "Plads 1"]
    nine = card("9H")
    assert [i18n.card_text(nine, "nb", cards=how) for how in ("letters", "symbols", "words")] \
        == ["9H", "9♥", "hjerter ni"]
    assert i18n.card_name(card("QS")) == "queen of spades"
    assert i18n.card_name(card("AD"), "da") == "ruder es"
    assert i18n.card_name(card("*"), "nb") == "joker"
    assert i18n.render(events.Discarded(0, 0, nine), cards=lambda c: f"<{c}>") == \
        "Seat 1 discards <9H>."
    assert i18n.render(events.Discarded(0, 5, nine), "nb", ["A"]) == "Plass 6 kaster 9H."
    assert i18n.render(events.Discarded(0, 0, nine), "sv") == "Seat 1 discards 9H."


# --------------------------------------------------------------------- options
OPTION_KEYS = [f.name for f in dataclasses.fields(Rules)]


def _choices(key: str) -> tuple[str, ...]:
    hint = typing.get_type_hints(Rules)[key]
    out: list[str] = []
    for arg in typing.get_args(hint) or (hint,):
        if typing.get_origin(arg) is typing.Literal:
            out += [a for a in typing.get_args(arg) if isinstance(a, str)]
    if typing.get_origin(hint) is typing.Literal:
        out += [a for a in typing.get_args(hint) if isinstance(a, str)]
    return tuple(out)


@pytest.mark.parametrize("key", OPTION_KEYS)
def test_every_option_has_a_name_and_a_description(key: str) -> None:
    english = (i18n.option_name(key), i18n.option_description(key))
    assert all(english)
    assert english[0] != key
    for lang in OTHER:
        name, description = i18n.option_name(key, lang), i18n.option_description(key, lang)
        assert name, (lang, key)
        assert description, (lang, key)
        assert description != english[1], (lang, key)
    for value in _choices(key):
        assert value in VALUE_WORDS.get(key, {}), f"{key} = {value!r} has no words"
        words = [i18n.describe_value(key, value, lang) for lang in i18n.LANGUAGES]
        assert words[0] not in words[1:], words


@pytest.mark.parametrize("preset", PRESETS)
def test_every_preset_value_is_described(preset: str) -> None:
    rules = load_rules(preset)
    for key in OPTION_KEYS:
        for lang in i18n.LANGUAGES:
            text = i18n.describe_value(key, getattr(rules, key), lang, rules)
            assert text, (key, lang)
            assert not leftover(text), (key, lang)
    assert i18n.describe_value("buying", True, "nb") == "ja"
    assert i18n.describe_value("buying", False, "da") == "nej"
    assert i18n.describe_value("buy_limit_per_round", "unlimited", "nb") == "ubegrenset"
    assert i18n.describe_value("points", Points(two_to_nine="face"), "en").startswith(
        "2–9: face value, 10: 10")
    assert "jokere" in i18n.deck_summary(rules, "nb")
    assert i18n.deck_summary(load_rules("liverpool"), "en").startswith(
        "3–4 players: 2 decks + 4 jokers = 108 cards")


def test_option_words() -> None:
    assert i18n.option_name("buy_limit_per_round", "nb") == "Kjøp per runde"
    assert i18n.option_description("joker_swap", "da").startswith("hvor en joker")
    assert i18n.describe_value("run_wrap", "never", "da") == "aldrig"
    assert i18n.option_name("no_such_option") == "no_such_option"
    for title in i18n.GROUP_TITLES:
        assert i18n.group_title(title, "nb") != title
