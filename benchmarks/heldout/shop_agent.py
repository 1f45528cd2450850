"""A held-out support bot for the shop (Northwind Goods), written from policy.md and the tools.

It is a deterministic slot-filling bot: it reads the request, asks for one missing detail at a
time (email, order number, item, reason, refund destination...), verifies the customer and the
order's ownership, states the change and waits for a plain yes, then calls the tool and reports
the result. It carries seven documented flaws (benchmarks/heldout/README.md, `heldout-shop:H1`..
`H7`), each noted with `vistasim.testing.note_flaw` at the moment it changes what the bot does.
"""

from __future__ import annotations

from typing import Any

from benchmarks.heldout import _shop_nlu as nlu
from benchmarks.heldout._base import answer_text, emails, is_no, is_thanks, is_yes
from benchmarks.heldout._shop_flows import ShopFlows

__all__ = ["HeldoutShopAgent"]

_NEEDS_ORDER = {"cancel", "return", "exchange", "address", "coupon", "status", "refund_status"}
_ORDER_FIELDS = ("order", "skus", "product", "new_sku", "quote")


def _only_refund_words(text: str) -> bool:
    """Whether an answer only names a refund destination ('store credit please')."""
    return bool(nlu.refund_choice(text)) and len(text.split()) <= 4


