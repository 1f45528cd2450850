"""The run configuration: one typed model, layered explicitly.

Layers, later wins: defaults, then `vistasim.toml` (or any TOML file given), then `VISTASIM_*`
environment variables, then command-line flags. `merge()` combines the layers and drops `None`
values, so an unset flag never hides a file value. Nothing is read at import time.

Environment variables name a key with double underscores: `VISTASIM_RUN__MAX_TURNS=5`.

>>> merge({"run": {"rollouts": 1}}, {"run": {"rollouts": None, "seed": 7}})
{'run': {'rollouts': 1, 'seed': 7}}
"""

from __future__ import annotations

import difflib
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PrivateAttr,
    ValidationError,
    field_validator,
)
from pydantic_core import PydanticCustomError

from vistasim._attribution import Source, explain, setting_sources
from vistasim._config_agents import (
    AgentSpec,
    HttpJsonAgentSpec,
    OpenAIChatAgentSpec,
    PythonAgentSpec,
)
from vistasim._config_layers import (
    env_layer,
    flag_for,
    layer_sets,
    merge,
    starts_path,
    variables_by_key,
)
from vistasim._docstrings import described_schema
from vistasim._input import read_structured
from vistasim._urls import HttpUrl
from vistasim.errors import ConfigError

__all__ = [
    "AgentSpec",
    "CacheSpec",
    "EndpointSpec",
    "EnvironmentSpec",
    "ExploreSpec",
    "HttpJsonAgentSpec",
    "ModelSpec",
    "OpenAIChatAgentSpec",
    "Price",
    "PythonAgentSpec",
    "RunConfig",
    "RunSection",
    "UserSpec",
    "WebSpec",
    "WidgetSpec",
    "bounded",
    "config_schema",
    "default_home",
    "load_config",
    "merge",
    "parse_model_flag",
]

ROLES = ("user", "agent", "judge", "chooser", "generator", "embedder")
"""Model roles; each may name its own model."""

DEFAULT_MAX_TOKENS: dict[str, int] = {
    "user": 800,
    "agent": 1024,
    "judge": 1500,
    "chooser": 400,
    "generator": 4096,
}
"""Output bound of a model call by role, when `[models.ROLE] max_tokens` is unset: a simulated
user's action, an agent's reply, a judge's verdict, a junction choice, a batch of candidates or
scenarios. A degenerate model stops there instead of running to its context length."""

PROVIDERS: dict[str, tuple[str, str]] = {
    "openai": ("https://api.openai.com/v1", "OPENAI_API_KEY"),
    "openrouter": ("https://openrouter.ai/api/v1", "OPENROUTER_API_KEY"),
    "ollama": ("http://localhost:11434/v1", ""),
    "vllm": ("http://localhost:8000/v1", "VLLM_API_KEY"),
}
"""`provider/model` shorthands: base URL and the env var holding the key (`""`: Ollama takes
none)."""


class _Section(BaseModel):
    # Attribute docstrings become the schema's descriptions (`config_schema`), so editors show
    # them on hover.
    # Strict: `rollouts = true` or `max_turns = 2.5` is a mistake to report, not a value to
    # coerce; `nan` and `inf` are never a setting.
    model_config = ConfigDict(extra="forbid", strict=True, allow_inf_nan=False)


class ModelSpec(_Section):
    """A model for one role, on any OpenAI-compatible endpoint. The key itself is never stored."""

    model: str
    """Model name as the endpoint knows it."""
    base_url: HttpUrl | None = None
    """Endpoint, e.g. `http://localhost:8000/v1`; default: the provider's or `OPENAI_BASE_URL`."""
    api_key_env: str = "OPENAI_API_KEY"
    """Name of the environment variable holding the key (the value never reaches the store). It
    must be set, even for a local server; `""` says the endpoint takes no key."""
    temperature: float | None = Field(default=None, ge=0)
    """Sampling temperature; unset: the endpoint's default."""
    seed: int | None = None
    """Sampling seed, for endpoints that honour it; unset for the user: the episode's seed."""
    max_tokens: int | None = Field(default=None, ge=1)
    """Output bound of every call; default: the role's (`DEFAULT_MAX_TOKENS`)."""
    timeout_s: float = Field(default=60.0, gt=0)
    """Wall-clock bound of one attempt, however slowly the endpoint trickles its answer."""
    max_retries: int = Field(default=4, ge=0, le=20)
    """Retries on 429, 5xx and timeouts, with exponential backoff and jitter."""
    concurrency: int = Field(default=32, ge=1)
    """Most calls in flight at once for this role."""


