"""The terminal game's own words, kept in the gettext catalogs of :mod:`liverpool.i18n`.

Each key names an English msgid (:data:`_TEXTS`); :func:`tr` gives it in
English, Norwegian (``nb``) or Danish (``da``) with the words of GLOSSARY.md.
The engine's events, actions and errors are rendered by :mod:`liverpool.i18n`.

>>> tr("nb", "stock")
'Bunken'
>>> tr("da", "round_of", round=2, rounds=7)
'Runde 2 af 7'
>>> contract_words("nb", 1, 2)
'1 tress + 2 straighter'
>>> command_name("nb", "discard"), parse_command("da", "smid")
('kast', 'discard')
"""

from __future__ import annotations

from .. import i18n
from ..i18n import LANGUAGES, N_

__all__ = ["LANGUAGES", "bot_level", "command_name", "contract_words", "parse_command", "tr"]

_TEXTS: dict[str, str] = {
    # ------------------------------------------------------------ labels
    "round_of": N_("Round {round} of {rounds}"),
    "contract": N_("Contract"),
    "dealer": N_("Dealer"),
    "final_all": N_("final round: the whole hand goes down at once"),
    "final_all_discard": N_("final round: all but one card go down at once"),
    "player": N_("Player"),
    "seat": N_("Seat {n}"),
    "you": N_("you"),
    "cards": N_("Cards"),
    "buys": N_("Buys"),
    "down": N_("Laid down"),
    "points": N_("Points"),
    "table": N_("Table"),
    "no_melds": N_("no melds on the table yet"),
    "set": N_("set"),
    "run": N_("run"),
    "discard_pile": N_("Discard pile"),
    "stock": N_("Stock"),
    "empty": N_("empty"),
    "your_hand": N_("Your hand"),
    "by_suit": N_("by suit"),
    "by_rank": N_("by rank"),
    "wild": N_("wild"),
    "log": N_("Since your last move"),
    "score_sheet": N_("Score sheet"),
    "round": N_("Round"),
    "total": N_("Total"),
    "final_totals": N_("Final totals"),
    "winner": N_("Winner: {who}"),
    "shared_win": N_("Shared win: {who}"),
    "game_start": N_("Liverpool rummy: {rules}, {players} players, seed {seed}. You are {you}."),
    "help_hint": N_("help = all commands"),
    "call_liverpool": N_("\"Liverpool!\""),
    "call_shanghai": N_("\"Shanghai!\""),
    # ----------------------------------------------------------- prompts
    "prompt_draw": N_("Your turn: d = draw from the stock"),
    "prompt_take": N_("t = take {card}"),
    "prompt_buys_left": N_("buys used {used}/{limit}"),
    "prompt_play": N_("Play:"),
    "prompt_lay": N_("l = lay down, s = suggest"),
    "prompt_off": N_("o = lay off"),
    "prompt_swap": N_("w = swap a joker"),
    "prompt_discard": N_("x CARD = discard"),
    "prompt_call": N_("{card} could have been laid off: c = call {call}, p = pass"),
    "prompt_cut": N_("Cut the deck: cut N (1-{max})"),
    "prompt_continue": N_("Press Enter to continue"),
    "prompt_quit": N_("Really quit the game? (y/n)"),
    "prompt_choose": N_("Choose 1-{n} (anything else cancels)"),
    "prompt_end": N_("At which end of {meld}: low or high?"),
    # ---------------------------------------------------------- messages
    "refused": N_("Not allowed: {reason}"),
    "unknown_command": N_("unknown command '{cmd}'; type help for the commands"),
    "empty_input": N_("type a command (help lists them)"),
    "suggested": N_("Suggested lay-down: {melds}. Type lay (or l) to lay it down."),
    "no_lay_down": N_("your hand does not make the contract ({contract}) yet"),
    "suggest_offs": N_("You can lay off: {moves}"),
    "suggest_none": N_("nothing of yours fits on the table now"),
    "suggest_when": N_("suggest works in your turn, after drawing"),
    "lay_usage": N_("type the melds, e.g. lay 9H 9S 9D | 5C 6C 7C 8C (or suggest)"),
    "not_a_meld": N_("{cards} is neither a set nor a run"),
    "not_a_meld_why": N_("{cards} is neither a set nor a run: {why}"),
    "why_short": N_("a set needs at least 3 cards and a run at least 4"),
    "why_run_short": N_("a run needs at least 4 cards"),
    "why_suits": N_("a set is cards of one rank, a run consecutive cards of one suit"),
    "why_gaps": N_("a run needs consecutive ranks (wild cards may fill gaps)"),
    "which_meld": N_("{cards} can lie in more than one way:"),
    "cancelled": N_("cancelled"),
    "off_usage": N_("say the card and the meld number, e.g. off 9H 2 (or off 9H 2 low)"),
    "off_nowhere": N_("{card} fits on no meld on the table"),
    "swap_usage": N_("say your card and the meld number, e.g. swap 7H 3"),
    "discard_usage": N_("say which card to discard, e.g. x KS"),
    "cut_usage": N_("say how many cards to cut, e.g. cut 41"),
    "bad_meld_number": N_("there is no meld {n} on the table (the melds are numbered "
                          "1-{count})"),
    "no_melds_yet": N_("there are no melds on the table yet"),
    "bad_end": N_("the end must be low or high, not '{word}'"),
    "bad_number": N_("'{word}' is not a number"),
    "no_shanghai": N_("announcing \"Shanghai!\" belongs to the Shanghai call, which these rules "
                      "do not use"),
    "extra_words": N_("too many words: {words}"),
    "sorted": N_("Your hand is now grouped {how}."),
    "abandoned": N_("Game abandoned."),
    "thinking": N_("The others are playing..."),
    "bot_fallback": N_("{who}'s bot chose an illegal move ({reason}); it plays {action} "
                       "instead."),
    "move_off": N_("off {card} {number}"),
    "move_off_low": N_("off {card} {number} low"),
    "move_off_high": N_("off {card} {number} high"),
    "move_swap": N_("swap {card} {number}"),
    "player_n": N_("Player {n}"),
    "game_start_many": N_("Liverpool rummy: {rules}, seed {seed}. Players: {names}."),
    "saved_resume": N_("The game is saved: liverpool play --resume continues it."),
    "saved_in": N_("Saved in {path}"),
    "save_failed": N_("The game cannot be saved to {path}: {reason}"),
    "handoff": N_("Next: {name}. The others look away now."),
    "prompt_handoff": N_("{name}, press Enter to see your hand"),
    "hand_hidden": N_("(hidden until {name} presses Enter)"),
    "line_too_long": N_("that line is {n} characters long; a command is at most {max}"),
    "bad_card_number": N_("there is no card {n} in your hand (the cards are numbered 1-{count})"),
    "not_a_card": N_("'{text}' is not a card"),
    "not_a_card_local": N_("'{text}' is not a card: write its rank and suit, e.g. 9H, 10♥, "
                           "QC, or its number in your hand"),
    "lay_empty_meld": N_("a meld is empty: put one | between two melds and none at the ends, "
                         "e.g. lay 9H 9S 9D | 5C 6C 7C 8C"),
    "lay_too_many": N_("you do not hold that many {card}: the melds use {n}, you have {have}"),
    "lay_hint_bar": N_("(separate the melds with |, e.g. lay 9H 9S 9D | 5C 6C 7C 8C)"),
    "fits_not_now": N_("{card} fits on meld {number}, but not now: {reason}"),
    "prompt_risky": N_("{card} fits on meld {number}: another player may call {call} on it. "
                       "Discard it anyway? (y/n)"),
    "risky_shanghai": N_("(x {card} ! says \"Shanghai!\" and protects it)"),
    "help_cards": N_("A card may also be typed as its number in your hand: x 3 discards the "
                     "third card shown."),
    "press_enter": N_("Enter = continue"),
    # ---------------------------------------------------------- the command line
    "cli_players": N_("the {rules} rules are for {lo} to {hi} players, not {n}"),
    "cli_seat": N_("--seat must be a seat from 1 to {n}, not {seat}"),
    "cli_unknown_bot": N_("unknown bot {kind}; the bots are {kinds}"),
    "cli_humans": N_("--humans must be from 1 to {n} (the players), not {humans}"),
    "cli_names": N_("--names gives {given} names for {humans} people"),
    "cli_no_save": N_("there is no unfinished saved game in {folder}"),
    "cli_bad_save": N_("cannot continue the saved game: {reason}"),
    "cli_save_replay": N_("{path}: the game cannot be replayed: {reason}"),
    "cli_save_over": N_("{path}: the game is over"),
    "cli_save_field": N_("{path} is damaged: its '{field}' is not what liverpool play saves"),
    "cli_save_folder": N_("the folder of the saved games, {folder}, cannot be used: {reason} "
                          "(set LIVERPOOL_RUMMY_SAVES to another folder, or play with "
                          "--no-save)"),
    "cli_names_empty": N_("--names has an empty name: give one name for each person, "
                          "separated by commas"),
    "cli_bots": N_("--bots needs one kind for all bots or {n} kinds (one per opponent), "
                   "not {given}"),
    # -------------------------------------------------------------- help
    "help_title": N_("Commands (cards as 9H, TD or 10D, AS, * for a joker; ♥ ♠ ♦ ♣ work too):"),
    "help_draw": N_("draw the top card of the stock"),
    "help_take": N_("take the top card of the discard pile"),
    "help_buy": N_("buy the offered discard (you also get a penalty card)"),
    "help_pass": N_("decline a buy or a call"),
    "help_lay": N_("lay down your contract; melds apart with |"),
    "help_lay_again": N_("lay down the last suggestion"),
    "help_suggest": N_("the solver suggests a lay-down (or lay-offs once you are down)"),
    "help_off": N_("lay a card off on table meld number MELD (runs: which end)"),
    "help_swap": N_("put your card in place of a joker in meld MELD and take the joker"),
    "help_discard": N_("discard a card, ending your turn (! or shanghai: say \"Shanghai!\")"),
    "help_call": N_("call \"Liverpool!\"/\"Shanghai!\" on a discard that fits the table"),
    "help_cut": N_("cut the deck (Liverpool cut variant)"),
    "help_sort": N_("group your hand by suit or by rank"),
    "help_hand": N_("show your hand"),
    "help_table": N_("show the table, the piles and the players"),
    "help_score": N_("show the score sheet"),
    "help_help": N_("this list"),
    "help_quit": N_("leave the game (asks first)"),
    "help_cmd_draw": N_("d, draw"),
    "help_cmd_take": N_("t, take"),
    "help_cmd_buy": N_("b, buy"),
    "help_cmd_pass": N_("p, pass"),
    "help_cmd_lay": N_("l, lay 9H 9S 9D | 5C 6C 7C 8C"),
    "help_cmd_lay_again": N_("l, lay"),
    "help_cmd_suggest": N_("s, suggest"),
    "help_cmd_off": N_("o, off CARD MELD [low|high]"),
    "help_cmd_swap": N_("w, swap CARD MELD"),
    "help_cmd_discard": N_("x, discard CARD [!]"),
    "help_cmd_call": N_("c, call [MELD [low|high]]"),
    "help_cmd_cut": N_("cut N"),
    "help_cmd_sort": N_("sort"),
    "help_cmd_hand": N_("hand"),
    "help_cmd_table": N_("table"),
    "help_cmd_score": N_("score"),
    "help_cmd_help": N_("help"),
    "help_cmd_quit": N_("quit"),
}


