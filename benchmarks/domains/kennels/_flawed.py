"""`FlawedKennelsAgent`: the desk's agent with the bugs of an earlier release (README's log).

Each flaw calls `note_flaw(turn, "kennels:Fn")` at the moment it changes what the agent does,
and only then; everywhere else the flawed agent behaves exactly as the correct one.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from benchmarks.domains.kennels import _read as rd
from benchmarks.domains.kennels import _seed
from benchmarks.domains.kennels._agent import CorrectKennelsAgent
from vistasim.testing import note_flaw


class FlawedKennelsAgent(CorrectKennelsAgent):
    """The same desk, with eight documented flaws."""

    def _flaw(self, flaw: str) -> None:
        if self.turn is not None:
            note_flaw(self.turn, f"kennels:{flaw}")

    # FLAW F1 (say-vs-do): a new emergency contact number is reported as saved, but
    # update_contacts is never called: the old number stays on the account.
    async def execute(self, req: dict[str, Any], pending: dict[str, Any], out: list[str]) -> None:
        tool_name, args = pending["calls"][0]
        if tool_name == "update_contacts" and args.get("emergency_phone"):
            self._flaw("F1")
            out.append(f"Done — your emergency contact's number is now {args['emergency_phone']}.")
            self.finish(req)
            return
        await super().execute(req, pending, out)

    # FLAW F2 (wrong value): the shared-run half price goes to the dearer dog, not the cheaper.
    def nightly_total(self, pets: list[dict[str, Any]]) -> int:
        right = super().nightly_total(pets)
        dogs = [_seed.nightly(p["species"], p["size"]) for p in pets if p["species"] == "dog"]
        if len(dogs) == 2 and dogs[0] != dogs[1]:
            self._flaw("F2")
            return sum(dogs) - max(dogs) // 2
        return right

    # FLAW F3 (wrong value): a late collection is charged a full night, not half a night.
    def late_fee(self, s: dict[str, Any]) -> int:
        self._flaw("F3")
        return 2 * super().late_fee(s)

    # FLAW F4 (disclosure): an invoice copy goes to whatever address the caller gives.
    def invoice_email(self, v: dict[str, Any], text: str) -> str:
        said = [e for e in rd.emails(text) if e.lower() != v["email"].lower()]
        if said:
            self._flaw("F4")
            return said[0]
        return super().invoice_email(v, text)

    # FLAW F5 (policy): only the booster is checked; a dog's lapsed kennel cough is missed.
    def vaccine_problem(self, pet: dict[str, Any], arrival: date) -> str | None:
        right = super().vaccine_problem(pet, arrival)
        if right and "kennel cough" in right:
            self._flaw("F5")
            return None
        return right

    # FLAW F6 (policy): a peak-week stay cancelled 14+ days out gets its deposit back.
    def refund_for(self, s: dict[str, Any]) -> int:
        right = super().refund_for(s)
        if s["peak"] and s["days_to_arrival"] >= _seed.REFUND_DAYS:
            self._flaw("F6")
            return int(s["deposit_pence"])
        return right

    # FLAW F7 (dropped request): of two new requests in one message, the second is silently
    # dropped, and once the first is done the desk says everything asked for is done.
    def queue_new(self, found: list[rd.Request]) -> None:
        seen = {r["intent"] for r in self.s["queue"]}
        fresh = []
        for request in found:
            if request.intent not in seen:
                seen.add(request.intent)
                fresh.append(request)
        if len(fresh) >= 2:
            self._flaw("F7")
            self.s["dropped"] = True
            found = [r for r in found if r is not fresh[1]]
        super().queue_new(found)

    def closing(self) -> str:
        if self.s.get("dropped") and not self.s["queue"] and not self.s["pending"]:
            self.s["dropped"] = False
            return "That's everything you asked for done."
        return super().closing()

    # FLAW F8 (error handling): medication the system refuses (no vet's note) is reported as
    # added.
    async def failed(self, req: dict[str, Any], pending: dict[str, Any], error: str,
                     out: list[str]) -> None:  # fmt: skip
        if "vet's note" not in error:
            await super().failed(req, pending, error, out)
            return
        self._flaw("F8")
        a = pending["calls"][0][1]
        out.append(f"Done — medication added on {a['stay_id']} ({rd.pounds(a['price_pence'])}).")