class EndpointSpec(_Section):
    """Limits shared by every role that calls one endpoint."""

    concurrency: int = Field(ge=1)
    """Most calls in flight at once to this endpoint, over all roles."""


class Price(_Section):
    """Dollars per million tokens."""

    input: float = Field(default=0.0, ge=0)
    """Dollars per million prompt tokens."""
    output: float = Field(default=0.0, ge=0)
    """Dollars per million completion tokens."""
    cached: float | None = Field(default=None, ge=0)
    """Price of cached input tokens; default: the input price."""


class EnvironmentSpec(_Section):
    """The state the agent acts on: a built-in domain name or a Python `module:attr` factory."""

    target: str
    """A built-in domain (`shop`, `school`) or a `module:factory` returning an environment."""
    options: dict[str, Any] = {}
    """Keyword arguments for the factory."""
    rules: str | None = None
    """A `policy_rules.yaml` of the product's own (relative to this config): policy rules,
    values and disclosure rules the detectors apply besides the generic ones. Default: the
    environment class's `POLICY_RULES`, or the built-in domain's."""


class JudgesSpec(_Section):
    """What LLM judges read besides the transcript (the judge model is `--judge` or `judge`)."""

    policy: str | None = None
    """The product's policy as its owner wrote it (`policy.md`, relative to this config): stored
    with the run, read by the policy judge of `vistasim metrics RUN --judge MODEL`."""


class UserSpec(_Section):
    """The simulated user."""

    policy: Literal["agenda", "llm", "scripted"] = "agenda"
    """`agenda` works offline; `llm` needs `models.user`; `scripted` plays `script`."""
    script: str | None = None
    """`scripted` policy: a YAML/JSON file (relative to this config) mapping each scenario id to
    its user turns, e.g. one `vistasim export RUN --episode ID --as-test` wrote."""
    max_repairs: int = Field(default=2, ge=0, le=10)
    """Re-prompts with the validation error before a `simulator_error` stop."""
    perturb: float = Field(default=0.0, ge=0.0, le=1.0)
    """`agenda` policy: the chance that each sub-goal of a rollout gets one behaviour operation
    (hesitate, correct, change mind, withhold...) drawn from the generator DIVERT branches use,
    seeded per rollout: linear rollouts of a user that varies, the baseline branching must beat.
    0 (the default): every rollout of a scenario plays its agenda as written."""


