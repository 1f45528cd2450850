"""The desk's flows: book, free times, move, cancel, players, add-ons, look-ups, vouchers."""

from __future__ import annotations

import re
from datetime import date, datetime
from typing import Any

from benchmarks.domains.escaperoom import _read as rd
from benchmarks.domains.escaperoom import _seed

CASH_WORDS = re.compile(r"\bcash\b|\bmoney back\b|\brefund|\bpay (?:it )?out\b|\bexchange\b|"
                        r"\bback (?:to|on) my card\b", re.I)  # fmt: skip


def arrive_by(time: str) -> str:
    hour, minute = (int(x) for x in time.split(":"))
    early = hour * 60 + minute - _seed.ARRIVE_EARLY_MINUTES
    return f"{early // 60:02d}:{early % 60:02d}"


def card(last4: str) -> str:
    """The card a booking was paid with: by its last four digits when the system has them."""
    return f"your card ending {last4}" if last4 else "the card you paid with"


def say_list(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


class Flows:
    """The flows; `CorrectEscapeRoomAgent` supplies the state, the calls and the questions."""

    s: dict[str, Any]
    today: date
    now: datetime
    call: Any
    ask: Any
    propose: Any

    async def refresh(self) -> dict[str, Any]:
        view, error = await self.call("list_bookings", email=self.s["who"]["email"])
        if not error:
            self.s["view"] = view
        elif self.s["view"]:
            self.s["view"] = {**self.s["view"], "bookings": []}
        return dict(self.s["view"])

    @staticmethod
    def text(req: dict[str, Any]) -> str:
        return " ".join(req["chunks"])

    def hours_to(self, b: dict[str, Any]) -> float:
        return _seed.hours_before(b["day"], b["time"], self.now)

    def say_booking(self, b: dict[str, Any]) -> str:
        return (f"{b['reference']} ({b['room']}, {rd.say_day(b['day'])} at {b['time']}, "
                f"{b['players']} players)")  # fmt: skip

    async def rooms(self) -> list[dict[str, Any]]:
        if not self.s.get("rooms"):
            result, error = await self.call("list_rooms")
            self.s["rooms"] = [] if error else result
        return list(self.s["rooms"])

    def free_only(self, req: dict[str, Any], fee: int, what: str, out: list[str]) -> bool:
        """The goal said to go ahead only if free: a fee ends the request, nothing changed."""
        if fee and rd.FREE_ONLY.search(" ".join([self.text(req), *self.s["said"]])):
            out.append(f"{what} would cost {rd.pounds(fee)}, and you asked me to leave it if "
                       "there was a charge, so I haven't changed anything.")  # fmt: skip
            return True
        return False

    def booking_for(self, req: dict[str, Any], v: dict[str, Any], out: list[str]) -> Any:
        """The booking meant (by reference, day or room, or the only one), or a status."""
        text = self.text(req)
        mine = {b["reference"]: b for b in v["bookings"]}
        named = rd.refs(text)
        # the reference given to prove who they are is not the one meant when another is named
        meant = [r for r in named if r != self.s["who"]["reference"]] or named
        foreign = [r for r in meant if r not in mine]
        if foreign:
            self.not_theirs(foreign[0], out)
            return "done"
        if meant:
            return mine[meant[0]]
        days = {d.isoformat() for d in rd.dates(text, self.today, all_said=True)}
        found = [b for b in v["bookings"] if b["day"] in days]
        room = rd.room(text)
        if len(found) != 1 and room:
            found = [b for b in found or v["bookings"] if b["room_id"] == room]
        if not found and len(v["bookings"]) == 1:
            found = v["bookings"]
        if len(found) == 1:
            return found[0]
        if not v["bookings"]:
            out.append("I can't find a confirmed booking for you.")
            return "done"
        listed = say_list([self.say_booking(b) for b in v["bookings"]])
        return self.ask("booking", f"Which booking is it: {listed}?", out)

    def not_theirs(self, ref: str, out: list[str]) -> None:
        out.append(f"I'm sorry — I can only discuss or change a booking with its lead booker, so "
                   f"I can't share anything about {ref} here. Its lead booker can contact us "
                   "directly.")  # fmt: skip

    def started(self, b: dict[str, Any], out: list[str]) -> bool:
        if self.hours_to(b) > 0:
            return False
        out.append(f"I'm sorry — the game of {b['reference']} started at {b['time']} on "
                   f"{rd.say_day(b['day'])}. Once a game has started it can't be moved, changed, "
                   "cancelled, refunded or credited. Nothing has been changed.")  # fmt: skip
        return True

    # -- policy hooks (the flawed agent overrides some) -------------------------------------
    def off_peak(self, day: str, time: str) -> bool:
        """Monday to Friday, games starting before 17:00, and not a bank holiday."""
        d = date.fromisoformat(day)
        return d.weekday() < 5 and d not in _seed.BANK_HOLIDAYS and time < _seed.OFF_PEAK_UNTIL

    def rate(self, day: str, time: str) -> int:
        return _seed.OFF_PEAK_PENCE if self.off_peak(day, time) else _seed.PEAK_PENCE

    def change_rate(self, b: dict[str, Any]) -> int:
        """Players added or taken off are priced at the booking's own rate."""
        return self.rate(b["day"], b["time"])

    def team_problem(self, players: int, under_16: int, adult: bool) -> str | None:
        if under_16 and not adult:
            return ("under-16s can only play with an adult (18 or over) in the team, and you've "
                    "told me no adult will be playing")  # fmt: skip
        return None

    def cancel_terms(self, b: dict[str, Any]) -> dict[str, Any]:
        """What a cancellation gives back: a refund and a voucher restored, or a credit note.

        72+ hours before the start: card payments back to the card and a voucher's part back on
        the voucher; inside 72 hours: everything paid, the voucher's part too, as a credit note.
        """
        paid = b["card_pence"] + sum(e["price_pence"] for e in b["extras"])
        if self.hours_to(b) >= _seed.REFUND_HOURS:
            return {"refund_pence": paid, "credit_note_pence": 0,
                    "voucher_back": bool(b["voucher_pence"])}  # fmt: skip
        return {"refund_pence": 0, "credit_note_pence": paid + b["voucher_pence"],
                "voucher_back": False}  # fmt: skip

    async def other_booking(self, ref: str, out: list[str]) -> None:
        """Someone else's booking is never read out, whatever the caller knows about it."""
        self.not_theirs(ref, out)

    # -- booking a game --------------------------------------------------------------------
    async def step_book(self, req: dict[str, Any], out: list[str]) -> str:
        text, said = self.text(req), req["answers"]
        room_id = rd.room(text)
        rooms = {r["room_id"]: r for r in await self.rooms()}
        if room_id not in rooms:
            listed = say_list([f"{r['name']} ({r['min_players']}–{r['max_players']} players)"
                               for r in rooms.values()])  # fmt: skip
            return self.ask("room", f"Which room would you like: {listed}?", out)
        room = rooms[room_id]
        days = [d for d in rd.dates(text, self.today) if d >= self.today]
        if not days:
            return self.ask("date", "Which day would you like to play?", out)
        day, time = days[-1].isoformat(), rd.clock_time(text)
        if time is None or time not in _seed.SLOTS:
            return self.ask("time", "And what time? Games start on the hour, from 10:00 to "
                            "21:00.", out)  # fmt: skip
        if req.get("slot") != [room_id, day, time]:
            status = await self.slot_free(room, day, time, out)
            if status:
                return status
            req["slot"] = [room_id, day, time]
        players = rd.players(said.get("players", ""), answer=True) or rd.players(text)
        if players is None:
            return self.ask("players", f"How many players will there be? {room['name']} takes "
                            f"{room['min_players']} to {room['max_players']}.", out)  # fmt: skip
        if not room["min_players"] <= players <= room["max_players"]:
            out.append(f"I'm sorry — {room['name']} takes {room['min_players']} to "
                       f"{room['max_players']} players, so I can't book it for {players}. "
                       "Nothing has been booked.")  # fmt: skip
            return "done"
        under, adult = rd.team(said["ages"], players, answer=True) if "ages" in said else (
            rd.team(text, players))  # fmt: skip
        if under is None or (under and adult is None):
            return self.ask("ages", "Will anyone in the team be under 16? If so, how many — and "
                            "will an adult (18 or over) be playing with them?", out)  # fmt: skip
        why = self.team_problem(players, under, bool(adult))
        if why:
            out.append(f"I'm sorry — {why}. I haven't booked anything; with an adult playing in "
                       "the team we'd be glad to take the booking.")  # fmt: skip
            return "done"
        name = rd.full_name(said.get("full_name", ""), answer=True) or rd.full_name(text)
        if name is None:
            return self.ask("full_name", "What's the lead booker's full name?", out)
        emails = rd.emails(text)
        if not emails:
            return self.ask("email", "And the lead booker's email address? The confirmation "
                            "goes there.", out)  # fmt: skip
        return await self.propose_booking(req, out, room, day, time, players, under, bool(adult),
                                          name, emails[-1])  # fmt: skip

    async def slot_free(self, room: dict[str, Any], day: str, time: str, out: list[str]) -> str:
        """'' when the slot is free; otherwise say why, with the free times that day."""
        result, error = await self.call("find_slots", room_id=room["room_id"], day=day)
        if error:
            return self.ask("date", f"I'm sorry — {error}. Which day would you like?", out)
        if result["closed"]:
            return self.ask("date", f"I'm sorry — {result['closed'].split(' on ')[0]} on "
                            f"{rd.say_day(day)}. Which other day would suit?", out)  # fmt: skip
        if time in result["free"]:
            return ""
        other = (f"Free start times that day: {say_list(result['free'])}. Would one of those "
                 "suit?" if result["free"] else "It's fully booked that day. Which other day "
                 "would suit?")  # fmt: skip
        return self.ask("other_time", f"I'm sorry — {room['name']} isn't free at {time} on "
                        f"{rd.say_day(day)}. {other}", out)  # fmt: skip

    async def propose_booking(self, req: dict[str, Any], out: list[str], room: dict[str, Any],
                              day: str, time: str, players: int, under: int, adult: bool,
                              name: str, email: str) -> str:  # fmt: skip
        rate = self.rate(day, time)
        price = rate * players
        band = "off-peak" if rate == _seed.OFF_PEAK_PENCE else "peak"
        pay, code = "paid in full now by card", None
        for said_code in rd.vouchers(self.text(req))[-1:]:
            v, error = await self.call("check_voucher", code=said_code)
            if error:
                out.append(f"I can't find a gift voucher {said_code}, so I've left it off.")
            elif v["status"] != "unused":
                out.append(f"Gift voucher {v['code']} has already been redeemed, so it can't be "
                           "used again.")  # fmt: skip
            elif v["expires"] < self.today.isoformat():
                out.append(f"Gift voucher {v['code']} expired on {rd.say_day(v['expires'])} "
                           f"{v['expires'][:4]}, so it can't be used.")  # fmt: skip
            else:
                code, used = v["code"], min(v["value_pence"], price)
                lost = v["value_pence"] - used
                pay = f"gift voucher {code} pays all of it, so nothing is paid by card"
                if used < price:
                    pay = (f"gift voucher {code} pays {rd.pounds(used)} of it and the remaining "
                           f"{rd.pounds(price - used)} is paid by card now")  # fmt: skip
                if lost:
                    pay += (f". A voucher is used once: the {rd.pounds(lost)} left on it isn't "
                            "kept or paid out")  # fmt: skip
        kids = (f" {under} of the players are under 16, with an adult playing." if under
                else "")  # fmt: skip
        return self.propose(
            req, out,
            f"To book {room['name']} on {rd.say_day(day)} at {time} for {players} players "
            f"({band}: {rd.pounds(rate)} a player): {rd.pounds(price)} in all, {pay}.{kids} "
            f"Lead booker: {name} ({email}). Please arrive 15 minutes early for the briefing. "
            "Shall I book it?",
            [("create_booking", {"room_id": room["room_id"], "day": day, "time": time,
                                 "players": players, "under_16": under, "adult_playing": adult,
                                 "lead_name": name, "email": email, "price_pence": price,
                                 "voucher_code": code})],
        )  # fmt: skip

    async def step_slots(self, req: dict[str, Any], out: list[str]) -> str:
        text = self.text(req)
        room_id = rd.room(text)
        rooms = {r["room_id"]: r for r in await self.rooms()}
        if room_id not in rooms:
            listed = say_list([r["name"] for r in rooms.values()])
            return self.ask("room", f"Which room: {listed}?", out)
        days = [d for d in rd.dates(text, self.today) if d >= self.today]
        if not days:
            return self.ask("date", "Which day would you like to play?", out)
        day = days[-1].isoformat()
        result, error = await self.call("find_slots", room_id=room_id, day=day)
        name = rooms[room_id]["name"]
        if error:
            out.append(f"I'm sorry — {error}.")
        elif result["closed"]:
            out.append(f"{result['closed'].split(' on ')[0]} on {rd.say_day(day)}.")
        elif not result["free"]:
            out.append(f"{name} is fully booked on {rd.say_day(day)}.")
        else:
            bands = []
            for band, price in (("off-peak", _seed.OFF_PEAK_PENCE), ("peak", _seed.PEAK_PENCE)):
                times = [t for t in result["free"] if self.rate(day, t) == price]
                if times:
                    bands.append(f"{say_list(times)} ({band}, {rd.pounds(price)} a player)")
            out.append(f"Free start times in {name} on {rd.say_day(day)}: "
                       f"{'; '.join(bands)}. Nothing is held until you book.")  # fmt: skip
        return "done"

    # -- moving and cancelling -------------------------------------------------------------
    async def step_move(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        b = self.booking_for(req, v, out)
        if isinstance(b, str):
            return b
        if self.started(b, out):
            return "done"
        text = self.text(req)
        days = [d.isoformat() for d in rd.dates(text, self.today) if d >= self.today]
        days = [d for d in days if d != b["day"]]
        day, time = (days[-1] if days else b["day"]), rd.clock_time(text) or b["time"]
        if (day, time) == (b["day"], b["time"]) or time not in _seed.SLOTS:
            return self.ask("new_slot", "Which day and time would you like instead? Games start "
                            "on the hour, from 10:00 to 21:00.", out)  # fmt: skip
        if self.off_peak(day, time) != self.off_peak(b["day"], b["time"]):
            band = "an off-peak" if self.off_peak(b["day"], b["time"]) else "a peak"
            out.append(f"I'm sorry — a move keeps the price you paid, so {b['reference']} can "
                       f"only move to {band} slot, and {rd.say_day(day)} at {time} isn't one. "
                       "Nothing has been changed.")  # fmt: skip
            return "done"
        status = await self.slot_free({"room_id": b["room_id"], "name": b["room"]}, day, time,
                                      out)  # fmt: skip
        if status:
            return status
        fee = _seed.MOVE_FEE_PENCE if self.hours_to(b) < _seed.FREE_MOVE_HOURS else 0
        if self.free_only(req, fee, "Moving it less than 48 hours before the start", out):
            return "done"
        charge = (f"It's less than 48 hours before the start, so there's a {rd.pounds(fee)} "
                  f"move fee, taken from {card(b['card_last4'])}." if fee else
                  "There's no charge, as it's 48 hours or more before the start.")  # fmt: skip
        return self.propose(
            req, out, f"To move {self.say_booking(b)} to {rd.say_day(day)} at {time}, same "
            f"room and price. {charge} Shall I move it?",
            [("move_booking", {"reference": b["reference"], "day": day, "time": time,
                               "fee_pence": fee})],
        )  # fmt: skip

    async def step_cancel(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        b = self.booking_for(req, v, out)
        if isinstance(b, str):
            return b
        if self.started(b, out):
            return "done"
        terms = self.cancel_terms(b)
        parts = []
        if terms["refund_pence"]:
            parts.append(f"{rd.pounds(terms['refund_pence'])} is refunded to "
                         f"{card(b['card_last4'])}")  # fmt: skip
        if terms["voucher_back"]:
            parts.append(f"the {rd.pounds(b['voucher_pence'])} paid with gift voucher "
                         f"{b['voucher_code']} goes back onto the voucher (vouchers are never "
                         "paid out in cash)")  # fmt: skip
        if terms["credit_note_pence"]:
            parts.append(f"you get a credit note for {rd.pounds(terms['credit_note_pence'])}, "
                         "valid for 12 months, for a future game; nothing goes back to your "
                         "card")  # fmt: skip
        why = ("as it's 72 hours or more before the start" if self.hours_to(b) >=
               _seed.REFUND_HOURS else "as it's less than 72 hours before the start")  # fmt: skip
        return self.propose(
            req, out, f"To cancel {self.say_booking(b)}: {why}, {say_list(parts)}. Shall I "
            "cancel it?",
            [("cancel_booking", {"reference": b["reference"], **terms})],
        )  # fmt: skip

    # -- players and add-ons ---------------------------------------------------------------
    async def step_players(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        b = self.booking_for(req, v, out)
        if isinstance(b, str):
            return b
        if self.started(b, out):
            return "done"
        said = req["answers"].get("players", "")
        players = rd.players(said, answer=True) or rd.players(self.text(req), b["players"])
        if players is None or players == b["players"]:
            return self.ask("players", f"How many players will there be in total? It's booked "
                            f"for {b['players']} now.", out)  # fmt: skip
        if not b["min_players"] <= players <= b["max_players"]:
            out.append(f"I'm sorry — {b['room']} takes {b['min_players']} to "
                       f"{b['max_players']} players, so I can't make {b['reference']} "
                       f"{players} players. Nothing has been changed.")  # fmt: skip
            return "done"
        if players < b["under_16"] + (1 if b["under_16"] else 0):
            out.append("I'm sorry — the team must still have its under-16s and an adult. "
                       "Nothing has been changed.")  # fmt: skip
            return "done"
        rate = self.change_rate(b)
        diff = (players - b["players"]) * rate
        money = {"charge_pence": 0, "refund_pence": 0, "credit_note_pence": 0}
        per = f"{abs(players - b['players'])} × {rd.pounds(rate)}"
        if diff > 0:
            money["charge_pence"] = diff
            what = (f"the difference, {rd.pounds(diff)} ({per}), is taken from "
                    f"{card(b['card_last4'])}")  # fmt: skip
        elif self.hours_to(b) >= _seed.REFUND_HOURS:
            money["refund_pence"] = -diff
            what = (f"the difference, {rd.pounds(-diff)} ({per}), is refunded to "
                    f"{card(b['card_last4'])}, as it's 72 hours or more before the "
                    "start")  # fmt: skip
        else:
            money["credit_note_pence"] = -diff
            what = (f"the difference, {rd.pounds(-diff)} ({per}), comes as a credit note valid "
                    "for 12 months, as it's less than 72 hours before the start")  # fmt: skip
        price = b["price_pence"] + diff
        return self.propose(
            req, out, f"To change {self.say_booking(b)} to {players} players: the game becomes "
            f"{rd.pounds(price)}, and {what}. Shall I change it?",
            [("change_players", {"reference": b["reference"], "players": players,
                                 "price_pence": price, **money})],
            {"old_players": b["players"], "card_last4": b["card_last4"]},
        )  # fmt: skip

    async def step_extra(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        b = self.booking_for(req, v, out)
        if isinstance(b, str):
            return b
        if self.started(b, out):
            return "done"
        kind = rd.addon(self.text(req))
        if kind is None:
            return self.ask("addon", "Which add-on would you like: the photo pack (£12.00) or the "
                            "birthday package (£25.00)?", out)  # fmt: skip
        name = _seed.ADDON_NAMES[kind]
        if self.hours_to(b) < _seed.ADDON_HOURS:
            out.append(f"I'm sorry — add-ons can only be added until 24 hours before the start, "
                       f"and {b['reference']} starts at {b['time']} on {rd.say_day(b['day'])}. "
                       "Nothing has been changed.")  # fmt: skip
            return "done"
        if any(e["kind"] == kind for e in b["extras"]):
            out.append(f"{name.capitalize()} is already on {b['reference']}.")
            return "done"
        price = _seed.ADDONS[kind]
        if self.free_only(req, price, name.capitalize(), out):
            return "done"
        what = ("(a cake, decorations and our party room for 30 minutes after the game; the "
                "system checks the party room is free then)" if kind == "birthday" else
                "(the team photos from your game, emailed the same day)")  # fmt: skip
        return self.propose(
            req, out, f"To add {name} {what} to {self.say_booking(b)}: {rd.pounds(price)}, "
            f"taken from {card(b['card_last4'])}. Shall I add it?",
            [("add_extra", {"reference": b["reference"], "kind": kind, "price_pence": price})],
        )  # fmt: skip

    # -- look-ups and vouchers -------------------------------------------------------------
    async def step_lookup(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        mine = {b["reference"] for b in v["bookings"]}
        foreign = [r for r in rd.refs(text) if r not in mine and r != self.s["who"]["reference"]]
        for ref in foreign:
            await self.other_booking(ref, out)
        if foreign:
            return "done"
        b = self.booking_for(req, v, out)
        if isinstance(b, str):
            return b
        found, error = await self.call("get_booking", reference=b["reference"])
        out.append(self.details(found if not error else b))
        return "done"

    def details(self, b: dict[str, Any]) -> str:
        extras = [_seed.ADDON_NAMES[e["kind"]] for e in b["extras"]]
        paid = (f"{rd.pounds(b['price_pence'])} for the game, paid"
                + (f" ({rd.pounds(b['voucher_pence'])} by gift voucher)" if b["voucher_pence"]
                   else ""))  # fmt: skip
        cost = rd.pounds(sum(e["price_pence"] for e in b["extras"]))
        add = f"; add-ons: {say_list(extras)} ({cost})" if extras else ""
        return (f"{b['reference']}: {b['room']}, {rd.say_day(b['day'])} at {b['time']}, booked "
                f"for {b['players']} players. Please arrive by {arrive_by(b['time'])} for the "
                f"briefing. {paid}{add}.")  # fmt: skip

    async def step_voucher(self, req: dict[str, Any], out: list[str]) -> str:
        text = self.text(req)
        codes = rd.vouchers(text)
        if not codes:
            return self.ask("code", "What's the gift voucher's code? It starts GV.", out)
        v, error = await self.call("check_voucher", code=codes[-1])
        if error:
            out.append(f"I can't find a gift voucher {codes[-1]}.")
            return "done"
        state = (f"has {v['value']} on it and is valid until {rd.say_day(v['expires'])} "
                 f"{v['expires'][:4]}" if v["status"] == "unused" else
                 f"was worth {v['value']} and has already been redeemed")  # fmt: skip
        if v["status"] == "unused" and v["expires"] < self.today.isoformat():
            state = f"was worth {v['value']} and expired on {rd.say_day(v['expires'])}"
        cash = (" Gift vouchers can't be exchanged for cash or refunded; they're redeemed once, "
                "against a booking." if CASH_WORDS.search(text) else "")  # fmt: skip
        out.append(f"Gift voucher {v['code']} {state}.{cash}")
        return "done"

    # -- reporting -------------------------------------------------------------------------
    def report(self, intent: str, r: dict[str, Any]) -> str:
        """What the system returned, in the customer's words."""
        if intent == "book":
            gv = f"{r['card_paid']} paid by card"
            if r["voucher_used"] != "£0.00":
                by_card = f" and {r['card_paid']} by card" if r["card_paid"] != "£0.00" else ""
                gv = f"{r['voucher_used']} paid by gift voucher{by_card}"
            return (f"Done — booking {r['reference']} is confirmed: {r['room']}, "
                    f"{rd.say_day(r['day'])} at {r['time']}, {r['players']} players, "
                    f"{r['price']} ({gv}). Please arrive 15 minutes early; the confirmation is "
                    f"on its way to {r['email']}.")  # fmt: skip
        if intent == "move":
            fee = (f"; the {r['fee']} move fee was taken from {card(r['card_last4'])}"
                   if r["fee"] != "£0.00" else "")  # fmt: skip
            return (f"Done — {r['reference']} is now on {rd.say_day(r['day'])} at "
                    f"{r['time']}{fee}.")  # fmt: skip
        money = []
        if r.get("charged", "£0.00") != "£0.00":
            money.append(f"{r['charged']} taken from {card(r['card_last4'])}")
        if r.get("refunded", "£0.00") != "£0.00":
            money.append(f"{r['refunded']} refunded to {card(r['card_last4'])}")
        if r.get("credit_note"):
            money.append(f"credit note {r['credit_note']} for {r['credit_note_value']}, valid for "
                         "12 months")  # fmt: skip
        if r.get("voucher_back"):
            money.append(f"{r['voucher_value']} back on gift voucher {r['voucher_back']}")
        paid = f"; {say_list(money)}" if money else ""
        if intent == "cancel":
            return f"Done — {r['reference']} is cancelled{paid}."
        if intent == "players":
            return (f"Done — {r['reference']} is now for {r['players']} players "
                    f"({r['price']}){paid}.")  # fmt: skip
        return (f"Done — {_seed.ADDON_NAMES[r['kind']]} is added to {r['reference']} "
                f"({r['price']}, taken from {card(r['card_last4'])}).")  # fmt: skip

    async def failed(self, req: dict[str, Any], pending: dict[str, Any], error: str,
                     out: list[str]) -> None:  # fmt: skip
        """Hook: the system refused; say so, and that nothing changed."""
        out.append(f"I'm sorry — the system refused that: {error}. Nothing has been changed.")
