"""The one validation layer of what clients send: every WebSocket message and
every HTTP body is parsed into exact types here (pydantic, strict: ``"no"`` is
not a boolean and ``true`` is not a number), before the server acts on it.

* Text that cannot be encoded (a lone surrogate such as ``"\\ud800"``, which
  JSON can carry) is refused anywhere in a message or a body
  (``server_bad_text``): it would never reach storage or an answer.
* A chat line is cleaned the same way (:func:`clean_chat`, at most
  :data:`CHAT_LENGTH` characters kept: a longer one is refused,
  ``server_chat_too_long``; an empty one ``server_chat_empty``).
* Names are cleaned (:func:`clean_name`): NFC, no control or format
  characters (NUL, bidirectional overrides, zero-width characters, ANSI
  escapes), single spaces, at most :data:`NAME_LENGTH` characters; a name with
  nothing visible left is refused (``server_bad_name``).

A refusal names its error code (liverpool.errors) and its parameters: the
WebSocket handler answers it as an ``error`` message on the open connection,
the HTTP routes as ``{"detail": {"code", "message"}}``.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from typing import Annotated, Any, Literal, get_args

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    model_validator,
)
from pydantic_core import PydanticCustomError

__all__ = [
    "CHAT_LENGTH",
    "MESSAGES",
    "NAME_LENGTH",
    "REACTIONS",
    "ActionMessage",
    "Body",
    "ChatMessage",
    "CheckMessage",
    "HintMessage",
    "LangMessage",
    "Name",
    "Refusal",
    "SeatMessage",
    "SettingsMessage",
    "StartMessage",
    "SyncMessage",
    "bad_text",
    "clean_chat",
    "clean_name",
    "read_message",
    "refusal_of",
]

#: the longest name kept (characters, after cleaning)
NAME_LENGTH = 40
#: the longest name accepted as sent (characters, before cleaning)
NAME_SENT_LENGTH = 200

#: the longest chat line kept (characters, after cleaning)
CHAT_LENGTH = 200
#: a quick reaction of the chat (the page shows each as an emoji or its words)
Reaction = Literal["thumbs_up", "laugh", "wow", "good_game"]
REACTIONS: tuple[str, ...] = get_args(Reaction)

# ANSI/VT escape sequences: CSI (ESC [ … or the C1 CSI), OSC (ESC ] … BEL or ESC \),
# and the two-character ones (ESC and one more)
_ESCAPES = re.compile(r"(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?"
                      r"|\x1b[ -~]?")


def bad_text(data: Any) -> bool:
    """Whether any text in ``data`` (JSON: its strings, keys included, at any
    depth) cannot be encoded as UTF-8 (a lone surrogate).

    >>> bad_text({"type": "action", "action": {"card": "\\ud800H"}}), bad_text(["9H", {"k": 1}])
    (True, False)
    """
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if not item.isascii():
                try:
                    item.encode()
                except UnicodeEncodeError:
                    return True
        elif isinstance(item, dict):
            stack.extend(item)
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


def clean_name(name: str) -> str:
    """A player's name as it is kept: NFC, without escape sequences, control
    or format characters, its words separated by single spaces, at most
    NAME_LENGTH characters ("" when nothing is left).

    >>> clean_name("  Kari\\u202e\\x00 \\x1b[31mNordmann\\x1b[0m\\n ")
    'Kari Nordmann'
    >>> clean_name("\\u200b\\u200d"), clean_name("Åse"), len(clean_name("x" * 99))
    ('', 'Åse', 40)
    >>> clean_name("\\u3164\\u2800"), len(clean_name("Ada" + "\\u0301" * 33))
    ('', 6)
    """
    text = _ESCAPES.sub("", unicodedata.normalize("NFC", name))
    return " ".join(_few_marks("".join(map(_kept, text))).split())[:NAME_LENGTH].strip()


def clean_chat(text: str) -> str:
    """A chat line as it is kept: as :func:`clean_name` keeps a name (one
    line, no escape sequences, control or format characters; the zero-width
    joiner of emoji sequences stays), without the cut to a name's length.

    >>> clean_chat("  hi\\n\\x1b[31mall\\u202e \\U0001F469\\u200d\\U0001F4BB ")
    'hi all \U0001f469\u200d\U0001f4bb'
    """
    text = _ESCAPES.sub("", unicodedata.normalize("NFC", text))
    return " ".join(_few_marks("".join(ch if ch == "\u200d" else _kept(ch) for ch in text))
                    .split())


#: Letters and symbols that draw nothing (the Hangul fillers, the Braille
#: blank, the Khmer inherent vowels, the Mongolian vowel separator): kept as spaces.
BLANKS = frozenset("\u115f\u1160\u3164\uffa0\u2800\u17b4\u17b5\u180e")
#: The most combining marks kept on one character (more stack into a smear).
MARKS = 3


def _kept(ch: str) -> str:
    """A character of a name as kept: line breaks, tabs and blank letters
    become spaces, other control and format characters go."""
    if ch in "\t\n\r\v\f" or ch in BLANKS or unicodedata.category(ch) in ("Zl", "Zp"):
        return " "
    return "" if unicodedata.category(ch)[0] == "C" else ch


def _few_marks(text: str) -> str:
    """``text`` with at most :data:`MARKS` combining marks on each character."""
    out: list[str] = []
    run = 0
    for ch in text:
        if unicodedata.category(ch)[0] == "M":
            run += 1
            if run > MARKS:
                continue
        else:
            run = 0
        out.append(ch)
    return "".join(out)


def _visible(name: str) -> bool:
    return any(unicodedata.category(ch)[0] in "LNPS" for ch in name)


def _name(sent: str) -> str:
    """A name as a body sends it → the name kept; refused if there was something
    but nothing visible is left."""
    name = clean_name(sent)
    if name and _visible(name):
        return name
    if sent.strip() == "" and not name:
        return ""  # no name: the player gets the default one
    raise PydanticCustomError("bad_name", "nothing visible is left of the name")


#: a player's name in a body (cleaned; "" for none)
Name = Annotated[str, Field(max_length=NAME_SENT_LENGTH), AfterValidator(_name)]


class Body(BaseModel):
    """An HTTP body or a WebSocket message: exact types, no text that cannot
    be encoded; fields it does not know are ignored."""

    model_config = ConfigDict(strict=True, extra="ignore")

    @model_validator(mode="before")
    @classmethod
    def _no_bad_text(cls, data: Any) -> Any:
        if bad_text(data):
            raise PydanticCustomError("bad_text", "text that cannot be encoded")
        return data


# ------------------------------------------------------------ WebSocket
class PingMessage(Body):
    type: Literal["ping"]


class PongMessage(Body):
    type: Literal["pong"]


class ActionMessage(Body):
    type: Literal["action"]
    #: the version the action was made at (required: an action against an old
    #: version is refused, never applied to a game the player has not seen)
    version: int
    #: the action's JSON (liverpool.actions.action_from_json reads it)
    action: Any = None


class SyncMessage(Body):
    type: Literal["sync"]
    events_since: int | None = Field(default=None, ge=0)


class LangMessage(Body):
    type: Literal["lang"]
    lang: str = Field(default="en", max_length=16)
    symbols: bool | None = None
    events_since: int | None = Field(default=None, ge=0)


class SettingsMessage(Body):
    type: Literal["settings"]
    auto_pass: bool | None = None


def _chat_text(sent: str) -> str:
    """A chat line as sent → as kept; refused if too long or nothing visible is left."""
    if len(sent) > 4 * CHAT_LENGTH:
        raise PydanticCustomError("chat_too_long", "the line is too long")
    text = clean_chat(sent)
    if len(text) > CHAT_LENGTH:
        raise PydanticCustomError("chat_too_long", "the line is too long")
    if not _visible(text):
        raise PydanticCustomError("chat_empty", "nothing visible is left of the line")
    return text


class ChatMessage(Body):
    """A chat line: ``text`` or a ``reaction`` (exactly one of them)."""

    type: Literal["chat"]
    text: Annotated[str, AfterValidator(_chat_text)] | None = None
    reaction: Reaction | None = None

    @model_validator(mode="after")
    def _one(self) -> ChatMessage:
        if (self.text is None) == (self.reaction is None):
            raise PydanticCustomError("chat_empty", "a text or a reaction, not both")
        return self


#: a card as a client writes it ("9H", "10H", "*", "♥9")
_CardText = Annotated[str, Field(min_length=1, max_length=8)]


class CheckMessage(Body):
    type: Literal["check"]
    melds: list[Annotated[list[_CardText], Field(min_length=1, max_length=30)]] = Field(
        min_length=1, max_length=12)


class HintMessage(Body):
    """Ask for the search's suggestion at one's own decision (docs/protocol.md, "Hints")."""

    type: Literal["hint"]
    #: the version the hint is asked at (absent: the current one)
    version: int | None = Field(default=None, ge=0)


class SeatMessage(Body):
    """The creator gives a free seat to a bot, or a bot's seat back to a person."""

    type: Literal["seat"]
    seat: int = Field(ge=0, le=63)
    kind: Literal["human", "bot"]
    level: Literal["easy", "medium", "hard"] | None = None


