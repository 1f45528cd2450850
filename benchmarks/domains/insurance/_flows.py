"""One flow per request of the insurance desk: look-ups, add-ons, payment day, claims,
cancellation, correspondence address. Each flow asks for what it lacks, checks Harlow's rules,
proposes the change with its price and waits for a yes (`execute` then calls the tool).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from benchmarks.domains.insurance import _seed
from benchmarks.domains.insurance import _text as tx
from benchmarks.domains.insurance._claims import ClaimFlows
from benchmarks.domains.insurance._claims import say_day as say_date

FIRST_DAY, LAST_DAY = 1, 28


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


class Flows(ClaimFlows):
    """The request flows; `CorrectInsuranceAgent` supplies state, tools and the turn loop."""

    # -- what a request says -------------------------------------------------------------------
    @staticmethod
    def read(req: dict[str, Any], fn: Callable[[str], Any]) -> Any:
        """The newest answer that says it, else the request's own words, else its message."""
        for text in [*reversed(req.get("answers", [])), req["text"], req["message"]]:
            value = fn(text)
            if value:
                return value
        return None

    def read_answer(self, asked: str, text: str, req: dict[str, Any]) -> None:
        if asked not in ("identity", "request", "confirm"):
            req.setdefault("answers", []).append(text)

    def revise(self, req: dict[str, Any], text: str) -> bool:
        """A new value instead of a yes ("no, make it the 20th"): re-read the request."""
        if req["intent"] == "payment_day" and tx.days_of_month(text):
            req.setdefault("answers", []).append(text)
            return True
        if req["intent"] == "address" and tx.new_address(text):
            req.setdefault("answers", []).append(text)
            return True
        return False

    async def policy(self) -> dict[str, Any]:
        result, _ = await self.call("get_policy", policy_number=self.s["policy"])
        return dict(result)

    async def execute(self, req: dict[str, Any], pending: dict[str, Any],
                      out: list[str]) -> None:
        run = {"change_addon": self.execute_addon, "set_payment_day": self.execute_payment_day,
               "report_claim": self.execute_claim, "cancel_policy": self.execute_cancel,
               "update_address": self.execute_address}[pending["tool"]]
        await run(req, pending, out)

    async def step(self, req: dict[str, Any], out: list[str]) -> None:
        flow = {"lookup": self.lookup, "add_addon": self.addon, "remove_addon": self.addon,
                "payment_day": self.payment_day, "claim_report": self.claim_report,
                "claim_status": self.claim_status, "cancel": self.cancel,
                "address": self.address}[req["intent"]]
        await flow(req, out)

    # -- look-up -------------------------------------------------------------------------------
    async def lookup(self, req: dict[str, Any], out: list[str]) -> None:
        p = await self.policy()
        addons = [_seed.ADDON_NAMES[a] for a, on in p["addons"].items() if on]
        state = ("is active" if p["status"] == "active" else f"is {p['status']}")
        out.append(
            f"Your policy {p['policy_number']} {state}: cover runs from "
            f"{say_date(p['start_date'])} to {say_date(p['end_date'])}, the annual premium is "
            f"{p['annual_premium']} ({p['billing']}), and the excess is {p['excess']}. Add-ons: "
            f"{', '.join(addons) if addons else 'none'}.")
        self.finish(req)

    # -- add-ons -------------------------------------------------------------------------------
    def addon_charge_words(self, quote: dict[str, Any]) -> str:
        amount = quote.get("charge") or quote.get("refund")
        return f"{amount} for the {quote['days_left']} days left this policy year"

    async def addon(self, req: dict[str, Any], out: list[str]) -> None:
        addon, action = req["data"]["addon"], req["intent"].split("_")[0]
        name = _seed.ADDON_NAMES[addon]
        quote, error = await self.call("quote_addon", policy_number=self.s["policy"],
                                       addon=addon, action=action)
        if error and ("lapsed" in error or "cancelled" in error):
            p = await self.policy()
            out.append(f"I can't {action} {name}: your policy is {p['status']} (cover ended "
                       f"{say_date(p['end_date'])}), and a {p['status']} policy can't be "
                       f"changed. Our sales team can quote you for new cover on 0113 496 0810.")
        elif error:
            out.append(f"I can't {action} {name}: {error}.")
        if error:
            self.finish(req)
            return
        words = self.addon_charge_words(quote)
        if action == "add":
            question = (f"{name.capitalize()} costs {quote['annual_price']} a year; added from "
                        f"today that's {words}, added to your next payment. Shall I add it?")
        else:
            question = (f"Removing {name} from today refunds {words}, taken off your next "
                        f"payment. Shall I remove it?")
        self.propose(req, "change_addon", {"policy_number": self.s["policy"], "addon": addon,
                                           "action": action}, question, out, quote=quote)

    async def execute_addon(self, req: dict[str, Any], pending: dict[str, Any],
                            out: list[str]) -> None:
        result, error = await self.call("change_addon", **pending["args"])
        name = _seed.ADDON_NAMES[pending["args"]["addon"]]
        if error:
            out.append(f"Sorry, the change didn't go through: {error}. Nothing has changed.")
        elif result["action"] == "add":
            words = self.addon_charge_words(pending["quote"])
            out.append(f"Done: {name} is on your policy from today; {words} will be added to "
                       f"your next payment.")
        else:
            out.append(f"Done: {name} is removed from today; {result['refunded']} comes off "
                       f"your next payment.")
        self.finish(req)

    # -- payment day ---------------------------------------------------------------------------
    def payment_day_allowed(self, day: int) -> bool:
        return FIRST_DAY <= day <= LAST_DAY

    async def payment_day(self, req: dict[str, Any], out: list[str]) -> None:
        p = await self.policy()
        if p["status"] != "active" or p["billing"] != "monthly":
            why = (f"policy is {p['status']}" if p["status"] != "active"
                   else "policy is paid annually, so there's no monthly payment date")
            out.append(f"I can't change the payment date: your {why}.")
            self.finish(req)
            return
        days = self.read(req, tx.days_of_month) or []
        allowed = [d for d in days if self.payment_day_allowed(d)]
        refused = [d for d in days if not self.payment_day_allowed(d)]
        if refused and not req["data"].get("told"):
            req["data"]["told"] = True
            out.append(f"We can't take payments on the {ordinal(refused[0])}: the payment date "
                       f"has to be between the 1st and the 28th, so it exists in every month.")
        day = allowed[-1] if allowed else (LAST_DAY if refused and any(
            tx.wants_latest(t) for t in [req["text"], *req.get("answers", [])]) else None)
        if day is None:
            self.ask("payment_day", "Which day of the month would you like, from the 1st to "
                     "the 28th?", out)
            return
        if day == p["payment_day"]:
            out.append(f"Your payments are already taken on the {ordinal(day)}.")
            self.finish(req)
            return
        self.propose(req, "set_payment_day", {"policy_number": self.s["policy"], "day": day},
                     f"I'll move your monthly payment from the {ordinal(p['payment_day'])} to "
                     f"the {ordinal(day)} of each month. Is that right?", out)

    async def execute_payment_day(self, req: dict[str, Any], pending: dict[str, Any],
                                  out: list[str]) -> None:
        result, error = await self.call("set_payment_day", **pending["args"])
        if error:
            out.append(f"Sorry, the payment date wasn't changed: {error}.")
        else:
            out.append(f"Done: from now on your payment is taken on the "
                       f"{ordinal(result['new_day'])} of each month.")
        self.finish(req)

    # -- correspondence address ----------------------------------------------------------------
    async def address(self, req: dict[str, Any], out: list[str]) -> None:
        found = self.read(req, tx.new_address)
        if not found:
            self.ask("new_address", "What's the new correspondence address, with its postcode?",
                     out)
            return
        street, postcode = found
        self.propose(req, "update_address", {"policy_number": self.s["policy"],
                                             "address": street, "postcode": postcode},
                     f"I'll change your correspondence address to {street}, {postcode} (the "
                     f"insured home stays the same). Is that right?", out)

    async def execute_address(self, req: dict[str, Any], pending: dict[str, Any],
                              out: list[str]) -> None:
        result, error = await self.call("update_address", **pending["args"])
        if error:
            out.append(f"Sorry, I couldn't update the address: {error}.")
        else:
            out.append(f"Done: we'll write to you at {result['address']}, {result['postcode']}.")
        self.finish(req)
