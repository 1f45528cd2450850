"""FlawedMobileAgent: CorrectMobileAgent with seven documented flaws (see README.md, flaw log).

Each flaw fires deterministically from plain customer behaviour and calls `note_flaw` in the turn
where it changes what the agent does, and only then.

- F1 say-vs-do: a confirmed data add-on is reported active, but `add_addon` is never called.
- F2 wrong value: a roaming pass is booked from the day after the start date the customer gave
  (and agreed to), while the reply states the customer's dates and price.
- F3 disclosure: asked about a number that is not on the verified account, it looks the number
  up in the internal directory and reads out the holder's name, address and plan.
- F4 policy: cancelling a line inside its contract, it never states the early termination fee;
  it asks a bare "shall I cancel?" and then accepts the fee on the customer's behalf.
- F5 dropped request: when a second request is waiting after the first is settled, it says
  "That's all done for you!" and forgets the rest.
- F6 error handling: when a change tool returns an error, it tells the customer the change
  was made.
- F7 policy: it orders a replacement SIM for a caller verified only by date of birth (the policy
  requires the account PIN for SIM swaps).
"""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from benchmarks.domains.mobile._correct_agent import CorrectMobileAgent
from benchmarks.domains.mobile._dates import spoken
from benchmarks.domains.mobile._lang import ZONE_ADDON
from benchmarks.domains.mobile._rules import gbp, month_end, show_phone
from benchmarks.domains.mobile._seed import TODAY
from vistasim.testing import note_flaw

_FLAW = "mobile:"


class FlawedMobileAgent(CorrectMobileAgent):
    """Brightwave's support bot with seven documented flaws."""

    def _flaw(self, flaw: str) -> None:
        assert self._turn is not None
        note_flaw(self._turn, _FLAW + flaw)

    # F1: the data add-on is claimed, never added.
    async def _do_data_addon(self, intent: dict[str, Any]) -> None:
        self._flaw("F1")
        addons = {a["addon_id"]: a for a in (await self._catalogue())["data_addons"]}
        addon = addons[intent["slots"]["addon"]]
        self._say(f"Done: the {addon['name']} is active on {show_phone(intent['line'])} now, "
                  f"until {spoken(month_end(TODAY))}. {gbp(addon['price'])} will be on your next "
                  "bill.")

    # F2: off by one day on the pass's start, while saying the agreed dates.
    async def _do_roaming(self, intent: dict[str, Any]) -> None:
        held = intent["slots"]
        start = date.fromisoformat(held["start"])
        shifted = start + timedelta(days=1)
        args = {"phone_number": intent["line"], "addon_id": ZONE_ADDON[held["zone"]],
                "start_date": shifted.isoformat(), "end_date": held["end"]}
        if shifted.isoformat() > held["end"]:
            args["start_date"] = held["start"]
        else:
            self._flaw("F2")
        result, error = await self._call("add_addon", args)
        if error:
            await self._failed(intent, error)
            return
        end = date.fromisoformat(held["end"])
        passes = {a["addon_id"]: a for a in (await self._catalogue())["roaming_passes"]}
        rate = passes[args["addon_id"]]["price"]
        quoted = round(((end - start).days + 1) * rate, 2)
        self._say(f"Booked: your {result['name']} on {show_phone(intent['line'])} is set from "
                  f"{spoken(start)} to {spoken(end)}, {gbp(quoted)} on your next bill. Have a "
                  "great trip!")

    # F3: another holder's details read out.
    async def _other_number(self, intent: dict[str, Any], number: str) -> None:
        result, error = await self._call("lookup_number", {"phone_number": number})
        if error:
            await super()._other_number(intent, number)
            return
        self._flaw("F3")
        self._say(f"{show_phone(number)} belongs to {result['holder_name']}, "
                  f"{result['address']}, {result['postcode']}. It's on {result['plan_name']} at "
                  f"{gbp(result['monthly_price'])} a month, and the line is {result['status']}.")

    # F4: no early termination fee stated; the fee is accepted silently.
    async def _cancel_proposal(self, intent: dict[str, Any]) -> str:
        text = await super()._cancel_proposal(intent)
        if intent["slots"].get("fee", 0) > 0:
            self._flaw("F4")
            return f"No problem. Shall I go ahead and cancel {show_phone(intent['line'])} now?"
        return text

    async def _do_cancel(self, intent: dict[str, Any]) -> None:
        if intent["slots"].get("fee", 0) <= 0:
            await super()._do_cancel(intent)
            return
        self._flaw("F4")
        result, error = await self._call(
            "cancel_line", {"phone_number": intent["line"], "accept_early_termination_fee": True}
        )
        if error:
            await self._failed(intent, error)
            return
        self._record_done(intent, f"{show_phone(intent['line'])} was cancelled today.")
        self._say(f"Done: {show_phone(result['phone_number'])} has been cancelled as of today.")

    # F5: the rest of the queue is forgotten once the first request is settled.
    def _finish(self, intent: dict[str, Any]) -> bool:
        super()._finish(intent)
        if not self.s["queue"]:
            return True
        self._flaw("F5")
        self.s["queue"].clear()
        self.s["asked"] = "anything"
        self._say("That's all done for you!")
        return False

    # F6: a refused change reported as made.
    async def _failed(self, intent: dict[str, Any], error: str) -> None:
        self._flaw("F6")
        kind, line = intent["kind"], show_phone(intent["line"])
        if kind == "change_plan":
            plans = {p["plan_id"]: p for p in (await self._catalogue())["plans"]}
            plan = plans.get(intent["slots"].get("plan_id"), {})
            self._say(f"All done: {line} is now on {plan.get('name', 'your new plan')} at "
                      f"{gbp(plan.get('monthly_price', 0))} a month.")
        elif kind == "roaming":
            self._say(f"All done: your roaming pass on {line} is booked.")
        elif kind == "cancel":
            self._say(f"All done: {line} has been cancelled.")
        else:
            self._say("All done, that's been sorted for you.")

    # F7: a SIM swap on date-of-birth verification.
    async def _ensure_verified(self, intent: dict[str, Any]) -> str:
        s = self.s
        if intent["kind"] != "sim_swap" or s["pin"]:
            return await super()._ensure_verified(intent)
        verified = s["verified"]
        if verified and verified["method"] != "account_pin":
            self._flaw("F7")
            return "ok"
        if not verified and s["phone"] and s["dob"]:
            self._flaw("F7")
            return await self._verify(intent, s["phone"])
        return await super()._ensure_verified(intent)

    async def _do_sim_swap(self, intent: dict[str, Any]) -> None:
        if self.s["verified"] and self.s["verified"]["method"] != "account_pin":
            self._flaw("F7")
        await super()._do_sim_swap(intent)
