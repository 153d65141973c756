"""Rich renderables for the terminal game: cards, the hand, the table, the score sheet.

Everything here draws from a :class:`~liverpool.views.SeatView` (what the
player may know) and never from the game itself. The panels are laid out for
the width they are drawn in (:class:`Fitted`): as usual where that fits, folded
where it does not (a terminal of 40 columns, the full screen's side panes).

>>> from liverpool import load_rules, parse_cards
>>> style = CardStyle(load_rules("liverpool"), symbols=False)
>>> style.text(parse_cards("9H * KS TD")).plain
'9H * KS 10D'
>>> [label for label, _ in group_hand(parse_cards("9H KS 9S *"), load_rules("liverpool"), "rank")]
['9', 'K', 'wild']
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from rich import box
from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

from ..cards import RANKS, Card
from ..i18n import card_text, render_segments
from ..melds import Meld
from ..rules import Rules
from ..views import SeatView
from .i18n import contract_words, tr

__all__ = ["CardStyle", "Fitted", "HandCells", "event_text", "group_hand", "hand_panel",
           "hanging", "log_lines", "meld_text", "piles_line", "players_panel", "round_line",
           "score_table", "screen", "shown_hand", "status_panel", "table_panel"]

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


class Fitted:
    """A renderable laid out for the width it is given (a narrow terminal, a side
    pane): ``layout(console, options)`` builds what is shown at ``options.max_width``.
    The panels below show their usual layout when it fits and fold it when not.

    >>> from io import StringIO
    >>> out = StringIO()
    >>> Console(file=out, width=12).print(Fitted(lambda c, o: "wide" if o.max_width > 20
    ...                                          else "narrow"))
    >>> out.getvalue()
    'narrow\\n'
    """

    def __init__(self, layout: Callable[[Console, ConsoleOptions], RenderableType]) -> None:
        self.layout = layout
        self._built: dict[int, RenderableType] = {}

    def at(self, console: Console, options: ConsoleOptions) -> RenderableType:
        """What is shown at ``options.max_width``."""
        width = options.max_width
        if width not in self._built:
            self._built[width] = self.layout(console, options)
        return self._built[width]

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield self.at(console, options)

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement.get(console, options, self.at(console, options))


def _fits(text: Text, width: int) -> bool:
    """Does every line of ``text`` fit ``width`` cells?"""
    return all(cell_len(line) <= width for line in text.plain.split("\n"))


def _pack(parts: Sequence[Text], sep: str, width: int) -> Text:
    """``parts`` joined by ``sep``, a new line instead of ``sep`` where the next
    part would not fit ``width``."""
    out = Text()
    used = 0
    for part in parts:
        if used and used + len(sep) + part.cell_len > width:
            out.append("\n")
            used = 0
        elif used:
            out.append(sep)
            used += len(sep)
        out.append_text(part)
        used += part.cell_len
    return out


def hanging(head: Text, words: Sequence[Text], width: int, indent: int | None = None) -> Text:
    """``head`` then ``words`` (one space apart), wrapped to ``width`` with the
    next lines indented by ``indent``; by default under the first word (by 4
    if that leaves too little).

    >>> hanging(Text(" 1. Kari "), [Text(w) for w in "7♥ 8♥ 9♥ 10♥ J♥".split()], 22).plain
    ' 1. Kari 7♥ 8♥ 9♥ 10♥\\n         J♥'
    """
    if indent is None:
        indent = head.cell_len if width - head.cell_len >= 12 else 4
    out = head.copy()
    used = head.cell_len
    for i, word in enumerate(words):
        gap = 1 if i else 0
        if used + gap + word.cell_len > width and used > indent:
            out.append("\n" + " " * indent)
            used, gap = indent, 0
        out.append(" " * gap)
        out.append_text(word)
        used += gap + word.cell_len
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
    return Text(" ").join(_meld_words(meld, style))


def _meld_words(meld: Meld, style: CardStyle) -> list[Text]:
    """A meld's cards one by one, as :func:`meld_text` shows them."""
    words = []
    for i, card in enumerate(meld.cards):
        word = Text(style.word(card), style=style.style(card))
        if meld.kind == "run" and style.rules.is_wild(card):
            stands = meld.stands_for(i)
            if stands is not None:
                word.append(f"({style.word(stands)})", style="dim")
        words.append(word)
    return words


def _name(view: SeatView, seat: int, names: Sequence[str]) -> str:
    return names[seat]


def n_cards(lang: str, n: int) -> str:
    return tr(lang, "n_cards", n=n)


_ROUND_SEP = "  ·  "
_PILES_SEP = "    "


