"""Every desk tool and user-side API of the bike environment: success and error paths."""

from __future__ import annotations

import pytest
from benchmarks.bikes import BikeEnvironment, make_environment

from tests.bikes.helpers import AIKO, INES, JONAS, LENA, MAREK, NOAH, OSKAR, PRIYA, SOFIA, TOMAS


def tool(env: BikeEnvironment, name: str, **args):
    return env.run_tool("agent", name, args)


def ok(env: BikeEnvironment, name: str, **args):
    outcome = tool(env, name, **args)
    assert outcome.error is None, outcome.error
    return outcome.result


def fails(env: BikeEnvironment, name: str, needle: str, **args) -> str:
    before = env.snapshot()
    outcome = tool(env, name, **args)
    assert outcome.error is not None and needle.lower() in outcome.error.lower(), outcome.error
    assert env.snapshot() == before, "a failed call changed the state"
    return outcome.error


def verified(*emails: str) -> BikeEnvironment:
    env = make_environment()
    for email in emails:
        ok(env, "find_customer", email=email)
    return env


def test_tool_lists():
    env = make_environment()
    assert [t.name for t in env.agent_tools()] == [
        "find_customer",
        "get_rental",
        "list_customer_rentals",
        "extend_rental",
        "end_rental",
        "reserve_bike",
        "cancel_reservation",
        "report_damage",
        "station_availability",
        "refund_charge",
    ]
    assert [t.name for t in env.user_tools()] == ["check_rental_status", "station_map"]
    assert env.lexicon() == {}
    assert env.now == "2026-06-10T10:00"


async def test_unknown_tool_and_wrong_side():
    env = make_environment()
    assert "unknown tool" in (await env.call_tool("station_map", {})).error
    assert "unknown tool" in (await env.call_user_api("find_customer", {"email": LENA})).error
    assert "invalid arguments" in (await env.call_tool("get_rental", {"rental": "R204"})).error


def test_find_customer_by_email_and_phone():
    env = make_environment()
    lena = ok(env, "find_customer", email="Lena.Vogel@Example.com")
    assert lena["customer_id"] == "C301" and lena["plan"] == "monthly"
    assert [r["rental_id"] for r in lena["rentals"]] == ["R204", "R180"]
    assert {v["reservation_id"] for v in lena["reservations"]} == {"RS405", "RS411"}
    for phone in ("+31 6 4471 0925", "06 4471 0925", "0644710925", "0031-6-44710925"):
        assert ok(env, "find_customer", phone=phone)["customer_id"] == "C302"
    assert env.select("desk_verifications", {"customer_id": "C302"})[0]["method"] == "phone"
    both = ok(env, "find_customer", email=AIKO, phone="06 1650 3348")
    assert both["customer_id"] == "C303"


def test_find_customer_errors():
    env = make_environment()
    fails(
        env,
        "find_customer",
        "email address or the phone",
    )
    fails(env, "find_customer", "no customer account uses the email", email="nobody@example.com")
    fails(env, "find_customer", "no customer account uses the phone", phone="06 0000 0000")
    fails(env, "find_customer", "not a complete phone number", phone="12345")
    fails(env, "find_customer", "different accounts", email=LENA, phone="06 4471 0925")
    assert env.select("desk_verifications", {}) == []


def test_get_rental():
    env = make_environment()
    r204 = ok(env, "get_rental", rental_id=" r204 ")
    assert r204["due_at"] == "2026-06-10T18:00" and r204["bike_id"] == "B117"
    assert r204["bike_type"] == "city" and r204["max_extension_hours"] == 72
    assert r204["total_charged"] == "€18.00"
    r200 = ok(env, "get_rental", rental_id="R200")
    assert [c["kind"] for c in r200["charges"]] == ["rental", "extension", "late_fee"]
    assert r200["total_charged_cents"] == 3000
    assert ok(env, "get_rental", rental_id="R211")["max_extension_hours"] == 18
    assert ok(env, "get_rental", rental_id="R207")["max_extension_hours"] == 24
    assert ok(env, "get_rental", rental_id="R209")["max_extension_hours"] == 0
    fails(env, "get_rental", "no rental R999", rental_id="R999")
    fails(env, "get_rental", "invalid arguments", rental_id="204")


