"""Arguments of the desk's tools (pydantic models: the tool schemas the agent sees)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

Kind = Literal["dentist", "hygiene", "emergency"]


class VerifyPatient(BaseModel):
    date_of_birth: str = Field(description="The patient's date of birth, YYYY-MM-DD")
    postcode: str = Field(description="The patient's home postcode, e.g. BS6 5QT")


class PatientArgs(BaseModel):
    patient_id: str


class AppointmentArgs(BaseModel):
    appointment_id: str = Field(description="Appointment reference, e.g. A-1001")


class FindSlots(BaseModel):
    kind: Kind = Field(description="dentist (check-ups, treatment), hygiene (hygienist), or "
                                   "emergency (same day only)")
    date: str = Field(description="YYYY-MM-DD")


class BookAppointment(BaseModel):
    patient_id: str
    slot_id: str
    reason: str = Field("", max_length=300)


class MoveAppointment(BaseModel):
    appointment_id: str
    slot_id: str = Field(description="The new slot, of the same kind")
    late_fee: bool = Field(description="Charge the £25.00 late fee (moving within 24 hours)")


class CancelAppointment(BaseModel):
    appointment_id: str
    late_fee: bool = Field(description="Charge the £25.00 late fee (cancelling within 24 hours)")


class StartPaymentPlan(BaseModel):
    plan_id: str
    months: int = Field(description="3, 6 or 10")


class InvoiceArgs(BaseModel):
    invoice_id: str


class UpdateEmail(BaseModel):
    patient_id: str
    email: str
