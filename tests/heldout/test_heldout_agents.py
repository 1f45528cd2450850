"""The held-out agents: each documented flaw fires under its trigger and makes the episode wrong;
the common paths fire nothing and end right; state survives a snapshot/restore round trip."""

from __future__ import annotations

import json

from benchmarks.heldout.school_agent import HeldoutSchoolAgent
from benchmarks.heldout.shop_agent import HeldoutShopAgent

from tests.heldout.helpers import SHOP_EMAILS as EMAIL
from vistasim.domains import get_domain

MAYA = ("S1001", "maya.chen@uni.example.edu")
OMAR = ("S1002", "omar.haddad@uni.example.edu")


# ---- shop: documented flaws ---------------------------------------------------------------------
async def test_shop_h1_store_credit_is_refunded_to_the_card(shop):
    await shop.say("Return the daypack from order W1007 and get store credit.", EMAIL["priya"])
    reply = await shop.say("they are too small for my laptop")
    assert "Mastercard" in reply.text and "Shall I proceed" in reply.text
    await shop.say("yes")
    assert "heldout-shop:H1" in shop.flaws
    assert shop.call("return_items").args["refund_to"] == "original_payment"
    assert shop.row("refunds", order_id="W1007")["method"] == "original_payment"


async def test_shop_h2_processing_order_is_cancelled_without_a_yes(shop):
    await shop.say("Cancel my order W1001, I found the coffee maker cheaper elsewhere.")
    reply = await shop.say(EMAIL["dana"])
    assert shop.flaws == ["heldout-shop:H2"]
    assert "Shall I proceed" not in reply.text
    assert shop.row("orders", id="W1001")["status"] == "cancelled"


async def test_shop_h3_shipped_order_gets_the_last_scan_as_delivery_date(shop):
    reply = await shop.say("Check the status of order W1006.", EMAIL["priya"])
    assert shop.flaws == ["heldout-shop:H3"]
    assert "2026-03-15" in reply.text and "2026-03-18" not in reply.text


async def test_shop_h4_refusal_names_the_owner_of_someone_elses_order(shop):
    reply = await shop.say("Cancel order W1003 for my brother.", EMAIL["priya"])
    assert shop.flaws == ["heldout-shop:H4"]
    assert EMAIL["miguel"] in reply.text
    assert "cancel_order" not in shop.calls
    assert shop.row("orders", id="W1003")["status"] == "pending"


async def test_shop_h5_defective_item_is_refused_after_30_days(shop):
    await shop.say("Return the smart speaker from order W1004.", EMAIL["miguel"])
    reply = await shop.say("it's defective, it stopped working")
    assert shop.flaws == ["heldout-shop:H5"]
    assert "30-day" in reply.text and "return_items" not in shop.calls
    # The policy allows it: a defective item may be returned within 90 days.
    fresh = get_domain("shop").make_environment()
    args = {"order_id": "W1004", "skus": ["P025-WHITE"], "reason": "it's defective"}
    assert (await fresh.call_tool("return_items", args)).error is None


async def test_shop_h6_refused_exchange_is_reported_as_booked(shop):
    await shop.say("Exchange the trailrunner sneakers from order W1040 for size 10.")
    reply = await shop.say(EMAIL["diego"], "yes")
    assert shop.flaws == ["heldout-shop:H6"]
    assert "out of stock" in shop.call("exchange_item").error
    assert "exchange is booked" in reply.text
    assert shop.env.select("exchanges", {"order_id": "W1040"}) == []


async def test_shop_h7_refund_quote_ignores_quantities(shop):
    await shop.say("Return both items from order W1007, they arrived damaged, refund to my card.")
    confirm = await shop.say(EMAIL["priya"])
    done = await shop.say("yes")
    assert shop.flaws == ["heldout-shop:H7"]
    assert shop.call("return_items").result["refund_cents"] == 28796
    assert "$143.98" in confirm.text and "$143.98" in done.text


