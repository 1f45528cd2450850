import numpy as np

from vistasim.llm._embed import Embedder, WordLlamaEmbedder


def test_wordllama_embedder_loads_offline_and_normalizes():
    vectors = WordLlamaEmbedder().embed(["return my blender", "refund the blender"])
    assert vectors.shape == (2, 256)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)


def test_similar_texts_score_higher_than_unrelated_ones():
    a, b, c = WordLlamaEmbedder().embed(
        ["cancel my order", "please cancel the order", "what time is the exam"]
    )
    assert a @ b > a @ c


def test_empty_input_gives_empty_array():
    assert WordLlamaEmbedder().embed([]).shape == (0, 256)


def test_wordllama_embedder_is_an_embedder():
    assert isinstance(WordLlamaEmbedder(), Embedder)


def test_loading_the_embedder_leaves_the_root_logger_alone():
    # In a fresh interpreter: wordllama configures logging when it is first imported.
    import subprocess
    import sys

    code = (
        "import logging; from vistasim.llm._embed import WordLlamaEmbedder; "
        "WordLlamaEmbedder().embed(['probe']); r = logging.getLogger(); "
        "print(len(r.handlers), r.level)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["0", "30"]
