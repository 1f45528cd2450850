"""DIVERT: branch a trajectory at a user turn with the most different intent-preserving action.

The branching policy lives here, each piece pure and usable alone: a junction chooser picks the
user turn to branch at (`HeuristicChooser` offline, `RandomChooser` as the baseline,
`LLMChooser`); a generator proposes alternative user actions that keep the scenario's goal and
facts (`AgendaCandidates` offline, `LLMCandidates`, `SameAction` for the exact-restore check); a
selector keeps one (`MostDiverse`: the least cosine-similar to the original, as in the paper;
`NoveltySelector`: also far from what was tried and failed; `RandomSelector`); `Memory` is what
exploration has tried and found, which novelty reads. `BranchPolicy` holds a run's pieces.
Restoring the snapshot, recording and playing the branch are the explorer's job
(`vistasim.explore`), not this package's.
"""

from vistasim.divert._candidates_agenda import PLAIN, AgendaCandidates, SameAction
from vistasim.divert._candidates_llm import (
    MAX_CANDIDATE_CHARS,
    STOP_MARKERS,
    LLMCandidates,
    screen_candidates,
    unknown_facts,
)
from vistasim.divert._diversity import (
    AsyncEmbedder,
    MostDiverse,
    NoveltySelector,
    RandomSelector,
    embed_texts,
    select_most_diverse,
)
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
    junction_kind,
    render_trajectory,
)
from vistasim.divert._novelty import BranchResult, Memory
from vistasim.divert._policy import (
    BranchPolicy,
    Choice,
    build_policy,
    check_explore,
    last_chance,
    last_chance_of,
)
from vistasim.divert._types import (
    Candidate,
    CandidateContext,
    CandidateGenerator,
    CandidateSelector,
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
    "PLAIN",
    "PROPOSAL_CUES",
    "STOP_MARKERS",
    "AgendaCandidates",
    "AsyncEmbedder",
    "BranchPolicy",
    "BranchResult",
    "Candidate",
    "CandidateContext",
    "CandidateGenerator",
    "CandidateSelector",
    "Choice",
    "HeuristicChooser",
    "Junction",
    "JunctionChooser",
    "LLMCandidates",
    "LLMChooser",
    "Memory",
    "MostDiverse",
    "NoveltySelector",
    "OpenAIEmbedder",
    "RandomChooser",
    "RandomSelector",
    "SameAction",
    "Selection",
    "UserTurn",
    "build_policy",
    "check_explore",
    "cue_label",
    "embed_texts",
    "junction_kind",
    "last_chance",
    "last_chance_of",
    "render_trajectory",
    "screen_candidates",
    "select_most_diverse",
    "unknown_facts",
]
