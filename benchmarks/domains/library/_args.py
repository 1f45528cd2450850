"""The arguments of the library desk's tools (pydantic models, one per tool shape)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field


def money(pence: int) -> str:
    return f"£{pence // 100}.{pence % 100:02d}"


class Verify(BaseModel):
    card_number: str | None = None
    pin: str | None = None
    email: str | None = None
    date_of_birth: str | None = Field(default=None, description="YYYY-MM-DD")


class Card(BaseModel):
    card_number: str


class Query(BaseModel):
    query: str


class LoanRef(BaseModel):
    loan_id: str


class PlaceHold(BaseModel):
    card_number: str
    title_id: str
    pickup_branch: str = Field(description="branch id: CEN, NOR or HAR")


class HoldRef(BaseModel):
    hold_id: str


class ChangePickup(BaseModel):
    hold_id: str
    branch: str = Field(description="branch id: CEN, NOR or HAR")


class PayFine(BaseModel):
    fine_id: str
    amount: float = Field(description="pounds, e.g. 1.50")


class WaiveFine(BaseModel):
    fine_id: str
    reason: Literal["library_error", "hospital_stay"]


class UpdateContact(BaseModel):
    card_number: str
    email: str | None = None
    phone: str | None = None


class NoticePreference(BaseModel):
    card_number: str
    channel: Literal["email", "sms", "post"]
