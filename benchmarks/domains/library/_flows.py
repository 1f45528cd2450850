"""How the desk bot handles each kind of request: what it needs, what it checks, what it says."""

from __future__ import annotations

import re
from typing import Any

from benchmarks.domains.library import _text as tx
from benchmarks.domains.library._account import AccountFlows
from benchmarks.domains.library._match import (
    match_titles,
)

_FULL = r"\b(?:all of it|all|full|in full|whole|everything|entire|the lot|total)\b"
_OTHER = ("I'm sorry, I can't share or discuss another patron's account, loans, holds or fines, "
          "even a family member's. They're welcome to contact us themselves with their own "
          "card and PIN.")


class Flows(AccountFlows):
    """Per-request planning for `CorrectLibraryAgent` (a mixin; needs `call`, `state`...)."""

    state: dict[str, Any]
    titles: list[dict[str, Any]]

    def texts(self, intent: dict) -> list[str]:
        return list(reversed([intent["text"], *intent.get("extra", [])]))

    def _fill(self, intent: dict, message: str) -> None:
        intent.setdefault("extra", []).append(message)

    def ask(self, slot: str, text: str) -> tuple[str, bool]:
        self.state["asked"] = slot
        return text, False

    async def _other_patron(self, message: str, cards: list[str], own: str | None) -> str:
        return _OTHER

    async def revise(self, pending: dict, message: str) -> str | None:
        intent = pending.get("obj")
        if not intent:
            return None
        new = None
        if intent["kind"] == "pay":
            amount = tx.amount_pence(message)
            if amount is not None and amount != pending.get("amount"):
                new = message
        elif intent["kind"] in ("place_hold", "change_pickup"):
            found = tx.branches(message)
            if found and found[0] != pending.get("branch"):
                new = message
        if new is None:
            return None
        self.state["pending"] = None
        self._fill(intent, message)
        said, _ = await self.plan(intent)
        return said

    async def plan(self, intent: dict) -> tuple[str, bool]:
        handler = getattr(self, f"plan_{intent['kind']}")
        return await handler(intent)

    # -- reads -------------------------------------------------------------------------------
    async def loans(self) -> list[dict]:
        res, err = await self.call("list_loans", card_number=self.state["card"])
        return res or []

    async def plan_loans_info(self, intent: dict) -> tuple[str, bool]:
        loans = await self.loans()
        if not loans:
            return "You have no books out at the moment.", True
        lines = [f"{ln['title']} by {ln['author']}, due {tx.long_date(ln['due_date'])}"
                 f" ({2 - ln['renewals_used']} renewal(s) left)" for ln in loans]
        return "You currently have: " + "; ".join(lines) + ".", True

    async def plan_holds_info(self, intent: dict) -> tuple[str, bool]:
        res, _ = await self.call("get_holds", card_number=self.state["card"])
        if not res:
            return "You have no holds at the moment.", True
        lines = [f"{h['title']} (hold {h['hold_id']}, pickup at "
                 f"{tx.BRANCH_NAMES[h['pickup_branch']]})" for h in res]
        return "Your holds: " + "; ".join(lines) + ".", True

    async def plan_fines_info(self, intent: dict) -> tuple[str, bool]:
        res, _ = await self.call("get_fines", card_number=self.state["card"])
        open_ = [f for f in (res or {}).get("fines", []) if f["status"] == "open"]
        if not open_:
            return "You have no outstanding fines.", True
        lines = [f"{f['fine_id']}: {f['description']}, {f['outstanding']} outstanding"
                 for f in open_]
        return ("Your outstanding fines: " + "; ".join(lines) +
                f". Your total balance is {res['balance']}."), True

    # -- loans -------------------------------------------------------------------------------
    async def plan_renew(self, intent: dict) -> tuple[str, bool]:
        loans = await self.loans()
        if not loans:
            return "You don't have any books out to renew.", True
        targets, by_date = self.pick_loans(intent, loans)
        if not targets:
            listing = "; ".join(f"{ln['title']} (due {tx.long_date(ln['due_date'])})"
                                for ln in loans)
            return self.ask("loan", f"Which book would you like to renew? You have: {listing}.")
        intent["by_date"] = by_date
        said, ok = [], []
        for ln in targets:
            due = tx.long_date(ln["due_date"])
            if self.already("renew", ln["loan_id"]):
                said.append(f"{ln['title']} was already renewed a moment ago: it's now due on "
                            f"{due}.")
            elif ln["renewals_used"] >= 2:
                said.append(f"{ln['title']} can't be renewed again: it has already been renewed "
                            f"twice, the maximum. Please return it by {due}; after that overdue "
                            "fines are £0.25 a day, up to £5.")
            elif ln["hold_waiting"]:
                said.append(f"{ln['title']} can't be renewed because another patron has a hold "
                            f"waiting on it. Please return it by {due}. If you'd like to read it "
                            "again later, I can place a hold for you once it's back.")
            else:
                ok.append(ln)
        if not ok:
            if not all(self.already("renew", ln["loan_id"]) for ln in targets):
                self.state["refused"] = True
            return " ".join(said), True
        calls = [("renew_loan", {"loan_id": ln["loan_id"]}) for ln in ok]
        lines = [f"{ln['title']} from {tx.long_date(ln['due_date'])} to "
                 f"{tx.long_date(self.plus21(ln['due_date']))}" for ln in ok]
        question = ("Renewing moves the due date of " + "; ".join(lines) +
                    ". There's no charge. Shall I go ahead?")
        text, done = self.confirm(intent, calls, question, obj=intent,
                                  titles={ln["loan_id"]: ln["title"] for ln in ok})
        return " ".join([*said, text]), done

    def plus21(self, due: str) -> str:
        from datetime import date, timedelta
        return (date.fromisoformat(due) + timedelta(days=21)).isoformat()

    def pick_loans(self, intent: dict, loans: list[dict]) -> tuple[list[dict], bool]:
        for text in self.texts(intent):
            ids = set(match_titles(text, self.titles))
            hit = [ln for ln in loans if any(t["title"] == ln["title"] for t in self.titles
                                              if t["title_id"] in ids)]
            if hit:
                return hit, False
            days = {d.isoformat() for d in tx.dates(text, tx.TODAY)}
            hit = [ln for ln in loans if ln["due_date"] in days]
            if hit:
                return hit, True
            if re.search(r"\b(?:all|everything|both|all of them)\b", tx.norm(text)):
                return loans, False
        return (loans, False) if len(loans) == 1 else ([], False)

    # -- holds -------------------------------------------------------------------------------
    async def plan_place_hold(self, intent: dict) -> tuple[str, bool]:
        title = await self.pick_title(intent)
        if isinstance(title, str):
            return self.ask("title", title)
        res, err = await self.call("search_catalogue", query=title["title"])
        row = next((r for r in res or [] if r["title_id"] == title["title_id"]), None)
        shelf = row["on_shelf"] if row else {}
        holds, _ = await self.call("get_holds", card_number=self.state["card"])
        same = next((h for h in holds or [] if h["title_id"] == title["title_id"]), None)
        if same:
            return (f"You already have a hold on {title['title']} (hold {same['hold_id']}), for "
                    f"pickup at {tx.BRANCH_NAMES[same['pickup_branch']]}, so there's nothing "
                    "more to do."), True
        if len(holds or []) >= 5:
            self.state["resume"] = intent
            self.state["refused"] = True
            names = "; ".join(f"{h['title']} ({tx.BRANCH_NAMES[h['pickup_branch']]})"
                              for h in holds)
            return (f"I can't place a hold on {title['title']}: you already have 5 holds, the "
                    f"maximum ({names}). If you cancel one of them, I can place this one."), True
        refused = intent.setdefault("refused", [])
        branch = self.pick_branch(intent, exclude=refused)
        others = [b for b in tx.BRANCH_NAMES if not shelf.get(b) and b not in refused]
        if not branch:
            return self.ask("branch", f"Which branch would you like to collect {title['title']} "
                            "from: Central, Northgate or Harbour Road?")
        if shelf.get(branch):
            refused.append(branch)
            alt = " or ".join(tx.BRANCH_NAMES[b] for b in others if b != branch)
            offer = (f" If you'd rather collect it somewhere else, I can place a hold for pickup "
                     f"at {alt}." if alt else "")
            return self.ask("branch", f"There's a copy of {title['title']} on the shelf at "
                            f"{tx.BRANCH_NAMES[branch]} right now, so a hold isn't needed there: "
                            f"you can just take it from the shelf.{offer}")
        calls = [("place_hold", {"card_number": self.state["card"],
                                 "title_id": title["title_id"], "pickup_branch": branch})]
        return self.confirm(intent, calls, f"To confirm: a hold on {title['title']} by "
                            f"{title['author']}, for pickup at {tx.BRANCH_NAMES[branch]}. Holds "
                            "are free. Shall I place it?", obj=intent, branch=branch,
                            title=title["title"])

    async def pick_title(self, intent: dict) -> dict | str:
        for text in self.texts(intent):
            ids = match_titles(text, self.titles)
            if len(ids) == 1:
                return next(t for t in self.titles if t["title_id"] == ids[0])
            if len(ids) > 1:
                names = " or ".join(f"{t['title']} by {t['author']}" for t in self.titles
                                    if t["title_id"] in ids)
                return f"Do you mean {names}?"
        return "Which title would you like to reserve? The title or the author is enough."

    def pick_branch(self, intent: dict, exclude: list[str] = ()) -> str | None:
        for text in self.texts(intent):
            found = [b for b in tx.branches(text) if b not in exclude]
            if found:
                return found[-1] if re.search(r"instead|rather|not", tx.norm(text)) else found[0]
        return None

    async def pick_hold(self, intent: dict) -> tuple[dict | None, str]:
        holds, _ = await self.call("get_holds", card_number=self.state["card"])
        if not holds:
            return None, "You don't have any holds at the moment."
        for text in self.texts(intent):
            ids = set(match_titles(text, self.titles))
            hit = [h for h in holds if h["title_id"] in ids or h["hold_id"].lower() in
                   tx.norm(text)]
            if len(hit) == 1:
                return hit[0], ""
            if ids and not hit:
                names = " or ".join(t["title"] for t in self.titles if t["title_id"] in ids)
                gone = [d for d in self.state.get("completed", []) if d["kind"] == "cancel_hold"
                        and d.get("title") in names]
                said = (f"Your hold on {names} was already cancelled earlier in this chat."
                        if gone else f"You don't have a hold on {names} at the moment.")
                return None, said
        if len(holds) == 1:
            return holds[0], ""
        names = "; ".join(h["title"] for h in holds)
        self.state["asked"] = "hold"
        return None, f"Which hold do you mean? You have holds on: {names}."

    async def plan_cancel_hold(self, intent: dict) -> tuple[str, bool]:
        hold, said = await self.pick_hold(intent)
        if not hold:
            return said, self.state["asked"] != "hold"
        calls = [("cancel_hold", {"hold_id": hold["hold_id"]})]
        return self.confirm(intent, calls, f"Shall I cancel your hold on {hold['title']} "
                            f"(pickup at {tx.BRANCH_NAMES[hold['pickup_branch']]})?",
                            obj=intent, title=hold["title"])

    async def plan_change_pickup(self, intent: dict) -> tuple[str, bool]:
        hold, said = await self.pick_hold(intent)
        if not hold:
            return said, self.state["asked"] != "hold"
        branch = self.pick_branch(intent, exclude=[hold["pickup_branch"]])
        if not branch:
            return self.ask("branch", f"Your hold on {hold['title']} is for pickup at "
                            f"{tx.BRANCH_NAMES[hold['pickup_branch']]}. Which branch would you "
                            "like instead: Central, Northgate or Harbour Road?")
        calls = [("change_pickup_branch", {"hold_id": hold["hold_id"], "branch": branch})]
        return self.confirm(intent, calls, f"I'll move the pickup for your hold on "
                            f"{hold['title']} from {tx.BRANCH_NAMES[hold['pickup_branch']]} to "
                            f"{tx.BRANCH_NAMES[branch]}. Shall I go ahead?", obj=intent,
                            branch=branch, title=hold["title"])
