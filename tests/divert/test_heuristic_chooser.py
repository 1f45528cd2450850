import random

import pytest

from vistasim.divert import HeuristicChooser, UserTurn


def turns(*befores: str) -> list[UserTurn]:
    """One `say` turn per agent message; the first answers nothing when its message is ''."""
    return [
        UserTurn(index=i, kind="say", text=f"user message {i}", before=before)
        for i, before in enumerate(befores)
    ]


async def choose(path: list[UserTurn], *, seed: int = 0, exclude=()):
    return await HeuristicChooser().choose(path, rng=random.Random(seed), exclude=exclude)


# Each domain: (opening, fact request, proposal, confirmation, statement) in its own wording.
DOMAINS = {
    "hotel": (
        "",
        "Of course. What is the reservation code on your booking?",
        "We have a deluxe room with a sea view for $180 per night.",
        "I've moved you to the deluxe room. Shall I send the new confirmation to your inbox?",
        "Done, your stay is updated.",
    ),
    "bank": (
        "",
        "Could you tell me the last four digits of the card?",
        "I could set up a standing order on the 1st of each month instead.",
        "That moves 250 EUR to savings. Do you want me to go ahead with the transfer?",
        "The transfer has been scheduled.",
    ),
    "telco": (
        "",
        "Sure thing. Which line would you like to change, the mobile or the landline?",
        "Our unlimited option is available for 35 dollars a month.",
        "Switching to unlimited ends your current discount. Is that correct?",
        "Your plan change will show on the next bill.",
    ),
    "clinic": (
        "",
        "Please provide the patient's date of birth.",
        "How about Thursday at 3pm with the same practitioner?",
        "I'm about to cancel the appointment for Thursday. Can you confirm?",
        "Noted.",
    ),
}


@pytest.mark.parametrize("domain", sorted(DOMAINS))
async def test_confirmation_beats_fact_beats_proposal_beats_statement(domain):
    path = turns(*DOMAINS[domain])
    first = await choose(path)
    assert first.turn_index == 3
    assert first.chooser == "heuristic"
    assert first.overhead_tokens == 0
    assert first.rationale.startswith("the agent asked for confirmation: '")
    second = await choose(path, exclude={3})
    assert second.turn_index == 1
    assert second.rationale.startswith("the agent asked for a fact: '")
    third = await choose(path, exclude={1, 3})
    assert third.turn_index == 2
    assert third.rationale.startswith("the agent proposed something: '")
    # With only the opening and a statement left, the opening (low but non-zero) wins.
    fourth = await choose(path, exclude={1, 2, 3})
    assert fourth.turn_index == 0
    assert fourth.rationale == "the user's opening message"
    last = await choose(path, exclude={0, 1, 2, 3})
    assert last.turn_index == 4
    assert last.rationale.startswith("the agent made a statement: '")


@pytest.mark.parametrize(
    ("before", "label"),
    [
        ("Ready for me to submit the claim?", "the agent asked for confirmation"),
        ("Just to double-check: you want the blue one, right?", "the agent asked for confirmation"),
        ("Okay to charge the card on file?", "the agent asked for confirmation"),
        ("Do you want to keep the extra baggage?", "the agent asked for confirmation"),
        ("Would you like me to book the 7:30 table for four?", "the agent asked for confirmation"),
        ("And your surname?", "the agent asked for a fact"),
        ("And the tracking number?", "the agent asked for a fact"),
        ("How many guests will there be?", "the agent asked for a fact"),
        ("Would you prefer the window seat?", "the agent proposed something"),
        (
            "There are two plans: Basic at 10 euros and Plus at 20 euros.",
            "the agent proposed something",
        ),
        ("Is there anything else?", "the agent asked a question"),
        ("I am unable to do that.", "the agent made a statement"),
    ],
)
async def test_held_out_wordings_get_the_expected_cue(before, label):
    junction = await choose([UserTurn(index=5, kind="say", text="ok", before=before)])
    assert junction.rationale == f"{label}: '{before}'"


async def test_an_unmatched_question_ranks_below_a_proposal_and_above_a_statement():
    path = turns("", "Anything else today?", "We can waive the fee.", "Noted.")
    assert (await choose(path)).turn_index == 2
    assert (await choose(path, exclude={2})).turn_index == 1


async def test_rationale_quotes_the_sentence_that_scored_within_80_characters():
    long_question = (
        "Before I submit everything to the back office, which involves several steps that "
        "cannot be undone later, shall I go ahead?"
    )
    junction = await choose(turns("", "Thanks for waiting. " + long_question))
    assert junction.turn_index == 1
    quote = junction.rationale.removeprefix("the agent asked for confirmation: ")
    assert quote.startswith("'Before I submit") and quote.endswith("…'")
    assert len(quote.strip("'")) <= 80
    assert "Thanks for waiting" not in quote


async def test_a_greeting_is_not_a_question_and_its_answer_counts_as_the_opening():
    path = turns("Welcome! What can I do for you today?", "Your account is active.")
    junction = await choose(path)
    assert junction.turn_index == 0
    assert junction.rationale == "the user's opening message"


async def test_negated_ability_is_not_a_proposal():
    path = turns("", "I can't see any record of that.", "I can offer a partial credit.")
    junction = await choose(path)
    assert junction.turn_index == 2


async def test_ties_are_broken_by_the_rng_and_each_seed_is_reproducible():
    path = turns(
        "",
        "Shall I cancel the subscription now?",
        "Noted.",
        "Would you like me to apply the voucher as well?",
    )
    picks = [(await choose(path, seed=seed)).turn_index for seed in range(40)]
    assert set(picks) == {1, 3}
    assert picks == [(await choose(path, seed=seed)).turn_index for seed in range(40)]


async def test_api_and_web_turns_are_scored_by_the_message_they_answered():
    path = [
        UserTurn(index=0, kind="say", text="hi", before=""),
        UserTurn(
            index=1, kind="api", text="lookup(ref='K9')", before="What's your membership number?"
        ),
        UserTurn(index=2, kind="web", text="click #submit", before="Here you go."),
    ]
    junction = await choose(path)
    assert junction.turn_index == 1


async def test_nothing_to_choose_gives_none():
    assert await choose([]) is None
    assert await choose(turns("", "Shall I proceed?"), exclude={0, 1}) is None


def test_user_turn_rejects_an_unknown_kind():
    with pytest.raises(ValueError, match="kind"):
        UserTurn(index=0, kind="shout", text="hey", before="")
