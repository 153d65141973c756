"""``/api/pads``: score pads for games played with real cards."""

from __future__ import annotations

import dataclasses
import time
from typing import Annotated, Any

from fastapi import APIRouter, Request
from pydantic import Field

from .. import i18n
from ..cards import Card, CardError
from ..rules import RulesError
from ..ruleset_io import describe_rules, load_preset, rules_from_dict
from .hub import new_code
from .inbound import Body, Name
from .probes import client_address
from .store import PadRecord
from .ui import ui_language
from .web import HubDep, count_made, http_error, reason_error

__all__ = ["PadRequest", "PadRound", "pad_json", "router"]

router = APIRouter()


class PadRequest(Body):
    preset: str = Field(default="liverpool", max_length=40)
    names: list[Name] = Field(min_length=2, max_length=8)
    lang: str = Field(default="en", max_length=16)


class PadRound(Body):
    round: int = Field(ge=1, le=50)
    points: list[Annotated[int, Field(ge=-100_000, le=100_000)]] | None = Field(
        default=None, max_length=8)
    hands: list[Annotated[list[Annotated[str, Field(max_length=8)]], Field(max_length=200)]] | \
        None = Field(default=None, max_length=8)


@router.post("/api/pads", status_code=201)
async def new_pad(req: PadRequest, hub: HubDep, request: Request) -> dict[str, Any]:
    lang = ui_language(req.lang)
    try:
        rules = load_preset(req.preset)
    except RulesError as e:
        raise reason_error(400, "rules", e, lang) from None
    await count_made(hub, request, "pads", lang)  # (a refused one uses none of the quota)
    names = [n or i18n.default_name(i, lang) for i, n in enumerate(req.names)]
    pad = PadRecord(new_code(8), time.time(), {
        "preset": req.preset, "rules": rules.to_dict(), "names": names, "rounds": []})
    await hub.storage.in_thread(hub.store.save_pad, pad)
    return pad_json(pad, lang)


@router.get("/api/pads/{pad_id}")
async def get_pad(pad_id: str, hub: HubDep, lang: str = "en") -> dict[str, Any]:
    pad = await hub.storage.in_thread(hub.store.pad, pad_id.upper())
    if pad is None:
        raise http_error(404, "server_no_pad", lang, code=pad_id[:16])
    return pad_json(pad, lang)


@router.put("/api/pads/{pad_id}/rounds")
async def pad_round(pad_id: str, req: PadRound, hub: HubDep, request: Request,
                    lang: str = "en") -> dict[str, Any]:
    """Enter a round's points: ``points`` per player, or ``hands`` (the cards
    left in each hand, the pad counts them); at most ``pad_writes_per_minute``
    an address (``429 server_too_many_pad_writes``)."""
    if not await hub.limiter.may_write_pad(client_address(request.scope)):
        hub.metrics.refused("pad_writes")
        raise http_error(429, "server_too_many_pad_writes", lang,
                         minute=hub.limits.pad_writes_per_minute)
    pad = await hub.storage.in_thread(hub.store.pad, pad_id.upper())
    if pad is None:
        raise http_error(404, "server_no_pad", lang, code=pad_id[:16])
    rules = rules_from_dict(pad.data["rules"])
    n = len(pad.data["names"])
    if req.hands is not None:
        if len(req.hands) != n:
            raise http_error(400, "server_bad_points", lang)
        try:
            points = [rules.hand_points([Card.parse(c) for c in hand]) for hand in req.hands]
        except CardError as e:
            raise reason_error(400, "card", e, lang) from None
    elif req.points is not None and len(req.points) == n:
        points = list(req.points)
    else:
        raise http_error(400, "server_bad_points", lang)
    rounds = list(pad.data["rounds"])
    if req.round > rules.num_rounds or req.round > len(rounds) + 1:
        raise http_error(400, "server_bad_points", lang)
    if req.round == len(rounds) + 1:
        rounds.append(points)
    else:
        rounds[req.round - 1] = points
    pad.data = dict(pad.data, rounds=rounds)
    await hub.storage.in_thread(hub.store.save_pad, pad)
    return pad_json(pad, lang)


def pad_json(pad: PadRecord, lang: str) -> dict[str, Any]:
    """A score pad as ``GET /api/pads/{id}`` answers it."""
    rules = rules_from_dict(pad.data["rules"])
    names = pad.data["names"]
    rounds = pad.data["rounds"]
    totals = [sum(r[i] for r in rounds) for i in range(len(names))]
    running = []
    acc = [0] * len(names)
    for r in rounds:
        acc = [a + p for a, p in zip(acc, r, strict=True)]
        running.append(list(acc))
    best = min(totals) if rounds else None
    return {
        "id": pad.id, "preset": pad.data["preset"], "names": names, "rounds": rounds,
        "totals": totals, "running": running,
        "leaders": [i for i, t in enumerate(totals) if rounds and t == best],
        "plan": describe_rules(rules, lang)["rounds"],
        "points": dataclasses.asdict(rules.points),
        "url": f"/pad/{pad.id}",
    }