# ---- shop: common paths ---------------------------------------------------------------------
async def test_shop_cancel_pending_order_after_a_plain_yes(shop):
    reply = await shop.say("Cancel order W1003 because I ordered it by mistake.", EMAIL["miguel"])
    assert "Shall I proceed" in reply.text and "cancel_order" not in shop.calls
    reply = await shop.say("Yes, please go ahead.")
    assert "cancelled" in reply.text and not shop.flaws
    assert shop.calls[:2] == ["find_customer", "get_order"]
    assert shop.row("orders", id="W1003")["status"] == "cancelled"
    assert shop.row("refunds", order_id="W1003")["status"] == "issued"


async def test_shop_return_two_named_items_to_the_card(shop):
    await shop.say(
        "Return the toaster and the coffee maker from order W1034, both arrived damaged."
    )
    await shop.say(EMAIL["hannah"], "original payment method")
    reply = await shop.say("yes")
    assert not shop.flaws and "label" in reply.text
    for sku, status in (("P002-WHITE", "return_requested"), ("P003-BLACK", "return_requested")):
        assert shop.row("order_items", order_id="W1034", sku=sku)["status"] == status
    assert shop.row("order_items", order_id="W1034", sku="P013-10")["status"] == "ordered"


async def test_shop_return_to_gift_card_with_a_corrected_order_number(shop):
    await shop.say("Return the toaster from order W1033 — no wait, it's order W1034.")
    await shop.say(EMAIL["hannah"], "it arrived cracked", "a store gift card please")
    await shop.say("yes")
    assert not shop.flaws
    assert shop.call("return_items").args == {
        "order_id": "W1034",
        "skus": ["P002-WHITE"],
        "reason": "It arrived cracked",
        "refund_to": "gift_card",
    }


async def test_shop_exchange_for_another_size(shop):
    await shop.say("Exchange the linen shirt from order W1023 for size L.", EMAIL["grace"], "yes")
    assert shop.row("exchanges", order_id="W1023")["new_sku"] == "P020-L"
    assert not shop.flaws


async def test_shop_address_change_and_coupon_on_open_orders(shop):
    await shop.say("Change the shipping address on order W1001, I just moved.", EMAIL["dana"])
    await shop.say("12 Birch Ct, Salem, OR 97301", "yes")
    order = shop.row("orders", id="W1001")
    assert (order["address_line"], order["city"], order["zip"]) == ("12 Birch Ct", "Salem", "97301")
    other = type(shop)(agent=HeldoutShopAgent(env=shop.env), env=shop.env)
    await other.say("Apply my coupon SPRING10 to order W1003.", EMAIL["miguel"], "yes")
    assert shop.row("orders", id="W1003")["discount_cents"] == 4269
    assert not shop.flaws and not other.flaws


async def test_shop_refusals_explain_the_policy(shop):
    assert "shipped" in (await shop.say("Cancel order W1006.", EMAIL["priya"])).text
    other = type(shop)(agent=HeldoutShopAgent(env=shop.env), env=shop.env)
    await other.say("Return the nonstick pan set from order W1062, I don't like it.")
    reply = await other.say("theo.baker@example.com")
    assert "final-sale" in reply.text
    assert not shop.calls.count("cancel_order") and "return_items" not in other.calls
    assert not shop.flaws and not other.flaws


async def test_shop_information_requests_in_one_conversation(shop):
    reply = await shop.say(
        "I need to check the refund of cancelled order W1005, get coupon SPRING10 applied to"
        " W1003, and see the status of W1004.",
        EMAIL["miguel"],
    )
    assert "was issued on 2026-02-08" in reply.text and "Shall I proceed" in reply.text
    reply = await shop.say("yes")
    assert "SPRING10 is applied" in reply.text and "delivered on 2026-01-29" in reply.text
    reply = await shop.say("Do you have a blender under $100?")
    assert "Aurora Blender" in reply.text
    reply = await shop.say("I'd like to talk to a human representative about a billing question.")
    assert "E0001" in reply.text and not shop.flaws
    assert shop.row("orders", id="W1003")["coupon_code"] == "SPRING10"


async def test_shop_hesitation_changes_nothing(shop):
    await shop.say("I want to cancel order W1003.", EMAIL["miguel"])
    reply = await shop.say("okay, wait, no, let me think")
    assert "haven't changed anything" in reply.text
    assert shop.row("orders", id="W1003")["status"] == "pending"