class StartMessage(Body):
    """The creator starts the table that waits for it."""

    type: Literal["start"]


#: the messages a client may send, by type
MESSAGES: dict[str, type[Body]] = {
    "ping": PingMessage, "pong": PongMessage, "action": ActionMessage, "sync": SyncMessage,
    "lang": LangMessage, "settings": SettingsMessage, "check": CheckMessage,
    "chat": ChatMessage, "hint": HintMessage,
    "seat": SeatMessage, "start": StartMessage,
}


class Refusal(Exception):
    """A message refused: its error code and parameters."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.params = params


#: the code of a wrong field, where it is not server_bad_field: (message type, field)
_FIELD_CODES = {("action", "version"): ("action_needs_number", {"key": "version"}),
                ("check", "melds"): ("action_needs_melds", {})}


def refusal_of(errors: Sequence[Any], kind: str = "") -> Refusal:
    """The coded refusal of the ``errors()`` of a validation error (pydantic's
    or FastAPI's): of its first problem."""
    first = errors[0] if errors else {}
    error_type = first.get("type", "")
    if error_type == "bad_text":
        return Refusal("server_bad_text")
    if error_type == "bad_name":
        return Refusal("server_bad_name")
    if error_type == "chat_too_long":
        return Refusal("server_chat_too_long", limit=CHAT_LENGTH)
    if error_type == "chat_empty":
        return Refusal("server_chat_empty")
    if error_type == "json_invalid":  # (an HTTP body that is not JSON)
        return Refusal("server_bad_json")
    loc = [str(part) for part in first.get("loc", ()) if part not in ("body", "query", "path",
                                                                        "header")]
    field = loc[0] if loc else ""
    if (kind, field) in _FIELD_CODES:
        code, params = _FIELD_CODES[kind, field]
        return Refusal(code, **params)
    return Refusal("server_bad_field", field=(".".join(loc) or "body")[:60])


def read_message(message: Any) -> Body:
    """A client's message (parsed JSON) → its model; raises :class:`Refusal`.

    >>> read_message({"type": "settings", "auto_pass": False}).auto_pass
    False
    >>> read_message({"type": "settings", "auto_pass": "no"})
    Traceback (most recent call last):
    ...
    liverpool.server.inbound.Refusal: server_bad_field
    """
    if bad_text(message):
        raise Refusal("server_bad_text")
    if not isinstance(message, dict) or not isinstance(message.get("type"), str):
        raise Refusal("server_bad_message")
    kind = message["type"]
    model = MESSAGES.get(kind)
    if model is None:
        raise Refusal("server_unknown_message", kind=repr(kind[:30]))
    try:
        return model.model_validate(message)
    except ValidationError as e:
        raise refusal_of(e.errors(), kind) from None
