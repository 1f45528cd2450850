"""What the desk bot does for one request on a verified booking: prices, proposals, refusals."""

from __future__ import annotations

from typing import Any

from benchmarks.domains.rail import _words as w
from benchmarks.domains.rail._env import LAST_DAY, TODAY

PARTS = {"morning": ("00:00", "12:00"), "afternoon": ("12:00", "17:00"),
         "lunchtime": ("11:00", "14:00"), "evening": ("17:00", "24:00"),
         "night": ("17:00", "24:00")}


class BookingFlows:
    """Change, upgrade, cancel and extras; each returns (what to say, whether the task is done).

    A proposal is left in `self.s["pending"]` for the customer to confirm.
    """

    s: dict[str, Any]

    async def call(self, name: str, args: dict[str, Any]) -> tuple[Any, str | None]:
        raise NotImplementedError

    async def _work(self, task: dict[str, Any], b: dict[str, Any]) -> tuple[list[str], bool]:
        kind = task["kind"]
        if kind == "status":
            return [w.booking_line(b)], True
        if b["status"] != "active":
            return [f"Booking {b['booking_ref']} is {b['status']}, so I can't change it."], True
        if kind in ("cancel", "refund_question"):
            return await self._cancel(task, b)
        if kind == "upgrade":
            return await self._upgrade(b)
        if kind in ("bicycle", "pet"):
            return await self._extra(kind, b)
        return await self._change(task, b)

    async def _cancel(self, task: dict[str, Any], b: dict[str, Any]) -> tuple[list[str], bool]:
        quote, error = await self.call("quote_refund", {"booking_ref": b["booking_ref"]})
        if error:
            return [w.refusal(error)], True
        amount = self._refund_amount(quote)
        when = (f"Your {b['time']} on {w.day(b['date'])} leaves in "
                f"{w.lead_time(quote['minutes_to_departure'])}, so the refund would be "
                f"{w.eur(amount)}")
        percent = round(100 * amount / b["price_eur"]) if b["price_eur"] else 0
        rule = (f" ({percent}% of the {w.eur(b['price_eur'])} fare under our "
                "refund rules; extras are not refunded)")
        if task["kind"] == "refund_question":
            return [f"{when}{rule}. Nothing has been cancelled; just tell me if you'd like me to "
                    "cancel it."], True
        question = f"Do you want me to cancel booking {b['booking_ref']}?"
        self.s["pending"] = {"kind": "cancel", "ref": b["booking_ref"], "question": question,
                             "amount": amount, "refund_type": self._refund_type(quote)}
        return [f"{when}{rule}. {question}"], False

    async def _upgrade(self, b: dict[str, Any]) -> tuple[list[str], bool]:
        if b["travel_class"] == "first":
            return ["You're already in First class on that booking."], True
        deps = await self._search(b, b["date"])
        dep = next((d for d in deps if d["departure_id"] == b["departure_id"]), None)
        if dep is None:
            return ["I'm sorry, I can't find your train in the timetable."], True
        if not self._seats_ok(dep, "first"):
            others = [d for d in deps if d["seats_first"] > 0 and not d["departed"]]
            others = sorted(sorted(others, key=lambda d: abs(_mins(d["time"]) - _mins(b["time"])))
                            [:2], key=lambda d: d["time"])
            alt = (f" First class still has seats that day on the {w.times_list(others)}, but "
                   "that would mean changing train." if others else "")
            return [f"I'm sorry, First class on your {b['time']} on {w.day(b['date'])} is sold "
                    f"out, so I can't upgrade you on that train.{alt} Your booking stays as it "
                    "is."], True
        price = round(dep["fare_first"] - dep["fare_standard"], 2)
        question = "Shall I upgrade you?"
        self.s["pending"] = {"kind": "upgrade", "ref": b["booking_ref"], "question": question,
                             "amount": price}
        return [f"First class on your {b['time']} on {w.day(b['date'])} costs {w.eur(price)} more "
                "(the difference between today's Standard and First fares). " + question], False

    async def _extra(self, kind: str, b: dict[str, Any]) -> tuple[list[str], bool]:
        label = "bicycle space" if kind == "bicycle" else "pet"
        if kind in b["extras"]:
            return [f"Your booking already includes a {label}."], True
        if kind == "bicycle":
            deps = await self._search(b, b["date"])
            dep = next((d for d in deps if d["departure_id"] == b["departure_id"]), None)
            if dep is None or dep["bike_spaces"] <= 0:
                return [f"I'm sorry, there are no bicycle spaces left on your {b['time']} on "
                        f"{w.day(b['date'])}, so I can't add one."], True
        price = 8.0 if kind == "bicycle" else 5.0
        question = f"Shall I add a {label} to booking {b['booking_ref']} for {w.eur(price)}?"
        self.s["pending"] = {"kind": kind, "ref": b["booking_ref"], "question": question,
                             "amount": price}
        return [f"A {label} costs {w.eur(price)} per journey. {question}"], False

    async def _change(self, task: dict[str, Any], b: dict[str, Any]) -> tuple[list[str], bool]:
        when = _resolve(task, b)
        if when is None:
            return [f"Your current train is the {b['time']} on {w.day(b['date'])}. Which day and "
                    "time would you like to travel instead?"], False
        day, hhmm = when
        if not TODAY.isoformat() <= day <= LAST_DAY.isoformat():
            task["dates"] = []
            return [f"I can only book trains from today until {w.day(LAST_DAY.isoformat())}, "
                    "when the timetable is open. Which other day would suit you?"], False
        deps = await self._search(b, day)
        live = [d for d in deps if not d["departed"]]
        if hhmm is None and task["rel"]:
            hhmm = _relative(task, b, live, day)
            task["rel"], task["times"] = None, [*task["times"], [hhmm]] if hhmm else task["times"]
        if hhmm is None:
            return [self._options(live, b, day, task["part"])], False
        dep = next((d for d in live if d["time"] == hhmm), None)
        if dep is None:
            near = sorted(live, key=lambda d: abs(_mins(d["time"]) - _mins(hhmm)))[:2]
            return [f"There's no train at {hhmm} on {w.day(day)}. The nearest are the "
                    f"{w.times_list(sorted(near, key=lambda d: d['time']))}. Which would you "
                    "prefer?"], False
        task["anchor"] = dep["time"]
        if dep["departure_id"] == b["departure_id"]:
            return [f"You're already booked on the {dep['time']} on {w.day(day)}."], True
        if not self._seats_ok(dep, b["travel_class"]):
            return await self._sold_out(task, b, dep, live)
        return await self._propose_change(b, dep, live)

    async def _propose_change(self, b: dict[str, Any], dep: dict[str, Any],
                              deps: list[dict[str, Any]], lead: str = "") -> tuple[list[str], bool]:
        quote, error = await self._quote_change(b, dep)
        if error:
            alt = (" You can still cancel it and book a new ticket for the later train; a "
                   "cancellation this close to departure gets no refund." if "changes close" in
                   error.lower() else "")
            return [w.refusal(error) + " Your booking stays as it is." + alt], True
        question = w.change_question(b, quote)
        self.s["pending"] = self._change_proposal(b, dep, quote, deps) | {"question": question}
        return [lead + question], False

    def _change_proposal(self, b: dict[str, Any], dep: dict[str, Any], quote: dict[str, Any],
                         deps: list[dict[str, Any]]) -> dict[str, Any]:
        return {"kind": "change", "ref": b["booking_ref"], "departure_id": dep["departure_id"],
                "time": dep["time"], "date": dep["date"], "train": dep["train"],
                "amount": quote["total_due_eur"], "from_time": b["time"], "from_date": b["date"]}

    async def _sold_out(self, task: dict[str, Any], b: dict[str, Any], dep: dict[str, Any],
                        live: list[dict[str, Any]]) -> tuple[list[str], bool]:
        cls = b["travel_class"]
        free = [d for d in live if d[f"seats_{cls}"] > 0 and d["departure_id"] != b["departure_id"]]
        lead = (f"I'm sorry, the {dep['time']} on {w.day(dep['date'])} is sold out in "
                f"{cls.title()} class.")
        if not free:
            return [f"{lead} There are no other seats that day either. Would another day work?"
                    ], False
        later = task.get("prefer") != "earlier"  # "if it's full, a later one is fine"
        free.sort(key=lambda d: ((d["time"] > dep["time"]) != later if task.get("prefer")
                                 else False, abs(_mins(d["time"]) - _mins(dep["time"])),
                                 (d["time"] > dep["time"]) != later))
        others = sorted(free[1:3], key=lambda d: d["time"])
        parts, done = await self._propose_change(b, free[0], live, lead + " ")
        if others and not done:
            parts[-1] += f" (The {w.times_list(others)} also have seats, if you prefer.)"
        return parts, done

    def _options(self, live: list[dict[str, Any]], b: dict[str, Any], day: str,
                 part: str | None) -> str:
        cls = b["travel_class"]
        lo, hi = PARTS.get(part or "", ("00:00", "24:00"))
        live = [d for d in live if d["departure_id"] != b["departure_id"]]
        free = [d for d in live if d[f"seats_{cls}"] > 0 and lo <= d["time"] < hi] or [
            d for d in live if d[f"seats_{cls}"] > 0]
        if not free:
            return f"I'm sorry, there are no seats left on {w.day(day)}. Would another day work?"
        return (f"On {w.day(day)} there are {cls.title()} seats on the {w.times_list(free)} from "
                f"{w.route(b)}. Which time would you like?")

    async def _search(self, b: dict[str, Any], day: str) -> list[dict[str, Any]]:
        deps, _ = await self.call("search_departures", {"origin": b["origin"],
                                                        "destination": b["destination"],
                                                        "date": day})
        return deps or []

    # -- hooks the flawed agent overrides --------------------------------------------------

    def _seats_ok(self, dep: dict[str, Any], cls: str) -> bool:
        return bool(dep[f"seats_{cls}"] > 0)

    async def _quote_change(self, b: dict[str, Any], dep: dict[str, Any]) -> tuple[Any, str | None]:
        return await self.call("quote_change", {"booking_ref": b["booking_ref"],
                                                "departure_id": dep["departure_id"]})

    def _refund_amount(self, quote: dict[str, Any]) -> float:
        return float(quote["refund_eur"])

    def _refund_type(self, quote: dict[str, Any]) -> str:
        return "policy"


