"""The tour operator's booking system the desk works through: `ToursEnvironment` and its tools."""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta
from typing import Any, ClassVar

from pydantic import BaseModel, Field

from benchmarks.domains.tours import _seed
from vistasim.env import SqliteEnvironment, ToolFailure, tool


def money(pence: int) -> str:
    return f"£{pence / 100:,.2f}"


def norm_ref(text: str) -> str:
    return "SW" + re.sub(r"\D", "", text)


class Ref(BaseModel):
    booking_ref: str = Field(description="The booking reference, e.g. SW2101")


class Verify(Ref):
    surname: str = Field(description="The lead participant's surname")


class FindSlots(BaseModel):
    tour: str = Field(description="harbour, caves, sunset or lesson")
    day: str = Field(description="YYYY-MM-DD")


class VoucherCode(BaseModel):
    code: str = Field(description="The gift voucher code, e.g. GV-4821")


class AddParticipant(Ref):
    name: str = Field(description="The participant's full name")
    age: int = Field(description="Age in years on the tour day")
    weight_kg: int = Field(description="Weight in kg (120 kg is the limit)")
    kayak: str = Field(default="tandem", description="tandem or single")
    price_pence: int = Field(description="The price of the place the desk quoted")


class SetKayak(Ref):
    participant_id: int
    kayak: str = Field(description="tandem or single")
    price_change_pence: int = Field(description="Added to the total (negative: taken off)")


class AddExtra(Ref):
    kind: str = Field(description="wetsuit (per participant) or photos (per booking)")
    participant_id: int | None = Field(default=None, description="For a wetsuit")
    price_pence: int = Field(description="The price the desk quoted")


class UpdateParticipant(Ref):
    participant_id: int
    name: str | None = Field(default=None, description="The corrected name")
    medical_condition: str | None = Field(
        default=None, description="asthma, allergy, diabetes, epilepsy, heart or other"
    )
    medical_note: str | None = Field(default=None, description="What the guides should know")


class UpdateContact(Ref):
    email: str | None = None
    phone: str | None = None


class MoveBooking(Ref):
    slot_id: str = Field(description="The new slot of the same tour, e.g. CAV-0627-1000")
    fee_pence: int = Field(description="The move fee the desk quoted (0 for the first move)")


class CancelBooking(Ref):
    refund_pence: int = Field(description="The refund the desk quoted, to the card that paid")


class RedeemVoucher(Ref):
    code: str = Field(description="e.g. GV-4821")
    amount_pence: int = Field(description="How much of the voucher to put towards the booking")


