"""The desk's flows: skiers, packages, days, helmets, insurance, fittings, cancelling, look-ups."""

from __future__ import annotations

import re
from datetime import date, timedelta
from typing import Any

from benchmarks.domains.skihire import _read as rd
from benchmarks.domains.skihire import _seed

FAMILY = re.compile(
    r"\b(?:son|daughter|child|kid|boy|girl|grandson|granddaughter|nephew|niece|brother|sister|"
    r"husband|wife|dad|father|mum|mother|stepson|stepdaughter|little one)\b",
    re.I,
)


KIDS = "children's package"


def levels_price_list() -> str:
    return ", ".join(
        f"{lvl} ({rd.pounds(_seed.DAY_RATE[lvl])} a day, {rd.pounds(_seed.SIX_DAY_RATE[lvl])} "
        "for 6 days)"
        for lvl in _seed.ADULT_LEVELS
    )


def names(skiers: list[dict[str, Any]]) -> str:
    said = [s["name"] for s in skiers]
    return said[0] if len(said) == 1 else ", ".join(said[:-1]) + " and " + said[-1]


class Flows:
    """The flows; `CorrectSkiHireAgent` supplies the state, the calls and the questions."""

    s: dict[str, Any]
    today: date
    call: Any
    ask: Any
    propose: Any

    async def refresh(self) -> dict[str, Any]:
        view, error = await self.call("get_booking", booking_ref=self.s["ref"])
        if not error:
            self.s["view"] = view
        return dict(self.s["view"])

    @staticmethod
    def text(req: dict[str, Any]) -> str:
        return " ".join(req["chunks"])

    @staticmethod
    def lead(v: dict[str, Any]) -> dict[str, Any]:
        return next((s for s in v["skiers"] if s["name"] == v["lead_name"]), v["skiers"][0])

    def people(self, v: dict[str, Any], text: str,
               pool: list[dict[str, Any]]) -> list[dict[str, Any]] | None:  # fmt: skip
        """The skiers of `pool` meant: everyone, named ones, "me", or None when not said."""
        if rd.ALL_RE.search(text) or rd.ADULTS_RE.search(text):
            return pool
        named = [s for s in pool if re.search(rf"\b{s['name'].split()[0]}\b", text, re.I)]
        me = self.lead(v)
        if rd.ME_RE.search(text) and me in pool and me not in named:
            named.insert(0, me)
        return named or None

    @staticmethod
    def span(v: dict[str, Any], days: int | None = None) -> str:
        days = days or v["days"]
        last = (date.fromisoformat(v["start_day"]) + timedelta(days=days - 1)).isoformat()
        return f"{rd.say_day(v['start_day'])} to {rd.say_day(last)}"

    @staticmethod
    def money_line(pence: int, card: str) -> str:
        if pence > 0:
            return f"{rd.pounds(pence)}, taken from your card ending {card}"
        if pence < 0:
            return f"{rd.pounds(-pence)} refunded to your card ending {card}"
        return "no charge"

    def bands(self, v: dict[str, Any]) -> list[str]:
        start = date.fromisoformat(v["start_day"])
        return [_seed.band_of(s, start) for s in v["skiers"]]

    def total(self, v: dict[str, Any], skiers: list[dict[str, Any]] | None = None,
              bands: list[str] | None = None, days: int | None = None) -> int:  # fmt: skip
        start = date.fromisoformat(v["start_day"])
        return _seed.total(skiers or v["skiers"], start, days or v["days"], bands)

    # -- policy hooks (the flawed agent overrides some) -------------------------------------
    def new_child_band(self, born: date, start: date) -> str:
        """A new child's price band by their age on the first day: mini, junior or adult."""
        age = _seed.age_on(born, start)
        if age < _seed.YOUNGEST:
            return "too young"
        return "adult" if age >= _seed.CHILD_UNDER else _seed.child_band(age)

    def extension_price(self, v: dict[str, Any], extra: int) -> int:
        """Extra days: the new total less the old, so the 6-day rate counts."""
        return self.total(v, days=v["days"] + extra) - self.total(v)

    def refund_for(self, v: dict[str, Any]) -> int:
        """Everything back 7+ days before the start; half inside that."""
        if v["days_to_start"] >= _seed.FULL_REFUND_DAYS:
            return int(v["paid_pence"])
        return int(v["paid_pence"]) // 2

    def insurance_refusal(self, v: dict[str, Any]) -> str | None:
        """Why insurance can't be bought now, or None: only before the hire starts."""
        if v["started"]:
            return (f"breakage and theft insurance can only be bought at booking or before the "
                    f"hire starts, and yours started on {rd.say_day(v['start_day'])}, so I "
                    "can't add it now")  # fmt: skip
        return None

    async def other_booking(self, ref: str, out: list[str]) -> str:
        """Someone else's booking: its details go only to its own lead booker."""
        out.append(f"I'm sorry — a booking's details can only be given to its lead booker, once "
                   f"they've confirmed who they are, so I can't tell you anything about {ref}. "
                   "They are welcome to contact us themselves.")  # fmt: skip
        return "done"

    # -- adding a skier --------------------------------------------------------------------
    def _new_name(self, v: dict[str, Any], req: dict[str, Any]) -> str | None:
        text = self.text(req)
        on_booking = {w.lower() for s in v["skiers"] for w in s["name"].split()}
        said = [n for n in rd.name_candidates(text) if n.lower() not in on_booking]
        if not said and self.s["repeat"][0] == "name":
            words = re.findall(r"[A-Z][a-z]+", req["chunks"][-1])
            said = [w for w in words if w.lower() not in rd.STOP_WORDS]
        if not said:
            return None
        if len(said) >= 2 and text.find(said[-1]) - text.find(said[-2]) < len(said[-2]) + 3:
            return f"{said[-2]} {said[-1]}"
        first = said[0]
        return f"{first} {v['surname']}" if FAMILY.search(text) else first

    async def step_add(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        if v["started"]:
            out.append("I'm sorry — people can only be added before the hire starts. Nothing has "
                       "been changed.")  # fmt: skip
            return "done"
        text = self.text(req)
        name = self._new_name(v, req)
        if name is None:
            return self.ask("name", "Of course. What's the full name of the person joining?", out)
        first = name.split()[0]
        start = date.fromisoformat(v["start_day"])
        born = rd.birth_date(text, self.today)
        child = bool(rd.CHILD_WORDS.search(text))
        if child and born is None:
            return self.ask("date_of_birth", "Children's prices go by their age on the first "
                            f"day of the hire, so what's {first}'s date of birth?",
                            out)  # fmt: skip
        band = self.new_child_band(born, start) if born else "adult"
        if band == "too young":
            out.append(f"I'm sorry — {first} will be under 3 on the first day, and we have no kit "
                       "that small. Nothing has been changed.")  # fmt: skip
            return "done"
        level = rd.level(text) if band == "adult" else "junior"
        if level is None:
            older = f"{first} will be 12 or over on the first day, so takes an adult package. " \
                if born else ""  # fmt: skip
            return self.ask("level", f"{older}Which package for {first}: "
                            f"{levels_price_list()}?", out)  # fmt: skip
        kind = "adult" if band == "adult" else "child"
        helmet = kind == "child" or bool(re.search(r"\bhelmet", text, re.I))
        new = {"kind": kind, "level": level, "helmet": int(helmet), "insured": 0,
               "date_of_birth": born.isoformat() if born else None}  # fmt: skip
        after = [*v["skiers"], new]
        price = self.total(v, after, [*self.bands(v), band if kind == "child" else level])
        price -= self.total(v)
        ages = "3 to 5" if band == "mini" else "6 to 11"
        what = (f"a children's {band} package (ages {ages} on the first day), with a free "
                "helmet" if kind == "child" else
                f"a {level} package" + (" and a helmet" if helmet else ""))  # fmt: skip
        group = (" With five or more of you on the booking, the 10% group discount now applies "
                 "to every package, and that's included." if len(after) >= _seed.GROUP_SIZE
                 and len(v["skiers"]) < _seed.GROUP_SIZE else "")  # fmt: skip
        return self.propose(
            req, out, f"To add {name} to booking {v['booking_ref']} for the whole hire "
            f"({self.span(v)}, {v['days']} days) on {what}: "
            f"{self.money_line(price, v['card_last4'])}.{group} Shall I add {first}?",
            [["add_skier", {"booking_ref": v["booking_ref"], "name": name, "kind": kind,
                            "level": level, "date_of_birth": new["date_of_birth"],
                            "helmet": helmet, "price_pence": price}]],
        )  # fmt: skip

    # -- changing the package level --------------------------------------------------------
    async def step_package(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        if v["started"]:
            out.append(f"I'm sorry — package levels can only be changed before the hire starts, "
                       f"and yours started on {rd.say_day(v['start_day'])}. Nothing has been "
                       "changed.")  # fmt: skip
            return "done"
        text = self.text(req)
        target = rd.level(text)
        if target is None:
            return self.ask("level", f"Which level would you like: {levels_price_list()}?", out)
        adults = [s for s in v["skiers"] if s["kind"] == "adult"]
        who = self.people(v, text, adults) or (adults if len(adults) == 1 else None)
        if who is None:
            every = "both" if len(adults) == 2 else "everyone"
            listed = ", ".join(a["name"] for a in adults)
            return self.ask("who", f"Whose package should change to {target}: {listed}, or "
                            f"{every}?", out)  # fmt: skip
        change = [s for s in who if s["level"] != target]
        if not change:
            out.append(f"{names(who)} {'is' if len(who) == 1 else 'are'} already on {target}, so "
                       "there's nothing to change.")  # fmt: skip
            return "done"
        ids = {s["skier_id"] for s in change}
        after = [dict(s, level=target) if s["skier_id"] in ids else s for s in v["skiers"]]
        diff = self.total(v, after) - self.total(v)
        was = " and ".join(sorted({s["level"] for s in change}))
        return self.propose(
            req, out, f"To change {names(change)} from {was} to {target} for the whole hire "
            f"({self.span(v)}, {v['days']} days): the price difference is "
            f"{self.money_line(diff, v['card_last4'])}. Shall I change it?",
            [["change_package", {"booking_ref": v["booking_ref"],
                                 "skier_ids": [s["skier_id"] for s in change], "level": target,
                                 "difference_pence": diff}]],
        )  # fmt: skip

    # -- adding days -----------------------------------------------------------------------
    async def step_extend(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        if v["ended"]:
            out.append("I'm sorry — that hire has ended. Nothing has been changed.")
            return "done"
        text = self.text(req)
        extra = rd.extra_days(text)
        if extra is None and rd.total_days(text):
            extra = (rd.total_days(text) or 0) - v["days"]
        if extra is None:
            later = [d for d in rd.dates(text, self.today)
                     if d.isoformat() > v["last_day"]]  # fmt: skip
            extra = (later[-1] - date.fromisoformat(v["last_day"])).days if later else None
        if not extra or extra < 1:
            return self.ask("extra_days", f"Your hire runs {self.span(v)}. How many days would "
                            "you like to add?", out)  # fmt: skip
        if v["days"] + extra > _seed.MAX_DAYS:
            out.append(f"I'm sorry — a hire can be at most {_seed.MAX_DAYS} days, and yours is "
                       f"{v['days']}, so you can add up to {_seed.MAX_DAYS - v['days']}. Nothing "
                       "has been changed.")  # fmt: skip
            return "done"
        price = self.extension_price(v, extra)
        plural = "day" if extra == 1 else f"{extra} days"
        return self.propose(
            req, out, f"To add {'a ' if extra == 1 else ''}{plural} to the hire for everyone on "
            f"booking {v['booking_ref']} ({names(v['skiers'])}), so it runs "
            f"{self.span(v, v['days'] + extra)} ({v['days'] + extra} days): "
            f"{self.money_line(price, v['card_last4'])}. Extra days depend on the shop having "
            "your kit free on them; the booking system checks when I add them. Shall I add "
            "them?",
            [["extend_hire", {"booking_ref": v["booking_ref"], "extra_days": extra,
                              "price_pence": price}]],
        )  # fmt: skip

    # -- helmets and insurance -------------------------------------------------------------
    async def step_helmet(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        adults = [s for s in v["skiers"] if s["kind"] == "adult" and not s["helmet"]]
        if not adults:
            out.append("Everyone on your booking already has a helmet — children's helmets are "
                       "free and come with their packages.")  # fmt: skip
            return "done"
        who = self.people(v, text, adults) or adults
        price = _seed.HELMET_DAY * v["days"] * len(who)
        line = (f"adult helmets are {rd.pounds(_seed.HELMET_DAY)} a day each (children's are "
                f"free): for {names(who)} for the {v['days']} days that's {rd.pounds(price)}")
        if rd.PRICE_ONLY.search(text):
            out.append(f"{line[0].upper()}{line[1:]}. I haven't added anything.")
            return "done"
        if v["started"]:
            out.append("I'm sorry — helmets are added before the hire starts; the shop will "
                       "help you on the spot. Nothing has been changed.")  # fmt: skip
            return "done"
        return self.propose(
            req, out, f"To add helmets for the whole hire: {line}, taken from your card ending "
            f"{v['card_last4']}. Shall I add them?",
            [["add_helmets", {"booking_ref": v["booking_ref"],
                              "skier_ids": [s["skier_id"] for s in who], "price_pence": price}]],
        )  # fmt: skip

    async def step_insurance(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        pool = [s for s in v["skiers"] if not s["insured"]]
        if not pool:
            out.append("Everyone on your booking is already insured.")
            return "done"
        who = self.people(v, text, pool) or pool
        price = _seed.INSURANCE_DAY * v["days"] * len(who)
        line = (f"breakage and theft insurance is {rd.pounds(_seed.INSURANCE_DAY)} a person a "
                f"day: for {names(who)} for the {v['days']} days that's {rd.pounds(price)}")
        refusal = self.insurance_refusal(v)
        if refusal:
            out.append(f"I'm sorry — {refusal}. Nothing has been changed.")
            return "done"
        if rd.PRICE_ONLY.search(text):
            out.append(f"The {line}. It can be added any time before the hire starts on "
                       f"{rd.say_day(v['start_day'])}; I haven't added anything.")  # fmt: skip
            return "done"
        return self.propose(
            req, out, f"To add cover for the whole hire: {line}, taken from your card ending "
            f"{v['card_last4']}. Shall I add it?",
            [["add_insurance", {"booking_ref": v["booking_ref"],
                                "skier_ids": [s["skier_id"] for s in who],
                                "price_pence": price}]],
        )  # fmt: skip

    # -- boot fittings ---------------------------------------------------------------------
    async def step_fitting(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        if v["started"]:
            out.append("Fittings are on the first morning of a hire, and yours has started — "
                       "the shop will adjust anything on the spot. Nothing has been changed.")
            return "done"
        text, start = self.text(req), v["start_day"]
        day = rd.say_day(start)
        other_day = [d for d in rd.dates(text, self.today) if d.isoformat() != start]
        note = (f"Fittings are only on the first morning of the hire, {day}. "
                if other_day else "")  # fmt: skip
        slots, error = await self.call("fitting_slots", day=start)
        if error:
            out.append(f"I'm sorry — I can't book a fitting on {day}: {error}.")
            return "done"
        free = [s["time"] for s in slots["slots"] if s["free"] > 0]
        when = rd.clock_time(text)
        if when is None or when not in _seed.FITTING_TIMES:
            return self.ask("fitting_time", f"{note}Fittings are on the first morning, {day}, "
                            f"on the hour and half hour from 08:00 to 11:30. Free times: "
                            f"{', '.join(free)}. What time would you like?", out)  # fmt: skip
        current = v["fitting"]
        if current and current["time"] == when and current["day"] == start:
            out.append(f"Your fitting is already at {when} on {day}.")
            return "done"
        if when not in free:
            if rd.LEAVE_IF_FULL.search(" ".join(self.s["said"])):
                out.append(f"I'm sorry — the {when} fitting slot on {day} is full, so as you "
                           f"asked I've left it: nothing has been booked. Free times that "
                           f"morning: {', '.join(free)}.")  # fmt: skip
                return "done"
            return self.ask("fitting_time", f"I'm sorry — the {when} fitting slot on {day} is "
                            f"full. Free times that morning: {', '.join(free)}. Would you like "
                            "one of those?", out)  # fmt: skip
        if current:
            text_ = (f"{note}To move your boot fitting from {current['time']} to {when} on "
                     f"{day}. There's no charge. Shall I move it?")  # fmt: skip
        else:
            text_ = (f"{note}To book your boot fitting at {when} on {day}, the first morning of "
                     "your hire, for everyone on the booking. There's no charge. Shall I book "
                     "it?")  # fmt: skip
        return self.propose(
            req, out, text_,
            [["book_fitting", {"booking_ref": v["booking_ref"], "day": start, "time": when}]],
            moving=bool(current),
        )  # fmt: skip

    # -- cancelling ------------------------------------------------------------------------
    async def step_cancel(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        if v["started"]:
            out.append("I'm sorry — a hire can't be cancelled once it has started. Nothing has "
                       "been changed.")  # fmt: skip
            return "done"
        refund = self.refund_for(v)
        paid = rd.pounds(v["paid_pence"])
        if refund >= v["paid_pence"]:
            what = (f"as it's 7 or more days before the start, everything you paid, {paid}, is "
                    f"refunded to your card ending {v['card_last4']}")  # fmt: skip
        else:
            what = (f"as it's less than 7 days before the start, half of the {paid} you paid is "
                    f"refunded: {rd.pounds(refund)} to your card ending {v['card_last4']}")
        return self.propose(
            req, out, f"To cancel booking {v['booking_ref']} ({names(v['skiers'])}, "
            f"{self.span(v)}): {what}. Shall I cancel it?",
            [["cancel_booking", {"booking_ref": v["booking_ref"], "refund_pence": refund}]],
        )  # fmt: skip

    # -- look-ups --------------------------------------------------------------------------
    def summary(self, v: dict[str, Any]) -> str:
        people = ", ".join(
            f"{s['name']} ({KIDS if s['kind'] == 'child' else s['level']})" for s in v["skiers"]
        )
        fit = v["fitting"]
        fitting = (f"the boot fitting is at {fit['time']} on {rd.say_day(fit['day'])}" if fit
                   else "no boot fitting is booked yet")  # fmt: skip
        helmets = [s for s in v["skiers"] if s["helmet"]]
        insured = [s for s in v["skiers"] if s["insured"]]
        return (f"Booking {v['booking_ref']}: {people}, {v['days']} days, {self.span(v)}; "
                f"{fitting}; helmets: {names(helmets) if helmets else 'none'}; breakage and "
                f"theft insurance: {names(insured) if insured else 'none'}; "
                f"{rd.pounds(v['paid_pence'])} paid.")  # fmt: skip

    async def step_lookup(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        others = [r for r in rd.refs(self.text(req)) if r != v["booking_ref"]]
        if others:
            return await self.other_booking(others[0], out)
        out.append(self.summary(v))
        return "done"

    # -- reporting -------------------------------------------------------------------------
    def report(self, intent: str, r: dict[str, Any]) -> str:
        """What the system returned, in the customer's words."""
        card = f"your card ending {r.get('card_last4', '')}"
        if intent == "add":
            kit = ("a children's package with a free helmet" if r["level"] == "junior" else
                   r["level"] + (" with a helmet" if r["helmet"] else ""))  # fmt: skip
            return (f"Done — {r['name']} is on booking {r['booking_ref']} ({kit}); "
                    f"{r['charged']} taken from {card}.")  # fmt: skip
        if intent == "package":
            money = (f"{r['refunded']} refunded to {card}" if "refunded" in r
                     else f"{r['charged']} taken from {card}")  # fmt: skip
            return f"Done — {' and '.join(r['skiers'])} now on {r['level']}; {money}."
        if intent == "extend":
            return (f"Done — the hire on {r['booking_ref']} is now {r['days']} days, to "
                    f"{rd.say_day(r['last_day'])}; {r['charged']} taken from {card}.")
        if intent in {"helmet", "insurance"}:
            what = "helmets" if intent == "helmet" else "breakage and theft insurance"
            return (f"Done — {what} added for {' and '.join(r['skiers'])}; {r['charged']} taken "
                    f"from {card}.")  # fmt: skip
        if intent == "fitting":
            was = f" (it was at {r['was']['time']})" if r.get("was") else ""
            return (f"Done — your boot fitting is booked for {r['time']} on "
                    f"{rd.say_day(r['day'])}{was}.")  # fmt: skip
        return (f"Done — booking {r['booking_ref']} is cancelled; {r['refunded']} refunded to "
                f"{card}.")  # fmt: skip

    async def failed(self, req: dict[str, Any], pending: dict[str, Any], error: str,
                     out: list[str]) -> None:  # fmt: skip
        """Hook: the system refused; say so, and that nothing changed."""
        out.append(f"I'm sorry — the system refused that: {error}. Nothing has been changed.")
