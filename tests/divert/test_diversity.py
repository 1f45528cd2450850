import importlib.util

import numpy as np
import pytest

from vistasim.divert import AsyncEmbedder, select_most_diverse

VECTORS = {
    "original": [1.0, 0.0, 0.0],
    "close": [0.8, 0.6, 0.0],  # cosine 0.8
    "far": [0.0, 1.0, 0.0],  # cosine 0.0
    "middle": [0.6, 0.0, 0.8],  # cosine 0.6
    "opposite": [-1.0, 0.0, 0.0],  # cosine -1.0
    "far too": [0.0, 0.0, 1.0],  # cosine 0.0, ties with "far"
    "raw": [3.0, 4.0, 0.0],  # not unit length: cosine 0.6
    "empty": [0.0, 0.0, 0.0],
}


class FixedEmbedder:
    name = "fixed"

    def __init__(self):
        self.calls: list[list[str]] = []

    def embed(self, texts):
        self.calls.append(list(texts))
        return np.array([VECTORS[t] for t in texts])


class AsyncFixedEmbedder(FixedEmbedder):
    name = "fixed-async"

    async def aembed(self, texts):
        return self.embed(texts)


async def test_argmin_on_a_hand_made_triple_in_one_embedding_call():
    embedder = FixedEmbedder()
    selection = await select_most_diverse("original", ["close", "far", "middle"], embedder)
    assert selection.index == 1
    assert selection.cosines == pytest.approx((0.8, 0.0, 0.6))
    assert selection.embedder == "fixed"
    assert embedder.calls == [["original", "close", "far", "middle"]]


async def test_negative_cosine_is_the_most_diverse_and_ties_go_to_the_first():
    embedder = FixedEmbedder()
    assert (await select_most_diverse("original", ["close", "opposite"], embedder)).index == 1
    tie = await select_most_diverse("original", ["middle", "far", "far too"], embedder)
    assert tie.index == 1
    assert tie.cosines == pytest.approx((0.6, 0.0, 0.0))


async def test_raw_and_zero_vectors_are_handled():
    selection = await select_most_diverse("original", ["raw", "empty", "close"], FixedEmbedder())
    assert selection.cosines == pytest.approx((0.6, 0.0, 0.8))
    assert selection.index == 1


async def test_an_async_embedder_is_awaited():
    embedder = AsyncFixedEmbedder()
    assert isinstance(embedder, AsyncEmbedder)
    selection = await select_most_diverse("original", ["middle", "close"], embedder)
    assert selection.index == 0
    assert selection.embedder == "fixed-async"
    assert len(embedder.calls) == 1


async def test_no_candidates_or_a_bad_shape_is_an_error():
    with pytest.raises(ValueError, match="at least one candidate"):
        await select_most_diverse("original", [], FixedEmbedder())

    class Short(FixedEmbedder):
        def embed(self, texts):
            return np.zeros((1, 3))

    with pytest.raises(ValueError, match="one row per text"):
        await select_most_diverse("original", ["close"], Short())


@pytest.mark.skipif(importlib.util.find_spec("wordllama") is None, reason="needs wordllama")
async def test_wordllama_finds_a_paraphrase_closer_than_an_unrelated_sentence():
    from vistasim.llm._embed import WordLlamaEmbedder

    original = "Please cancel my reservation for next Friday."
    paraphrase = "I'd like to cancel the booking I have for Friday next week."
    unrelated = "The northern lights were spectacular over the fjord last night."
    embedder = WordLlamaEmbedder()
    selection = await select_most_diverse(original, [paraphrase, unrelated], embedder)
    assert selection.index == 1
    assert selection.cosines[0] > selection.cosines[1]
    assert selection.embedder.startswith("wordllama/")


async def test_novelty_draws_by_operation_weight_and_away_from_failures_not_from_the_original():
    import random
    from collections import Counter

    from vistasim.divert import Candidate, NoveltySelector

    selector = NoveltySelector(FixedEmbedder())
    close = Candidate(text="close", source="correct:id")
    far = Candidate(text="far", source="withhold")

    async def draws(**kwargs):
        rng = random.Random(0)
        picks = [(await selector.select("original", [close, far], rng=rng, **kwargs)).index
                 for _ in range(400)]  # fmt: skip
        return Counter(picks)

    even = await draws(weights=[1.0, 1.0])
    assert 150 < even[0] < 250  # wording far from the original is no reason to prefer it
    spent = await draws(weights=[1.0, 0.25])
    assert spent[0] > 3 * spent[1]  # an operation the run has spent is drawn less
    avoided = await draws(avoid=["far"], weights=[1.0, 1.0])
    assert avoided[0] > 5 * avoided[1]  # "far" already failed for a known cause
    first = await selector.select(
        "original", [close, far], rng=random.Random(0), weights=[1.0, 1.0]
    )
    assert first.cosines == pytest.approx((0.8, 0.0))  # the record keeps cosines to the original
    again = await selector.select(
        "original", [close, far], rng=random.Random(0), weights=[1.0, 1.0]
    )
    assert again.index == first.index  # seeded: a resumed run draws the same