def round_line(view: SeatView, style: CardStyle, names: Sequence[str], lang: str,
               piles: bool = True) -> Fitted:
    """The round, the contract, the dealer (the final-round note), and the piles;
    where a line does not fit, it breaks between these parts."""
    rules = style.rules
    contract = contract_words(lang, view.contract.sets, view.contract.runs)
    parts = [Text(tr(lang, "round_of", round=view.round, rounds=view.num_rounds), style="bold"),
             Text(f"{tr(lang, 'contract')}: ") + Text(contract, style="bold yellow"),
             Text(f"{tr(lang, 'dealer')}: {_name(view, view.dealer, names)}")]
    mode = rules.final_mode(view.round)
    note = None if mode == "normal" else Text(
        tr(lang, "final_all" if mode == "all_at_once" else "final_all_discard"), style="italic")
    pile_parts = _pile_parts(view, style, lang) if piles else []

    def layout(console: Console, options: ConsoleOptions) -> Text:
        width = options.max_width
        lines = [Text(_ROUND_SEP).join(parts)]
        if note is not None:
            lines.append(note)
        if pile_parts:
            lines.append(Text(_PILES_SEP).join(pile_parts))
        wide = Text("\n").join(lines)
        if _fits(wide, width):
            return wide
        lines[0] = _pack(parts, _ROUND_SEP, width)
        if pile_parts:
            lines[-1] = _pack(pile_parts, _PILES_SEP, width)
        return Text("\n").join(lines)

    return Fitted(layout)


def _pile_parts(view: SeatView, style: CardStyle, lang: str) -> list[Text]:
    discard = Text(f"{tr(lang, 'discard_pile')}: ", style="bold")
    top = view.top_discard
    if top is None:
        discard.append(tr(lang, "empty"), style="dim")
    else:
        discard.append(style.word(top), style=style.style(top))
        discard.append(f" ({n_cards(lang, len(view.discard_pile))})")
    stock = Text(f"{tr(lang, 'stock')}: ", style="bold")
    stock.append(n_cards(lang, view.stock_size))
    return [discard, stock]


def piles_line(view: SeatView, style: CardStyle, lang: str) -> Fitted:
    """``Discard pile: 7♥ (3 cards)    Stock: 40 cards`` (two lines where one does not fit)."""
    parts = _pile_parts(view, style, lang)
    return Fitted(lambda console, options: _pack(parts, _PILES_SEP, options.max_width))


def players_panel(view: SeatView, names: Sequence[str], lang: str, gap: int = 1) -> Fitted:
    """One line per player: cards in hand, buys, laid down, points; ``▶`` who decides.

    Where that is too wide, the columns close up to one space, then a header of
    two words takes two lines, then the names are cut (their last word kept):
    every player's numbers stay on the player's line.
    """
    limit = "" if view.buy_limit is None else f"/{view.buy_limit}"
    headers = [tr(lang, "player"), tr(lang, "cards"), tr(lang, "buys"), tr(lang, "down"),
               tr(lang, "points")]
    marks = ["▶ " if seat == view.to_move else "  " for seat in range(view.players)]
    numbers = [[str(view.hand_sizes[seat]), f"{view.buys[seat]}{limit}",
                "✓" if view.laid_down[seat] else "·", str(view.totals[seat])]
               for seat in range(view.players)]

    def table(gap: int, split: bool, name_width: int | None = None) -> Text:
        shown = [_name(view, seat, names) for seat in range(view.players)]
        if name_width is not None:
            shown = [_cut_name(name, name_width) for name in shown]
        rows = [[mark + name, *cells] for mark, name, cells in zip(marks, shown, numbers,
                                                                   strict=True)]
        heads = [["  " + headers[0]]] + [
            _two_lines(h) if split and len(h) > max(len(r[i + 1]) for r in rows) else [h]
            for i, h in enumerate(headers[1:])]
        depth = max(len(h) for h in heads)
        header_rows = [[h[len(h) - depth + k] if len(h) - depth + k >= 0 else "" for h in heads]
                       for k in range(depth)]
        widths = [max(len(r[i]) for r in [*header_rows, *rows]) for i in range(len(headers))]

        def line(cells: list[str]) -> str:
            return (" " * gap).join(
                c.ljust(w) if i == 0 else c.center(w) if i == 3 else c.rjust(w)
                for i, (c, w) in enumerate(zip(cells, widths, strict=True)))

        players = Text("\n".join(line(h).rstrip() if k < depth - 1 else line(h)
                                  for k, h in enumerate(header_rows)), style="bold")
        for seat, row in enumerate(rows):
            players.append("\n")
            players.append(line(row), style="bold cyan" if seat == view.seat else "")
        return players

    def layout(console: Console, options: ConsoleOptions) -> Text:
        width = options.max_width
        for g, split in dict.fromkeys([(gap, False), (1, False), (1, True)]):
            text = table(g, split)
            if _fits(text, width):
                return text
        longest = max(len(_name(view, seat, names)) for seat in range(view.players))
        over = max(cell_len(line) for line in text.plain.split("\n")) - width
        return table(1, True, max(6, longest - over))

    return Fitted(layout)


