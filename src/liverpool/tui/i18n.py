"""The terminal game's own words in English, Norwegian (nb) and Danish (da).

Only the UI's labels, prompts and help are translated here, with the words of
GLOSSARY.md; the engine's event texts and error messages stay English.

>>> tr("nb", "stock")
'Bunken'
>>> tr("da", "round_of", round=2, rounds=7)
'Runde 2 af 7'
>>> contract_words("nb", 1, 2)
'1 tress + 2 straighter'
"""

from __future__ import annotations

__all__ = ["LANGUAGES", "contract_words", "tr"]

#: The UI languages: English, Norwegian bokmål, Danish.
LANGUAGES: tuple[str, ...] = ("en", "nb", "da")

_TEXTS: dict[str, tuple[str, str, str]] = {
    # ------------------------------------------------------------ labels
    "round_of": ("Round {round} of {rounds}", "Runde {round} av {rounds}",
                 "Runde {round} af {rounds}"),
    "contract": ("Contract", "Kontrakt", "Kontrakt"),
    "dealer": ("Dealer", "Giver", "Giver"),
    "final_all": ("final round: the whole hand goes down at once",
                  "siste runde: hele hånden legges ned på én gang",
                  "sidste runde: hele hånden lægges ned på én gang"),
    "final_all_discard": ("final round: all but one card go down at once",
                          "siste runde: alle kort unntatt ett legges ned på én gang",
                          "sidste runde: alle kort undtagen ét lægges ned på én gang"),
    "player": ("Player", "Spiller", "Spiller"),
    "seat": ("Seat {n}", "Plass {n}", "Plads {n}"),
    "you": ("you", "deg", "dig"),
    "cards": ("Cards", "Kort", "Kort"),
    "buys": ("Buys", "Kjøp", "Køb"),
    "down": ("Laid down", "Lagt ned", "Lagt ned"),
    "points": ("Points", "Poeng", "Point"),
    "table": ("Table", "Bordet", "Bordet"),
    "no_melds": ("no melds on the table yet", "ingen kombinasjoner på bordet ennå",
                 "ingen kombinationer på bordet endnu"),
    "set": ("set", "tress", "sæt"),
    "run": ("run", "straight", "sekvens"),
    "discard_pile": ("Discard pile", "Kastehaugen", "Kastebunken"),
    "stock": ("Stock", "Bunken", "Bunken"),
    "n_cards": ("{n} cards", "{n} kort", "{n} kort"),
    "one_card": ("1 card", "1 kort", "1 kort"),
    "empty": ("empty", "tom", "tom"),
    "your_hand": ("Your hand", "Din hånd", "Din hånd"),
    "by_suit": ("by suit", "etter farge", "efter kulør"),
    "by_rank": ("by rank", "etter verdi", "efter værdi"),
    "wild": ("wild", "joker", "joker"),
    "log": ("Since your last move", "Siden ditt forrige trekk", "Siden dit sidste træk"),
    "earlier": ("... {n} earlier events", "... {n} tidligere hendelser",
                "... {n} tidligere hændelser"),
    "you_got": ("you got {cards}", "du fikk {cards}", "du fik {cards}"),
    "score_sheet": ("Score sheet", "Poengliste", "Pointliste"),
    "round": ("Round", "Runde", "Runde"),
    "total": ("Total", "Sum", "I alt"),
    "final_totals": ("Final totals", "Sluttsum", "Slutresultat"),
    "winner": ("Winner: {who}", "Vinner: {who}", "Vinder: {who}"),
    "shared_win": ("Shared win: {who}", "Delt seier: {who}", "Delt sejr: {who}"),
    "game_start": ("Liverpool rummy: {rules}, {players} players, seed {seed}. You are {you}.",
                   "Liverpool: {rules}, {players} spillere, seed {seed}. Du er {you}.",
                   "Liverpool: {rules}, {players} spillere, seed {seed}. Du er {you}."),
    "help_hint": ("help = all commands", "help = alle kommandoer", "help = alle kommandoer"),
    # ----------------------------------------------------------- prompts
    "prompt_draw": ("Your turn: d = draw from the stock", "Din tur: d = trekk fra bunken",
                    "Din tur: d = træk fra bunken"),
    "prompt_take": ("t = take {card}", "t = ta {card}", "t = tag {card}"),
    "prompt_buy": ("{card} is offered: b = buy it (+{n} penalty card), p = pass",
                   "{card} er til salgs: b = kjøp (+{n} straffekort), p = stå over",
                   "{card} kan købes: b = køb (+{n} strafkort), p = stå over"),
    "prompt_buys_left": ("buys used {used}/{limit}", "kjøp brukt {used}/{limit}",
                         "køb brugt {used}/{limit}"),
    "prompt_play": ("Play:", "Spill:", "Spil:"),
    "prompt_lay": ("l = lay down, s = suggest", "l = legg ned, s = forslag",
                   "l = læg ned, s = forslag"),
    "prompt_off": ("o = lay off", "o = legg på", "o = læg til"),
    "prompt_swap": ("w = swap a joker", "w = bytt ut jokeren", "w = byt jokeren"),
    "prompt_discard": ("x CARD = discard", "x KORT = kast", "x KORT = smid"),
    "prompt_call": ("{card} could have been laid off: c = call {call}, p = pass",
                    "{card} kunne vært lagt på: c = rop {call}, p = stå over",
                    "{card} kunne være lagt til: c = råb {call}, p = stå over"),
    "prompt_cut": ("Cut the deck: cut N (1-{max})", "Kutt stokken: cut N (1-{max})",
                   "Tag af: cut N (1-{max})"),
    "prompt_continue": ("Press Enter to continue", "Trykk Enter for å fortsette",
                        "Tryk Enter for at fortsætte"),
    "prompt_quit": ("Really quit the game? (y/n)", "Vil du virkelig avslutte spillet? (j/n)",
                    "Vil du virkelig afslutte spillet? (j/n)"),
    "prompt_choose": ("Choose 1-{n} (anything else cancels)",
                      "Velg 1-{n} (alt annet avbryter)", "Vælg 1-{n} (alt andet afbryder)"),
    "prompt_end": ("At which end of {meld}: low or high?",
                   "I hvilken ende av {meld}: low (lav) eller high (høy)?",
                   "I hvilken ende af {meld}: low (lav) eller high (høj)?"),
    # ---------------------------------------------------------- messages
    "refused": ("Not allowed: {reason}", "Ikke lov: {reason}", "Ikke tilladt: {reason}"),
    "unknown_command": ("unknown command '{cmd}'; type help for the commands",
                        "ukjent kommando '{cmd}'; skriv help for kommandoene",
                        "ukendt kommando '{cmd}'; skriv help for kommandoerne"),
    "empty_input": ("type a command (help lists them)", "skriv en kommando (help viser dem)",
                    "skriv en kommando (help viser dem)"),
    "suggested": ("Suggested lay-down: {melds}. Type lay (or l) to lay it down.",
                  "Forslag: {melds}. Skriv lay (eller l) for å legge det ned.",
                  "Forslag: {melds}. Skriv lay (eller l) for at lægge det ned."),
    "no_lay_down": ("your hand does not make the contract ({contract}) yet",
                    "hånden din oppfyller ikke kontrakten ({contract}) ennå",
                    "din hånd opfylder ikke kontrakten ({contract}) endnu"),
    "already_down": ("you have already laid down your contract this round",
                     "du har allerede lagt ned kontrakten i denne runden",
                     "du har allerede lagt kontrakten ned i denne runde"),
    "suggest_offs": ("You can lay off: {moves}", "Du kan legge på: {moves}",
                     "Du kan lægge til: {moves}"),
    "suggest_none": ("nothing of yours fits on the table now",
                     "ingen av kortene dine passer på bordet nå",
                     "ingen af dine kort passer på bordet nu"),
    "suggest_when": ("suggest works in your turn, after drawing",
                     "forslag virker i din tur, etter at du har trukket",
                     "forslag virker i din tur, efter at du har trukket"),
    "lay_usage": ("type the melds, e.g. lay 9H 9S 9D | 5C 6C 7C 8C (or suggest)",
                  "skriv kombinasjonene, f.eks. lay 9H 9S 9D | 5C 6C 7C 8C (eller suggest)",
                  "skriv kombinationerne, f.eks. lay 9H 9S 9D | 5C 6C 7C 8C (eller suggest)"),
    "not_a_meld": ("{cards} is neither a set nor a run{why}",
                   "{cards} er verken tress eller straight{why}",
                   "{cards} er hverken sæt eller sekvens{why}"),
    "which_meld": ("{cards} can lie in more than one way:",
                   "{cards} kan ligge på flere måter:",
                   "{cards} kan ligge på flere måder:"),
    "cancelled": ("cancelled", "avbrutt", "afbrudt"),
    "off_usage": ("say the card and the meld number, e.g. off 9H 2 (or off 9H 2 low)",
                  "skriv kortet og nummeret på kombinasjonen, f.eks. off 9H 2 (eller off 9H 2 low)",
                  "skriv kortet og nummeret på kombinationen, f.eks. off 9H 2 (eller off 9H 2 low)"),
    "swap_usage": ("say your card and the meld number, e.g. swap 7H 3",
                   "skriv kortet ditt og nummeret på kombinasjonen, f.eks. swap 7H 3",
                   "skriv dit kort og nummeret på kombinationen, f.eks. swap 7H 3"),
    "discard_usage": ("say which card to discard, e.g. x KS",
                      "skriv hvilket kort du vil kaste, f.eks. x KS",
                      "skriv hvilket kort du vil smide, f.eks. x KS"),
    "cut_usage": ("say how many cards to cut, e.g. cut 41", "skriv hvor mange kort, f.eks. cut 41",
                  "skriv hvor mange kort, f.eks. cut 41"),
    "bad_meld_number": ("there is no meld {n} on the table (the melds are numbered 1-{count})",
                        "det er ingen kombinasjon {n} på bordet (de er nummerert 1-{count})",
                        "der er ingen kombination {n} på bordet (de er nummereret 1-{count})"),
    "no_melds_yet": ("there are no melds on the table yet", "det er ingen kombinasjoner på bordet ennå",
                     "der er ingen kombinationer på bordet endnu"),
    "bad_end": ("the end must be low or high, not '{word}'",
                "enden må være low eller high, ikke '{word}'",
                "enden skal være low eller high, ikke '{word}'"),
    "bad_number": ("'{word}' is not a number", "'{word}' er ikke et tall", "'{word}' er ikke et tal"),
    "no_shanghai": ("announcing \"Shanghai!\" belongs to the Shanghai call, which these rules do not use",
                    "å si «Shanghai!» hører til Shanghai-ropet, som disse reglene ikke bruker",
                    "at sige «Shanghai!» hører til Shanghai-råbet, som disse regler ikke bruger"),
    "extra_words": ("too many words: {words}", "for mange ord: {words}", "for mange ord: {words}"),
    "sorted": ("Your hand is now grouped {how}.", "Hånden din er nå gruppert {how}.",
               "Din hånd er nu grupperet {how}."),
    "abandoned": ("Game abandoned.", "Spillet ble avbrutt.", "Spillet blev afbrudt."),
    "thinking": ("The others are playing...", "De andre spiller...", "De andre spiller..."),
    "bot_fallback": ("{who}'s bot chose an illegal move ({reason}); it plays {action} instead.",
                     "{who} valgte et ulovlig trekk ({reason}); spiller {action} i stedet.",
                     "{who} valgte et ulovligt træk ({reason}); spiller {action} i stedet."),
    # -------------------------------------------------------------- help
    "help_title": ("Commands (cards as 9H, TD or 10D, AS, * for a joker; ♥ ♠ ♦ ♣ work too):",
                   "Kommandoer (kort som 9H, TD eller 10D, AS, * for joker; ♥ ♠ ♦ ♣ virker også):",
                   "Kommandoer (kort som 9H, TD eller 10D, AS, * for joker; ♥ ♠ ♦ ♣ virker også):"),
    "help_draw": ("draw the top card of the stock", "trekk øverste kort fra bunken",
                  "træk det øverste kort fra bunken"),
    "help_take": ("take the top card of the discard pile", "ta øverste kort fra kastehaugen",
                  "tag det øverste kort fra kastebunken"),
    "help_buy": ("buy the offered discard (you also get a penalty card)",
                 "kjøp kortet som tilbys (du får også et straffekort)",
                 "køb det tilbudte kort (du får også et strafkort)"),
    "help_pass": ("decline a buy or a call", "stå over et kjøp eller et rop",
                  "stå over et køb eller et råb"),
    "help_lay": ("lay down your contract; melds apart with |",
                 "legg ned kontrakten; skill kombinasjonene med |",
                 "læg kontrakten ned; adskil kombinationerne med |"),
    "help_lay_again": ("lay down the last suggestion", "legg ned det siste forslaget",
                       "læg det sidste forslag ned"),
    "help_suggest": ("the solver suggests a lay-down (or lay-offs once you are down)",
                     "forslag til å legge ned (eller legge på når du har lagt ned)",
                     "forslag til at lægge ned (eller lægge til, når du har lagt ned)"),
    "help_off": ("lay a card off on table meld number MELD (runs: which end)",
                 "legg et kort på kombinasjon nummer MELD (straight: hvilken ende)",
                 "læg et kort til kombination nummer MELD (sekvens: hvilken ende)"),
    "help_swap": ("put your card in place of a joker in meld MELD and take the joker",
                  "legg kortet ditt i stedet for en joker i kombinasjon MELD og ta jokeren",
                  "læg dit kort i stedet for en joker i kombination MELD og tag jokeren"),
    "help_discard": ("discard a card, ending your turn (! or shanghai: say \"Shanghai!\")",
                     "kast et kort og avslutt turen (! eller shanghai: si «Shanghai!»)",
                     "smid et kort og afslut turen (! eller shanghai: sig «Shanghai!»)"),
    "help_call": ("call \"Liverpool!\"/\"Shanghai!\" on a discard that fits the table",
                  "rop «Liverpool!»/«Shanghai!» på et kastet kort som passer på bordet",
                  "råb «Liverpool!»/«Shanghai!» på et smidt kort, der passer på bordet"),
    "help_cut": ("cut the deck (Liverpool cut variant)", "kutt stokken (Liverpool-kutt)",
                 "tag af (Liverpool-afløft)"),
    "help_sort": ("group your hand by suit or by rank", "grupper hånden etter farge eller verdi",
                  "gruppér hånden efter kulør eller værdi"),
    "help_hand": ("show your hand", "vis hånden din", "vis din hånd"),
    "help_table": ("show the table, the piles and the players",
                   "vis bordet, haugene og spillerne", "vis bordet, bunkerne og spillerne"),
    "help_score": ("show the score sheet", "vis poenglisten", "vis pointlisten"),
    "help_help": ("this list", "denne listen", "denne liste"),
    "help_quit": ("leave the game (asks first)", "avslutt spillet (spør først)",
                  "afslut spillet (spørger først)"),
}


def tr(lang: str, key: str, **values: object) -> str:
    """The UI text ``key`` in ``lang`` (falls back to English), filled with ``values``."""
    texts = _TEXTS[key]
    index = LANGUAGES.index(lang) if lang in LANGUAGES else 0
    return texts[index].format(**values)


def contract_words(lang: str, sets: int, runs: int) -> str:
    """A contract in words, e.g. ``2 sets + 1 run``."""
    words = {
        "en": (("set", "sets"), ("run", "runs")),
        "nb": (("tress", "tress"), ("straight", "straighter")),
        "da": (("sæt", "sæt"), ("sekvens", "sekvenser")),
    }[lang if lang in LANGUAGES else "en"]
    parts = []
    if sets:
        parts.append(f"{sets} {words[0][sets != 1]}")
    if runs:
        parts.append(f"{runs} {words[1][runs != 1]}")
    return " + ".join(parts)