class ToursEnvironment(SqliteEnvironment):
    """Saltwind Sea Kayak Tours: slots, bookings, participants, payments and gift vouchers."""

    SCHEMA_SQL: ClassVar[str] = _seed.SCHEMA_SQL
    LEXICON: ClassVar[dict[str, list[str]]] = {
        "booking_ref": ["booking reference"],
        "surname": ["surname", "lead participant"],
        "new_date": ["which day", "new date"],
        "time": ["which time", "what time"],
        "participant_name": ["full name", "their name"],
        "age": ["how old", "age"],
        "weight": ["weigh", "weight"],
        "phone": ["new number", "phone number"],
        "email": ["email address"],
        "voucher_code": ["voucher code"],
    }

    def seed(self, db: Any) -> None:
        _seed.seed(db)

    def now(self) -> datetime:
        """The desk's clock: fixed, so every episode sees the same day."""
        return _seed.NOW

    # -- helpers ---------------------------------------------------------------------------
    def _one(self, sql: str, *args: Any) -> dict[str, Any] | None:
        row = self.db.execute(sql, args).fetchone()
        return dict(row) if row else None

    def _rows(self, sql: str, *args: Any) -> list[dict[str, Any]]:
        return [dict(r) for r in self.db.execute(sql, args)]

    def _booking(self, ref: str) -> dict[str, Any]:
        b = self._one("SELECT * FROM bookings WHERE booking_ref = ?", norm_ref(ref))
        if b is None:
            raise ToolFailure(f"no booking {ref}")
        return b

    def _live(self, ref: str) -> dict[str, Any]:
        b = self._booking(ref)
        if b["status"] != "confirmed":
            raise ToolFailure(f"booking {b['booking_ref']} is {b['status']}")
        return b

    def _slot(self, slot_id: str) -> dict[str, Any]:
        s = self._one("SELECT * FROM slots WHERE slot_id = ?", slot_id.strip().upper())
        if s is None:
            raise ToolFailure(f"no slot {slot_id}")
        return s

    def starts_at(self, slot: dict[str, Any]) -> datetime:
        day, (h, m) = date.fromisoformat(slot["day"]), slot["start"].split(":")
        return datetime(day.year, day.month, day.day, int(h), int(m), tzinfo=_seed.UK)

    def hours_to(self, slot: dict[str, Any]) -> float:
        return (self.starts_at(slot) - self.now()).total_seconds() / 3600

    def taken(self, slot_id: str) -> int:
        row = self.db.execute(
            "SELECT COUNT(*) FROM participants p JOIN bookings b USING (booking_ref) "
            "WHERE b.slot_id = ? AND b.status = 'confirmed'",
            (slot_id,),
        ).fetchone()
        return int(row[0])

    def _pay(self, ref: str, kind: str, pence: int, note: str | None = None) -> None:
        if pence:
            self.db.execute(
                "INSERT INTO payments (booking_ref, kind, amount_pence, ref, created_at) "
                "VALUES (?,?,?,?,?)",
                (ref, kind, pence, note, self.now().strftime(_seed.STAMP)),
            )

    def _participant(self, b: dict[str, Any], pid: int) -> dict[str, Any]:
        p = self._one("SELECT * FROM participants WHERE participant_id = ? AND booking_ref = ?",
                      pid, b["booking_ref"])  # fmt: skip
        if p is None:
            raise ToolFailure(f"no participant {pid} on booking {b['booking_ref']}")
        return p

    def view(self, ref: str) -> dict[str, Any]:
        """The booking as staff see it: the slot, every participant, money paid and due."""
        b = self._booking(ref)
        s = self._slot(b["slot_id"])
        meet = self.starts_at(s) - timedelta(minutes=_seed.MEET_MINUTES)
        return {
            **b,
            "tour": s["tour"],
            "tour_name": _seed.TOURS[s["tour"]][1],
            "day": s["day"],
            "start": s["start"],
            "slot_status": s["status"],
            "hours_to_start": round(self.hours_to(s), 1),
            "meet_at": meet.strftime("%H:%M"),
            "meet_point": _seed.MEET_POINT,
            "balance_pence": b["total_pence"] - b["paid_pence"],
            "participants": self._rows(
                "SELECT * FROM participants WHERE booking_ref = ? ORDER BY participant_id",
                b["booking_ref"],
            ),
        }

    # -- reads -----------------------------------------------------------------------------
    @tool(
        "Check the caller's identity: the booking reference and the lead participant's "
        "surname must match. Returns the booking."
    )
    def verify_booking(self, args: Verify) -> dict[str, Any]:
        b = self._one("SELECT * FROM bookings WHERE booking_ref = ?", norm_ref(args.booking_ref))
        said = args.surname.strip().lower()
        if b is None or b["lead_name"].split()[-1].lower() != said:
            raise ToolFailure("verification failed: no booking matches that reference and surname")
        return self.view(b["booking_ref"])

    @tool("Read a booking (staff view, after verify_booking only).")
    def get_booking(self, args: Ref) -> dict[str, Any]:
        return self.view(args.booking_ref)

    @tool("The slots of one tour on one day, with places left (no customer details).")
    def find_slots(self, args: FindSlots) -> list[dict[str, Any]]:
        tour = args.tour.strip().lower()
        if tour not in _seed.TOURS:
            raise ToolFailure("tour must be harbour, caves, sunset or lesson")
        rows = self._rows("SELECT * FROM slots WHERE tour = ? AND day = ? ORDER BY start", tour,
                          args.day)  # fmt: skip
        return [
            {"slot_id": r["slot_id"], "day": r["day"], "start": r["start"], "status": r["status"],
             "places_left": r["capacity"] - self.taken(r["slot_id"]),
             "hours_to_start": round(self.hours_to(r), 1)}
            for r in rows
        ]  # fmt: skip

    @tool("Look up a gift voucher: its balance and expiry date.")
    def check_voucher(self, args: VoucherCode) -> dict[str, Any]:
        v = self._one("SELECT * FROM vouchers WHERE code = ?", args.code.strip().upper())
        if v is None:
            raise ToolFailure(f"no voucher {args.code}")
        return {"code": v["code"], "balance": money(v["balance_pence"]),
                "balance_pence": v["balance_pence"], "expires": v["expires"],
                "expired": v["expires"] < self.now().date().isoformat()}  # fmt: skip

    # -- writes ----------------------------------------------------------------------------
    @tool(
        "Add a participant to a booking; price_pence is added to its total. Refuses a full "
        "slot (the group size cap) and a paddler over 120 kg. The system does not check the "
        "tour's minimum age or under-16s' kayaks: the desk must."
    )
    def add_participant(self, args: AddParticipant) -> dict[str, Any]:
        b = self._live(args.booking_ref)
        s = self._slot(b["slot_id"])
        if self.taken(s["slot_id"]) >= s["capacity"]:
            raise ToolFailure(f"the {s['start']} slot on {s['day']} is full: no places left")
        if args.weight_kg > _seed.MAX_WEIGHT_KG:
            raise ToolFailure("over the 120 kg weight limit for our kayaks")
        kayak = args.kayak.strip().lower()
        if kayak not in {"tandem", "single"}:
            raise ToolFailure("kayak must be tandem or single")
        cur = self.db.execute(
            "INSERT INTO participants (booking_ref, name, age, weight_kg, kayak) "
            "VALUES (?,?,?,?,?)",
            (b["booking_ref"], args.name.strip(), args.age, args.weight_kg, kayak),
        )
        self.db.execute("UPDATE bookings SET total_pence = total_pence + ? WHERE booking_ref = ?",
                        (args.price_pence, b["booking_ref"]))  # fmt: skip
        v = self.view(b["booking_ref"])
        return {"participant_id": cur.lastrowid, "name": args.name.strip(), "kayak": kayak,
                "price": money(args.price_pence), "total": money(v["total_pence"]),
                "balance_due": money(v["balance_pence"])}  # fmt: skip

    @tool(
        "Change a participant's kayak (tandem or single); price_change_pence is added to the "
        "total. The system does not check ages: the desk must."
    )
    def set_kayak(self, args: SetKayak) -> dict[str, Any]:
        b = self._live(args.booking_ref)
        p = self._participant(b, args.participant_id)
        kayak = args.kayak.strip().lower()
        if kayak not in {"tandem", "single"}:
            raise ToolFailure("kayak must be tandem or single")
        if kayak == p["kayak"]:
            raise ToolFailure(f"{p['name']} is already in a {kayak} kayak")
        self.db.execute("UPDATE participants SET kayak = ? WHERE participant_id = ?",
                        (kayak, p["participant_id"]))  # fmt: skip
        self.db.execute("UPDATE bookings SET total_pence = total_pence + ? WHERE booking_ref = ?",
                        (args.price_change_pence, b["booking_ref"]))  # fmt: skip
        return {"name": p["name"], "kayak": kayak,
                "total": money(self.view(b["booking_ref"])["total_pence"])}  # fmt: skip

    @tool("Add wetsuit hire for a participant, or the photo package to the booking.")
    def add_extra(self, args: AddExtra) -> dict[str, Any]:
        b = self._live(args.booking_ref)
        kind = args.kind.strip().lower()
        if kind == "wetsuit":
            if args.participant_id is None:
                raise ToolFailure("a wetsuit needs a participant_id")
            p = self._participant(b, args.participant_id)
            if p["wetsuit"]:
                raise ToolFailure(f"{p['name']} already has a wetsuit booked")
            self.db.execute("UPDATE participants SET wetsuit = 1 WHERE participant_id = ?",
                            (p["participant_id"],))  # fmt: skip
            who = p["name"]
        elif kind == "photos":
            if b["photos"]:
                raise ToolFailure("the photo package is already on this booking")
            self.db.execute("UPDATE bookings SET photos = 1 WHERE booking_ref = ?",
                            (b["booking_ref"],))  # fmt: skip
            who = None
        else:
            raise ToolFailure("kind must be wetsuit or photos")
        self.db.execute("UPDATE bookings SET total_pence = total_pence + ? WHERE booking_ref = ?",
                        (args.price_pence, b["booking_ref"]))  # fmt: skip
        return {"kind": kind, "participant": who, "price": money(args.price_pence),
                "total": money(self.view(b["booking_ref"])["total_pence"])}  # fmt: skip

    @tool("Correct a participant's name, or record a medical condition and note for the guides.")
    def update_participant(self, args: UpdateParticipant) -> dict[str, Any]:
        b = self._live(args.booking_ref)
        p = self._participant(b, args.participant_id)
        if args.medical_condition is not None and args.medical_condition not in _seed.CONDITIONS:
            raise ToolFailure(f"medical_condition must be one of {', '.join(_seed.CONDITIONS)}")
        for column, value in (("name", args.name), ("medical_condition", args.medical_condition),
                              ("medical_note", args.medical_note)):  # fmt: skip
            if value is not None:
                self.db.execute(
                    f"UPDATE participants SET {column} = ? WHERE participant_id = ?",  # noqa: S608
                    (value.strip(), p["participant_id"]),
                )
        return self._participant(b, p["participant_id"])

    @tool("Change the booking's contact email and/or phone.")
    def update_contact(self, args: UpdateContact) -> dict[str, Any]:
        b = self._live(args.booking_ref)
        if args.phone is not None:
            if len(re.sub(r"\D", "", args.phone)) != 11:
                raise ToolFailure(f"{args.phone!r} is not a UK phone number")
            self.db.execute("UPDATE bookings SET phone = ? WHERE booking_ref = ?",
                            (args.phone.strip(), b["booking_ref"]))  # fmt: skip
        if args.email is not None:
            if not re.fullmatch(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+", args.email.strip()):
                raise ToolFailure(f"{args.email!r} is not an email address")
            self.db.execute("UPDATE bookings SET email = ? WHERE booking_ref = ?",
                            (args.email.strip(), b["booking_ref"]))  # fmt: skip
        now = self._booking(b["booking_ref"])
        return {"email": now["email"], "phone": now["phone"]}

    @tool(
        "Move a booking to another slot of the same tour; fee_pence (quoted by the desk) is "
        "charged. Refuses a full or cancelled slot, a past slot, and a move less than 48 "
        "hours before the start, except from a slot cancelled for weather (that rebook is free "
        "and does not use the booking's free move)."
    )
    def move_booking(self, args: MoveBooking) -> dict[str, Any]:
        b = self._live(args.booking_ref)
        old, new = self._slot(b["slot_id"]), self._slot(args.slot_id)
        weather = old["status"] == "weather_cancelled"
        if new["tour"] != old["tour"]:
            raise ToolFailure("a booking moves only to another slot of the same tour")
        if new["status"] != "running" or self.hours_to(new) <= 0:
            raise ToolFailure(f"slot {new['slot_id']} is not open for booking")
        if not weather and self.hours_to(old) < _seed.MOVE_CLOSES_HOURS:
            raise ToolFailure("moves close 48 hours before the tour starts")
        group = len(self._rows("SELECT 1 FROM participants WHERE booking_ref = ?",
                               b["booking_ref"]))  # fmt: skip
        if self.taken(new["slot_id"]) + group > new["capacity"]:
            raise ToolFailure(f"slot {new['slot_id']} has no room for {group}")
        self.db.execute(
            "UPDATE bookings SET slot_id = ?, moves_used = moves_used + ? WHERE booking_ref = ?",
            (new["slot_id"], 0 if weather else 1, b["booking_ref"]),
        )
        self._pay(b["booking_ref"], "move_fee", args.fee_pence, new["slot_id"])
        return {"booking_ref": b["booking_ref"], "slot_id": new["slot_id"], "day": new["day"],
                "start": new["start"], "fee": money(args.fee_pence)}  # fmt: skip

    @tool(
        "Cancel a booking; refund_pence (quoted by the desk) goes back to the card. The system "
        "does not check the refund bands: the desk must."
    )
    def cancel_booking(self, args: CancelBooking) -> dict[str, Any]:
        b = self._live(args.booking_ref)
        if args.refund_pence > b["paid_pence"]:
            raise ToolFailure("a refund can't be more than was paid")
        self.db.execute("UPDATE bookings SET status = 'cancelled' WHERE booking_ref = ?",
                        (b["booking_ref"],))  # fmt: skip
        self._pay(b["booking_ref"], "refund", args.refund_pence)
        return {"booking_ref": b["booking_ref"], "status": "cancelled",
                "refunded": money(args.refund_pence)}  # fmt: skip

    @tool(
        "Put amount_pence of a gift voucher towards a booking; the rest stays on the voucher. "
        "Refuses an unknown or expired voucher and more than its balance. The system does not "
        "cap it at what the booking still owes: the desk must."
    )
    def redeem_voucher(self, args: RedeemVoucher) -> dict[str, Any]:
        b = self._live(args.booking_ref)
        v = self._one("SELECT * FROM vouchers WHERE code = ?", args.code.strip().upper())
        if v is None:
            raise ToolFailure(f"no voucher {args.code}")
        if v["expires"] < self.now().date().isoformat():
            raise ToolFailure(f"voucher {v['code']} expired on {v['expires']}")
        if not 0 < args.amount_pence <= v["balance_pence"]:
            raise ToolFailure(f"voucher {v['code']} has {money(v['balance_pence'])} on it")
        self.db.execute("UPDATE vouchers SET balance_pence = balance_pence - ? WHERE code = ?",
                        (args.amount_pence, v["code"]))  # fmt: skip
        self.db.execute("UPDATE bookings SET paid_pence = paid_pence + ? WHERE booking_ref = ?",
                        (args.amount_pence, b["booking_ref"]))  # fmt: skip
        self._pay(b["booking_ref"], "voucher", args.amount_pence, v["code"])
        now = self.view(b["booking_ref"])
        return {"code": v["code"], "used": money(args.amount_pence),
                "voucher_left": money(v["balance_pence"] - args.amount_pence),
                "balance_due": money(now["balance_pence"])}  # fmt: skip


def make_environment() -> ToursEnvironment:
    """A fresh booking system, from the seed data."""
    return ToursEnvironment()
