"""Settings: the `agentls` configuration section, one typed model with defaults.

`initializationOptions` and `workspace/configuration` (section `agentls`) carry the same
object. Unknown keys are kept out; a bad value falls back to its default and is reported
(the caller shows the problems to the user). Must not know: LSP, the agent, tools.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

import pathspec
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    ValidationError,
    field_validator,
    model_validator,
)

Mode = Literal["read-only", "dev", "ci", "full"]
Approval = Literal["ask", "auto", "never", "plan"]
ShellSandbox = Literal["auto", "bubblewrap", "landlock", "none"]
ToolProtocol = Literal["auto", "native", "json", "text"]
#: The permission flags (DESIGN §3), by their contract names.
PermissionName = Literal["filesystemRead", "filesystemWrite", "shellExecution", "gitWrite", "network"]
#: An MCP server's name: its tools are `mcp__<name>__<tool>`.
McpServerName = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_-]+$", max_length=64)]
#: What an MCP server's tools need unless its entry says otherwise: allowed in `full` only.
MCP_DEFAULT_PERMISSIONS: tuple[PermissionName, ...] = ("shellExecution", "network")
_MCP_FIELDS = ("mcpServers", "mcp_servers")
_AUTO_FIELDS = ("autoApprove", "auto_approve")


class McpServerConfig(BaseModel):
    """One entry of `mcpServers` (DESIGN §10): a command started on stdio, or the URL of a
    streamable HTTP server (`type: "sse"`: the older SSE transport). Keys other agents'
    configurations carry beside these are ignored."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    command: str | None = Field(default=None, min_length=1)
    args: tuple[str, ...] = ()
    env: dict[str, str] = Field(default_factory=dict, repr=False)  # may hold secrets
    cwd: str | None = None  # relative to the workspace root; default: the root
    url: str | None = Field(default=None, pattern=r"(?i)^https?://\S+$")
    headers: dict[str, str] = Field(default_factory=dict, repr=False)  # may hold a token
    type: Literal["stdio", "http", "streamable-http", "streamableHttp", "sse"] | None = None
    permissions: tuple[PermissionName, ...] = MCP_DEFAULT_PERMISSIONS

    @model_validator(mode="after")
    def _one_transport(self) -> McpServerConfig:
        if (self.command is None) == (self.url is None):
            raise ValueError("an MCP server entry needs either `command` (stdio) or `url` (HTTP), not both")
        if self.url is not None and (self.args or self.env or self.cwd is not None):
            raise ValueError("`args`, `env` and `cwd` go with `command`, not with `url`")
        if self.command is not None and (self.headers or self.type in ("http", "streamable-http", "streamableHttp", "sse")):
            raise ValueError("`headers` and an HTTP `type` go with `url`, not with `command`")
        return self


#: One entry of an auto-approve list: not blank, one line.
RuleText = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=500, pattern=r"^[^\n\r\x00]*$")]


class AutoApproveRules(BaseModel):
    """`autoApprove` / `autoApproveDeny` (DESIGN §9): tool names, path globs (gitignore
    style, workspace-relative: `docs/**`, `*.md`, `!docs/secret/**`) and command patterns
    (`*` and `?` over the whole command line; never across a shell control character).
    What they decide is tools/auto_approval.py; here they are only checked."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    tools: tuple[RuleText, ...] = ()
    paths: tuple[RuleText, ...] = ()
    commands: tuple[RuleText, ...] = ()

    @field_validator("paths")
    @classmethod
    def _globs_compile(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        for glob in value:
            try:
                pathspec.GitIgnoreSpec.from_lines([glob])
            except Exception as exc:  # re.error, pathspec's own pattern errors
                raise ValueError(f"{glob!r} is not a valid path glob: {exc}") from None
        return value

    @property
    def empty(self) -> bool:
        return not (self.tools or self.paths or self.commands)


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
    # MCP servers whose tools join the registry as mcp__<server>__<tool> (DESIGN §10).
    mcp_servers: dict[McpServerName, McpServerConfig] = Field(default_factory=dict, alias="mcpServers")
    # What goes ahead under approval `ask` without asking, and what never does (DESIGN §9);
    # ignored when the client says the workspace is not trusted (VS Code's workspace trust).
    auto_approve: AutoApproveRules = Field(default_factory=AutoApproveRules, alias="autoApprove")
    auto_approve_deny: AutoApproveRules = Field(default_factory=AutoApproveRules, alias="autoApproveDeny")
    workspace_trusted: bool = Field(default=True, alias="workspaceTrusted")
    # The project's rules files (AGENTS.md, .clinerules, …) in every run's instructions (DESIGN §9).
    rules: bool = True


def parse_settings(raw: Any) -> tuple[Settings, list[str]]:
    """Parse a raw settings object; return the settings and the problems found.

    Each invalid field is reported and replaced by its default; the rest is kept. A bad
    `mcpServers` entry is reported and that server left out; the other servers are kept.
    An invalid `autoApproveDeny` drops `autoApprove` too (nothing goes ahead unasked).
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
        bad_servers: set[str] = set()
        for err in exc.errors():
            loc = ".".join(str(p) for p in err["loc"])
            field = str(err["loc"][0])
            if field in _MCP_FIELDS and len(err["loc"]) > 1 and isinstance(raw.get(field), dict):
                server = str(err["loc"][1])
                bad_servers.add(server)
                problems.append(f"MCP server {server!r} ({loc}): {err['msg']}; that server is left out")
                continue
            bad.add(field)
            problems.append(f"setting {loc!r}: {err['msg']} (got {err.get('input')!r}); using the default")
        if bad & {"autoApproveDeny", "auto_approve_deny"} and any(k in raw for k in _AUTO_FIELDS):
            bad.update(_AUTO_FIELDS)  # never the allow rules without their deny rules
            problems.append("setting 'autoApprove' is ignored too while 'autoApproveDeny' is invalid")
        cleaned = {k: v for k, v in raw.items() if k not in bad}
        for field in _MCP_FIELDS:
            if isinstance(cleaned.get(field), dict) and bad_servers:
                cleaned[field] = {k: v for k, v in cleaned[field].items() if k not in bad_servers}
        try:
            return Settings.model_validate(cleaned), problems
        except ValidationError:
            return Settings(), problems
