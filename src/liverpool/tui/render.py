"""Rich renderables for the terminal game: cards, the hand, the table, the score sheet.

Everything here draws from a :class:`~liverpool.views.SeatView` (what the
player may know) and never from the game itself.

>>> from liverpool import load_rules, parse_cards
>>> style = CardStyle(load_rules("liverpool"), symbols=False)
>>> style.text(parse_cards("9H * KS TD")).plain
'9H * KS 10D'
>>> [label for label, _ in group_hand(parse_cards("9H KS 9S *"), load_rules("liverpool"), "rank")]
['9', 'K', 'wild']
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.table import Table
from rich.text import Text

from ..cards import RANKS, Card
from ..i18n import card_text, render_segments
from ..melds import Meld
from ..rules import Rules
from ..views import SeatView
from .i18n import contract_words, tr

__all__ = ["CardStyle", "HandCells", "event_text", "group_hand", "hand_panel", "log_lines",
           "meld_text", "piles_line", "players_panel", "round_line", "score_table", "screen",
           "shown_hand", "status_panel", "table_panel"]

_SUIT_STYLES = ("bold", "bold red", "bold blue", "bold green")  # a four-colour deck
_WILD_STYLE = "bold magenta"
_CARD_RE = re.compile(r"(?<![\w*])(?:(?:10|[A2-9TJQK])[SHDC♠♥♦♣]|\*)(?![\w(])")


class CardStyle:
    """How cards look: letters (``9H``) or suit symbols (``9♥``), coloured by suit."""

    def __init__(self, rules: Rules, symbols: bool = True) -> None:
        self.rules = rules
        self.symbols = symbols

    def word(self, card: Card) -> str:
        # (as liverpool.i18n shows cards: a ten is 10♠ or 10S)
        return card_text(card, symbols=self.symbols)

    def style(self, card: Card) -> str:
        if self.rules.is_wild(card):
            return _WILD_STYLE
        return _SUIT_STYLES[card.suit]

    def text(self, cards: Sequence[Card], sep: str = " ") -> Text:
        out = Text()
        for i, c in enumerate(cards):
            if i:
                out.append(sep)
            out.append(self.word(c), style=self.style(c))
        return out

    def in_words(self, text: str) -> Text:
        """Colour the card notation inside an engine text (``Seat 2 discards 9H.``)."""
        out = Text()
        pos = 0
        for m in _CARD_RE.finditer(text):
            out.append(text[pos:m.start()])
            card = Card.parse(m.group())
            out.append(self.word(card), style=self.style(card))
            pos = m.end()
        out.append(text[pos:])
        return out


def group_hand(hand: Sequence[Card], rules: Rules, by: str) -> list[tuple[str, list[Card]]]:
    """The hand in groups: by suit (``S H D C``) or by rank (``A`` .. ``K``), wilds last."""
    wilds = [c for c in hand if rules.is_wild(c)]
    naturals = [c for c in hand if not rules.is_wild(c)]
    groups: list[tuple[str, list[Card]]] = []
    if by == "rank":
        for rank in range(1, 14):
            cards = sorted((c for c in naturals if c.rank == rank), key=lambda c: c.suit)
            if cards:
                groups.append(("10" if rank == 10 else RANKS[rank - 1], cards))
    else:
        for suit in range(4):
            cards = sorted((c for c in naturals if c.suit == suit), key=lambda c: c.rank)
            if cards:
                groups.append(("SHDC"[suit], cards))
    if wilds:
        groups.append(("wild", sorted(wilds)))
    return groups


def shown_hand(view: SeatView, rules: Rules, by: str) -> list[Card]:
    """The hand in the order the screen shows it: ``x 3`` is the third of these."""
    return [c for _, cards in group_hand(list(view.hand), rules, by) for c in cards]


class HandCells:
    """The hand as cells, each card over its number (what ``x 3`` picks), groups
    apart; the cells wrap to the width they are given."""

    def __init__(self, groups: Sequence[Sequence[Card]], style: CardStyle) -> None:
        self.groups = groups
        self.style = style

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        width = max(8, options.max_width)
        rows: list[tuple[Text, Text]] = []
        cards, numbers = Text(), Text()
        n = 0
        for g, group in enumerate(self.groups):
            for i, card in enumerate(group):
                n += 1
                cell = 5 if g and not i else 4  # a wider gap before a new group
                if cards.cell_len + cell > width and cards.cell_len:
                    rows.append((cards, numbers))
                    cards, numbers = Text(), Text()
                    cell = 4
                word = self.style.word(card)
                cards.append(" " * (cell - len(word)))
                cards.append(word, style=self.style.style(card))
                numbers.append(f"{n:>{cell}}", style="dim")
        if cards.cell_len:
            rows.append((cards, numbers))
        for card_line, number_line in rows:
            yield card_line
            yield number_line


def hand_panel(view: SeatView, style: CardStyle, by: str, lang: str) -> Group:
    """``Your hand (11, by suit):`` and the cards over their numbers, grouped."""
    hand = list(view.hand)
    how = tr(lang, "by_rank" if by == "rank" else "by_suit")
    head = Text(f"{tr(lang, 'your_hand')} ({len(hand)}, {how}):", style="bold underline")
    if not hand:
        return Group(head, Text("  —"))
    groups = [cards for _, cards in group_hand(hand, style.rules, by)]
    return Group(head, HandCells(groups, style))


def meld_text(meld: Meld, style: CardStyle) -> Text:
    """A meld's cards; in a run each wild card shows what it stands for: ``*(7♥)``."""
    out = Text()
    for i, card in enumerate(meld.cards):
        if i:
            out.append(" ")
        out.append(style.word(card), style=style.style(card))
        if meld.kind == "run" and style.rules.is_wild(card):
            stands = meld.stands_for(i)
            if stands is not None:
                out.append(f"({style.word(stands)})", style="dim")
    return out


