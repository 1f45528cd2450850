"""Arguments of the desk's tools: one pydantic model per tool, described for the agent."""

from __future__ import annotations

from pydantic import BaseModel, Field

_REF = "The booking reference, e.g. HL20481."


class FindArgs(BaseModel):
    booking_ref: str | None = Field(None, description=_REF)
    last_name: str | None = Field(None, description="Last name on the booking.")
    email: str | None = Field(None, description="Email address on the guest's profile.")
    date_of_birth: str | None = Field(None, description="Guest's date of birth, YYYY-MM-DD.")


class RefArgs(BaseModel):
    booking_ref: str = Field(description=_REF)


class AvailabilityArgs(BaseModel):
    hotel_id: str = Field(description="Hotel id: LIS, POR or DUB.")
    check_in: str = Field(description="Arrival date, YYYY-MM-DD.")
    check_out: str = Field(description="Departure date, YYYY-MM-DD.")
    room_type: str | None = Field(
        None, description="standard, superior, family or suite; omit for every room type."
    )
    booking_ref: str | None = Field(
        None,
        description="When quoting a change to this booking: "
        "its own room is not counted and differences are given.",
    )


class DatesArgs(BaseModel):
    booking_ref: str = Field(description=_REF)
    check_in: str = Field(description="New arrival date, YYYY-MM-DD.")
    check_out: str = Field(description="New departure date, YYYY-MM-DD.")
    room_type: str | None = Field(None, description="Also move to this room type (optional).")


class RoomArgs(BaseModel):
    booking_ref: str = Field(description=_REF)
    room_type: str = Field(description="standard, superior, family or suite.")


class LateArgs(BaseModel):
    booking_ref: str = Field(description=_REF)
    checkout_time: str = Field(description="Check-out time on the departure day, HH:MM (24 h).")


class CancelArgs(BaseModel):
    booking_ref: str = Field(description=_REF)
    accept_fee: bool = Field(
        False,
        description="True only once the guest has agreed to the cancellation fee the desk stated.",
    )


class DetailsArgs(BaseModel):
    booking_ref: str = Field(description=_REF)
    email: str | None = Field(None, description="New email address.")
    phone: str | None = Field(None, description="New phone number, international format (+...).")


class NoteArgs(BaseModel):
    booking_ref: str = Field(description=_REF)
    text: str = Field(description="The special request, as the hotel should read it.")
