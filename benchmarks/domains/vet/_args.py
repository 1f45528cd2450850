"""Arguments of the desk's tools (pydantic models: the tool schemas the agent sees)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

Reason = Literal[
    "check_up", "vaccination", "consultation",
    "nail_clip", "weight_check", "microchip", "post_op_check",
]


class VerifyOwner(BaseModel):
    client_number: str | None = Field(None, description="Client number, e.g. C1042")
    postcode: str | None = Field(None, description="Postcode on the account")
    phone: str | None = Field(None, description="Phone number on the account")
    pet_name: str | None = Field(None, description="Name of one of the owner's pets")


class ClientArgs(BaseModel):
    client_number: str


class FindSlots(BaseModel):
    kind: Literal["vet", "nurse"]
    date: str = Field(description="YYYY-MM-DD")


class BookAppointment(BaseModel):
    client_number: str
    pet_id: str
    slot_id: str
    reason: Reason


class MoveAppointment(BaseModel):
    appointment_id: str
    slot_id: str = Field(description="The new slot")


class CancelAppointment(BaseModel):
    appointment_id: str


class OrderRepeat(BaseModel):
    prescription_id: str
    quantity: int = Field(description="Tablets or ml, at most the prescription's max_per_repeat")


class InvoiceArgs(BaseModel):
    invoice_id: str


class PayInvoice(BaseModel):
    invoice_id: str
    amount: float = Field(description="Pounds, taken from the card on file")


class UpdateContact(BaseModel):
    client_number: str
    phone: str | None = None
    email: str | None = None
    address: str | None = Field(None, description="House and street, town")
    postcode: str | None = Field(None, description="Required with a new address")


class RegisterPet(BaseModel):
    client_number: str
    name: str
    species: str
    date_of_birth: str = Field(description="YYYY-MM-DD; an estimate is fine")
    breed: str | None = None
    sex: Literal["male", "female", "unknown"] = "unknown"
