"""The removals company's booking system the desk's agent works through: `RemovalsEnvironment`."""

from __future__ import annotations

import re
from datetime import date, datetime
from typing import Any, ClassVar

from pydantic import BaseModel, Field

from benchmarks.domains.removals import _seed
from vistasim.env import SqliteEnvironment, ToolFailure, tool


def money(pence: int) -> str:
    return f"{'-' if pence < 0 else ''}£{abs(pence) / 100:,.2f}"


def norm_ref(text: str) -> str:
    return f"PK{re.sub(r'[^0-9]', '', text)}"


def norm_postcode(text: str) -> str:
    squashed = re.sub(r"\s+", "", text).upper()
    return f"{squashed[:-3]} {squashed[-3:]}" if len(squashed) >= 5 else squashed


def van_for(volume: int) -> str | None:
    """The smallest van that holds `volume` cubic metres; None when none does."""
    return next((v for v in _seed.VAN_ORDER if _seed.VANS[v] >= volume), None)


class Ref(BaseModel):
    move_ref: str = Field(description="The move reference, e.g. PK40112")


class Verify(Ref):
    postcode: str = Field(description="The postcode of the address the customer moves FROM")


class ChangeDate(Ref):
    new_date: str = Field(description="YYYY-MM-DD")
    fee_pence: int = Field(description="The date-change fee the policy sets: 0 or 6000")


class Cancel(Ref):
    refund_deposit: bool = Field(description="True when the deposit goes back (14+ days ahead)")


class Packing(Ref):
    rooms: int = Field(description="Rooms to pack, 1 or more")


class Items(Ref):
    volume_change_m3: int = Field(description="Cubic metres added (positive) or removed (negative)")


class Storage(Ref):
    weeks: int = Field(description="Weeks of storage between collection and delivery")


class Claim(Ref):
    item: str = Field(description="The damaged item")
    value_pence: int = Field(description="The item's value in pence")


class Access(Ref):
    floors: int = Field(description="Floors of stairs without a lift (0 if none)")
    note: str = Field(description="Access note for the crew, e.g. parking permit")


class Contact(Ref):
    phone: str = Field(default="", description="New phone number, or empty")
    email: str = Field(default="", description="New email address, or empty")