def _two_lines(header: str) -> list[str]:
    """A header of several words on two lines, broken at the space nearest its middle.

    >>> _two_lines("Laid down"), _two_lines("Points")
    (['Laid', 'down'], ['Points'])
    """
    spaces = [i for i, ch in enumerate(header) if ch == " "]
    if not spaces:
        return [header]
    cut = min(spaces, key=lambda i: abs(2 * i - len(header)))
    return [header[:cut], header[cut + 1:]]


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
                compact: bool = False) -> Fitted:
    """The melds on the table, numbered, with their owners; the piles (``compact``:
    no piles, no kinds, owners cut to 8 characters, a name's last word kept:
    ``Midd… 2``, so that two bots of one level stay apart). Where a meld does not
    fit on its line, it goes on under its first card (and the melds are shown
    compact when the owners and kinds would leave the cards too little room);
    the piles take two lines where one is too narrow."""

    def layout(console: Console, options: ConsoleOptions) -> Text:
        width = options.max_width
        out = Text()
        out.append(f"{tr(lang, 'table')}:", style="bold underline")
        if not view.table:
            out.append(f"\n  {tr(lang, 'no_melds')}", style="dim")
        heads = _meld_heads(view, names, lang, compact)
        if heads and width - heads[0].cell_len < _MELD_ROOM and any(
                head.cell_len + meld_text(meld, style).cell_len > width
                for head, meld in zip(heads, view.table, strict=True)):
            heads = _meld_heads(view, names, lang, True)
        for head, meld in zip(heads, view.table, strict=True):
            out.append("\n")
            out.append_text(hanging(head, _meld_words(meld, style), width))
        if not compact:
            out.append("\n")
            out.append_text(_pack(_pile_parts(view, style, lang), _PILES_SEP, width))
        return out

    return Fitted(layout)


#: The least room for a meld's cards beside its number, owner and kind (else compact).
_MELD_ROOM = 20


def _meld_heads(view: SeatView, names: Sequence[str], lang: str, compact: bool) -> list[Text]:
    """What stands before each meld's cards: its number, its owner (and its kind)."""
    owners = [_cut_name(names[o], 8) if compact else names[o] for o in view.table_owners]
    width = max((len(o) for o in owners), default=0)
    heads = []
    for i, (meld, owner) in enumerate(zip(view.table, owners, strict=True)):
        head = Text(f"{i + 1:>2}. " if compact else f"  {i + 1:>2}. ", style="bold")
        kind = "" if compact else f"{tr(lang, meld.kind):<8} "
        head.append(f"{owner:<{width}} {kind}" if compact else f"{owner:<{width}}  {kind}",
                    style="dim")
        heads.append(head)
    return heads


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
                title: str | None = None) -> Fitted:
    """Round scores and totals per player (the lowest total wins). Where even the
    wrapped table does not fit, it is drawn without the contracts and the frame,
    the names wrapped over the columns of numbers."""

    def layout(console: Console, options: ConsoleOptions) -> Table:
        wide = _score_table(view, rules, names, lang, title)
        # (the narrowest it gets by wrapping its words: measured at a large width)
        least = Measurement.get(console, options.update_width(1000), wide).minimum
        if least <= options.max_width:
            return wide
        return _narrow_score_table(view, names, lang, title, options.max_width)

    return Fitted(layout)


def _narrow_score_table(view: SeatView, names: Sequence[str], lang: str, title: str | None,
                        width: int) -> Table:
    """The score sheet in ``width``: the round, one column per player (the name
    wrapped over it, or cut where even its longest word does not fit), the totals."""
    players = view.players
    first = max(len(tr(lang, "round")), len(tr(lang, "total")), len(str(view.num_rounds)))
    digits = [max(len(str(p)) for p in [view.totals[s], *(r[s] for r in view.round_scores)])
              for s in range(players)]
    natural = [max(len(names[s]), digits[s]) for s in range(players)]
    least = [max(digits[s], *(len(w) for w in names[s].split())) for s in range(players)]
    room = width - first - players  # (a space before each player's column)
    heads = list(names)
    if sum(least) > room:
        widths = [max(digits[s], 4, room // players + (s < room % players))
                  for s in range(players)]
        heads = [_cut_name(names[s], widths[s]) for s in range(players)]
    else:  # the longest words; then whole names where the room allows, the shortest first
        widths = least
        left = room - sum(least)
        for s in sorted(range(players), key=lambda s: natural[s] - least[s]):
            more = min(left, natural[s] - widths[s])
            widths[s] += more
            left -= more
    table = Table(title=title or tr(lang, "score_sheet"), title_justify="left",
                  box=box.SIMPLE if view.round_scores else box.SIMPLE_HEAD, show_edge=False,
                  pad_edge=False, padding=0, show_footer=True)
    table.add_column(tr(lang, "round"), tr(lang, "total"), justify="right", no_wrap=True)
    best = min(view.totals) if view.totals else 0
    for seat in range(players):
        total = view.totals[seat]
        table.add_column(heads[seat], Text(str(total), style="bold green" if total == best
                                           and view.round_scores else "bold"),
                         justify="right", overflow="fold", width=widths[seat],
                         style="bold cyan" if seat == view.seat else None)
    for i, scores in enumerate(view.round_scores):
        table.add_row(str(i + 1), *(str(p) for p in scores))
    return table


def _score_table(view: SeatView, rules: Rules, names: Sequence[str], lang: str,
                 title: str | None) -> Table:
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