def test_list_customer_rentals():
    env = verified(LENA)
    assert [
        r["rental_id"] for r in ok(env, "list_customer_rentals", customer_id="C301")["rentals"]
    ] == ["R204", "R180"]
    only = ok(env, "list_customer_rentals", customer_id="c301", status="returned")
    assert [r["rental_id"] for r in only["rentals"]] == ["R180"]
    fails(env, "list_customer_rentals", "not been verified", customer_id="C302")
    fails(env, "list_customer_rentals", "no customer C999", customer_id="C999")


@pytest.mark.parametrize(
    ("rental", "email", "amount", "unit", "due", "cents"),
    [
        ("R204", LENA, 2, "days", "2026-06-12T18:00", 3600),
        ("R204", LENA, 3, "hours", "2026-06-10T21:00", 900),
        ("R204", LENA, 10, "hours", "2026-06-11T04:00", 1800),  # capped at the daily rate
        ("R211", AIKO, 18, "hours", "2026-06-11T07:30", 3200),
        ("R207", SOFIA, 1, "days", "2026-06-11T12:00", 1800),
    ],
)
def test_extend_rental(rental, email, amount, unit, due, cents):
    env = verified(email)
    result = ok(env, "extend_rental", rental_id=rental, amount=amount, unit=unit)
    assert (result["due_at"], result["charged_cents"]) == (due, cents)
    row = env.select("rentals", {"id": rental})[0]
    assert row["due_at"] == due
    charge = env.select("charges", {"id": result["charge_id"]})[0]
    assert (charge["kind"], charge["amount_cents"], charge["rental_id"]) == (
        "extension",
        cents,
        rental,
    )


def test_extend_rental_refusals():
    env = verified(LENA, TOMAS, SOFIA, AIKO, NOAH)
    fails(
        make_environment(),
        "extend_rental",
        "not been verified",
        rental_id="R204",
        amount=1,
        unit="hours",
    )
    fails(env, "extend_rental", "overdue", rental_id="R209", amount=1, unit="days")
    fails(env, "extend_rental", "only active rentals", rental_id="R198", amount=1, unit="hours")
    err = fails(env, "extend_rental", "72 hours", rental_id="R207", amount=2, unit="days")
    assert "at most 24 more hours" in err
    err = fails(
        env,
        "extend_rental",
        "e-bike rentals can last at most 24 hours",
        rental_id="R211",
        amount=19,
        unit="hours",
    )
    assert "18 more hours" in err
    fails(env, "extend_rental", "invalid arguments", rental_id="R204", amount=2, unit="weeks")
    fails(env, "extend_rental", "invalid arguments", rental_id="R204", amount=0, unit="hours")
    fails(env, "extend_rental", "invalid arguments", rental_id="R204", amount=2)
    fails(env, "extend_rental", "no rental", rental_id="R998", amount=2, unit="hours")


def test_end_rental_on_time_and_late():
    env = verified(INES, TOMAS)
    done = ok(env, "end_rental", rental_id="R205", station="riverside park")
    assert (done["status"], done["return_station"], done["late_fee_cents"]) == (
        "returned",
        "Riverside Park",
        0,
    )
    assert env.select("bikes", {"id": "B110"})[0]["station_id"] == "ST3"
    late = ok(env, "end_rental", rental_id="R209", station="ST6")
    assert late["late_fee_cents"] == 1000 and late["late_fee"] == "€10.00"
    assert (
        env.select("charges", {"rental_id": "R209", "kind": "late_fee"})[0]["amount_cents"] == 1000
    )
    assert env.select("rentals", {"id": "R209"})[0]["returned_at"] == "2026-06-10T10:00"


