"""What a Spoke & Pedal customer can look up in the app without the desk: user-side APIs.

The app is read-only here: a rental's status for its owner (the email must be the account's), and
the public station map. Both read the same database the desk tools change.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, JsonValue, StringConstraints

from benchmarks.bikes._views import availability_view, code, rental_row, station_row
from vistasim.env import ToolFailure, tool

__all__ = ["BikeUserApi"]


class _Args(BaseModel):
    model_config = ConfigDict(extra="forbid")


class RentalStatusArgs(_Args):
    """A rental of the signed-in customer."""

    rental_id: code(r"^R\d{3}$")  # type: ignore[valid-type]
    email: Annotated[str, StringConstraints(strip_whitespace=True, min_length=3, max_length=254)]


class MapArgs(_Args):
    """One station of the map, or all of them."""

    station: str | None = Field(default=None, max_length=40)


class BikeUserApi:
    """The customer app's APIs, mixed into the environment (needs `self.db`)."""

    @tool(
        "In the app: the status, bike and due time of one of your rentals (signed in with your "
        "email).",
        side="user",
    )
    def check_rental_status(self, args: RentalStatusArgs) -> JsonValue:
        """Return the rental as the app shows it to its owner."""
        rental = rental_row(self.db, args.rental_id)  # type: ignore[attr-defined]
        owner = self.db.execute(  # type: ignore[attr-defined]
            "SELECT email FROM customers WHERE id = ?", (rental["customer_id"],)
        ).fetchone()[0]
        if owner.lower() != args.email.lower():
            raise ToolFailure(
                f"{args.rental_id} is not a rental on the account you signed in with."
            )
        return {
            "rental_id": rental["id"],
            "bike_id": rental["bike_id"],
            "status": rental["status"],
            "start_at": rental["start_at"],
            "due_at": rental["due_at"],
            "returned_at": rental["returned_at"],
        }

    @tool("In the app: the station map, bikes ready to ride by type and free docks.", side="user")
    def station_map(self, args: MapArgs) -> JsonValue:
        """Return the station's (or every station's) availability."""
        db = self.db  # type: ignore[attr-defined]
        if args.station:
            return availability_view(db, station_row(db, args.station))
        rows = db.execute("SELECT * FROM stations ORDER BY id").fetchall()
        return {"stations": [availability_view(db, row) for row in rows]}