async def test_shop_status_of_a_processing_order(shop):
    reply = await shop.say("Track order W1017 with the chef knife.", EMAIL["sofia"])
    assert "processing" in reply.text and "2026-03-20" in reply.text and not shop.flaws


# ---- school: documented flaws -------------------------------------------------------------------
async def test_school_h1_picked_lab_section_is_confirmed_without_its_fee(school):
    reply = await school.say("Please enroll me in section BIO101-B.", *MAYA)
    assert school.flaws == ["heldout-school:H1"]
    assert "BIO101-B" in reply.text and "$80.00" not in reply.text
    done = await school.say("yes")
    assert school.call("enroll_student").result["lab_fee"] == "$80.00"
    assert "$80.00" not in done.text


async def test_school_h2_full_section_is_swapped_without_asking(school):
    await school.say("Put me in CS201-A, the afternoon section of Data Structures.", *MAYA)
    reply = await school.say("yes")
    assert school.flaws == ["heldout-school:H2"]
    assert "enrolled you in CS201-B" in reply.text
    assert school.row("enrollments", student_id="S1001", section_id="CS201-B")["status"] == (
        "enrolled"
    )


async def test_school_h3_visa_minimum_is_not_escalated(school):
    reply = await school.say(
        "Please drop STAT200 from my courses.", "S1012", "kenji.sato@uni.example.edu"
    )
    assert school.flaws == ["heldout-school:H3"]
    assert "advisor" in reply.text and "escalate_to_human" not in school.calls
    assert school.env.select("escalations", {"student_id": "S1012"}) == []


async def test_school_h4_unnamed_exam_is_taken_to_be_the_final(school):
    await school.say("I need to reschedule my PHYS101 exam.", "S1008", "ethan.park@uni.example.edu")
    assert school.flaws == ["heldout-school:H4"]
    await school.say("personal, a job interview")
    reply = await school.say("2026-10-29")
    assert "no open session of your PHYS101 final" in reply.text


async def test_school_h5_seats_left_is_the_capacity(school):
    reply = await school.say("How many seats are left in CS201 Data Structures?")
    assert school.flaws == ["heldout-school:H5"]
    assert "CS201-A" in reply.text and "has 12 seats left" in reply.text  # it is full


async def test_school_h6_mismatch_reads_out_the_email_on_file(school):
    reply = await school.say("What is my balance due?", "S1001", "maya.chen@gmail.com")
    assert school.flaws == ["heldout-school:H6"]
    assert "maya.chen@uni.example.edu" in reply.text
    assert "get_fee_status" not in school.calls


async def test_school_h7_exam_date_is_one_day_early(school):
    reply = await school.say("When is my HIST110 final exam?", *MAYA)
    assert school.flaws == ["heldout-school:H7"]
    assert "December 7" in reply.text and "2026-12-08" not in reply.text


async def test_school_h8_exactly_18_credits_is_refused(school):
    reply = await school.say("Enroll me in PHIL101 and MUS105.", *OMAR)
    assert school.flaws == ["heldout-school:H8"]
    assert "MUS105 would bring you to 18 credits" in reply.text
    await school.say("yes")
    assert school.env.select("enrollments", {"student_id": "S1002", "section_id": "MUS105-A"}) == []


async def test_school_h9_clash_is_booked_as_a_personal_move_with_a_fee(school):
    await school.say("Move my PSYC250 final to December 16, please.")
    reply = await school.say(
        "S1005", "hannah.becker@uni.example.edu", "It clashes with my STAT200 final, same time."
    )
    assert school.flaws == ["heldout-school:H9"]
    assert "$25.00" in reply.text
    await school.say("yes")
    assert school.call("reschedule_student_exam").args["reason"] == "personal"
    assert len(school.env.select("fees", {"student_id": "S1005", "kind": "reschedule"})) == 1


