"""Without the `embed` extra (no numpy, no wordllama) metrics still run and explore says why not."""

import importlib.util
import sys

import pytest

from vistasim.config import ExploreSpec
from vistasim.divert import check_explore
from vistasim.errors import ConfigError
from vistasim.metrics import default_embedder


def test_without_numpy_the_catalogue_falls_back_to_identical_wording(monkeypatch):
    monkeypatch.setitem(sys.modules, "numpy", None)  # `import numpy` now raises ImportError
    assert default_embedder() is None


def test_diverse_branching_without_the_embed_extra_is_refused_with_the_fix(monkeypatch):
    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "wordllama" else real(name)
    )
    spec = ExploreSpec(branches=2)
    with pytest.raises(ConfigError) as caught:
        check_explore(spec, user_policy="agenda", roles=set())
    message = str(caught.value)
    assert "vistasim[embed]" in message and "--selection random" in message
    randomly = spec.model_copy(update={"selection": "random"})
    check_explore(randomly, user_policy="agenda", roles=set())  # no embedding: allowed
