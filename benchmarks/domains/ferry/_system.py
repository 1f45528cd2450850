"""The ferry booking system's base: tool arguments, tables, clock, helpers and the reads."""

from __future__ import annotations

import re
from datetime import date, datetime
from typing import Any, ClassVar

from pydantic import BaseModel, Field

from benchmarks.domains.ferry import _seed
from vistasim.env import SqliteEnvironment, ToolFailure, tool


def money(pence: int) -> str:
    return f"{'-' if pence < 0 else ''}£{abs(pence) / 100:,.2f}"


def norm_ref(text: str) -> str:
    return f"FB{re.sub(r'[^0-9]', '', text)}"


def norm_reg(text: str) -> str:
    squashed = re.sub(r"\s+", "", text).upper()
    return f"{squashed[:4]} {squashed[4:]}" if len(squashed) == 7 else squashed


class Ref(BaseModel):
    booking_ref: str = Field(description="The booking reference, e.g. FB1243")


class VerifyBooking(Ref):
    surname: str = Field(description="The lead passenger's surname, as on the booking")


class FindSailings(BaseModel):
    origin: str = Field(description="Poole, Cherbourg or St Malo")
    destination: str = Field(description="Poole, Cherbourg or St Malo")
    day: str = Field(description="YYYY-MM-DD")


class ChangeSailing(Ref):
    sailing_id: str = Field(description="The new sailing, e.g. PC-20261219-0830")
    waive_fee: bool = Field(description="True when policy waives the amendment fee")


class SetVehicle(Ref):
    registration: str = Field(description="The vehicle's registration, e.g. KX19 PLM")
    length_m: float = Field(description="The vehicle's length in metres")


class AddCabin(Ref):
    cabin_type: str = Field(description="inside, outside or pet")


class AddPets(Ref):
    count: int = Field(description="How many pets to add")


class ChangeName(Ref):
    old_name: str = Field(description="The passenger's name as on the booking")
    new_name: str = Field(description="The new passenger's full name")


class UpdateEmail(Ref):
    email: str


