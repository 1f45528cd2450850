"""The run configuration: one typed model, layered explicitly.

Layers, later wins: defaults, then `vistasim.toml` (or any TOML file given), then `VISTASIM_*`
environment variables, then command-line flags. `merge()` combines the layers and drops `None`
values, so an unset flag never hides a file value. Nothing is read at import time.

Environment variables name a key with double underscores: `VISTASIM_RUN__MAX_TURNS=5`.

>>> merge({"run": {"rollouts": 1}}, {"run": {"rollouts": None, "seed": 7}})
{'run': {'rollouts': 1, 'seed': 7}}
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from vistasim.errors import ConfigError

__all__ = [
    "AgentSpec",
    "CacheSpec",
    "EndpointSpec",
    "EnvironmentSpec",
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
    "default_home",
    "load_config",
    "merge",
    "parse_model_flag",
]

ROLES = ("user", "agent", "judge", "chooser", "generator", "embedder")
"""Model roles; each may name its own model."""

PROVIDERS: dict[str, tuple[str, str]] = {
    "openai": ("https://api.openai.com/v1", "OPENAI_API_KEY"),
    "openrouter": ("https://openrouter.ai/api/v1", "OPENROUTER_API_KEY"),
    "ollama": ("http://localhost:11434/v1", "OLLAMA_API_KEY"),
    "vllm": ("http://localhost:8000/v1", "VLLM_API_KEY"),
}
"""`provider/model` shorthands: base URL and the env var holding the key."""


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ModelSpec(_Section):
    """A model for one role, on any OpenAI-compatible endpoint. The key itself is never stored."""

    model: str
    """Model name as the endpoint knows it."""
    base_url: str | None = None
    """Endpoint, e.g. `http://localhost:8000/v1`; default: the provider's or `OPENAI_BASE_URL`."""
    api_key_env: str = "OPENAI_API_KEY"
    """Name of the environment variable holding the key (the value never reaches the store)."""
    temperature: float | None = None
    seed: int | None = None
    max_tokens: int | None = None
    timeout_s: float = 60.0
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

    input: float = 0.0
    output: float = 0.0
    cached: float | None = None
    """Price of cached input tokens; default: the input price."""


class PythonAgentSpec(_Section):
    """An agent written in Python.

    `target` is `module:attr` naming a class (instantiated per episode) or a function (called per
    turn).
    """

    kind: Literal["python"] = "python"
    target: str
    options: dict[str, Any] = {}
    """Keyword arguments for the class."""
    timeout_s: float = 60.0


class OpenAIChatAgentSpec(_Section):
    """An agent behind an OpenAI-compatible chat endpoint; gets the whole history each turn."""

    kind: Literal["openai_chat"] = "openai_chat"
    base_url: str
    model: str
    api_key_env: str | None = None
    system_prompt: str | None = None
    timeout_s: float = 60.0
    headers: dict[str, str] = {}
    """Extra headers; values like `${NAME}` are read from the environment at call time."""


class HttpJsonAgentSpec(_Section):
    """Any HTTP JSON endpoint: a request template in, a path to the reply text out."""

    kind: Literal["http_json"] = "http_json"
    url: str
    method: Literal["POST", "PUT"] = "POST"
    request_template: Any = {"message": "{{message}}", "session_id": "{{session_id}}"}
    """JSON body; the strings `{{message}}`, `{{session_id}}` and `{{history}}` are replaced."""
    response_path: str = "reply"
    """Dotted path to the reply text in the response JSON, e.g. `data.choices.0.text`."""
    tool_calls_path: str | None = None
    """Dotted path to a list of `{name, args, result}` tool calls, if the endpoint reports them."""
    headers: dict[str, str] = {}
    """Header values like `Bearer ${API_TOKEN}` are filled from environment variables."""
    timeout_s: float = 60.0


AgentSpec = Annotated[
    PythonAgentSpec | OpenAIChatAgentSpec | HttpJsonAgentSpec, Field(discriminator="kind")
]


class EnvironmentSpec(_Section):
    """The state the agent acts on: a built-in domain name or a Python `module:attr` factory."""

    target: str
    options: dict[str, Any] = {}


class UserSpec(_Section):
    """The simulated user."""

    policy: Literal["agenda", "llm"] = "agenda"
    """`agenda` works offline; `llm` needs `models.user`."""
    max_repairs: int = Field(default=2, ge=0, le=10)
    """Re-prompts with the validation error before a `simulator_error` stop."""


class WidgetSpec(_Section):
    """The product's chat widget. Unset selectors come from the framework found on the page.

    `framework = "auto"` probes the page: Gradio, Streamlit and Chainlit pages are recognized by
    their own markers, other pages by common chat markup (`generic`) or an ARIA `role=log` with
    a textbox (`aria`). Selectors set here replace that framework's.
    """

    framework: Literal["auto", "gradio", "streamlit", "chainlit", "generic", "aria"] = "auto"
    """Whose selectors to start from; `auto` finds out from the page."""
    input: str | None = None
    """The text field messages are typed into."""
    send: str | None = None
    """The send button (Enter is pressed when there is none)."""
    messages: str | None = None
    """Every message of the widget transcript, in order (CSS)."""
    agent_message: str | None = None
    """The agent's messages (CSS)."""
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
    """Longest wait for one complete reply, from finding the widget to the settled text."""
    find_timeout_s: float = Field(default=10.0, gt=0, le=600)
    """Longest wait for the widget to appear when a page opens."""