def _name(view: SeatView, seat: int, names: Sequence[str]) -> str:
    return names[seat]


def n_cards(lang: str, n: int) -> str:
    return tr(lang, "n_cards", n=n)


def round_line(view: SeatView, style: CardStyle, names: Sequence[str], lang: str,
               piles: bool = True) -> Text:
    """The round, the contract, the dealer (the final-round note), and the piles."""
    rules = style.rules
    contract = contract_words(lang, view.contract.sets, view.contract.runs)
    head = Text()
    head.append(tr(lang, "round_of", round=view.round, rounds=view.num_rounds), style="bold")
    head.append("  ·  ")
    head.append(f"{tr(lang, 'contract')}: ")
    head.append(contract, style="bold yellow")
    head.append("  ·  ")
    head.append(f"{tr(lang, 'dealer')}: {_name(view, view.dealer, names)}")
    mode = rules.final_mode(view.round)
    if mode != "normal":
        head.append("\n")
        head.append(tr(lang, "final_all" if mode == "all_at_once" else "final_all_discard"),
                    style="italic")
    if piles:
        head.append("\n")
        head.append_text(piles_line(view, style, lang))
    return head


def piles_line(view: SeatView, style: CardStyle, lang: str) -> Text:
    """``Discard pile: 7♥ (3 cards)    Stock: 40 cards``."""
    out = Text()
    out.append(f"{tr(lang, 'discard_pile')}: ", style="bold")
    top = view.top_discard
    if top is None:
        out.append(tr(lang, "empty"), style="dim")
    else:
        out.append(style.word(top), style=style.style(top))
        out.append(f" ({n_cards(lang, len(view.discard_pile))})")
    out.append(f"    {tr(lang, 'stock')}: ", style="bold")
    out.append(n_cards(lang, view.stock_size))
    return out


def players_panel(view: SeatView, names: Sequence[str], lang: str, gap: int = 1) -> Text:
    """One line per player: cards in hand, buys, laid down, points; ``▶`` who decides."""
    limit = "" if view.buy_limit is None else f"/{view.buy_limit}"
    headers = [tr(lang, "player"), tr(lang, "cards"), tr(lang, "buys"), tr(lang, "down"),
               tr(lang, "points")]
    rows = [[("▶ " if seat == view.to_move else "  ") + _name(view, seat, names),
             str(view.hand_sizes[seat]), f"{view.buys[seat]}{limit}",
             "✓" if view.laid_down[seat] else "·", str(view.totals[seat])]
            for seat in range(view.players)]
    header = ["  " + headers[0], *headers[1:]]
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(headers))]

    def line(cells: list[str]) -> str:
        return (" " * gap).join(c.ljust(w) if i == 0 else c.center(w) if i == 3 else c.rjust(w)
                                for i, (c, w) in enumerate(zip(cells, widths, strict=True)))

    players = Text(line(header), style="bold")
    for seat, row in enumerate(rows):
        players.append("\n")
        players.append(line(row), style="bold cyan" if seat == view.seat else "")
    return players


def status_panel(view: SeatView, style: CardStyle, names: Sequence[str], lang: str) -> Group:
    """The round, the contract, the dealer and one line per player."""
    # plain padded columns: much cheaper to draw than a rich Table at every decision
    return Group(round_line(view, style, names, lang, piles=False),
                 players_panel(view, names, lang, gap=2))