class HeldoutShopAgent(ShopFlows):
    """The shop's held-out agent under test: `respond(turn)` answers one customer message."""

    FLAW_PREFIX = "heldout-shop"

    def initial_state(self) -> dict[str, Any]:
        """A new conversation: nobody verified, nothing requested."""
        return {"tasks": [], "asked": None, "email": None, "customer": None}

    async def handle(self, message: str) -> str:
        """Read the message, update the requests and their details, then take the next step."""
        self._take_email(message)
        task = self.task
        own = message[: self._first_new_request(message)]
        if task is not None and task["stage"] == "confirm":
            changed = self._fill(task, own, initial=False)
            if not changed and is_yes(message):
                self.state["asked"] = None
                done = await self.execute(task)
                self.finish_task()
                return await self.advance([done])
            if not changed and is_no(message):
                self.finish_task()
                return await self.advance(["No problem, I haven't changed anything."])
            task["stage"] = "collect"
        elif task is not None:
            self._fill(task, own, initial=False)
        self._add_tasks(message)
        if self.task is None:
            return self._small_talk(message)
        return await self.advance([])

    def _take_email(self, message: str) -> None:
        found = emails(message)
        if found and found[-1] != self.state["email"]:
            self.state["email"] = found[-1]
            self.state["customer"] = None

    def _first_new_request(self, message: str) -> int:
        current = self.task["intent"] if self.task else None
        starts = [start for intent, start in nlu.intents(message) if intent != current]
        return min(starts, default=len(message))

    def _add_tasks(self, message: str) -> None:
        found = nlu.intents(message)
        current = self.task
        for index, (intent, start) in enumerate(found):
            end = found[index + 1][1] if index + 1 < len(found) else len(message)
            span = message[0 if index == 0 else start : end]
            if current is not None and intent == current["intent"]:
                continue
            task = {"intent": intent, "text": span, "stage": "collect", "order_id": None}
            self._fill(task, span, initial=True)
            self.state["tasks"].append(task)

    def _fill(self, task: dict[str, Any], text: str, *, initial: bool) -> bool:
        """Put what the text says into the request; True when a planned detail changed."""
        asked = None if initial else self.state["asked"]
        before = {k: task.get(k) for k in ("order_id", "item_text", "refund_to", "option", "code")}
        before["address"] = task.get("address")
        ids = nlu.order_ids(text)
        if ids and ids[0][0] != task.get("order_id"):
            task["order_id"] = ids[0][0]
            for field in _ORDER_FIELDS:
                task.pop(field, None)
        self._fill_details(task, text, asked, initial)
        after = {k: task.get(k) for k in before}
        return after != before

    def _fill_details(
        self, task: dict[str, Any], text: str, asked: str | None, initial: bool
    ) -> None:
        intent = task["intent"]
        if intent in ("return", "exchange"):
            self._fill_items(task, text, asked, initial)
        if asked == "reason" and not _only_refund_words(text):
            task["reason"] = answer_text(text)
        elif not task.get("reason") and nlu.reason_clause(text):
            task["reason"] = nlu.reason_clause(text)
        if intent == "return" and nlu.refund_choice_as_built(text):
            task["refund_to"] = nlu.refund_choice_as_built(text)
            task["refund_words"] = text
        if intent == "exchange" and (initial or asked == "option") and nlu.option_words(text):
            task["option"] = nlu.option_words(text)
            task.pop("new_sku", None)
        if intent == "address" and nlu.address(text):
            task["address"] = nlu.address(text)
        if intent == "coupon" and nlu.coupon_code(text):
            task["code"] = nlu.coupon_code(text)

    @staticmethod
    def _fill_items(task: dict[str, Any], text: str, asked: str | None, initial: bool) -> None:
        named = nlu.match_items(text, (task.get("order") or {}).get("items", []))
        skus = [item["sku"] for item in named]
        correction = asked == "confirm" and skus and skus != task.get("skus")
        if initial or asked == "item" or correction:
            task["item_text"] = text
            task.pop("skus", None)

    async def advance(self, said: list[str]) -> str:
        """Work on the queued requests until one needs the customer; return the reply."""
        texts = list(said)
        while self.task is not None:
            text, done = await self.step(self.task)
            texts.append(text)
            if not done:
                return " ".join(texts)
            self.finish_task()
        texts.append("Is there anything else I can help you with?")
        return " ".join(texts)

    async def step(self, task: dict[str, Any]) -> tuple[str, bool]:
        """The next move on one request: ask, refuse, confirm or report; True when finished."""
        if task["intent"] == "search":
            return await self.do_search(task), True
        if task["intent"] == "escalate":
            return await self.do_escalate(task), True
        problem = await self._identify()
        if problem is not None:
            return problem, False
        if task["intent"] in _NEEDS_ORDER:
            problem = await self._load_order(task)
            if problem is not None:
                return problem
        return await getattr(self, f"step_{task['intent']}")(task)

    async def _identify(self) -> str | None:
        if self.state["customer"] is not None:
            return None
        email = self.state["email"]
        if email is None:
            return self.ask("email", "I can help with that. What's the email on your account?")
        outcome = await self.call("find_customer", {"email": email})
        if outcome.error:
            self.state["email"] = None
            return self.ask(
                "email",
                f"I couldn't find an account with {email}. Could you check the email on your "
                "account?",
            )
        found = outcome.result
        self.state["customer"] = {k: found[k] for k in ("id", "name", "email")}
        return None

    async def _load_order(self, task: dict[str, Any]) -> tuple[str, bool] | None:
        if not task.get("order_id"):
            return self.ask("order_id", "What's the order number (it looks like W1234)?"), False
        if task.get("order", {}).get("id") != task["order_id"]:
            outcome = await self.call("get_order", {"order_id": task["order_id"]})
            if outcome.error:
                bad = task.pop("order_id")
                text = f"I couldn't find order {bad}. Could you check the order number?"
                return self.ask("order_id", text), False
            task["order"] = outcome.result
        owner = task["order"]["customer_email"].lower()
        if owner != self.state["customer"]["email"].lower():
            return self.not_yours(task, owner), True
        return None

    def _small_talk(self, message: str) -> str:
        if is_thanks(message):
            return "You're welcome! Have a great day."
        ids = nlu.order_ids(message)
        if ids:
            return f"Sure. What would you like me to check or change on order {ids[-1][0]}?"
        if is_yes(message):
            return "Great. Is there anything else I can help you with?"
        return "Hi! How can I help you today?"