def _resolve(task: dict[str, Any], b: dict[str, Any]) -> tuple[str, str | None] | None:
    date_ = _pick(task["dates"], b["date"])
    hhmm = _pick(task["times"], b["time"]) or (b["time"] if task["same_time"] else None)
    hhmm = None if task["rel"] else hhmm
    if date_ in (None, b["date"]) and hhmm == b["time"]:
        hhmm = None  # they named the train they are on, not the one they want
    if date_ and (date_ != b["date"] or hhmm or task["rel"] or task["part"]):
        return date_, hhmm
    if hhmm or task["rel"] or task["part"]:
        return b["date"], hhmm
    return None


def _pick(groups: list[list[str]], current: str) -> str | None:
    """The value the customer asked for last. Slots are kept per message; in a message naming
    two ("from the 07:15 to the 11:30"), the one equal to the current booking is where they
    come from."""
    if not groups:
        return None
    last = groups[-1]
    wanted = [v for v in last if v != current] if len(last) > 1 else last
    return (wanted or last)[-1]


def _relative(task: dict[str, Any], b: dict[str, Any], live: list[dict[str, Any]],
              day: str) -> str | None:
    if not task["rel"]:
        return None
    anchor = task["anchor"] or _pick(task["times"], b["time"])
    anchor = anchor or (b["time"] if day == b["date"] else None)
    if anchor is None:
        return None
    cls = b["travel_class"]
    free = [d["time"] for d in live if d[f"seats_{cls}"] > 0 and d["departure_id"] !=
            b["departure_id"]]
    pick = ([t for t in free if t > anchor][:1] if task["rel"] == "later"
            else [t for t in free if t < anchor][-1:])
    return pick[0] if pick else None


def _mins(hhmm: str) -> int:
    hours, mins = hhmm.split(":")
    return int(hours) * 60 + int(mins)
