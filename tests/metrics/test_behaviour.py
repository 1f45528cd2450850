"""Behavioural failure detectors, the policy rule kinds they need, domain rule files, and how the
catalogue and the terminal report put named causes first."""

import pytest
from pydantic import ValidationError
from rich.console import Console

from tests.metrics._builders import agent, criteria, episode, make_run, stop, tool, user
from vistasim.errors import ConfigError
from vistasim.events import ToolCall
from vistasim.metrics import (
    BehaviourSpec,
    DomainRules,
    EntityKind,
    PolicyRule,
    ResultValue,
    catalogue_failures,
    compute_metrics,
    detect_behaviour,
    detect_failures,
    format_metrics,
    load_domain_rules,
    rules_for_run,
)

SHOP_LIKE = BehaviourSpec(
    entities=[
        EntityKind(name="order", pattern=r"\bW\d{4}\b"),
        EntityKind(name="course", pattern=r"\b[A-Z]{2,5}\d{3}(?:-[A-Z])?\b"),
        EntityKind(name="item", record_id="sku", record_name="product_name"),
    ],
    write_tools=["cancel_order", "return_items", "enroll"],
)
ORDER = {
    "id": "W1034",
    "items": [
        {"sku": "P002-WHITE", "product_name": "Crisp Toaster"},
        {"sku": "P003-BLACK", "product_name": "Brewmaster Coffee Maker"},
        {"sku": "P013-10", "product_name": "Summit Hiking Boots"},
    ],
}


def result(name, value, **args):
    return ToolCall(name=name, args=args, result=value)


def labels(events, spec=SHOP_LIKE):
    return [f.label for f in detect_behaviour(make_run([episode("e1", "s1", events)]), spec)]


# ignored-correction


def test_acting_on_a_value_the_user_took_back_is_flagged_with_its_evidence():
    events = [
        user("Cancel order W1010 — sorry, I mean W1011."),
        tool("get_order", order_id="W1010"),
        agent("Shall I proceed (yes/no)?"),
        user("Yes."),
        tool("cancel_order", order_id="W1010"),
        agent("Done."),
    ]
    run = make_run([episode("e1", "s1", events)])
    [failure] = detect_behaviour(run, SHOP_LIKE)
    assert (failure.kind, failure.label) == ("behaviour", "ignored-correction")
    ids = [s.id for s in run.episodes[0].events]
    assert failure.event_ids == [ids[0], ids[1], ids[4]]
    assert "W10" not in failure.description


def test_using_the_corrected_value_is_not_flagged():
    events = [
        user("Cancel order W1010 — sorry, I mean W1011."),
        tool("cancel_order", order_id="W1011"),
        agent("Done."),
    ]
    assert labels(events) == []


@pytest.mark.parametrize(
    "message",
    [
        "That's not right: it should be order W1011, not W1010.",
        "No, not W1010 — it's order W1011.",
        "Drop W1010. Wait, no, I mean W1011, keep W1010.",
        "Return it from order W1010 — no wait, it's order W1011.",
    ],
)
def test_correction_phrasings_are_recognized(message):
    assert labels([user(message), tool("get_order", order_id="W1010")]) == ["ignored-correction"]


def test_a_correction_matches_the_value_inside_a_longer_id():
    events = [
        user("Enroll me in ECON102. Sorry, no, I mean PHIL101."),
        tool("enroll", section="ECON102-A"),
    ]
    assert labels(events) == ["ignored-correction"]


def test_the_users_correction_quoted_in_a_free_text_field_is_not_acting_on_the_old_value():
    # A complaint logged "in your words" carries "W1010... actually, make that W1011".
    said = "The courier was late with W1010... actually, make that W1011."
    events = [
        user(said),
        tool("cancel_order", order_id="W1011", details=said),
        agent("Done."),
    ]
    assert labels(events) == []
    assert labels([user(said), tool("cancel_order", order_id="W1011", note="W1010")]) == [
        "ignored-correction"
    ]