def test_end_rental_refusals():
    env = verified(JONAS, NOAH)
    err = fails(env, "end_rental", "no free docks", rental_id="R212", station="Market Square")
    assert "Harbour Gate (5 free)" in err
    fails(env, "end_rental", "unknown station", rental_id="R212", station="Moon Base")
    fails(env, "end_rental", "already returned", rental_id="R198", station="ST1")
    fails(make_environment(), "end_rental", "not been verified", rental_id="R212", station="ST1")


def test_end_rental_of_a_damaged_bike_sends_it_to_maintenance():
    env = verified(OSKAR)
    ok(env, "report_damage", rental_id="R208", description="the box latch is broken")
    assert env.select("bikes", {"id": "B138"})[0]["status"] == "rented"
    ok(env, "end_rental", rental_id="R208", station="Old Town Depot")
    assert env.select("bikes", {"id": "B138"})[0]["status"] == "maintenance"


def test_reserve_bike():
    env = verified(JONAS)
    result = ok(
        env,
        "reserve_bike",
        customer_id="C308",
        station="Riverside Park",
        bike_type="e-bike",
        pickup_at="2026-06-11T09:00",
    )
    assert result["reservation_id"] == "RS415" and result["hold_until"] == "2026-06-11T09:30"
    row = env.select("reservations", {"id": "RS415"})[0]
    assert (row["station_id"], row["status"], row["bike_id"]) == ("ST3", "held", result["bike_id"])
    assert env.select("bikes", {"id": result["bike_id"]})[0]["status"] == "reserved"
    assert ok(env, "station_availability", station="ST3")["available"]["e-bike"] == 0


def test_reserve_bike_refusals():
    env = verified(JONAS, TOMAS, INES)
    base = {"customer_id": "C308", "station": "ST1", "bike_type": "city"}
    fails(env, "reserve_bike", "too soon", **base, pickup_at="2026-06-10T10:15")
    fails(env, "reserve_bike", "too far ahead", **base, pickup_at="2026-06-18T10:00")
    fails(
        env,
        "reserve_bike",
        "no e-bike is available at University Hill",
        **{**base, "station": "University Hill", "bike_type": "e-bike"},
        pickup_at="2026-06-11T09:00",
    )
    fails(
        env,
        "reserve_bike",
        "overdue rental (R209)",
        **{**base, "customer_id": "C302"},
        pickup_at="2026-06-11T09:00",
    )
    fails(env, "reserve_bike", "invalid arguments", **base, pickup_at="tomorrow 9am")
    fails(
        env,
        "reserve_bike",
        "invalid arguments",
        **{**base, "bike_type": "tandem"},
        pickup_at="2026-06-11T09:00",
    )
    fails(
        make_environment(),
        "reserve_bike",
        "not been verified",
        **base,
        pickup_at="2026-06-11T09:00",
    )
    for hour in ("09", "10"):
        ok(
            env,
            "reserve_bike",
            **{**base, "customer_id": "C309"},
            pickup_at=f"2026-06-11T{hour}:00",
        )
    fails(
        env,
        "reserve_bike",
        "pay-as-you-go plan allows",
        **{**base, "customer_id": "C309"},
        pickup_at="2026-06-11T11:00",
    )


def test_cancel_reservation_fees():
    env = verified(LENA, MAREK, AIKO)
    assert ok(env, "cancel_reservation", reservation_id="rs411")["fee_cents"] == 0
    late = ok(env, "cancel_reservation", reservation_id="RS412")
    assert late["fee_cents"] == 300 and late["fee"] == "€3.00"
    assert env.select("charges", {"reservation_id": "RS412"})[0]["kind"] == "cancellation_fee"
    assert ok(env, "cancel_reservation", reservation_id="RS414")["fee_cents"] == 0  # annual plan
    assert env.select("charges", {"reservation_id": "RS414"}) == []
    assert env.select("bikes", {"id": "B134"})[0]["status"] == "available"


