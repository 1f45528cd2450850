"""The desk's flows, one per request: work out the change, state it with its price, report it.

Each `step_<intent>` returns "wait" (a question or a proposal is out) or "done"; each
`done_<intent>` reports what the booking system returned for the agreed call.
"""

from __future__ import annotations

import re
from typing import Any

from benchmarks.domains.ferry import _read as rd
from benchmarks.domains.ferry import _seed
from benchmarks.domains.ferry._extras import FlowBase

REMOVE = re.compile(
    r"\b(?:remove|take (?:\w+ )?(?:car|vehicle|van)? ?off|no longer|not bringing|"
    r"without (?:the|my|a|our) (?:car|vehicle)|drop (?:the|my|our) (?:car|vehicle)"
    r")\b",
    re.I,
)


class Flows(FlowBase):
    """Mixin: the flows of `CorrectFerryAgent` (which supplies the state and helpers)."""

    # -- hooks the flawed agent overrides --------------------------------------------------
    def fee_waived(self, view: dict[str, Any]) -> bool:
        return self.days_to_go(view) >= _seed.FREE_AMEND_DAYS

    def pets_allowed(self, view: dict[str, Any], count: int) -> bool:
        return view["pets"] + count <= _seed.MAX_PETS

    def pick_reg(self, text: str) -> str | None:
        found = rd.regs(text)
        return found[-1] if found else None

    # -- change of sailing -----------------------------------------------------------------
    async def step_sailing(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        s = v["sailing"]
        if self.sailed(v, out):
            return "done"
        text = self.text(req)
        days = [d for d in rd.dates(text) if d.isoformat() != s["depart"][:10]]
        if not days:
            return self.ask("new_date", "Which date would you like to travel instead?", out)
        day = days[-1]
        found, error = await self.call(
            "find_sailings", origin=s["origin"], destination=s["destination"], day=day.isoformat()
        )
        stamp = self.now.strftime(_seed.STAMP)
        options = [o for o in (found or {}).get("sailings", []) if o["depart"] > stamp]
        if error or not options:
            return self.ask(
                "new_date",
                f"There's no {s['origin']} to {s['destination']} "
                f"sailing I can book on {rd.say_date(day.isoformat())}. Which date "
                "would you like instead?",
                out,
            )
        new = self._pick_time(options, text)
        if new is None:
            listed = " or ".join(f"{o['depart'][11:]} ({o['fare']} a passenger)" for o in options)
            return self.ask(
                "new_time",
                f"On {rd.say_date(day.isoformat())} there are sailings "
                f"at {listed}. Which sailing would you like?",
                out,
            )
        if new["sailing_id"] == s["sailing_id"]:
            return self.ask(
                "new_date",
                "That's the sailing you're already booked on. Which date would you like instead?",
                out,
            )
        if (
            v["vehicle"]
            and new["vehicle_spaces"] < 1
            or v["cabin"]
            and new["cabins_left"][v["cabin"]] < 1
        ):
            return self.ask(
                "new_date",
                f"{rd.say_sailing(new).capitalize()} has no room left "
                "for your vehicle or cabin. Which other date would you like?",
                out,
            )
        pax = len(v["passengers"])
        step = new["fare_pence"] - s["fare_pence"]
        diff = max(0, step * pax)
        flexi = v["fare_type"] == "flexi"
        waived = not flexi and self.fee_waived(v)
        fee = 0 if flexi or waived else _seed.AMEND_FEE_PENCE
        parts = [
            f"To move booking {v['booking_ref']} from {rd.say_sailing(s)} to {rd.say_sailing(new)}:"
        ]
        if diff:
            parts.append(f"the fare difference is {rd.pounds(diff)} ({pax} x {rd.pounds(step)});")
        elif step < 0:
            parts.append("the new fare is lower, but the difference isn't refunded;")
        else:
            parts.append("there's no fare difference;")
        if flexi:
            parts.append("Flexi fares pay no amendment fee.")
        elif waived:
            parts.append(
                f"the {rd.pounds(_seed.AMEND_FEE_PENCE)} amendment fee is waived "
                "because your sailing is 30 or more days away."
            )
        else:
            parts.append(f"the amendment fee is {rd.pounds(fee)}.")
        total = diff + fee
        parts.append(
            f"That's {rd.pounds(total)} in total, charged to {self.card(v)}."
            if total
            else "There's nothing to pay."
        )
        parts.append("Shall I go ahead?")
        return self.propose(
            req,
            out,
            " ".join(parts),
            tool="change_sailing",
            args={
                "booking_ref": v["booking_ref"],
                "sailing_id": new["sailing_id"],
                "waive_fee": waived,
            },
            total=rd.pounds(total),
        )

    @staticmethod
    def _pick_time(options: list[dict[str, Any]], text: str) -> dict[str, Any] | None:
        if len(options) == 1:
            return options[0]
        said = rd.times(text)
        for t in reversed(said):
            match = [o for o in options if o["depart"][11:] == t]
            if match:
                return match[0]
        part = rd.part_of_day(text)
        if part:
            early = part in {"morning", "early"}
            match = [o for o in options if (int(o["depart"][11:13]) < 12) == early]
            if len(match) == 1:
                return match[0]
        return None

    async def done_sailing(
        self,
        req: dict[str, Any],
        pending: dict[str, Any],
        result: Any,
        error: str | None,
        out: list[str],
    ) -> None:
        if error:
            self.failed(error, out)
            return
        out.append(
            f"Done — booking {result['booking_ref']} is now on "
            f"{rd.say_sailing(result['sailing'])}. Fare difference "
            f"{result['fare_difference']}, amendment fee {result['amendment_fee']}: "
            f"{result['total_charged']} charged to your card ending "
            f"{result['card_last4']}."
        )

    # -- vehicles --------------------------------------------------------------------------
    async def step_vehicle(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        if self.sailed(v, out):
            return "done"
        text = self.text(req)
        old = v["vehicle"]
        if REMOVE.search(text):
            if not old:
                out.append(f"There's no vehicle on booking {v['booking_ref']}.")
                return "done"
            if v["pets"] and v["cabin"] != "pet":
                out.append(
                    "Your pets travel in the vehicle, so I can't take it off while they "
                    "are on the booking — nothing has been changed."
                )
                return "done"
            back = old["price_pence"] if v["fare_type"] == "flexi" else 0
            money = (
                f"{rd.pounds(back)} goes back to {self.card(v)}"
                if back
                else f"{v['fare_type'].capitalize()} fares get nothing back for it"
            )
            return self.propose(
                req,
                out,
                f"To take {old['registration']} off booking "
                f"{v['booking_ref']}: {money}. Shall I go ahead?",
                tool="remove_vehicle",
                args={"booking_ref": v["booking_ref"]},
            )
        reg = self.pick_reg(text)
        if not reg:
            return self.ask("registration", "What's the vehicle's registration?", out)
        said = rd.lengths(text)
        if not said:
            return self.ask(
                "vehicle_length",
                "How long is the vehicle, in metres? The price depends on the length.",
                out,
            )
        length = said[-1]
        banded = _seed.band(length)
        if banded is None:
            out.append(
                "Vehicles over 10 m have to be booked by phone, so I can't add that "
                "one here — nothing has been changed."
            )
            return "done"
        name, price = banded
        if old:
            charge = max(0, price - old["price_pence"])
            money = (
                f"the {name} price is {rd.pounds(price)} against {old['price']} paid, so "
                f"{rd.pounds(charge)} to pay, charged to {self.card(v)}"
                if charge
                else "there's nothing to pay"
            )
            lead = (
                f"To replace {old['registration']} with {reg} ({length:g} m, {name}) on "
                f"booking {v['booking_ref']}: {money}."
            )
        else:
            lead = (
                f"To add {reg} ({length:g} m, {name}) to booking {v['booking_ref']} costs "
                f"{rd.pounds(price)}, charged to {self.card(v)}."
            )
        return self.propose(
            req,
            out,
            lead + " Shall I go ahead?",
            tool="set_vehicle",
            args={"booking_ref": v["booking_ref"], "registration": reg, "length_m": length},
        )

    async def done_vehicle(
        self,
        req: dict[str, Any],
        pending: dict[str, Any],
        result: Any,
        error: str | None,
        out: list[str],
    ) -> None:
        if error:
            self.failed(error, out)
        elif "removed" in result:
            out.append(
                f"Done — {result['removed']} is off booking {result['booking_ref']}; "
                f"{result['refund']} back to your card ending {result['card_last4']}."
            )
        else:
            out.append(
                f"Done — {result['registration']} ({result['band']}) is on booking "
                f"{result['booking_ref']}; {result['charged']} charged to your card "
                f"ending {result['card_last4']}."
            )

    # -- cabins ----------------------------------------------------------------------------
    async def step_cabin(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        s = v["sailing"]
        if self.sailed(v, out):
            return "done"
        if not s["overnight"]:
            out.append(
                f"Cabins are only on our overnight St Malo crossings; booking "
                f"{v['booking_ref']} is on {rd.say_sailing(s)}, a day crossing, so "
                "there's no cabin to add."
            )
            return "done"
        if v["cabin"]:
            out.append(
                f"Booking {v['booking_ref']} already has an {_seed.CABIN_NAMES[v['cabin']]}."
            )
            return "done"
        kind = rd.cabin_type(self.text(req))
        if kind is None:
            return self.ask(
                "cabin_type",
                "Which cabin would you like: an inside cabin "
                "(£79.00), an outside sea-view cabin (£99.00) or a pet-friendly "
                "cabin (£109.00)?",
                out,
            )
        price = _seed.CABINS[kind]
        return self.propose(
            req,
            out,
            f"An {_seed.CABIN_NAMES[kind]} on {rd.say_sailing(s)} "
            f"costs {rd.pounds(price)}, charged to {self.card(v)}. Shall I add "
            "it?",
            tool="add_cabin",
            args={"booking_ref": v["booking_ref"], "cabin_type": kind},
        )

    async def done_cabin(
        self,
        req: dict[str, Any],
        pending: dict[str, Any],
        result: Any,
        error: str | None,
        out: list[str],
    ) -> None:
        if error:
            await self.cabin_failed(pending, error, out)
            return
        out.append(
            f"Done — an {_seed.CABIN_NAMES[result['cabin']]} is on booking "
            f"{result['booking_ref']}; {result['charged']} charged to your card ending "
            f"{result['card_last4']}."
        )

    async def cabin_failed(self, pending: dict[str, Any], error: str, out: list[str]) -> None:
        """Hook: say the cabin could not be booked and what is left; book nothing else."""
        self.failed(error, out)
        left = self.s["view"]["sailing"]["cabins_left"]
        others = [k for k, n in left.items() if n > 0 and k != pending["args"]["cabin_type"]]
        if others:
            out.append(
                "Still available: "
                + ", ".join(
                    f"{_seed.CABIN_NAMES[k]} ({rd.pounds(_seed.CABINS[k])})" for k in others
                )
                + ". Just say if you'd like one of those instead."
            )
            self.s["offer"] = {
                "intent": "cabin",
                "text": "cabin" if len(others) > 1 else f"{others[0]} cabin",
            }

    # -- pets ------------------------------------------------------------------------------
    async def step_pet(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        if self.sailed(v, out):
            return "done"
        count = rd.pet_count(self.text(req))
        if count is None:
            return self.ask("pets", "How many pets are travelling with you?", out)
        if not v["vehicle"] and v["cabin"] != "pet":
            out.append(
                "Pets travel in your vehicle or in a pet-friendly cabin on an overnight "
                "crossing, and this booking has neither, so I can't add a pet — "
                "nothing has been changed."
            )
            return "done"
        if not self.pets_allowed(v, count):
            room = max(0, _seed.MAX_PETS - v["pets"])
            out.append(
                f"I'm sorry — we carry at most {_seed.MAX_PETS} pets per booking, and "
                f"booking {v['booking_ref']} already has {v['pets']}, so I can't add "
                f"{count} more. I haven't added any."
                + (f" I could add {room} if you'd like." if room else "")
            )
            return "done"
        price = _seed.PET_PENCE * count
        where = "in your vehicle" if v["cabin"] != "pet" else "in your pet-friendly cabin"
        return self.propose(
            req,
            out,
            f"Adding {count} pet{'s' if count > 1 else ''} to booking "
            f"{v['booking_ref']} (they travel {where}) costs {rd.pounds(price)} "
            f"({rd.pounds(_seed.PET_PENCE)} each), charged to {self.card(v)}. "
            "Shall I go ahead?",
            tool="add_pets",
            args={"booking_ref": v["booking_ref"], "count": count},
        )

    async def done_pet(
        self,
        req: dict[str, Any],
        pending: dict[str, Any],
        result: Any,
        error: str | None,
        out: list[str],
    ) -> None:
        if error:
            self.failed(error, out)
            return
        out.append(
            f"Done — booking {result['booking_ref']} now has {result['pets']} "
            f"pet{'s' if result['pets'] > 1 else ''}; {result['charged']} charged to "
            f"your card ending {result['card_last4']}."
        )
