"""Names at a table are unique: a person who joins with a bot's first name
keeps it and the bot takes another; a second person of the same name gets a
number; in every language the pages speak, in the page's words and in the
log's texts alike (no real server: the hub in this process)."""

from __future__ import annotations

import asyncio
import itertools
import re
from pathlib import Path

from liverpool import i18n
from liverpool.ruleset_io import load_rules
from liverpool.server import Hub, Store
from liverpool.server.seats import TableSettings, people_names, seat_names
from liverpool.server.store import SeatRecord


def unique(names: list[str], seats: list[SeatRecord] | None = None) -> bool:
    """No two alike, case aside; with ``seats``, a bot by its first name (as
    the sentences of the page name it: "Ada" of "Ada (bot, medium)")."""
    if seats is not None:
        names = [re.sub(r"\s*\(.*\)$", "", n) if s.kind == "bot" else n
                 for n, s in zip(names, seats, strict=True)]
    return len({n.casefold() for n in names}) == len(names)


def test_a_person_with_a_bots_name_keeps_it_and_the_bot_takes_another() -> None:
    seats = [SeatRecord(0, "human", name="Kari"), SeatRecord(1, "bot", "medium"),
             SeatRecord(2, "human", name="ada"), SeatRecord(3, "bot", "easy")]
    en = seat_names(seats, "en")
    assert en[0] == "Kari"
    assert en[2] == "ada"
    # Ada is seat 1's own first name in English: the person has it, the bot another
    assert i18n.bot_first_names("en")[0] == "Ada"
    assert en[1] != i18n.bot_name(1, "medium", "en")
    assert en[1].endswith("(bot, medium)")
    assert not en[1].casefold().startswith("ada")
    assert en[3] == i18n.bot_name(3, "easy", "en")  # (its own name: nobody had it)
    assert unique(en, seats)
    # in Norwegian seat 1's bot is Ola: nobody has that name, the bot keeps it
    assert seat_names(seats, "nb")[1] == i18n.bot_name(1, "medium", "nb")


def test_two_people_of_one_name_get_numbers_in_seat_order() -> None:
    seats = [SeatRecord(0, "human", name="Ada"), SeatRecord(1, "human", name="ADA"),
             SeatRecord(2, "human", name="Ada 2"), SeatRecord(3, "human", name="Ada")]
    assert people_names(seats) == ["Ada", "ADA 2", "Ada 2 2", "Ada 3"]
    assert unique(seat_names(seats, "da"), seats)


def test_names_are_unique_whatever_people_call_themselves() -> None:
    """Every table of four with people named after the bots (in any language)
    or after each other: no two names alike, in every language."""
    candidates = sorted({n for lang in i18n.LANGUAGES for n in i18n.bot_first_names(lang)[:4]})
    kinds = ["human", "bot"]
    checked = 0
    for pattern in itertools.product(kinds, repeat=3):
        for chosen in itertools.product([*candidates[:6], None], repeat=pattern.count("human") + 1):
            people = iter(chosen)
            seats = [SeatRecord(0, "human", name=next(people))]
            for seat, kind in enumerate(pattern, start=1):
                seats.append(SeatRecord(seat, "human", name=next(people)) if kind == "human"
                             else SeatRecord(seat, "bot", "hard"))
            for lang in i18n.LANGUAGES:
                names = seat_names(seats, lang)
                assert unique(names, seats), (seats, lang, names)
                assert all(names)
                checked += 1
    assert checked > 1000


def test_a_person_joins_a_table_with_a_bot_of_their_name() -> None:
    """The creator Ada and the bot at seat 1 (Ada in English); then another
    Ada joins: the table's info (what the pages show) and its names (what the
    log's texts say) name three different seats."""
    hub = Hub(Store("sqlite://"), bot_delay=0)

    async def play() -> None:
        table, _token = hub.create(load_rules("liverpool"), "liverpool", [
            {"kind": "human"}, {"kind": "bot", "level": "medium"}, {"kind": "human"}],
            TableSettings(waiting=True), "Ada")
        seat, _ = await hub.join(table, "Ada")
        assert seat == 2
        info = table.info()
        assert [s["name"] for s in info["seats"]] == ["Ada", None, "Ada"]  # (as they asked)
        assert set(info["names"]) == set(i18n.LANGUAGES)
        for lang in i18n.LANGUAGES:
            assert info["names"][lang] == table.names(lang)
            assert unique(info["names"][lang])
        en = info["names"]["en"]
        assert en[0] == "Ada"
        assert en[2] == "Ada 2"
        assert not en[1].startswith("Ada")
        hub.close()

    asyncio.run(play())


def test_a_table_of_eight_finds_every_bot_a_name_of_its_own() -> None:
    """Seven bots and a person named after any of them, or two people named
    after two of them: every bot still has a first name from the list, no
    number after it ("Kari 3"), in every language."""
    for lang in i18n.LANGUAGES:
        firsts = i18n.bot_first_names(lang)
        assert len(firsts) >= 8
        for people in [*([f] for f in firsts), *itertools.combinations(firsts[:4], 2)]:
            seats = [SeatRecord(i, "human", name=n) for i, n in enumerate(people)]
            seats += [SeatRecord(i, "bot", "easy") for i in range(len(people), 8)]
            names = seat_names(seats, lang)
            assert unique(names, seats), (lang, people, names)
            for name, seat in zip(names, seats, strict=True):
                if seat.kind == "bot":
                    assert re.sub(r"\s*\(.*\)$", "", name) in firsts, (lang, people, names)


def test_a_bot_has_the_same_first_name_for_everyone_at_the_table(tmp_path: Path) -> None:
    """A table made in Norwegian: its bots are Ola and Kari for everyone, their
    level in each one's own language ("Ola (robot, middels)", "Ola (bot,
    medium)"); in the table's info, after a restart from the database, and in
    the list of finished games. A table made in Danish has Danish names."""
    from fastapi.testclient import TestClient

    from liverpool.server import create_app

    url = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    seats = [{"kind": "human"}, {"kind": "bot", "level": "medium"},
             {"kind": "bot", "level": "hard"}]
    made = {}
    with TestClient(create_app(Hub(Store(url), bot_delay=0))) as c:
        for lang in ("nb", "da"):
            r = c.post("/api/tables", json={"seats": seats, "name": "Anne", "lang": lang,
                                            "wait": True})
            assert r.status_code == 201, r.text
            made[lang] = r.json()["code"]
        info = c.get(f"/api/tables/{made['nb']}").json()
        assert info["settings"]["names_lang"] == "nb"
    ola, kari = i18n.bot_first_names("nb")[:2]
    Store(url).finish_table(made["nb"])  # (in the list of finished games, unplayed)
    with TestClient(create_app(Hub(Store(url), bot_delay=0))) as c:  # (a restarted server)
        info = c.get(f"/api/tables/{made['nb']}").json()
        assert info["names"]["nb"] == ["Anne", f"{ola} (robot, middels)", f"{kari} (robot, vanskelig)"]
        assert info["names"]["en"] == ["Anne", f"{ola} (bot, medium)", f"{kari} (bot, hard)"]
        assert info["names"]["da"][1] == f"{ola} (robot, mellem)"
        assert info["short_names"]["en"] == ["Anne", ola, kari]
        danish = c.get(f"/api/tables/{made['da']}").json()
        assert danish["short_names"]["en"][1:] == i18n.bot_first_names("da")[:2]
        assert danish["short_names"]["nb"] == danish["short_names"]["en"]
        finished = {g["code"]: g for g in c.get("/api/games").json()}
        assert finished[made["nb"]]["seat_names"] == info["names"]
