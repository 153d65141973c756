"""The pages (the front end ships in this package: ``static/``), the page's
words, the presets and their options, and ``/healthz``.

Caching: every page and static file is sent with ``Cache-Control: no-cache``
and a validator (an ``ETag`` from the file's time and size, and
``Last-Modified``): the browser keeps its copy but asks each time, an unchanged
file costs a ``304 Not Modified``, and the files of a new version (installed
anew, so with new times) are fetched at once, never mixed with old ones. The
app compresses the answers (:func:`liverpool.server.app.create_app`)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from fastapi import APIRouter
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles
from starlette.responses import Response
from starlette.types import Scope

from ..rules import RulesError
from ..ruleset_io import PRESETS, describe_rules, load_preset
from .ui import ui_words
from .web import HubDep, reason_error

__all__ = ["CACHE_CONTROL", "STATIC", "StaticPages", "router"]

STATIC = Path(__file__).resolve().parent / "static"

router = APIRouter()

#: kept, but checked against the server (its ETag) before each use
CACHE_CONTROL = "no-cache"


class StaticPages(StaticFiles):
    """``/static``: the page's files, with :data:`CACHE_CONTROL` beside
    Starlette's ``ETag`` and ``Last-Modified`` (it answers a matching
    ``If-None-Match`` with a 304)."""

    def file_response(self, full_path: str | os.PathLike[str], stat_result: os.stat_result,
                      scope: Scope, status_code: int = 200) -> Response:
        response = super().file_response(full_path, stat_result, scope, status_code)
        response.headers["Cache-Control"] = CACHE_CONTROL
        return response


@router.get("/healthz")
async def healthz(hub: HubDep) -> dict[str, Any]:
    return {"status": "ok", **hub.fanout.status()}


def page() -> FileResponse:
    return FileResponse(STATIC / "index.html", headers={"Cache-Control": CACHE_CONTROL})


@router.get("/", include_in_schema=False)
async def index() -> FileResponse:
    return page()


@router.get("/t/{code}", include_in_schema=False)
async def table_page(code: str) -> FileResponse:
    return page()


@router.get("/pad/{pad_id}", include_in_schema=False)
async def pad_page(pad_id: str) -> FileResponse:
    return page()


@router.get("/pad", include_in_schema=False)
async def new_pad_page() -> FileResponse:
    return page()


@router.get("/games", include_in_schema=False)
async def games_page() -> FileResponse:
    return page()


@router.get("/replay/{code}", include_in_schema=False)
async def replay_page(code: str) -> FileResponse:
    return page()


@router.get("/api/i18n/{lang}")
async def words(lang: str) -> dict[str, Any]:
    """The page's words in ``lang`` (en, nb, da)."""
    return ui_words(lang)


@router.get("/api/presets")
async def presets(lang: str = "en") -> list[dict[str, Any]]:
    out = []
    for name in PRESETS:
        rules = load_preset(name)
        out.append({"name": name, "label": ui_words(lang)["words"].get(f"preset_{name}", name),
                    "players": list(rules.players)})
    return out


@router.get("/api/rules/{preset}")
async def rules_of(preset: str, lang: str = "en") -> dict[str, Any]:
    """The options of ``preset`` for the lobby: every one with its value, its
    kind and choices, its name and meaning in ``lang``; and the rounds."""
    try:
        rules = load_preset(preset)
    except RulesError as e:
        raise reason_error(404, "rules", e, lang) from None
    return describe_rules(rules, lang)
