"""The desk's flows: book, amend, lead name, upgrade, extras, cancel, look-ups."""

from __future__ import annotations

from typing import Any

from benchmarks.domains.lounge import _read as rd
from benchmarks.domains.lounge import _seed
from benchmarks.domains.lounge._env import ends_at, last_spa_slot

EXTRA_NAMES = {"fast_track": "security fast track", "spa": "a 30-minute spa treatment"}
TIERS = {"club": "Skyrest Club", "club_plus": "Skyrest Club Plus"}


def plural(n: int, word: str) -> str:
    if word == "child":
        return f"{n} {'child' if n == 1 else 'children'}"
    return f"{n} {word}{'' if n == 1 else 's'}"


def n_passes(n: int) -> str:
    return f"{n} guest pass{'' if n == 1 else 'es'}"


def say_party(adults: int, children: int) -> str:
    return plural(adults, "adult") + (f" and {plural(children, 'child')}" if children else "")


class Flows:
    """The flows; `CorrectLoungeAgent` supplies the state, the calls and the questions."""

    s: dict[str, Any]
    today: Any
    call: Any
    ask: Any
    propose: Any
    current: Any

    async def refresh(self) -> dict[str, Any]:
        view, error = await self.call("get_account", account_id=self.s["account"])
        if not error:
            self.s["view"] = view
        return dict(self.s["view"])

    def text(self, req: dict[str, Any]) -> str:
        return " ".join(req["chunks"])

    def pick_visit(self, v: dict[str, Any], text: str) -> dict[str, Any] | None:
        """The visit meant: by reference, by airport, by day, or the only one booked."""
        refs = rd.visits(text)
        named = [x for x in v["visits"] if x["visit_id"] in refs]
        if not named and rd.airport(text):
            named = [x for x in v["visits"] if x["airport"] == rd.airport(text)]
        if len(named) != 1:
            days = {d.isoformat() for d in rd.dates(text, self.today, all_said=True)}
            by_day = [x for x in (named or v["visits"]) if x["day"] in days]
            named = by_day or named
        if not named and len(v["visits"]) == 1:
            named = v["visits"]
        return named[0] if named else None

    def no_visit(self, out: list[str]) -> str:
        out.append("I can't find an upcoming lounge visit that matches that on your account.")
        return "done"

    @staticmethod
    def say_visit(x: dict[str, Any]) -> str:
        return (f"{x['visit_id']} ({x['lounge']}, {rd.say_day(x['day'])}, "
                f"{x['arrival_time']} to {x['ends_at']})")  # fmt: skip

    def free_only(self, req: dict[str, Any], fee: int, what: str, out: list[str]) -> bool:
        """The goal said to go ahead only if free: a fee ends the request, nothing changed."""
        if fee and rd.FREE_ONLY.search(" ".join([self.text(req), *self.s["said"]])):
            out.append(f"{what} would cost {rd.pounds(fee)}, and you asked me to leave it if "
                       "there was a charge, so I haven't changed anything.")  # fmt: skip
            return True
        return False

    # -- policy hooks (the flawed agent overrides some) -------------------------------------
    def quote(self, v: dict[str, Any], lounge: dict[str, Any], adults: int,
              children: int) -> tuple[int, int, str]:  # fmt: skip
        """(price, guest passes used, how it adds up) for a party at a lounge."""
        parts, price, passes = [], 0, 0
        if v["membership"] != "none":
            guests_a, guests_c = adults - 1, children
            passes = min(v["guest_passes"], guests_a + guests_c)
            free_a = min(passes, guests_a)  # the passes cover adult guests first
            free_c = passes - free_a
            parts.append(f"your own entry is free as a {TIERS[v['membership']]} member")
            if passes:
                covered = say_party(free_a, free_c).replace("0 adults and ", "")
                verb = "covers" if passes == 1 else "cover"
                parts.append(f"{n_passes(passes)} from your allowance {verb} {covered}")
            paid_a, paid_c = guests_a - free_a, guests_c - free_c
        else:
            paid_a, paid_c = adults, children
        if paid_a:
            parts.append(f"{plural(paid_a, 'adult')} at {rd.pounds(_seed.ADULT_PENCE)}")
            price += paid_a * _seed.ADULT_PENCE
        if paid_c:
            parts.append(f"{plural(paid_c, 'child')} at {rd.pounds(_seed.CHILD_PENCE)}")
            price += paid_c * _seed.CHILD_PENCE
        if lounge["tier"] == "signature":
            extra = self.upgrade_price(adults, children)
            parts.append(f"the Signature supplement of {rd.pounds(extra)}")
            price += extra
        return price, passes, "; ".join(parts)

    def supplement_rates(self, children: int) -> tuple[int, int]:
        """The Signature supplement per adult and per child: £25.00 and £12.00."""
        return _seed.PREMIUM_ADULT_PENCE, _seed.PREMIUM_CHILD_PENCE

    def upgrade_price(self, adults: int, children: int) -> int:
        per_adult, per_child = self.supplement_rates(children)
        return adults * per_adult + children * per_child

    def refund_for(self, x: dict[str, Any]) -> int:
        """24 hours or more before arrival: the entry and the extras back; else nothing."""
        if x["hours_to_arrival"] < _seed.FREE_HOURS:
            return 0
        return int(x["price_pence"] + sum(e["price_pence"] for e in x["extras"]))

    def amend_fee(self, x: dict[str, Any]) -> int:
        return 0 if x["hours_to_arrival"] >= _seed.FREE_HOURS else _seed.AMEND_FEE_PENCE

    def name_refusal(self, v: dict[str, Any], x: dict[str, Any]) -> str | None:
        """Why a visit's lead name can't be changed, or None."""
        if x["member_place"]:
            return (f"the lead place on {x['visit_id']} is your own member's place: free entry "
                    f"as a {TIERS.get(v['membership'], 'Skyrest Club')} member is personal and "
                    "can't be passed to someone else")  # fmt: skip
        return None

    def extras_left(self, req: dict[str, Any]) -> list[str]:
        """Hook: the extras asked for and not yet dealt with, in the order asked."""
        return [k for k in rd.extra_kinds(self.text(req)) if k not in req["done"]]

    async def other_booking(self, v: dict[str, Any], ref: str, out: list[str]) -> str:
        """Hook: a booking reference that isn't on the caller's account."""
        out.append(f"I can't find booking {ref} on your account, so I can't share its details. "
                   "Only the account holder who made it can see or change it; they can contact "
                   "us, or forward you their confirmation.")  # fmt: skip
        return "done"

    # -- booking a visit -------------------------------------------------------------------
    async def _lounges(self, airport: str, terminal: str | None, day: str | None = None,
                       arrival: str | None = None) -> list[dict[str, Any]]:  # fmt: skip
        found, error = await self.call("find_lounges", airport=airport, terminal=terminal,
                                       day=day, arrival_time=arrival)  # fmt: skip
        return [] if error else list(found)

    async def step_book(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        airport = rd.airport(text)
        if airport is None:
            return self.ask("lounge", "Which airport and terminal is the lounge visit at? We're "
                            "at Heathrow, Gatwick, Manchester and Edinburgh.", out)  # fmt: skip
        terminal = "Main" if airport == "EDI" else rd.terminal(text)
        if terminal is None:
            terms = sorted({x["terminal"] for x in await self._lounges(airport, None)})
            return self.ask("lounge", f"Which terminal at {rd.AIRPORT_NAMES[airport]}? We have "
                            f"lounges at {' and '.join(terms)}.", out)  # fmt: skip
        days = [d for d in rd.dates(text, self.today, all_said=True) if d >= self.today]
        if not days:
            return self.ask("day", "Which day is the visit?", out)
        day = days[0].isoformat()
        arrival = rd.clock_time(text)
        if arrival is None or not _seed.FIRST_ARRIVAL <= arrival <= _seed.LAST_ARRIVAL:
            return self.ask("arrival_time", "What time would you like to arrive? A visit is "
                            "three hours, with arrivals from 04:00 to 21:00.", out)  # fmt: skip
        party = rd.party(text)
        if party is None or party[0] < 1:
            return self.ask("party", "How many adults (12 and over) and children (2 to 11) "
                            "will there be, you included? Under-2s are free.", out)  # fmt: skip
        adults, children = party
        lounges = await self._lounges(airport, terminal, day, arrival)
        if not lounges:
            out.append(f"We don't have a lounge at {rd.AIRPORT_NAMES[airport]} {terminal}.")
            return "done"
        tier = "signature" if rd.wants_signature(text) else "standard"
        lounge = next((x for x in lounges if x["tier"] == tier), None)
        if lounge is None:
            out.append(f"There's no Signature lounge at {rd.AIRPORT_NAMES[airport]} {terminal}; "
                       "I can quote our standard lounge there instead.")  # fmt: skip
            lounge = lounges[0]
        if lounge.get("full"):
            out.append(f"I'm sorry — {lounge['name']} is full for arrivals at {arrival} on "
                       f"{rd.say_day(day)}, so I haven't booked anything.")  # fmt: skip
            return "done"
        price, passes, how = self.quote(v, lounge, adults, children)
        pay = (f"{rd.pounds(price)}, taken now from your card ending {v['card_last4']}"
               if price else "nothing to pay")  # fmt: skip
        return self.propose(
            req, out,
            f"To book {lounge['name']} on {rd.say_day(day)}, arriving {arrival} (the visit is "
            f"three hours, until {ends_at(arrival)}), "
            f"for {say_party(adults, children)}: {how}. That's {pay}. It can be cancelled for "
            "a full refund until 24 hours before arrival. Shall I book it?",
            [("book_visit", {"account_id": v["account_id"], "lounge_id": lounge["lounge_id"],
                             "day": day, "arrival_time": arrival, "adults": adults,
                             "children": children, "price_pence": price,
                             "guest_passes": passes})],
        )  # fmt: skip

    # -- changing a visit ------------------------------------------------------------------
    async def step_amend(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        x = self.pick_visit(v, text)
        if x is None:
            return self.no_visit(out)
        days = [d.isoformat() for d in rd.dates(text, self.today) if d >= self.today]
        days = [d for d in days if d != x["day"]]
        new_times = [t for _, t in rd.times(text) if t != x["arrival_time"]]
        if not days and not new_times:
            return self.ask("new_time", f"What time would you like to arrive instead of "
                            f"{x['arrival_time']}?", out)  # fmt: skip
        day = days[-1] if days else x["day"]
        arrival = new_times[-1] if new_times else x["arrival_time"]
        if not _seed.FIRST_ARRIVAL <= arrival <= _seed.LAST_ARRIVAL:
            return self.ask("new_time", "Arrivals are taken from 04:00 to 21:00 — what time "
                            "would you like?", out)  # fmt: skip
        lounges = await self._lounges(x["airport"], x["terminal"], day, arrival)
        if any(lo["lounge_id"] == x["lounge_id"] and lo.get("full") for lo in lounges):
            out.append(f"I'm sorry — {x['lounge']} is full for arrivals at {arrival} on "
                       f"{rd.say_day(day)}, so I haven't changed anything.")  # fmt: skip
            return "done"
        fee = self.amend_fee(x)
        if self.free_only(req, fee, "Changing it less than 24 hours before arrival", out):
            return "done"
        charge = (
            f"It's less than 24 hours before arrival, so there's an amendment fee of "
            f"{rd.pounds(fee)}, taken from your card ending {v['card_last4']}."
            if fee
            else "There's no charge, as it's 24 hours or more before arrival."
        )
        return self.propose(
            req, out, f"To move {self.say_visit(x)} to {rd.say_day(day)}, arriving {arrival} "
            f"(until {ends_at(arrival)}). {charge} Shall I change it?",
            [("amend_visit", {"account_id": v["account_id"], "booking_id": x["visit_id"],
                              "day": day, "arrival_time": arrival, "fee_pence": fee})],
        )  # fmt: skip

    async def step_name(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        x = self.pick_visit(v, text)
        if x is None:
            return self.no_visit(out)
        why = self.name_refusal(v, x)
        if why:
            out.append(f"I'm sorry — {why}, so I haven't changed anything. They're welcome to "
                       f"book a visit of their own ({rd.pounds(_seed.ADULT_PENCE)} an adult), "
                       "or to come as your guest when you travel.")  # fmt: skip
            return "done"
        old = {x["lead_name"].lower(), v["name"].lower()}
        names = [n for n in rd.full_names(text) if n.lower() not in old]
        if not names:
            return self.ask("new_name", "What's the full name of the new lead guest?", out)
        return self.propose(
            req, out, f"To change the lead name on {self.say_visit(x)} from {x['lead_name']} to "
            f"{names[-1]}. There's no charge. Shall I change it?",
            [("change_lead_name", {"account_id": v["account_id"], "booking_id": x["visit_id"],
                                   "lead_name": names[-1]})],
        )  # fmt: skip

    async def step_upgrade(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        x = self.pick_visit(v, self.text(req))
        if x is None:
            return self.no_visit(out)
        if x["tier"] == "signature":
            out.append(f"{x['visit_id']} is already in {x['lounge']}.")
            return "done"
        sig = [lo for lo in await self._lounges(x["airport"], x["terminal"])
               if lo["tier"] == "signature"]  # fmt: skip
        if not sig:
            out.append(f"I'm sorry — there's no Signature lounge at {x['lounge'][8:]}, so it "
                       "can't be upgraded. Nothing has been changed.")  # fmt: skip
            return "done"
        price = self.upgrade_price(x["adults"], x["children"])
        if self.free_only(req, price, "The upgrade", out):
            return "done"
        per_adult, per_child = self.supplement_rates(x["children"])
        how = f"{plural(x['adults'], 'adult')} at {rd.pounds(per_adult)}"
        if x["children"]:
            how += f" and {plural(x['children'], 'child')} at {rd.pounds(per_child)}"
        return self.propose(
            req, out, f"To upgrade {self.say_visit(x)} to {sig[0]['name']}, same day and time: "
            f"the Signature supplement is {how}, {rd.pounds(price)} in all, taken now from your "
            f"card ending {v['card_last4']}. It depends on room there at {x['arrival_time']}. "
            "Shall I upgrade it?",
            [("upgrade_visit", {"account_id": v["account_id"], "booking_id": x["visit_id"],
                                "price_pence": price})],
        )  # fmt: skip

    # -- extras and cancelling -------------------------------------------------------------
    async def step_extra(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        x = self.pick_visit(v, text)
        if x is None:
            return self.no_visit(out)
        for kind in self.extras_left(req):
            if kind == "spa" and not x["spa"]:
                out.append(f"I'm sorry — spa treatments are only in our Signature lounges, and "
                           f"{x['lounge']} hasn't got a spa, so I haven't added one.")  # fmt: skip
                req["done"].append(kind)
                continue
            if kind == "fast_track" and any(e["kind"] == kind for e in x["extras"]):
                out.append(f"Fast track is already on {x['visit_id']}.")
                req["done"].append(kind)
                continue
            slot, people = None, x["adults"] + x["children"]
            price = _seed.FAST_TRACK_PENCE * people
            if kind == "spa":
                slot, last, price = rd.spa_time(text), last_spa_slot(x["arrival_time"]), \
                    _seed.SPA_PENCE  # fmt: skip
                if slot is None or not x["arrival_time"] <= slot <= last:
                    return self.ask("spa_time", f"What time would you like the treatment? "
                                    f"Slots start between {x['arrival_time']} and {last}, "
                                    "during your visit.", out)  # fmt: skip
            if self.free_only(req, price, EXTRA_NAMES[kind].capitalize(), out):
                req["done"].append(kind)
                continue
            what = (f"{EXTRA_NAMES[kind]} for {plural(people, 'person')}".replace("persons",
                    "people") + f" at {rd.pounds(_seed.FAST_TRACK_PENCE)} each"
                    if kind == "fast_track" else f"{EXTRA_NAMES[kind]} at {slot}")  # fmt: skip
            return self.propose(
                req, out, f"To add {what} to {self.say_visit(x)}: {rd.pounds(price)}, taken now "
                f"from your card ending {v['card_last4']}. Shall I add it?",
                [("add_extra", {"account_id": v["account_id"], "booking_id": x["visit_id"],
                                "kind": kind, "slot_time": slot, "price_pence": price})],
            )  # fmt: skip
        return "done"

    async def step_cancel(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        x = self.pick_visit(v, self.text(req))
        if x is None:
            return self.no_visit(out)
        refund = self.refund_for(x)
        if refund:
            what = (f"{rd.pounds(refund)} is refunded to your card ending {v['card_last4']}, as "
                    "it's 24 hours or more before arrival")  # fmt: skip
        else:
            what = (
                "it's less than 24 hours before arrival, so nothing is refunded"
                if x["hours_to_arrival"] < _seed.FREE_HOURS
                else "nothing was paid for it"
            )
        if x["passes_used"]:
            back = x["hours_to_arrival"] >= _seed.FREE_HOURS
            verb = ("comes back" if back else "stays used") if x["passes_used"] == 1 else (
                "come back" if back else "stay used")  # fmt: skip
            what += f"; the {n_passes(x['passes_used'])} used {verb}"
            what += " to your account" if back else ""
        return self.propose(
            req, out, f"To cancel {self.say_visit(x)}: {what}. Shall I cancel it?",
            [("cancel_visit", {"account_id": v["account_id"], "booking_id": x["visit_id"],
                               "refund_pence": refund})],
        )  # fmt: skip

    # -- look-ups --------------------------------------------------------------------------
    async def step_lookup(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        own = {x["visit_id"] for x in v["visits"]}
        other = [ref for ref in rd.visits(text) if ref not in own]
        if other:
            return await self.other_booking(v, other[0], out)
        x = self.pick_visit(v, text)
        if x is None:
            return self.no_visit(out)
        booking, error = await self.call("get_booking", booking_id=x["visit_id"])
        out.append(self.describe(booking if not error else x))
        return "done"

    @staticmethod
    def describe(x: dict[str, Any]) -> str:
        extras = sum(e["price_pence"] for e in x["extras"])
        names = ", ".join(EXTRA_NAMES[e["kind"]] + (f" at {e['slot_time']}" if e["slot_time"]
                          else "") for e in x["extras"])  # fmt: skip
        return (
            f"Booking {x['visit_id']}: {x['lounge']} on {rd.say_day(x['day'])}, arriving "
            f"{x['arrival_time']}; the visit is three hours, so you need to leave by "
            f"{x['ends_at']}. Lead guest {x['lead_name']}, {say_party(x['adults'], x['children'])}."
            f" Entry {rd.pounds(x['price_pence'])}"
            + (f", plus {names} {rd.pounds(extras)}" if extras else "")
            + f": {rd.pounds(x['price_pence'] + extras)} paid in all, nothing more to pay."
        )

    # -- reporting -------------------------------------------------------------------------
    def report(self, intent: str, r: dict[str, Any]) -> str:
        """What the system returned, in the customer's words."""
        if intent == "book":
            party = say_party(r["adults"], r["children"])
            return (f"Done — booking {r['booking_id']}: {r['lounge']} on {rd.say_day(r['day'])}, "
                    f"{r['arrival_time']} to {r['ends_at']}, {party}; {r['paid']} paid from "
                    f"your card ending {r['card_last4']}.")  # fmt: skip
        if intent == "amend":
            fee = f"; {r['fee']} amendment fee taken" if r["fee"] != "£0.00" else ""
            return (f"Done — {r['booking_id']} is now {rd.say_day(r['day'])}, arriving "
                    f"{r['arrival_time']} (until {r['ends_at']}){fee}.")  # fmt: skip
        if intent == "name":
            return f"Done — the lead name on {r['booking_id']} is now {r['lead_name']}."
        if intent == "upgrade":
            return (f"Done — {r['booking_id']} is now in {r['lounge']}; {r['charged']} taken from "
                    f"your card ending {r['card_last4']}.")  # fmt: skip
        if intent == "extra":
            what = EXTRA_NAMES[r["kind"]] + (f" at {r['slot_time']}" if r["slot_time"] else "")
            return f"Done — {what} added to {r['booking_id']}; {r['charged']} taken."
        back = (f"; {n_passes(r['guest_passes_back'])} back on your account"
                if r["guest_passes_back"] else "")  # fmt: skip
        return (f"Done — {r['booking_id']} is cancelled; {r['refunded']} refunded to your card "
                f"ending {r['card_last4']}{back}.")  # fmt: skip

    async def failed(self, req: dict[str, Any], pending: dict[str, Any], error: str,
                     out: list[str]) -> None:  # fmt: skip
        """Hook: the system refused; say so, and that nothing changed."""
        out.append(f"I'm sorry — the system refused that: {error}. Nothing has been changed.")
