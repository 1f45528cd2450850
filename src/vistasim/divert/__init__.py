"""DIVERT: branch a trajectory at a user turn with the most different intent-preserving action.

The pieces, each pure and usable alone: a junction chooser picks the user turn to branch at
(`HeuristicChooser` offline, `RandomChooser` as the baseline, `LLMChooser`); a generator writes
K alternative user actions that keep the scenario's goal and facts (`LLMCandidates`);
`select_most_diverse` keeps the candidate least cosine-similar to the original. Restoring the
snapshot and continuing the episode is the branching engine's job, not this package's.
"""

from vistasim.divert._candidates_llm import (
    MAX_CANDIDATE_CHARS,
    STOP_MARKERS,
    LLMCandidates,
    screen_candidates,
    unknown_facts,
)
from vistasim.divert._diversity import AsyncEmbedder, embed_texts, select_most_diverse
from vistasim.divert._embed_openai import OpenAIEmbedder
from vistasim.divert._junction import (
    CONFIRMATION_CUES,
    FACT_REQUEST_CUES,
    GREETING_CUES,
    PROPOSAL_CUES,
    HeuristicChooser,
    LLMChooser,
    RandomChooser,
    cue_label,
    render_trajectory,
)
from vistasim.divert._types import (
    Candidate,
    CandidateContext,
    CandidateGenerator,
    Junction,
    JunctionChooser,
    Selection,
    UserTurn,
)

__all__ = [
    "CONFIRMATION_CUES",
    "FACT_REQUEST_CUES",
    "GREETING_CUES",
    "MAX_CANDIDATE_CHARS",
    "PROPOSAL_CUES",
    "STOP_MARKERS",
    "AsyncEmbedder",
    "Candidate",
    "CandidateContext",
    "CandidateGenerator",
    "HeuristicChooser",
    "Junction",
    "JunctionChooser",
    "LLMCandidates",
    "LLMChooser",
    "OpenAIEmbedder",
    "RandomChooser",
    "Selection",
    "UserTurn",
    "cue_label",
    "embed_texts",
    "render_trajectory",
    "screen_candidates",
    "select_most_diverse",
    "unknown_facts",
]
