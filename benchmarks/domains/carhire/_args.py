"""Arguments of the desk's tools (pydantic models: the tool schemas the agent sees)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

CarClass = Literal["economy", "compact", "estate", "suv", "premium"]


class VerifyCustomer(BaseModel):
    booking_ref: str = Field(description="Booking reference, e.g. CLH-20411")
    licence_last4: str = Field(description="Last four digits of the hirer's driving licence")


class BookingArgs(BaseModel):
    booking_ref: str


class CustomerArgs(BaseModel):
    customer_id: str


class CheckAvailability(BaseModel):
    branch: str
    car_class: CarClass
    pickup_date: str = Field(description="YYYY-MM-DD")
    return_date: str = Field(description="YYYY-MM-DD")


class ChangeDates(BaseModel):
    booking_ref: str
    pickup_date: str = Field(description="YYYY-MM-DD; the pick-up time stays the same")
    return_date: str = Field(description="YYYY-MM-DD; the return time stays the same")


class AddDriver(BaseModel):
    booking_ref: str
    name: str
    date_of_birth: str = Field(description="YYYY-MM-DD")


class AddExtra(BaseModel):
    booking_ref: str
    extra: Literal["child_seat", "gps"]
    quantity: int = Field(1, ge=1, le=5)


class SwitchClass(BaseModel):
    booking_ref: str
    car_class: CarClass


class ReportDamage(BaseModel):
    booking_ref: str
    description: str = Field(max_length=500)
    charge_excess: bool = Field(description="Charge the £300.00 damage excess (not with full "
                                            "cover; once per hire)")


class UpdateEmail(BaseModel):
    customer_id: str
    email: str