def test_a_corrected_day_is_no_correction_of_the_order_before_it():
    # Found on a florist desk written blind: "move order W1010 to Tuesday 15 December — sorry,
    # I mean Monday 14 December. ... customer number: W2002" paired the order before the cue
    # with the next value of its kind, far after it, and the move of W1010 to the 14th was
    # "acted on a value the user had corrected".
    said = ("Please move order W1010 to Tuesday 15 December — sorry, I mean Monday 14 December. "
            "Same afternoon slot. My other order is W2002.")  # fmt: skip
    right = tool("cancel_order", order_id="W1010", delivery_date="2026-12-14")
    assert labels([user(said), right, agent("Done.")]) == []
    wrong = tool("cancel_order", order_id="W1010", delivery_date="2026-12-15")
    assert labels([user(said), wrong, agent("Done.")]) == ["ignored-correction"]


def test_a_corrected_time_takes_back_no_day_named_in_a_later_sentence():
    # Found on a tattoo desk written blind: "Monday 14 December at 4pm — sorry, I mean 4:20pm.
    # For reference, ... 3 February 1999" paired the day before the cue with the birth date in
    # the next sentence, and the booking on the 14th at 16:20 was "acted on a value the user
    # had corrected". The value given instead is said in the cue's own sentence.
    said = ("I need to book a consultation on Monday 14 December at 4pm — sorry, I mean 4:20pm. "
            "For reference, the client number is W2002 and 3 February 1999.")  # fmt: skip
    right = tool("book", start="2026-12-14 16:20")
    assert labels([user(said), right, agent("Done.")]) == []
    oops = "Please move W1010 to Tuesday 15 December. Oops. I mean Monday 14 December."
    wrong = tool("cancel_order", order_id="W1010", delivery_date="2026-12-15")
    assert labels([user(oops), wrong, agent("Done.")]) == ["ignored-correction"]


def test_naming_the_old_value_again_later_asks_for_it_again():
    events = [
        user("Cancel W1010, sorry, I mean W1011."),
        agent("Which one?"),
        user("Actually cancel W1010 as well."),
        tool("cancel_order", order_id="W1010"),
    ]
    assert labels(events) == []


def test_adding_a_value_after_actually_is_not_a_correction():
    events = [
        user("Check W1010; actually, also W1011 please."),
        tool("get_order", order_id="W1010"),
    ]
    assert labels(events) == []


def test_a_failed_call_with_the_old_value_is_not_acting_on_it():
    failing = ToolCall(name="get_order", args={"order_id": "W1010"}, error="not found")
    assert labels([user("W1010 — sorry, I mean W1011"), failing]) == []


# partial-items


def test_writing_for_one_of_two_listed_items_and_reporting_done_is_flagged():
    events = [
        user("I want to return the toaster and the coffee maker from order W1034."),
        result("get_order", ORDER, order_id="W1034"),
        tool("return_items", order_id="W1034", skus=["P002-WHITE"]),
        agent("Done — your return for Crisp Toaster is open."),
    ]
    assert labels(events) == ["partial-items"]


def test_writing_for_every_listed_item_is_not_flagged():
    events = [
        user("I want to return the toaster and the coffee maker from order W1034."),
        result("get_order", ORDER, order_id="W1034"),
        tool("return_items", order_id="W1034", skus=["P002-WHITE", "P003-BLACK"]),
        agent("Done."),
    ]
    assert labels(events) == []


def test_listed_codes_count_as_items_too():
    events = [
        user("Please drop MATH201 and HIST110."),
        tool("enroll", section="MATH201-A"),
        agent("Done — MATH201-A has been dropped."),
    ]
    assert labels(events) == ["partial-items"]


def test_a_partial_write_without_saying_done_is_not_flagged():
    events = [
        user("Please drop MATH201 and HIST110."),
        tool("enroll", section="MATH201-A"),
        agent("MATH201-A is dropped; HIST110 needs an advisor."),
    ]
    assert labels(events) == []


