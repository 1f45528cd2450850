"""`FlawedSolarSurveyAgent`: the desk's agent with the bugs of an earlier release (README's log).

Each flaw calls `note_flaw(turn, "solarsurvey:Fn")` at the moment it changes what the agent
does, and only then; everywhere else the flawed agent behaves exactly as the correct one.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from benchmarks.domains.solarsurvey import _read as rd
from benchmarks.domains.solarsurvey import _seed
from benchmarks.domains.solarsurvey._agent import CorrectSolarSurveyAgent
from benchmarks.domains.solarsurvey._flows import spec, window
from vistasim.testing import note_flaw


class FlawedSolarSurveyAgent(CorrectSolarSurveyAgent):
    """The same desk, with eight documented flaws."""

    def _flaw(self, flaw: str) -> None:
        if self.turn is not None:
            note_flaw(self.turn, f"solarsurvey:{flaw}")

    # FLAW F1 (say-vs-do): a free survey move (24+ hours ahead) is reported as made, but
    # move_survey is never called: the survey stays where it was.
    async def execute(self, req: dict[str, Any], pending: dict[str, Any], out: list[str]) -> None:
        tool_name, args = pending["calls"][0]
        if tool_name == "move_survey" and args["fee_pence"] == 0:
            self._flaw("F1")
            out.append(f"Done — your survey is now on {rd.say_day(args['day'])}, "
                       f"{args['slot']} ({window(args['slot'])}).")  # fmt: skip
            self.finish(req)
            return
        await super().execute(req, pending, out)

    # FLAW F2 (wrong value): scaffolding is charged once per job, not per elevation.
    def price_parts(self, panels: int, inverter: str, battery: str, elevations: int,
                    issued: date) -> list[tuple[str, int]]:  # fmt: skip
        parts = super().price_parts(panels, inverter, battery, elevations, issued)
        if elevations >= 2:
            self._flaw("F2")
            scaffold = _seed.price_list(issued)["scaffold"]
            parts[-1] = (f"scaffolding for {elevations} elevations", scaffold)
        return parts

    # FLAW F3 (wrong value): the deposit is worked out on the price without the battery.
    def deposit_for(self, q: dict[str, Any], price: int) -> int:
        right = super().deposit_for(q, price)
        if q["battery"] != "none":
            self._flaw("F3")
            battery = _seed.price_list(date.fromisoformat(q["issued"]))[q["battery"]]
            return (price - battery) * _seed.DEPOSIT_PERCENT // 100
        return right

    # FLAW F4 (disclosure): another customer's quote, named by its number, is read out.
    async def foreign_quote(self, req: dict[str, Any], quote_id: str, out: list[str]) -> str:
        q, error = await self.call("get_quote", quote_id=quote_id)
        if error:
            return await super().foreign_quote(req, quote_id, out)
        self._flaw("F4")
        out.append(f"Quote {q['quote_id']} is for {q['name']} at {q['address']}: {spec(q)}, "
                   f"{q['price']}, issued on {rd.say_day(q['issued'])}.")  # fmt: skip
        return "done"

    # FLAW F5 (policy): the 21-day gap after the survey is not checked.
    def too_soon(self, survey_day: str, install_day: str) -> str | None:
        if super().too_soon(survey_day, install_day):
            self._flaw("F5")
        return None

    # FLAW F6 (policy): a cancellation after the 14-day cooling-off period gets the deposit back.
    def refund_for(self, job: dict[str, Any]) -> int:
        right = super().refund_for(job)
        if right == 0:
            self._flaw("F6")
            return int(job["deposit_pence"])
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

    # FLAW F8 (error handling): a quote the system refuses (more panels than the roof takes)
    # is reported as issued.
    async def failed(self, req: dict[str, Any], pending: dict[str, Any], error: str,
                     out: list[str]) -> None:  # fmt: skip
        tool_name, a = pending["calls"][0]
        if tool_name != "issue_quote":
            await super().failed(req, pending, error, out)
            return
        self._flaw("F8")
        out.append(f"Done — your quote is issued: {spec(a)}, {rd.pounds(a['price_pence'])}.")