class RemovalsEnvironment(SqliteEnvironment):
    """Packhorse Removals: moves, full days, damage claims and payments."""

    SCHEMA_SQL: ClassVar[str] = _seed.SCHEMA_SQL
    LEXICON: ClassVar[dict[str, list[str]]] = {
        "move_ref": ["move reference", "booking reference", "reference"],
        "postcode": ["postcode", "moving from"],
        "new_date": ["which date", "what date", "new date", "which day"],
        "other_date": ["another date", "other date"],
        "rooms": ["how many rooms"],
        "volume": ["cubic metres", "how much", "volume"],
        "weeks": ["how many weeks"],
        "item": ["which item", "what was damaged"],
        "value": ["worth", "value"],
        "floors": ["how many floors", "floors", "stairs"],
        "contact": ["phone number or email", "new phone", "new email"],
    }

    def seed(self, db: Any) -> None:
        _seed.seed(db)

    def now(self) -> datetime:
        """The desk's clock: fixed, so every episode sees the same day."""
        return _seed.NOW

    # -- helpers ---------------------------------------------------------------------------
    def _stamp(self) -> str:
        return self.now().strftime(_seed.STAMP)

    def _move(self, ref: str, *, booked: bool = True) -> dict[str, Any]:
        row = self.db.execute("SELECT * FROM moves WHERE move_ref = ?", (norm_ref(ref),))
        found = row.fetchone()
        if found is None:
            raise ToolFailure(f"no move {ref}")
        if booked and found["status"] != "booked":
            raise ToolFailure(f"move {found['move_ref']} is {found['status']}")
        return dict(found)

    def _days(self, mv: dict[str, Any]) -> int:
        return (date.fromisoformat(mv["move_date"]) - self.now().date()).days

    def _pay(self, mv: dict[str, Any], kind: str, pence: int) -> None:
        self.db.execute(
            "INSERT INTO payments (move_ref, kind, amount_pence, card_last4, created_at) "
            "VALUES (?,?,?,?,?)",
            (mv["move_ref"], kind, pence, mv["card_last4"], self._stamp()),
        )

    def _add_price(self, mv: dict[str, Any], pence: int, **cols: Any) -> dict[str, Any]:
        sets = "".join(f", {k} = ?" for k in cols)
        self.db.execute(
            f"UPDATE moves SET price_pence = price_pence + ?{sets} WHERE move_ref = ?",  # noqa: S608
            (pence, *cols.values(), mv["move_ref"]),
        )
        return self.view(mv["move_ref"])

    def view(self, ref: str) -> dict[str, Any]:
        mv = self._move(ref, booked=False)
        mv["days_to_move"] = self._days(mv)
        mv["price"] = money(mv["price_pence"])
        mv["deposit"] = money(mv["deposit_pence"])
        mv["van_holds_m3"] = _seed.VANS[mv["van"]]
        mv["extended_cover"] = bool(mv["extended_cover"])
        return mv

    # -- reading ---------------------------------------------------------------------------
    @tool(
        "Check the caller's identity: the move reference and the postcode of the address the "
        "customer moves FROM must match. Returns the move."
    )
    def verify_customer(self, args: Verify) -> dict[str, Any]:
        mv = self.db.execute(
            "SELECT move_ref, from_postcode FROM moves WHERE move_ref = ?",
            (norm_ref(args.move_ref),),
        ).fetchone()
        if mv is None or mv["from_postcode"] != norm_postcode(args.postcode):
            raise ToolFailure("verification failed: no move matches that reference and postcode")
        return self.view(mv["move_ref"])

    @tool("Read a move by reference alone (staff view). Only for a verified customer.")
    def get_move(self, args: Ref) -> dict[str, Any]:
        return self.view(args.move_ref)

    # -- changes ---------------------------------------------------------------------------
    @tool(
        "Move a booked removal to another date. Refused fewer than 3 days before the move, for "
        "a new date fewer than 3 days away, or a day with no crew free. The fee is charged."
    )
    def change_date(self, args: ChangeDate) -> dict[str, Any]:
        mv = self._move(args.move_ref)
        if self._days(mv) < _seed.NO_CHANGE_DAYS:
            raise ToolFailure("the move is fewer than 3 days away: the date can no longer change")
        try:
            new = date.fromisoformat(args.new_date.strip())
        except ValueError as exc:
            raise ToolFailure(f"{args.new_date!r} is not a date (YYYY-MM-DD)") from exc
        if (new - self.now().date()).days < _seed.NO_CHANGE_DAYS:
            raise ToolFailure("the new date must be at least 3 days from today")
        if new.weekday() == 6:
            raise ToolFailure("we do not move on Sundays")
        full = self.db.execute("SELECT 1 FROM full_days WHERE day = ?", (new.isoformat(),))
        if full.fetchone():
            raise ToolFailure(f"no crew is free on {new.isoformat()}: that day is fully booked")
        self.db.execute(
            "UPDATE moves SET move_date = ? WHERE move_ref = ?", (new.isoformat(), mv["move_ref"])
        )
        if args.fee_pence:
            self._pay(mv, "date_fee", args.fee_pence)
        return {**self.view(mv["move_ref"]), "fee_charged": money(args.fee_pence)}

    @tool("Cancel a booked move; the deposit is refunded to the card only if refund_deposit.")
    def cancel_move(self, args: Cancel) -> dict[str, Any]:
        mv = self._move(args.move_ref)
        self.db.execute(
            "UPDATE moves SET status = 'cancelled' WHERE move_ref = ?", (mv["move_ref"],)
        )
        refund = mv["deposit_pence"] if args.refund_deposit else 0
        if refund:
            self._pay(mv, "deposit_refund", -refund)
        return {
            "move_ref": mv["move_ref"],
            "status": "cancelled",
            "deposit_refunded": money(refund),
            "card_last4": mv["card_last4"],
        }

    @tool("Add the packing service, £45.00 a room, to the move's price.")
    def add_packing(self, args: Packing) -> dict[str, Any]:
        mv = self._move(args.move_ref)
        if args.rooms < 1:
            raise ToolFailure("packing is for 1 room or more")
        cost = args.rooms * _seed.PACKING_ROOM_PENCE
        rooms = mv["packing_rooms"] + args.rooms
        return {**self._add_price(mv, cost, packing_rooms=rooms), "added": money(cost)}

    @tool(
        "Add or remove items: re-quoted at £28.00 a cubic metre; a bigger van (£120.00 a size) "
        "when the volume exceeds the van. Refused over 35 cubic metres (the largest van)."
    )
    def change_items(self, args: Items) -> dict[str, Any]:
        mv = self._move(args.move_ref)
        volume = mv["volume_m3"] + args.volume_change_m3
        if volume < 1:
            raise ToolFailure("the move would have no items left")
        van = van_for(volume)
        if van is None:
            raise ToolFailure(f"{volume} cubic metres is more than our largest van holds (35)")
        if _seed.VAN_ORDER.index(van) < _seed.VAN_ORDER.index(mv["van"]):
            van = mv["van"]  # removing items never downsizes the van booked
        steps = _seed.VAN_ORDER.index(van) - _seed.VAN_ORDER.index(mv["van"])
        cost = args.volume_change_m3 * _seed.PER_M3_PENCE + steps * _seed.VAN_STEP_PENCE
        done = self._add_price(mv, cost, volume_m3=volume, van=van, crew=_seed.CREW[van])
        return {**done, "price_change": money(cost)}

    @tool("Add storage between collection and delivery, £30.00 a week, 2 weeks at least.")
    def add_storage(self, args: Storage) -> dict[str, Any]:
        mv = self._move(args.move_ref)
        if args.weeks < _seed.STORAGE_MIN_WEEKS:
            raise ToolFailure("storage is for 2 weeks or more")
        cost = args.weeks * _seed.STORAGE_WEEK_PENCE
        weeks = mv["storage_weeks"] + args.weeks
        return {**self._add_price(mv, cost, storage_weeks=weeks), "added": money(cost)}

    @tool(
        "Register a damage claim, within 7 days after the move. Pays the value up to £100.00 an "
        "item, or £1,500.00 with extended cover."
    )
    def file_claim(self, args: Claim) -> dict[str, Any]:
        mv = self._move(args.move_ref, booked=False)
        if mv["status"] != "done":
            raise ToolFailure("the move has not taken place yet")
        if -self._days(mv) > _seed.CLAIM_DAYS:
            raise ToolFailure(f"claims close 7 days after the move; it was on {mv['move_date']}")
        cap = _seed.EXTENDED_CAP_PENCE if mv["extended_cover"] else _seed.CLAIM_CAP_PENCE
        payable = min(args.value_pence, cap)
        cur = self.db.execute(
            "INSERT INTO claims (move_ref, item, value_pence, payable_pence, created_at) "
            "VALUES (?,?,?,?,?)",
            (mv["move_ref"], args.item.strip(), args.value_pence, payable, self._stamp()),
        )
        return {
            "claim_id": cur.lastrowid,
            "item": args.item.strip(),
            "value": money(args.value_pence),
            "payable": money(payable),
        }

    @tool("Add an access note; stairs without a lift add £25.00 a floor to the price.")
    def add_access(self, args: Access) -> dict[str, Any]:
        mv = self._move(args.move_ref)
        cost = max(0, args.floors) * _seed.STAIRS_FLOOR_PENCE
        notes = "; ".join(n for n in (mv["access_notes"], args.note.strip()) if n)
        floors = mv["stairs_floors"] + max(0, args.floors)
        done = self._add_price(mv, cost, stairs_floors=floors, access_notes=notes)
        return {**done, "added": money(cost)}

    @tool("Change the phone number and/or email on the move.")
    def update_contact(self, args: Contact) -> dict[str, Any]:
        mv = self._move(args.move_ref, booked=False)
        phone, email = args.phone.strip(), args.email.strip().lower()
        if not phone and not email:
            raise ToolFailure("give a phone number or an email address")
        if phone and not re.fullmatch(r"0\d{10}", re.sub(r"[\s-]", "", phone)):
            raise ToolFailure(f"{phone!r} is not a UK phone number")
        if email and not re.fullmatch(r"[^@\s]+@[^@\s]+\.[a-z]{2,}", email):
            raise ToolFailure(f"{email!r} is not an email address")
        self.db.execute(
            "UPDATE moves SET phone = ?, email = ? WHERE move_ref = ?",
            (phone or mv["phone"], email or mv["email"], mv["move_ref"]),
        )
        return {
            "move_ref": mv["move_ref"],
            "phone": phone or mv["phone"],
            "email": email or mv["email"],
        }


def make_environment() -> RemovalsEnvironment:
    """A fresh desk environment, seeded."""
    return RemovalsEnvironment()
