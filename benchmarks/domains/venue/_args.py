"""The arguments of the booking system's tools, as the desk fills them in."""

from __future__ import annotations

from pydantic import BaseModel, Field


class Hirer(BaseModel):
    hirer_id: str = Field(description="The hirer, e.g. H201 (from verify_hirer)")


class Verify(BaseModel):
    booking_id: str = Field(description="A booking reference of the hirer's, e.g. MB3001")
    surname: str = Field(description="The hirer's surname")


class Availability(BaseModel):
    room: str = Field(description="hall or meeting")
    day: str = Field(description="YYYY-MM-DD")


class BookRoom(Hirer):
    room: str = Field(description="hall or meeting")
    day: str = Field(description="YYYY-MM-DD")
    start_time: str = Field(description="HH:00")
    end_time: str = Field(description="HH:00 (24:00 is midnight)")
    guests: int = Field(description="How many people are expected")
    hire_pence: int = Field(description="The room hire the desk quoted")
    event: str = Field(default="Private hire", description="What the hire is for")


class BookingRef(Hirer):
    booking_id: str = Field(description="e.g. MB3002")


class MoveBooking(BookingRef):
    day: str = Field(description="The new day, YYYY-MM-DD (same room and times)")
    fee_pence: int = Field(description="The move fee the desk quoted (0 when 28+ days ahead)")
    hire_pence: int = Field(description="The room hire for the new day, before any discount")


class CancelBooking(BookingRef):
    refund_pence: int = Field(description="The refund of what was paid, as the desk quoted it")


class AddAddon(BookingRef):
    kind: str = Field(description="kitchen, tables, pa or cleaning")
    price_pence: int = Field(description="The price the desk quoted")


class Discount(BookingRef):
    charity_number: str = Field(description="The group's registered charity number")
    discount_pence: int = Field(description="The discount the desk quoted, refunded to the card")


class Alcohol(BookingRef):
    licence_ref: str = Field(description="The Temporary Event Notice reference, TEN-NNNNNN")


class Keys(BookingRef):
    key_time: str = Field(description="HH:MM on the event day")


class InvoiceCopy(Hirer):
    invoice_id: str = Field(description="e.g. INV-7016")
    email: str = Field(description="Where to send the copy")


class Contact(Hirer):
    email: str | None = Field(default=None, description="New email address")
    phone: str | None = Field(default=None, description="New phone number")