def test_cancel_reservation_refusals():
    env = verified(LENA)
    fails(env, "cancel_reservation", "collected", reservation_id="RS405")
    fails(env, "cancel_reservation", "no reservation RS999", reservation_id="RS999")
    fails(env, "cancel_reservation", "not been verified", reservation_id="RS412")
    fails(env, "cancel_reservation", "invalid arguments", reservation_id="R412")


def test_report_damage():
    env = verified(OSKAR, PRIYA)
    report = ok(env, "report_damage", rental_id="R208", description="front brake squeaks")
    assert report["report_id"] == "D801" and report["bike_id"] == "B138"
    assert env.select("bikes", {"id": "B138"})[0]["needs_repair"] == 1
    recent = ok(env, "report_damage", rental_id="R200", description="rear light flickers")
    assert recent["report_id"] == "D802"  # returned 38 hours ago: still in the window
    bike = env.select("rentals", {"id": "R200"})[0]["bike_id"]
    assert env.select("bikes", {"id": bike})[0]["status"] == "maintenance"


def test_report_damage_refusals():
    env = verified(NOAH, OSKAR)
    fails(
        env,
        "report_damage",
        "more than 48 hours ago",
        rental_id="R198",
        description="the chain kept slipping",
    )
    fails(env, "report_damage", "at least 10 characters", rental_id="R208", description="broken")
    fails(env, "report_damage", "invalid arguments", rental_id="R208", description="  ")
    fails(
        env,
        "report_damage",
        "not been verified",
        rental_id="R204",
        description="the bell is missing",
    )


def test_station_availability():
    env = make_environment()
    market = ok(env, "station_availability", station="market square")
    assert market["free_docks"] == 0 and market["available"] == {"city": 7, "e-bike": 3, "cargo": 0}
    every = ok(env, "station_availability")["stations"]
    assert [s["station_id"] for s in every] == ["ST1", "ST2", "ST3", "ST4", "ST5", "ST6"]
    depot = every[4]
    assert depot["available"]["cargo"] == 1 and depot["free_docks"] == 1
    fails(env, "station_availability", "unknown station", station="Nowhere")


def test_refund_charge():
    env = verified(NOAH)
    refund = ok(env, "refund_charge", charge_id="ch7006", reason="charged twice")
    assert refund["refund_id"] == "RF901" and refund["amount_cents"] == 1800
    assert env.select("charges", {"id": "CH7006"})[0]["status"] == "refunded"
    assert env.select("refunds", {"charge_id": "CH7006"})[0]["reason"] == "charged twice"
    fails(env, "refund_charge", "already been refunded", charge_id="CH7006", reason="again")


def test_refund_charge_refusals():
    env = verified(MAREK)
    fails(env, "refund_charge", "more than 14 days ago", charge_id="CH7003", reason="dock broken")
    fails(env, "refund_charge", "no charge CH9999", charge_id="CH9999", reason="x")
    fails(env, "refund_charge", "not been verified", charge_id="CH7006", reason="twice")
    fails(env, "refund_charge", "invalid arguments", charge_id="CH7006", reason="")


async def test_user_apis():
    env = make_environment()
    status = await env.call_user_api("check_rental_status", {"rental_id": "R204", "email": LENA})
    assert status.result["due_at"] == "2026-06-10T18:00"
    other = await env.call_user_api("check_rental_status", {"rental_id": "R204", "email": NOAH})
    assert "not a rental on the account" in other.error
    unknown = await env.call_user_api("check_rental_status", {"rental_id": "R999", "email": LENA})
    assert "no rental" in unknown.error.lower()
    spot = await env.call_user_api("station_map", {"station": "Central Station"})
    assert spot.result["available"]["e-bike"] == 4
    assert len((await env.call_user_api("station_map", {})).result["stations"]) == 6
    assert (
        "unknown station"
        in (await env.call_user_api("station_map", {"station": "X"})).error.lower()
    )
