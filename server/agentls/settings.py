"""Settings: the `agentls` configuration section, one typed model with defaults.

`initializationOptions` and `workspace/configuration` (section `agentls`) carry the same
object. Unknown keys are kept out; a bad value falls back to its default and is reported
(the caller shows the problems to the user). Must not know: LSP, the agent, tools.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

Mode = Literal["read-only", "dev", "ci", "full"]
Approval = Literal["ask", "auto", "never"]
ShellSandbox = Literal["auto", "bubblewrap", "landlock", "none"]
ToolProtocol = Literal["auto", "native", "json", "text"]


class Settings(BaseModel):
    model_config = ConfigDict(extra="ignore", populate_by_name=True, frozen=True)

    model: str = "local"
    base_url: str | None = Field(default=None, alias="baseUrl")
    api_key_env: str = Field(default="OPENAI_API_KEY", alias="apiKeyEnv")
    # How an `openai:` endpoint's tool calls travel (DESIGN §6): auto starts native and
    # falls back to schema-constrained JSON output, then to calls parsed from the text.
    tool_protocol: ToolProtocol = Field(default="auto", alias="toolProtocol")
    mode: Mode = "dev"
    approval: Approval = "ask"
    max_steps: int = Field(default=30, alias="maxSteps", ge=1, le=1000)
    proposal_timeout_s: float = Field(default=600.0, alias="proposalTimeoutS", gt=0)
    index_jobs: int = Field(default=0, alias="indexJobs", ge=0, le=64)
    index_cache: bool = Field(default=True, alias="indexCache")
    navigation: bool = True  # false: definition, references, symbols, hover not advertised
    # The web tools (DESIGN §3 Network policy): a SearxNG-compatible JSON endpoint, hosts
    # reachable even at internal addresses (non-empty: only these), hosts always refused
    # (fnmatch patterns), and the body and time caps of one request.
    search_url: str | None = Field(default=None, alias="searchUrl", pattern=r"(?i)^https?://\S+$")
    web_allow: tuple[str, ...] = Field(default=(), alias="webAllow")
    web_deny: tuple[str, ...] = Field(default=(), alias="webDeny")
    web_max_bytes: int = Field(default=2_000_000, alias="webMaxBytes", ge=1024, le=100_000_000)
    web_timeout_s: float = Field(default=20.0, alias="webTimeoutS", gt=0, le=300)
    # How shell tools are confined; "none" (no OS sandbox) only when the user chooses it.
    shell_sandbox: ShellSandbox = Field(default="auto", alias="shellSandbox")


def parse_settings(raw: Any) -> tuple[Settings, list[str]]:
    """Parse a raw settings object; return the settings and the problems found.

    Each invalid field is reported and replaced by its default; the rest is kept.
    """
    if raw is None:
        return Settings(), []
    if not isinstance(raw, dict):
        return Settings(), [f"agentls settings must be an object, got {type(raw).__name__}; using defaults"]
    if isinstance(raw.get("agentls"), dict):  # some clients nest the section
        raw = raw["agentls"]
    try:
        return Settings.model_validate(raw), []
    except ValidationError as exc:
        problems: list[str] = []
        bad: set[str] = set()
        for err in exc.errors():
            loc = ".".join(str(p) for p in err["loc"])
            bad.add(str(err["loc"][0]))
            problems.append(f"setting {loc!r}: {err['msg']} (got {err.get('input')!r}); using the default")
        cleaned = {k: v for k, v in raw.items() if k not in bad}
        try:
            return Settings.model_validate(cleaned), problems
        except ValidationError:
            return Settings(), problems