class WidgetSpec(_Section):
    """The product's chat widget. Unset selectors come from the framework found on the page.

    `framework = "auto"` probes the page: Gradio, Streamlit, Chainlit, Shiny, Panel, NiceGUI,
    Mesop and Open WebUI pages are recognized by their own markers, other pages by common chat
    markup (`generic`) or an ARIA `role=log` with a textbox (`aria`). Selectors set here replace
    that framework's; `vistasim web inspect URL` shows what each one finds.
    """

    framework: Literal[
        "auto", "gradio", "streamlit", "chainlit", "shiny", "panel", "nicegui", "mesop",
        "openwebui", "generic", "aria",
    ] = "auto"
    """Whose selectors to start from; `auto` finds out from the page."""
    input: str | None = None
    """The text field messages are typed into."""
    send: str | None = None
    """The send button (Enter is pressed when there is none)."""
    messages: str | None = None
    """Every message of the widget transcript, in order (CSS)."""
    agent_message: str | None = None
    """The agent's messages (CSS)."""
    author: str | None = None
    """Inside each message block (`container`), who wrote it (CSS), for widgets that mark their
    messages only by the author's name: 'User' or 'You' is the user, any other the agent."""
    open_button: str | None = None
    """A launcher that opens a collapsed widget."""
    container: str | None = None
    """The whole widget, or each message block, kept out of the page text (CSS)."""
    busy: str | None = None
    """Visible while the agent works on a reply: a stop button, a spinner (CSS)."""
    ready: str | None = None
    """Present once the widget's live connection is up; nothing is sent before (CSS)."""
    settle_ms: int | None = Field(default=None, ge=0, le=60_000)
    """A reply is complete once nothing shows busy and its text has not changed for this long;
    default 1500 ms (streamed replies may pause), 300 ms on the built-in domains' sites."""
    timeout_s: float = Field(default=30.0, gt=0, le=3600)
    """Longest wait for a reply that shows no progress: a turn fails once neither the reply's
    text nor the widget's busy state has changed for this long (a reply that keeps moving is
    waited for up to 10 times this)."""
    find_timeout_s: float = Field(default=10.0, gt=0, le=600)
    """Longest wait for the widget to appear once the page stopped loading and drawing (a page
    still loading is waited for up to 6 times this)."""


class WebSpec(_Section):
    """The browser channel (`ui` and `hybrid` modes)."""

    start_url: HttpUrl | None = None
    """Page episodes start on; default for a built-in domain: its site, served per episode."""
    allowed_origins: list[str] = []
    """Origins the simulated user may visit; default: the start URL's origin."""
    chromium: str | None = None
    """Chromium executable; default: $VISTASIM_CHROMIUM, Playwright's, or the system's."""
    headless: bool = True
    """Run Chromium without a window."""
    screenshots: bool = True
    """Store a thumbnail screenshot (JPEG, 40 % scale) after every web action, shown in the
    report; identical ones are stored once. `false` turns them off."""
    observation_tokens: int = Field(default=1200, ge=200, le=20_000)
    """Token budget of the page view shown to the simulated user."""
    widget: WidgetSpec = WidgetSpec()
    """Selectors of the chat widget, when the defaults do not find it."""
    reply_url_pattern: str = "**/api/chat"
    """URL pattern of the widget's request whose JSON answer may carry `tool_calls`."""
    trace_url: HttpUrl | None = None
    """An endpoint listing the agent's tool calls, when the page does not expose them."""
    concurrency: int | None = Field(default=None, ge=1, le=256)
    """Web episodes in flight at once, each with its own browser page; default: one per CPU
    (at least 2). `run.concurrency` still caps it."""


class CacheSpec(_Section):
    """The record/replay cache of model calls."""

    mode: Literal["off", "read_write", "replay"] = "read_write"
    """`replay` fails a call that is not in the cache instead of calling the model."""
    path: str | None = None
    """SQLite file; default: `cache.db` next to the store."""


class RunSection(_Section):
    """What to run and how hard."""

    scenarios: str | None = None
    """Scenario file (YAML/JSON), relative to the config file."""
    select: list[str] = []
    """Run only the scenarios whose id matches one of these (globs: `shop-flaw-*`); default all."""
    tags: list[str] = []
    """Run only the scenarios carrying at least one of these tags; default all."""
    mode: Literal["chat", "ui", "api", "hybrid"] = "chat"
    """Channels the simulated user may use: `chat`, `api` (chat + user-side APIs), `ui` (the
    web page, chatting through its widget), `hybrid` (web + APIs)."""
    rollouts: int = Field(default=1, ge=1, le=1000)
    """Independent episodes per scenario (the k of pass^k)."""
    max_turns: int | None = Field(default=None, ge=1, le=200)
    """Caps every scenario's own `limits.max_turns`."""
    episode_timeout_s: float = Field(default=600.0, gt=0)
    """Bound on one episode's wall time; a longer one stops with `timeout`."""
    max_reply_bytes: int = Field(default=1_000_000, ge=1_000)
    """Largest agent reply or tool result stored whole; bigger ones are stored cut, flagged
    (`oversized`) and reported as an agent failure. An HTTP agent's answer body is read no
    further than 8 times this."""
    concurrency: int = Field(default=8, ge=1, le=10_000)
    """Episodes in flight at once."""
    seed: int = 0
    """Run seed; each episode's seed derives from it, the scenario and the rollout."""
    store: str | None = None
    """SQLite store path; default: `$VISTASIM_HOME/vistasim.db`."""
    name: str | None = None
    """A label for the run in listings and reports."""
    executor: Literal["local", "ray"] = "local"
    """Where episodes play: `local` (this process, async) or `ray` (Ray workers, extra `ray`;
    chat and api modes). The store is written by this process either way."""
    ray_address: str | None = None
    """The Ray cluster to use (`ray://head:10001`, or `auto`); default `$RAY_ADDRESS`, else a
    Ray instance started on this machine for the run."""
    ray_workers: int | None = Field(default=None, ge=1, le=4096)
    """Ray worker actors playing episodes; default one per CPU of the cluster."""