def _plural(key: str, n: int, lang: str) -> str | None:
    """The plural texts: ``n`` picks the form (None: ``key`` is not one of them)."""
    if key == "n_cards":
        return i18n.ngettext("{n} card", "{n} cards", n, lang)
    if key == "earlier":
        return i18n.ngettext("... {n} earlier event", "... {n} earlier events", n, lang)
    if key == "prompt_buy":
        return i18n.ngettext("{card} is offered: b = buy it (+{n} penalty card), p = pass",
                             "{card} is offered: b = buy it (+{n} penalty cards), p = pass",
                             n, lang)
    return None


#: The bots' names (their kinds and difficulty levels) for people.
_BOT_LEVELS: dict[str, str] = {
    "random": N_("random"),
    "basic": N_("basic"),
    "expert": N_("expert"),
    "search": N_("search"),
    "easy": N_("easy"),
    "medium": N_("medium"),
    "hard": N_("hard"),
}

#: The words of each command in each language (English ones work in every language).
COMMANDS: dict[str, dict[str, tuple[str, ...]]] = {
    "en": {"draw": ("d", "draw", "stock"), "take": ("t", "take"), "buy": ("b", "buy"),
           "pass": ("p", "pass"), "lay": ("l", "lay", "down"), "suggest": ("s", "suggest"),
           "off": ("o", "off"), "swap": ("w", "swap"), "discard": ("x", "discard"),
           "call": ("c", "call"), "cut": ("cut",), "sort": ("sort",), "hand": ("hand",),
           "table": ("table",), "score": ("score",), "help": ("h", "help", "?"),
           "quit": ("q", "quit", "exit")},
    "nb": {"draw": ("trekk",), "take": ("ta",), "buy": ("kjøp",), "pass": ("stå",),
           "lay": ("legg",), "suggest": ("forslag",), "off": ("på",), "swap": ("bytt",),
           "discard": ("kast",), "call": ("rop",), "cut": ("kutt",), "sort": ("sorter",),
           "hand": ("hånd",), "table": ("bord",), "score": ("poeng",), "help": ("hjelp",),
           "quit": ("avslutt",)},
    "da": {"draw": ("træk",), "take": ("tag",), "buy": ("køb",), "pass": ("stå", "pas"),
           "lay": ("læg",), "suggest": ("forslag",), "off": ("til",), "swap": ("byt",),
           "discard": ("smid",), "call": ("råb",), "cut": ("afløft",),
           "sort": ("sortér", "sorter"), "hand": ("hånd",), "table": ("bord",),
           "score": ("point",), "help": ("hjælp",), "quit": ("afslut",)},
}

