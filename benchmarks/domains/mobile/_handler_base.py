"""The shared part of the bot's request handling: asking, proposing, remembering."""

from __future__ import annotations

import re
from typing import Any

from benchmarks.domains.mobile import _texts as texts

IGNORE_CASE = re.IGNORECASE
_DONE_FIELDS: dict[str, tuple[str, ...]] = {
    "roaming": ("zone", "start", "end"), "data_addon": ("addon",), "address": ("postcode",),
    "due_day": ("day",), "sim_swap": (), "cancel": (), "port_out": (),
}
AGAIN = re.compile(
    r"\b(?:another|second|one more|again|extra one|as well as the)\b", IGNORE_CASE
)


class HandlerBase:
    """Mixin of CorrectMobileAgent: what every request kind uses."""

    s: dict[str, Any]

    def _say(self, text: str) -> None: ...
    async def _call(self, name: str, args: dict[str, Any]) -> tuple[Any, str | None]: ...

    def _propose(self, intent: dict[str, Any], text: str) -> str:
        self.s["pending"] = {"kind": intent["kind"], "text": text}
        self.s["asked"] = "confirm"
        self._say(text)
        return "wait"

    def _ask(self, slot: str, text: str) -> str:
        self.s["asked"] = slot
        self._say(text)
        return "wait"

    async def _account(self) -> dict[str, Any]:
        if self.s["account"] is None:
            result, error = await self._call(
                "get_account", {"phone_number": self.s["verified"]["phone"]}
            )
            self.s["account"] = result if not error else {"lines": []}
        account: dict[str, Any] = self.s["account"]
        return account

    async def _view(self, number: str) -> dict[str, Any]:
        account = await self._account()
        return next((v for v in account["lines"] if v["phone_number"] == number), {})

    async def _catalogue(self) -> dict[str, Any]:
        if self.s.get("catalogue") is None:
            result, _ = await self._call("list_offers", {})
            self.s["catalogue"] = result
        catalogue: dict[str, Any] = self.s["catalogue"]
        return catalogue

    async def _failed(self, intent: dict[str, Any], error: str) -> None:
        """A change the tool refused: say why, and that nothing changed."""
        self._say(f"I'm sorry, that didn't go through: {texts.humanize(error)} Nothing has been "
                  "changed.")

    def _record_done(self, intent: dict[str, Any], summary: str) -> None:
        fields = {k: intent["slots"].get(k) for k in _DONE_FIELDS.get(intent["kind"], ())}
        self.s["done"].append({"kind": intent["kind"], "line": intent["line"],
                               "fields": fields, "summary": summary})

    def _already_done(self, intent: dict[str, Any]) -> bool:
        """The same change, already made in this conversation: say so instead of repeating it."""
        if intent["kind"] not in _DONE_FIELDS or intent["slots"].get("again"):
            return False
        said = {k: intent["slots"][k] for k in _DONE_FIELDS[intent["kind"]]
                if intent["slots"].get(k)}
        for record in self.s["done"]:
            if record["kind"] == intent["kind"] and record["line"] == intent["line"] and all(
                record["fields"].get(k) == v for k, v in said.items()
            ):
                self._say(f"That's already done: {record['summary']}")
                return True
        return False

    async def _execute(self, intent: dict[str, Any]) -> None:
        await getattr(self, f"_do_{intent['kind']}")(intent)
        self.s["account"] = None