def test_a_field_named_like_an_id_is_no_second_item():
    spec = BehaviourSpec(entities=[EntityKind(name="id", pattern=r"\b[A-Za-z]+-?\d[\w-]*\b")])
    events = [
        user("Add my friend as a driver. My booking is CLH-20417 and my last4 is 6659."),
        tool("add_driver", booking_ref="CLH-20417", driver="Lucy"),
        agent("Done: Lucy is now a driver on CLH-20417."),
    ]
    assert labels(events, spec) == []
    listed = [user("Cancel CLH-20417 and CLH-20418 please."), *events[1:]]
    assert labels(listed, spec) == ["partial-items"]


def test_values_named_apart_are_not_a_list():
    events = [
        user("Move my PSYC250 final; it clashes with STAT200."),
        tool("enroll", section="PSYC250-A"),
        agent("Done."),
    ]
    assert labels(events) == []


def test_reads_do_not_count_as_handling_an_item():
    events = [
        user("Return the toaster and the coffee maker."),
        result("get_order", ORDER, order_id="W1034"),
        agent("Done."),
    ]
    assert labels(events) == []


# ignored-amendment


def test_a_yes_with_a_change_that_the_write_lacks_is_flagged():
    events = [
        agent("I can enroll you in section BIO101-A. Shall I proceed (yes/no)?"),
        user("Yes, but make it BIO101-B."),
        tool("enroll", section="BIO101-A"),
        agent("Done."),
    ]
    assert labels(events) == ["ignored-amendment"]


def test_a_yes_with_a_change_that_the_write_carries_is_not_flagged():
    events = [
        agent("I can enroll you in section BIO101-A. Shall I proceed (yes/no)?"),
        user("Yes, but make it BIO101-B."),
        tool("enroll", section="BIO101-B"),
    ]
    assert labels(events) == []


def test_a_refused_write_without_the_change_still_ignored_it():
    # The agent set out to enrol in the proposed section; the system refusing it for another
    # reason does not make the agent's reading of "yes, but" right.
    refused = "BIO220 requires BIO101, which S1001 has not passed."
    events = [
        agent("I can enroll you in section BIO220-A. Shall I proceed (yes/no)?"),
        user("Okay, but make that BIO101 instead."),
        tool("enroll", error=refused, section="BIO220-A"),
        agent(f"I couldn't do that: {refused}"),
    ]
    assert labels(events) == ["ignored-amendment"]
    events[2] = tool("enroll", error="BIO101-B is full", section="BIO101-B")
    assert labels(events) == []


def test_an_amendment_to_a_question_that_is_not_a_confirmation_is_not_checked():
    events = [
        agent("Which section would you like, BIO101-A?"),
        user("Yes, but make it BIO101-B."),
        tool("enroll", section="BIO101-A"),
    ]
    assert labels(events) == []


# unclear-confirmation


def test_acting_on_a_yes_that_also_says_wait_no_is_flagged():
    events = [
        agent("I'll cancel order W1003. Shall I proceed (yes/no)?"),
        user("Okay, hmm, wait, no — don't cancel it yet."),
        tool("cancel_order", order_id="W1003"),
        agent("Done."),
    ]
    assert labels(events) == ["unclear-confirmation"]


def test_trying_to_act_on_a_yes_that_also_says_wait_no_is_flagged_when_refused_too():
    events = [
        agent("I'll cancel order W1003. Shall I proceed (yes/no)?"),
        user("Okay, hmm, wait, no — don't cancel it yet."),
        tool("cancel_order", error="W1003 has shipped", order_id="W1003"),
    ]
    assert labels(events) == ["unclear-confirmation"]
    events[2] = tool("get_order", error="W1003 has shipped", order_id="W1003")
    assert labels(events) == []


def test_a_plain_yes_is_not_unclear():
    events = [
        agent("I'll cancel order W1003. Shall I proceed (yes/no)?"),
        user("Sure, do it."),
        tool("cancel_order", order_id="W1003"),
    ]
    assert labels(events) == []


def test_asking_again_after_an_unclear_answer_is_not_flagged():
    events = [
        agent("I'll cancel order W1003. Shall I proceed (yes/no)?"),
        user("Okay, hmm, wait, no."),
        agent("Sorry, I need a clear yes or no."),
        user("Yes."),
        tool("cancel_order", order_id="W1003"),
    ]
    assert labels(events) == []