#: The words for the ends of a run, in every language.
ENDS: dict[str, tuple[str, ...]] = {
    "low": ("low", "lo", "l", "lav"),
    "high": ("high", "hi", "h", "høy", "høj"),
}


def _lang(lang: str) -> str:
    return lang if lang in LANGUAGES else "en"


def tr(lang: str, key: str, **values: object) -> str:
    """The UI text ``key`` in ``lang`` (falls back to English), filled with ``values``
    (``n`` picks the singular or plural of a plural text)."""
    n = values.get("n", 1)
    text = _plural(key, n if isinstance(n, int) else 2, _lang(lang))
    if text is None:
        text = i18n.gettext(_TEXTS[key], _lang(lang))
    return text.format(**values)


def contract_words(lang: str, sets: int, runs: int) -> str:
    """A contract in words, e.g. ``2 sets + 1 run``."""
    return i18n.contract_words(sets, runs, _lang(lang))


def bot_level(lang: str, name: str) -> str:
    """A bot's kind or level (``easy``, ``expert`` ...) in ``lang``; other names as they are."""
    msgid = _BOT_LEVELS.get(name)
    return i18n.gettext(msgid, _lang(lang)) if msgid else name


def command_name(lang: str, command: str) -> str:
    """The word people type for ``command`` in ``lang`` (``discard`` -> ``kast``)."""
    words = COMMANDS[_lang(lang)].get(command) or COMMANDS["en"][command]
    return next((w for w in words if len(w) > 1), words[0])


def parse_command(lang: str, word: str) -> str | None:
    """The command a typed word names, in ``lang`` or in English (None: no command)."""
    low = word.lower()
    for table in (COMMANDS[_lang(lang)], COMMANDS["en"]):
        for command, words in table.items():
            if low in words:
                return command
    return None