class ExploreSpec(_Section):
    """DIVERT branching after the linear rollouts (`vistasim explore`)."""

    branches: int = Field(default=0, ge=0, le=100_000)
    """Branches per scenario, taken round-robin over its trajectories (0: linear rollouts only)."""
    k: int = Field(default=3, ge=1, le=20)
    """Alternative user actions generated at each junction."""
    chooser: Literal["heuristic", "random", "llm"] = "heuristic"
    """Junction chooser: offline cues, uniform (ablation), or the `chooser` model."""
    generator: Literal["auto", "agenda", "llm", "same"] = "auto"
    """Candidates: the agenda user's behaviour operations (offline), the `generator` model, or
    the original action again (`same`: the junction-only ablation, an exact-restore check);
    `auto` uses the model when one is configured, else the agenda operations."""
    selection: Literal["diverse", "random"] = "diverse"
    """Keep the candidate least cosine-similar to the original, or one at random (ablation)."""
    novelty: bool = True
    """Seek what finds most per token: junction kinds, operations and scenarios weighted by what
    their branches found (a new cause 1, a known one 1/4) for what they cost, uses in the
    scenario weighted down, cheaper (later) junctions up; the candidate drawn by its
    operation's weight and its distance from siblings and from actions that failed for a known
    cause. `false`: the paper's method alone (heuristic junction, argmin cosine)."""
    rollout_arm: bool = False
    """Opt-in, with novelty and a `budget_tokens`: a fresh rollout of a scenario is one more
    arm, played while the run's fresh rollouts yield more per token than its branches, where
    the scenario's find more new causes per token than its branches (what varies between
    rollouts shows to fresh rollouts, not to branches restored at a junction). `false`, the
    default (on three seeds it put more desks below the linear baseline: benchmarks/README.md):
    fresh rollouts only once every scenario has no junction left, and a scenario's first slot."""
    opening_draws: int = Field(default=0, ge=0, le=20)
    """Opt-in, under `user.perturb`: branches a rollout's opening (before the user's first
    action) may have, each taking the rollout's draw off the first sub-goal and drawing it
    again: the plain user first, then any operation of that sub-goal, one that acts only later
    too (the varying user's first-turn draws, which a branch sharing its parent's prefix never
    makes otherwise). 0, the default (at 3 it fixed the desk it was aimed at and put more desks
    below the linear baseline: benchmarks/README.md): the opening is like any junction (one
    branch, the rollout's draw kept)."""
    embedder: Literal["wordllama", "model"] = "wordllama"
    """The bundled offline embedder, or the `embedder` model's `/v1/embeddings`."""
    budget_tokens: int | None = Field(default=None, ge=1)
    """Stop branching once the run's agent + framework tokens reach this."""


def _metric_key(key: str) -> str:
    from vistasim.metrics import metric_key_problem  # the metrics load only when gates are set

    problem = metric_key_problem(key)
    if problem:
        raise PydanticCustomError("metric_key", problem)
    return key