def test_errored_episodes_are_not_read():
    events = [user("W1010 — sorry, I mean W1011"), tool("get_order", order_id="W1010")]
    run = make_run([episode("e1", "s1", events, status="errored")])
    assert detect_behaviour(run, SHOP_LIKE) == []


def test_the_generic_spec_finds_corrections_of_any_id_like_value():
    events = [user("Course ABC123, oops, ABC124."), tool("anything", code="ABC123")]
    assert labels(events, BehaviourSpec()) == ["ignored-correction"]


def test_entity_kind_needs_exactly_one_source():
    with pytest.raises(ValidationError, match="either pattern"):
        EntityKind(name="item", pattern="x", record_id="sku", record_name="name")
    with pytest.raises(ValidationError, match="either pattern"):
        EntityKind(name="item", record_id="sku")


# policy rule kinds


OWNERSHIP = PolicyRule(
    id="ownership",
    description="change only the verified customer's orders",
    tool=["cancel_order", "update_address"],
    requires_equal=[
        ResultValue(tool="get_order", field="customer_id", same_arg="order_id"),
        ResultValue(tool="find_customer", field="id"),
    ],
)


def test_requires_equal_flags_acting_on_someone_elses_order():
    events = [
        result("get_order", {"customer_id": "C2"}, order_id="W1"),
        result("find_customer", {"id": "C3"}, email="x@y.z"),
        tool("update_address", order_id="W1"),
    ]
    [failure] = detect_failures(make_run([episode("e1", "s1", events)]), [OWNERSHIP])
    assert (failure.kind, failure.label) == ("policy", "ownership")


def test_requires_equal_passes_when_the_values_match_for_that_order():
    events = [
        result("get_order", {"customer_id": "C3"}, order_id="W1"),
        result("get_order", {"customer_id": "C9"}, order_id="W2"),
        result("find_customer", {"id": "C3"}, email="x@y.z"),
        tool("cancel_order", order_id="W1"),
    ]
    assert detect_failures(make_run([episode("e1", "s1", events)]), [OWNERSHIP]) == []


def test_requires_equal_flags_a_value_never_read():
    events = [
        result("get_order", {"customer_id": "C3"}, order_id="W1"),
        tool("cancel_order", order_id="W1"),
    ]
    assert len(detect_failures(make_run([episode("e1", "s1", events)]), [OWNERSHIP])) == 1


STEPS = PolicyRule(
    id="steps",
    description="ask the reason and confirm",
    tool="reschedule",
    requires_agent_said=["reason", r"shall i proceed|yes/no"],
)


def test_requires_agent_said_flags_a_call_without_the_questions():
    events = [user("move it to Dec 16"), agent("What's your ID?"), tool("reschedule")]
    [failure] = detect_failures(make_run([episode("e1", "s1", events)]), [STEPS])
    assert failure.label == "steps"


def test_requires_agent_said_passes_when_every_pattern_was_said_before():
    events = [
        agent("What's the reason for the change?"),
        user("personal"),
        agent("A $25 fee applies. Shall I proceed (yes/no)?"),
        user("yes"),
        tool("reschedule"),
    ]
    assert detect_failures(make_run([episode("e1", "s1", events)]), [STEPS]) == []


def test_requires_agent_said_counts_only_what_was_said_since_the_previous_call():
    events = [
        agent("What's the reason? Shall I proceed (yes/no)?"),
        tool("reschedule"),
        agent("Done."),
        tool("reschedule"),
    ]
    run = make_run([episode("e1", "s1", events)])
    [failure] = detect_failures(run, [STEPS])
    assert failure.event_ids == [run.episodes[0].events[3].id]


def test_requires_agent_said_rejects_a_broken_pattern_with_the_fix():
    with pytest.raises(ValidationError, match="escape special characters"):
        PolicyRule(id="r", description="d", tool="t", requires_agent_said=["(yes/no"])