def _cut_name(name: str, width: int) -> str:
    """``name`` in at most ``width`` characters; a long one keeps its last word
    (the seat number of "Middels 2", "Plass 1 (deg)") after an ellipsis.

    >>> _cut_name("Middels 2", 8), _cut_name("Vanskelig 3", 8), _cut_name("Kari", 8)
    ('Midde… 2', 'Vansk… 3', 'Kari')
    >>> _cut_name("Plass 1 (deg)", 8), _cut_name("Bartholomew", 8)
    ('P… (deg)', 'Barthol…')
    """
    if len(name) <= width:
        return name
    head, _, last = name.rpartition(" ")
    if head and len(last) <= width - 3:
        return head[:width - len(last) - 2] + "… " + last
    return name[:width - 1] + "…"


def table_panel(view: SeatView, style: CardStyle, names: Sequence[str], lang: str,
                compact: bool = False) -> Text:
    """The melds on the table, numbered, with their owners; the piles (``compact``:
    no piles, no kinds, owners cut to 8 characters, a name's last word kept:
    ``Midd… 2``, so that two bots of one level stay apart)."""
    out = Text()
    out.append(f"{tr(lang, 'table')}:", style="bold underline")
    if not view.table:
        out.append(f"\n  {tr(lang, 'no_melds')}", style="dim")
    owners = [_cut_name(names[o], 8) if compact else names[o] for o in view.table_owners]
    width = max((len(o) for o in owners), default=0)
    for i, (meld, owner) in enumerate(zip(view.table, owners, strict=True)):
        out.append(f"\n{i + 1:>2}. " if compact else f"\n  {i + 1:>2}. ", style="bold")
        kind = "" if compact else f"{tr(lang, meld.kind):<8} "
        out.append(f"{owner:<{width}} {kind}" if compact else f"{owner:<{width}}  {kind}",
                   style="dim")
        out.append_text(meld_text(meld, style))
    if not compact:
        out.append("\n")
        out.append_text(piles_line(view, style, lang))
    return out


def event_text(event: object, seat: int | None, style: CardStyle, lang: str,
               names: Sequence[str] | None = None) -> Text:
    """One event in words (:mod:`liverpool.i18n`) as ``seat`` sees it, its cards coloured."""
    visible = getattr(event, "visible_to", None)
    if visible is not None:
        event = visible(seat)
    out = Text()
    for part in render_segments(event, lang, names):
        if isinstance(part, Card):
            out.append(style.word(part), style=style.style(part))
        else:
            out.append(part)
    return out


_HEADLINES = ("round_started", "round_over", "round_abandoned", "game_over")


def log_lines(events: Sequence[object], seat: int | None, style: CardStyle, lang: str,
              names: Sequence[str] | None = None, limit: int = 24) -> Text:
    """What happened (the events in words), with the cards only ``seat`` may see."""
    out = Text()
    out.append(f"{tr(lang, 'log')}:", style="bold underline")
    shown = list(events)
    if len(shown) > limit:
        out.append(f"\n  {tr(lang, 'earlier', n=len(shown) - limit)}", style="dim")
        shown = shown[-limit:]
    for e in shown:
        out.append("\n  · ")
        line = event_text(e, seat, style, lang, names)
        if getattr(e, "seat", None) == seat:
            line.stylize("bold")
        if getattr(e, "type", None) in _HEADLINES:
            line.stylize("yellow")
        out.append_text(line)
    return out


def score_table(view: SeatView, rules: Rules, names: Sequence[str], lang: str,
                title: str | None = None) -> Table:
    """Round scores and totals per player (the lowest total wins)."""
    table = Table(title=title or tr(lang, "score_sheet"), title_justify="left")
    table.add_column(tr(lang, "round"), justify="right")
    table.add_column(tr(lang, "contract"))
    for seat in range(view.players):
        table.add_column(names[seat], justify="right",
                         style="bold cyan" if seat == view.seat else None)
    for i, scores in enumerate(view.round_scores):
        c = rules.contract(i + 1)
        table.add_row(str(i + 1), contract_words(lang, c.sets, c.runs),
                      *(str(p) for p in scores), end_section=i == len(view.round_scores) - 1)
    best = min(view.totals) if view.totals else 0
    table.add_row(tr(lang, "total"), "",
                  *(Text(str(t), style="bold green" if t == best and view.round_scores else "bold")
                    for t in view.totals))
    return table


def screen(view: SeatView, style: CardStyle, names: Sequence[str], lang: str,
           by: str) -> list[RenderableType]:
    """Everything shown at one of the player's decisions (the log aside)."""
    return [status_panel(view, style, names, lang), Text(),
            table_panel(view, style, names, lang), Text(),
            hand_panel(view, style, by, lang)]