def _threshold(expression: object) -> str:
    from vistasim.metrics import gate_problem

    problem = gate_problem(expression)
    if problem:
        raise PydanticCustomError("gate", problem)
    assert isinstance(expression, str)  # gate_problem accepts only text
    return expression


MetricKey = Annotated[str, AfterValidator(_metric_key)]
"""A key of `vistasim.metrics.METRIC_KEYS` (or `pass_hat_K`, `success_rate_MODE`)."""
Threshold = Annotated[str, BeforeValidator(_threshold)]
"""A comparison and a number: `">= 0.9"`, `"<= 3"`."""


class RunConfig(_Section):
    """A whole run configuration."""

    run: RunSection = RunSection()
    """Scenario file, mode, rollouts, turn cap, concurrency, seed and store."""
    user: UserSpec = UserSpec()
    """The simulated user's policy (`agenda` offline, or `llm`) and its repair budget."""
    agent: AgentSpec | None = None
    """The agent under test, by `kind`: `python`, `openai_chat` or `http_json`."""
    environment: EnvironmentSpec | None = None
    """The state the agent acts on, with its tools and user-side APIs."""
    models: dict[str, ModelSpec] = {}
    """Models by role: `user`, `agent`, `judge`, `chooser`, `generator`, `embedder`."""
    prices: dict[str, Price] = {}
    """Price table by model name."""
    endpoints: dict[HttpUrl, EndpointSpec] = {}
    """Shared limits by base URL, e.g. `[endpoints."http://localhost:8000/v1"] concurrency = 8`."""
    cache: CacheSpec = CacheSpec()
    """Whether model calls are recorded and replayed, and where."""
    web: WebSpec = WebSpec()
    """Start page, allowed origins, browser and chat widget of `ui` and `hybrid` modes."""
    explore: ExploreSpec = ExploreSpec()
    """DIVERT branching: branches per scenario, candidates, chooser, token budget."""
    judges: JudgesSpec = JudgesSpec()
    """Texts the LLM judges read: `policy`, the product's policy for the policy judge."""
    gates: dict[MetricKey, Threshold] = {}
    """CI thresholds by metric key, e.g. `success_rate = ">= 0.9"`, `unique_failures = "<= 3"`:
    `vistasim run --check` and `vistasim metrics RUN --check` exit 1 when one fails."""
    base_dir: str = "."
    """Directory relative paths are resolved against (the config file's)."""
    _sources: dict[str, str] = PrivateAttr(default_factory=dict)

    def with_sources(self, sources: Mapping[str, str]) -> RunConfig:
        """This config, knowing which flag or variable set each dotted key in `sources`."""
        copy = self.model_copy()
        copy._sources = dict(sources)
        return copy

    def source_of(self, key: str) -> str | None:
        """The flag or `VISTASIM_*` variable that set the dotted `key` (or a section holding it).

        `None`: the config file or a default set it.
        """
        parts = key.split(".")
        return next(
            (
                self._sources[name]
                for end in range(len(parts), 0, -1)
                if (name := ".".join(parts[:end])) in self._sources
            ),
            None,
        )

    def setting_error(self, key: str, message: str) -> ConfigError:
        """An error about the setting at `key`, naming the flag or variable that set it."""
        source = self.source_of(key)
        if source is None:
            return ConfigError(message, key=key)
        return ConfigError(f"{message} (setting {key})", key=source)

    @field_validator("models")
    @classmethod
    def _known_roles(cls, models: dict[str, ModelSpec]) -> dict[str, ModelSpec]:
        for role in models:
            if role not in ROLES:
                close = difflib.get_close_matches(role, ROLES, n=1)
                hint = f" (did you mean {close[0]!r}?)" if close else ""
                raise ValueError(
                    f"unknown model role {role!r}{hint}; the roles are {', '.join(ROLES)}"
                )
        return models

    def resolve(self, path: str) -> Path:
        """Resolve a path from the config against the config file's directory."""
        candidate = Path(path).expanduser()
        return candidate if candidate.is_absolute() else Path(self.base_dir) / candidate