def test_requires_equal_needs_two_values():
    with pytest.raises(ValidationError, match="at least two"):
        PolicyRule(id="r", description="d", tool="t", requires_equal=[OWNERSHIP.requires_equal[0]])


# domain rule files


@pytest.mark.parametrize("domain", ["shop", "school"])
def test_each_built_in_domain_ships_valid_rules(domain):
    rules = load_domain_rules(domain)
    assert rules.rules and rules.behaviour.write_tools
    assert len({r.id for r in rules.rules}) == len(rules.rules)


def test_rules_load_from_a_path_and_bad_files_say_where(tmp_path):
    good = tmp_path / "policy_rules.yaml"
    good.write_text(
        "rules:\n  - {id: r, description: d, tool: t, max_calls: 1}\n", encoding="utf-8"
    )
    assert load_domain_rules(good).rules[0].id == "r"
    bad = tmp_path / "bad.yaml"
    bad.write_text("rules: [{id: r, description: d, tool: t}]\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="bad.yaml"):
        load_domain_rules(bad)
    with pytest.raises(ConfigError, match="built-in domain"):
        load_domain_rules("no-such-domain")


def _domain_causes(domain, events):
    rules = load_domain_rules(domain)
    run = make_run([episode("e1", "s1", events)])
    found = detect_failures(run, rules.rules) + detect_behaviour(run, rules.behaviour)
    return [f.label for f in found if f.kind in ("policy", "behaviour")]


def test_the_shops_hedged_confirmation_flaw_is_named_by_one_cause():
    events = [
        user("Can you cancel order W1003? My email is miguel.alvarez@example.com."),
        result("find_customer", {"id": "C1002"}, email="miguel.alvarez@example.com"),
        result("get_order", {"customer_id": "C1002"}, order_id="W1003"),
        agent("I'll cancel order W1003 and refund it. Shall I proceed (yes/no)?"),
        user("Okay, hmm, wait, no — don't cancel it yet."),
        tool("cancel_order", order_id="W1003", reason="customer request"),
        agent("Done — order W1003 has been cancelled."),
    ]
    assert _domain_causes("shop", events) == ["unclear-confirmation"]


def test_the_schools_yes_but_flaw_is_named_by_one_cause():
    events = [
        user("I'd like to enroll in BIO101. Student ID S1001, maya.chen@uni.example.edu."),
        tool("verify_student", student_id="S1001", email="maya.chen@uni.example.edu"),
        agent("I can enroll you in section BIO101-A. Shall I proceed (yes/no)?"),
        user("Yes, but make it BIO101-B."),
        tool("enroll_student", student_id="S1001", section_id="BIO101-A"),
        agent("Done — you're enrolled in BIO101-A."),
    ]
    assert _domain_causes("school", events) == ["ignored-amendment"]


def test_duplicate_rule_ids_are_rejected():
    rule = {"id": "r", "description": "d", "tool": "t", "max_calls": 1}
    with pytest.raises(ValidationError, match="used twice"):
        DomainRules.model_validate({"rules": [rule, rule]})


def test_a_run_of_a_built_in_domain_gets_that_domains_rules():
    run = make_run([])
    shop_run = type(run)(**{**run.__dict__, "config": {"environment": {"target": "shop"}}})
    assert rules_for_run(shop_run) == load_domain_rules("shop")
    assert rules_for_run(run) == DomainRules()


# catalogue and report


def _flawed_run():
    corrected = [
        user("Cancel W1010 — sorry, I mean W1011."),
        tool("cancel_order", order_id="W1010"),
        agent("Done — [bold]cancelled[/bold]."),
        criteria(False, "state orders where id=W1011 expect status=cancelled"),
        stop(),
    ]
    both = [*corrected[:3], criteria(False, "something else"), stop()]
    fine = [user("Cancel W1012."), tool("cancel_order", order_id="W1012"), agent("Done."), stop()]
    return make_run(
        [episode("e1", "s1", corrected), episode("e2", "s2", both), episode("e3", "s3", fine)]
    )


async def test_catalogue_lists_named_causes_first_and_links_explained_symptoms():
    catalogue = await catalogue_failures(_flawed_run(), behaviour=SHOP_LIKE)
    [cause] = [u for u in catalogue.unique if u.id in catalogue.causes]
    assert catalogue.unique[0] == cause
    assert (cause.label, cause.episodes) == ("ignored-correction", ["e1", "e2"])
    symptoms = {u.description: u.id for u in catalogue.unique[1:]}
    assert set(catalogue.explained_by) == set(symptoms.values())
    assert set(catalogue.explained_by.values()) == {cause.id}


async def test_catalogue_without_a_spec_runs_the_generic_detectors():
    catalogue = await catalogue_failures(_flawed_run())
    causes = [u for u in catalogue.unique if u.id in catalogue.causes]
    assert [(c.label, c.episodes) for c in causes] == [("ignored-correction", ["e1", "e2"])]


async def test_a_symptom_spanning_two_causes_is_not_linked():
    catalogue = await catalogue_failures(
        _flawed_run(),
        behaviour=SHOP_LIKE,
        rules=[PolicyRule(id="one", description="d", tool="cancel_order", max_calls=0)],
    )
    assert len(catalogue.causes) == 2
    assert catalogue.explained_by == {}
    # Linked to neither, the two unmet criteria are still no distinct failures: both causes
    # show in each of their episodes.
    symptoms = [u.id for u in catalogue.unique if u.id not in catalogue.causes]
    assert len(symptoms) == 2 and set(catalogue.covered) == set(symptoms)
    assert catalogue.distinct == 2


async def test_format_metrics_shows_named_causes_before_symptoms():
    report = await compute_metrics(_flawed_run(), behaviour=SHOP_LIKE)
    console = Console(width=200, record=True, color_system=None)
    console.print(format_metrics(report))
    text = console.export_text()
    assert text.index("Unique failures: named causes") < text.index("Unique failures: symptoms")
    assert "acted on a value the user had corrected" in text
    assert "e1, e2" in text


def test_requires_agent_said_covers_calls_made_in_one_go_after_one_confirmation():
    events = [
        agent("I'll drop MATH201 and HIST110. Shall I proceed (yes/no)? What's the reason?"),
        tool("reschedule"),
        tool("reschedule"),
        agent("Done, both."),
    ]
    run = make_run([episode("e1", "s1", events)])
    assert detect_failures(run, [STEPS]) == []


def test_a_second_call_in_one_go_needs_its_own_mention_in_the_confirmation():
    events = [
        agent("I'll enroll you in CS201-A. Shall I proceed (yes/no)? What's the reason?"),
        ToolCall(name="reschedule", args={"section_id": "CS201-A"}, error="CS201-A is full"),
        ToolCall(name="reschedule", args={"section_id": "CS201-B"}, result={}),
        agent("CS201-A is full, so I've put you in CS201-B."),
    ]
    run = make_run([episode("e1", "s1", events)])
    [failure] = [f for f in detect_failures(run, [STEPS]) if f.label == "steps"]
    assert failure.event_ids == [run.episodes[0].events[2].id]


def test_a_day_the_user_took_back_and_booked_anyway_is_flagged_in_any_domain():
    # Found on a coworking desk written blind (its flaw F2 reached the verdict by the criteria
    # only): "on Thursday 17 December — sorry, I meant Friday 18 December", booked on the 17th.
    said = user("Book the Nectar room at 9am on Thursday 17 December — sorry, I meant Friday "
                "18 December.")  # fmt: skip
    wrong = [said, tool("book_room", room_id="nectar", day="2026-12-17", start="09:00")]
    assert labels(wrong, BehaviourSpec()) == ["ignored-correction"]
    right = [said, tool("book_room", room_id="nectar", day="2026-12-18", start="09:00")]
    assert labels(right, BehaviourSpec()) == []
    # Two days asked for together take nothing back.
    both = [user("Book it on 17 December and on 18 December."),
            tool("book_room", day="2026-12-17"), tool("book_room", day="2026-12-18")]  # fmt: skip
    assert labels(both, BehaviourSpec()) == []