class FerrySystem(SqliteEnvironment):
    """The system's tables, clock, helpers and read tools; the writes are in `_env.py`."""

    SCHEMA_SQL: ClassVar[str] = _seed.SCHEMA_SQL
    LEXICON: ClassVar[dict[str, list[str]]] = {
        "booking_ref": ["booking reference", "reference"],
        "surname": ["surname", "last name"],
        "new_date": ["which date", "what date", "which day"],
        "new_time": ["which sailing", "what time", "which time"],
        "registration": ["registration", "number plate"],
        "vehicle_length": ["how long", "length", "metres"],
        "cabin_type": ["which cabin", "type of cabin"],
        "pets": ["how many pets"],
        "old_name": ["which passenger", "coming off"],
        "new_name": ["new passenger", "travelling instead"],
        "email": ["email address", "new email"],
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

    def _booking(self, ref: str, *, live: bool = True) -> dict[str, Any]:
        found = self._one("SELECT * FROM bookings WHERE booking_ref = ?", norm_ref(ref))
        if found is None:
            raise ToolFailure(f"no booking {ref}")
        if live and found["status"] != "active":
            raise ToolFailure(f"booking {found['booking_ref']} is {found['status']}")
        return found

    def _sailing(self, sid: str) -> dict[str, Any]:
        found = self._one("SELECT * FROM sailings WHERE sailing_id = ?", sid.strip().upper())
        if found is None:
            raise ToolFailure(f"no sailing {sid}")
        return found

    def _days_to_go(self, sailing: dict[str, Any]) -> int:
        return (date.fromisoformat(sailing["depart"][:10]) - self.now().date()).days

    def _not_departed(self, booking: dict[str, Any]) -> dict[str, Any]:
        sailing = self._sailing(booking["sailing_id"])
        if sailing["depart"] <= self.now().strftime(_seed.STAMP):
            raise ToolFailure(f"sailing {sailing['sailing_id']} has already departed")
        return sailing

    def _charge(
        self,
        booking: dict[str, Any],
        kind: str,
        pence: int,
        method: str = "card",
        *,
        paid: bool = True,
    ) -> None:
        if not pence:
            return
        self.db.execute(
            "INSERT INTO charges (booking_ref, kind, amount_pence, method, "
            "card_last4, created_at) VALUES (?,?,?,?,?,?)",
            (
                booking["booking_ref"],
                kind,
                pence,
                method,
                booking["card_last4"],
                self.now().strftime(_seed.STAMP),
            ),
        )
        if paid:
            self.db.execute(
                "UPDATE bookings SET paid_pence = paid_pence + ? WHERE booking_ref = ?",
                (pence, booking["booking_ref"]),
            )

    def view(self, ref: str) -> dict[str, Any]:
        b = self._booking(ref, live=False)
        s = self._sailing(b["sailing_id"])
        people = [
            r["name"]
            for r in self.db.execute(
                "SELECT name FROM passengers WHERE booking_ref = ? ORDER BY passenger_id", (ref,)
            )
        ]
        vehicle = None
        if b["vehicle_reg"]:
            vehicle = {
                "registration": b["vehicle_reg"],
                "length_m": b["vehicle_length_m"],
                "price": money(b["vehicle_pence"]),
                "price_pence": b["vehicle_pence"],
            }
        return {
            "booking_ref": b["booking_ref"],
            "lead_name": b["lead_name"],
            "surname": b["surname"],
            "status": b["status"],
            "fare_type": b["fare_type"],
            "email": b["email"],
            "card_last4": b["card_last4"],
            "passengers": people,
            "vehicle": vehicle,
            "cabin": b["cabin"],
            "pets": b["pets"],
            "paid": money(b["paid_pence"]),
            "paid_pence": b["paid_pence"],
            "sailing": self._sailing_view(s),
        }

    @staticmethod
    def _sailing_view(s: dict[str, Any]) -> dict[str, Any]:
        return {
            "sailing_id": s["sailing_id"],
            "origin": s["origin"],
            "destination": s["destination"],
            "depart": s["depart"],
            "arrive": s["arrive"],
            "overnight": bool(s["overnight"]),
            "fare": money(s["fare_pence"]),
            "fare_pence": s["fare_pence"],
            "vehicle_spaces": s["vehicle_left"],
            "cabins_left": {
                "inside": s["inside_left"],
                "outside": s["outside_left"],
                "pet": s["pet_left"],
            },
        }

    # -- reading ---------------------------------------------------------------------------
    @tool(
        "Check the caller's identity: the booking reference and the lead passenger's "
        "surname must match. Returns the booking."
    )
    def verify_booking(self, args: VerifyBooking) -> dict[str, Any]:
        found = self._one(
            "SELECT booking_ref, surname FROM bookings WHERE booking_ref = ?",
            norm_ref(args.booking_ref),
        )
        if found is None or found["surname"].lower() != args.surname.strip().lower():
            raise ToolFailure("verification failed: no booking matches that reference and surname")
        return self.view(found["booking_ref"])

    @tool(
        "Read a booking by reference alone (staff view). Only for a booking whose caller has "
        "been verified with verify_booking."
    )
    def get_booking(self, args: Ref) -> dict[str, Any]:
        return self.view(self._booking(args.booking_ref, live=False)["booking_ref"])

    @tool("Sailings from one port to another on a day, with fares and what is left.")
    def find_sailings(self, args: FindSailings) -> dict[str, Any]:
        try:
            day = date.fromisoformat(args.day.strip())
        except ValueError as exc:
            raise ToolFailure(f"{args.day!r} is not a date (YYYY-MM-DD)") from exc
        rows = self.db.execute(
            "SELECT * FROM sailings WHERE lower(origin) = ? AND "
            "lower(destination) = ? AND depart LIKE ? ORDER BY depart",
            (args.origin.strip().lower(), args.destination.strip().lower(), f"{day.isoformat()}%"),
        ).fetchall()
        return {"day": day.isoformat(), "sailings": [self._sailing_view(dict(r)) for r in rows]}


__all__ = ["FerrySystem", "money", "norm_ref", "norm_reg"]