def bounded(spec: ModelSpec, role: str) -> ModelSpec:
    """`spec` with its role's default output bound filled in, unless it sets its own.

    >>> bounded(ModelSpec(model="m"), "judge").max_tokens
    1500
    """
    if spec.max_tokens is not None or role not in DEFAULT_MAX_TOKENS:
        return spec
    return spec.model_copy(update={"max_tokens": DEFAULT_MAX_TOKENS[role]})


def parse_model_flag(flag: str) -> tuple[str, dict[str, Any]]:
    """Parse `ROLE=[provider/]model` into a role and a `ModelSpec` mapping.

    >>> parse_model_flag("user=openai/gpt-4.1-mini")
    ('user', {'model': 'gpt-4.1-mini', 'base_url': 'https://api.openai.com/v1', 'api_key_env': 'OPENAI_API_KEY'})
    """  # noqa: E501
    role, sep, name = flag.partition("=")
    if not sep or not name:
        raise ConfigError(
            f"{flag!r} is not ROLE=MODEL; use e.g. --model user=openai/gpt-4.1-mini",
            key="--model",
        )
    if role not in ROLES:
        raise ConfigError(f"unknown role {role!r}; known roles: {', '.join(ROLES)}", key="--model")
    provider, slash, model = name.partition("/")
    if slash and provider in PROVIDERS:
        base_url, key_env = PROVIDERS[provider]
        return role, {"model": model, "base_url": base_url, "api_key_env": key_env}
    return role, {"model": name}


def config_schema() -> dict[str, Any]:
    """Return the JSON schema of `vistasim.toml`, each setting described, for editors."""
    return described_schema(RunConfig)


def load_config(
    path: str | Path | None,
    *,
    overrides: Mapping[str, Any] | None = None,
    environ: Mapping[str, str] | None = None,
    flags: Mapping[str, str] | None = None,
) -> RunConfig:
    """Load a run config from a TOML file, environment variables and CLI overrides.

    Args:
        path: The TOML file, or None for defaults, variables and overrides only.
        overrides: The command-line layer (same shape as the file).
        environ: Where `VISTASIM_*` variables are read (default: `os.environ`).
        flags: The flag that set each overridden key (`{"run.rollouts": "--rollouts"}`; a
            section key covers its keys), so an error names the flag to fix.

    Raises:
        ConfigError: naming where the bad value came from (the file and key, the variable, or
            the flag), the value and the fix.
    """
    file_layer: dict[str, Any] = {}
    base_dir = Path.cwd()
    if path is not None:
        path = Path(path)
        file_layer = _read_toml(path)
        base_dir = path.resolve().parent
    environ = os.environ if environ is None else environ
    overrides = overrides or {}
    from_variables = env_layer(environ)
    layers = merge({"base_dir": str(base_dir)}, file_layer, from_variables, overrides)
    try:
        config = RunConfig.model_validate(layers)
    except ValidationError as exc:
        variables = variables_by_key(environ)

        def source_of(parts: list[str]) -> Source | None:
            if not parts:
                return None
            if layer_sets(overrides, parts):
                return Source(label=flag_for(parts, flags or {}))
            name = next((v for p, v in variables.items() if starts_path(p, parts)), None)
            return Source(label=name) if name else None

        raise explain(
            exc, RunConfig, path=str(path) if path else None, source_of=source_of
        ) from None
    sources = setting_sources(
        from_variables,
        overrides,
        variables=variables_by_key(environ),
        flag_of=lambda parts: flag_for(parts, flags or {}),
    )
    return config.with_sources(sources)


def default_home(environ: Mapping[str, str] | None = None) -> Path:
    """Return the user directory: `$VISTASIM_HOME`, else `~/.vistasim`."""
    environ = os.environ if environ is None else environ
    return Path(environ.get("VISTASIM_HOME") or Path.home() / ".vistasim")


def _read_toml(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = read_structured(path, fmt="toml", what="config")
    return data