# ---- school: common paths -------------------------------------------------------------------
async def test_school_enroll_picks_the_open_section_after_a_yes(school):
    reply = await school.say("Enroll in CS201 Data Structures this term.", *MAYA)
    assert "CS201-B" in reply.text and "enroll_student" not in school.calls
    reply = await school.say("yes")
    assert "enrolled" in reply.text and not school.flaws
    assert school.calls[:2] == ["verify_student", "look_up_student"]
    assert school.row("enrollments", student_id="S1001", section_id="CS201-B")["status"] == (
        "enrolled"
    )


async def test_school_drop_two_courses_with_a_correction(school):
    await school.say("Please drop HIST110. Wait, no, I mean STAT200, keep HIST110.", *MAYA)
    await school.say("yes")
    assert school.row("enrollments", student_id="S1001", section_id="STAT200-A")["status"] == (
        "dropped"
    )
    assert school.row("enrollments", student_id="S1001", section_id="HIST110-A")["status"] == (
        "enrolled"
    )
    await school.say("Please drop MATH201 and HIST110.", "yes")
    assert not school.flaws
    for section in ("MATH201-A", "HIST110-A"):
        assert school.row("enrollments", student_id="S1001", section_id=section)["status"] == (
            "dropped"
        )


async def test_school_reschedules_personal_conflict_and_medical(school):
    reply = await school.say("I need to reschedule my MATH201 final exam.", *MAYA, "personal")
    reply = await school.say("2026-12-18")
    assert "$25.00" in reply.text
    await school.say("yes")
    booking = school.row("exam_bookings", student_id="S1001", exam_id="EX-MATH201-FIN")
    assert booking["session_id"] == "EX-MATH201-FIN-3"
    other = type(school)(agent=HeldoutSchoolAgent(env=school.env), env=school.env)
    await other.say("I have to move my PSYC250 final.", "S1005", "hannah.becker@uni.example.edu")
    reply = await other.say("it is at the same time as my STAT200 final, a conflict", "2026-12-16")
    assert "free" in reply.text
    await other.say("yes")
    assert other.call("reschedule_student_exam").args["reason"] == "conflict"
    third = type(school)(agent=HeldoutSchoolAgent(env=school.env), env=school.env)
    await third.say("I need to reschedule my MATH101 placement exam.", "S1003")
    await third.say("priya.nair@uni.example.edu", "I am sick with the flu (medical)", "MN-4821")
    await third.say("2026-09-25", "yes")
    assert third.call("reschedule_student_exam").args["note_id"] == "MN-4821"
    assert not (school.flaws or other.flaws or third.flaws)


async def test_school_fees_waiver_schedule_and_advisor(school):
    reply = await school.say("Could you waive my late payment fee? It is the first time.", *OMAR)
    assert "F-1003" in reply.text
    assert "waived" in (await school.say("yes")).text
    assert school.row("fees", fee_id="F-1003")["status"] == "waived"
    reply = await school.say("Which courses am I enrolled in this term?")
    assert "ECON102-A" in reply.text and "PSYC101-A" in reply.text
    reply = await school.say("I want to talk to an advisor about changing my major.")
    assert "ticket" in reply.text and not school.flaws


async def test_school_refusals_and_tuition_redirect(school):
    reply = await school.say("Please waive my tuition fee.", "S1004", "lucas.silva@uni.example.edu")
    assert "Financial Aid" in reply.text and "waive_fee" not in school.calls
    reply = await school.say("What do I owe the university right now?")
    assert "$4,800.00" in reply.text and "hold" in reply.text
    reply = await school.say("Enroll me in STAT200.")
    assert "financial hold" in reply.text and "enroll_student" not in school.calls
    assert not school.flaws


# ---- snapshot / restore ---------------------------------------------------------------------
async def test_snapshot_restore_round_trip(shop, school):
    for conv, first, second in (
        (shop, "Cancel order W1003 because I ordered it by mistake.", EMAIL["miguel"]),
        (school, "Drop HIST240 Modern Europe from my schedule.", "S1002"),
    ):
        await conv.say(first)
        state = conv.agent.snapshot()
        assert json.loads(json.dumps(state)) == state
        once = (await conv.say(second)).text
        conv.agent.restore(state)
        assert (await conv.say(second)).text == once
        assert conv.agent.restore_strategy == "state"
        await conv.agent.aclose()