class WebSpec(_Section):
    """The browser channel (`ui` and `hybrid` modes)."""

    start_url: str | None = None
    """Page episodes start on; default for a built-in domain: its site, served per episode."""
    allowed_origins: list[str] = []
    """Origins the simulated user may visit; default: the start URL's origin."""
    chromium: str | None = None
    """Chromium executable; default: $VISTASIM_CHROMIUM, Playwright's, or the system's."""
    headless: bool = True
    screenshots: bool = False
    """Store a screenshot after every web action (content-addressed blobs)."""
    observation_tokens: int = Field(default=1200, ge=200, le=20_000)
    """Token budget of the page view shown to the simulated user."""
    widget: WidgetSpec = WidgetSpec()
    reply_url_pattern: str = "**/api/chat"
    """URL pattern of the widget's request whose JSON answer may carry `tool_calls`."""
    trace_url: str | None = None
    """An endpoint listing the agent's tool calls, when the page does not expose them."""


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
    mode: Literal["chat", "ui", "api", "hybrid"] = "chat"
    rollouts: int = Field(default=1, ge=1, le=1000)
    """Independent episodes per scenario (the k of pass^k)."""
    max_turns: int | None = Field(default=None, ge=1, le=200)
    """Caps every scenario's own `limits.max_turns`."""
    episode_timeout_s: float = Field(default=600.0, gt=0)
    concurrency: int = Field(default=8, ge=1, le=10_000)
    """Episodes in flight at once."""
    seed: int = 0
    store: str | None = None
    """SQLite store path; default: `$VISTASIM_HOME/vistasim.db`."""
    name: str | None = None


class RunConfig(_Section):
    """A whole run configuration."""

    run: RunSection = RunSection()
    user: UserSpec = UserSpec()
    agent: AgentSpec | None = None
    environment: EnvironmentSpec | None = None
    models: dict[str, ModelSpec] = {}
    """Models by role: `user`, `agent`, `judge`, `chooser`, `generator`, `embedder`."""
    prices: dict[str, Price] = {}
    """Price table by model name."""
    endpoints: dict[str, EndpointSpec] = {}
    """Shared limits by base URL, e.g. `[endpoints."http://localhost:8000/v1"] concurrency = 8`."""
    cache: CacheSpec = CacheSpec()
    web: WebSpec = WebSpec()
    base_dir: str = "."
    """Directory relative paths are resolved against (the config file's)."""

    def resolve(self, path: str) -> Path:
        """Resolve a path from the config against the config file's directory."""
        candidate = Path(path).expanduser()
        return candidate if candidate.is_absolute() else Path(self.base_dir) / candidate


def merge(*layers: Mapping[str, Any]) -> dict[str, Any]:
    """Deep-merge config layers, later ones winning; `None` values never override."""
    merged: dict[str, Any] = {}
    for layer in layers:
        for key, value in layer.items():
            if value is None:
                continue
            if isinstance(value, Mapping) and isinstance(merged.get(key), dict):
                merged[key] = merge(merged[key], value)
            elif isinstance(value, Mapping):
                merged[key] = merge(value)
            else:
                merged[key] = value
    return merged


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


def env_layer(environ: Mapping[str, str]) -> dict[str, Any]:
    """Turn `VISTASIM_SECTION__KEY=value` variables into a config layer (values parsed as TOML)."""
    layer: dict[str, Any] = {}
    for name, raw in environ.items():
        if not name.startswith("VISTASIM_") or "__" not in name:
            continue
        path = name.removeprefix("VISTASIM_").lower().split("__")
        node = layer
        for part in path[:-1]:
            node = node.setdefault(part, {})
        node[path[-1]] = _parse_scalar(raw)
    return layer


def load_config(
    path: str | Path | None,
    *,
    overrides: Mapping[str, Any] | None = None,
    environ: Mapping[str, str] | None = None,
) -> RunConfig:
    """Load a run config from a TOML file, environment variables and CLI overrides.

    Raises:
        ConfigError: naming the file, the key and the fix.
    """
    file_layer: dict[str, Any] = {}
    base_dir = Path.cwd()
    if path is not None:
        path = Path(path)
        file_layer = _read_toml(path)
        base_dir = path.resolve().parent
    environ = os.environ if environ is None else environ
    layers = merge({"base_dir": str(base_dir)}, file_layer, env_layer(environ), overrides or {})
    try:
        return RunConfig.model_validate(layers)
    except ValidationError as exc:
        err = exc.errors()[0]
        key = ".".join(str(part) for part in err["loc"])
        more = f" (and {len(exc.errors()) - 1} more)" if len(exc.errors()) > 1 else ""
        hint = _HINTS.get(err["type"], "")
        raise ConfigError(
            f"{err['msg']} (got {err.get('input')!r}){hint}{more}",
            path=str(path) if path else None,
            key=key,
        ) from None


def default_home(environ: Mapping[str, str] | None = None) -> Path:
    """Return the user directory: `$VISTASIM_HOME`, else `~/.vistasim`."""
    environ = os.environ if environ is None else environ
    return Path(environ.get("VISTASIM_HOME") or Path.home() / ".vistasim")


_HINTS = {
    "extra_forbidden": "; remove it or check its spelling against `vistasim schema --config`",
    "union_tag_invalid": "; use kind = 'python', 'openai_chat' or 'http_json'",
}


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ConfigError(f"cannot read config ({exc.strerror})", path=str(path)) from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"not valid TOML: {exc}", path=str(path)) from None


def _parse_scalar(raw: str) -> Any:
    try:
        return tomllib.loads(f"v = {raw}")["v"]
    except tomllib.TOMLDecodeError:
        return raw
