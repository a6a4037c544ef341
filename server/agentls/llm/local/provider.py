"""`local`: a small GGUF model run in process by llama-cpp-python, output held to a grammar.

An acting turn's output is constrained to the tool-call schema of grammar.py (one JSON
object `{"name", "arguments"}` naming one offered tool) and becomes a ModelTurn with one
ToolCall; a planning turn's output is held to its `json_schema` (the tasks array) and
returned as content; a turn with neither is unconstrained text.
Output that still does not parse (cut at `max_tokens`) comes back as plain content, which
the agent treats as a bad reply.

Lifecycle: nothing is loaded at import or construction; the first `complete` assembles
and verifies the model file (model_files.py) and loads one `Llama` object, kept for the
model's life so the prompt prefix is reused between turns. Calls are serialized (one
context). Threads: per turn, the cores other processes leave free (threads.py; a number in
`AGENTLS_LOCAL_THREADS` fixes it), `OMP_WAIT_POLICY=PASSIVE`.
Cancellation: generation runs in a worker thread; cancelling the awaiting task returns at
once and the thread stops at the next generated token (prompt evaluation itself cannot be
interrupted, so the thread may finish that first, in the background, holding the model).
An acting reply identical to the previous acting reply is sampled once more at
RESAMPLE_TEMPERATURE with another seed (at temperature 0 a small model told its reply was
wrong often repeats it verbatim). Usage comes from llama.cpp's context size and the streamed pieces (one per token; may be
short by a token when a piece holds two, or when the reply is cut); cost None.
Must not know: the agent loop, tools' classes, LSP.
"""

from __future__ import annotations

import asyncio
import json
import os
import threading
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

from agentls.llm.base import Message, ModelError, ModelTurn, ToolCall, ToolSpec, Usage
from agentls.llm.local import gbnf, model_files, prefix_store
from agentls.llm.local.fenced import Fenced, fenced_tools
from agentls.llm.local.fenced import read as read_fenced
from agentls.llm.local.grammar import SchemaError, required_only, short_names, simplify, turn_schema
from agentls.llm.local.prompt import to_local_messages
from agentls.llm.local.repetition import looping
from agentls.llm.local.threads import CoreShare

THREADS_ENV = "AGENTLS_LOCAL_THREADS"
GUIDED_ENV = "AGENTLS_GUIDED"
CODE_FORMAT_ENV = "AGENTLS_CODE_FORMAT"
#: How code arguments are written (fenced.py); chosen by tests/bench/bench_code_format.py.
DEFAULT_CODE_FORMAT = "fenced"
#: Tokens kept for the tool list prompt.py adds to the system message (~820 for the
#: 21 built-in tools with the Qwen tokenizer).
TOOLS_RESERVE = 1024
#: A try at a step after a failed check is sampled at this temperature (`attempt`).
RETRY_TEMPERATURE = 0.6
#: An acting reply identical to the previous one is sampled again at this temperature.
RESAMPLE_TEMPERATURE = 0.7
INSTALL_HINT = "the local model needs llama-cpp-python: pip install 'agentls[local]'"


def threads_from_env(env: dict[str, str] | os._Environ[str] = os.environ) -> int | None:
    """The fixed thread count, or None for `auto` (the default: threads.CoreShare)."""
    raw = env.get(THREADS_ENV, "").strip()
    if not raw or raw.lower() == "auto":
        return None
    if not raw.isdigit() or int(raw) < 1:
        raise ValueError(f"{THREADS_ENV} must be a positive integer or 'auto', got {raw!r}")
    return int(raw)


def _default_llama_factory(**kwargs: Any) -> Any:
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")  # before libggml's OpenMP starts
    try:
        from llama_cpp import Llama
    except ImportError as exc:
        raise ModelError(f"{INSTALL_HINT} ({exc})") from None
    return Llama(**kwargs)


def parse_output(
    text: str, acting: bool, usage: Usage, raw: dict[str, Any], fenced: dict[str, Fenced] | None = None
) -> ModelTurn:
    """The turn a constrained output stands for (see the module docstring)."""
    if acting and fenced and (found := read_fenced(text, fenced)) is not None:
        name, args = found
        fenced_call = ToolCall(id=f"call_{uuid.uuid4().hex[:16]}", name=name, arguments=json.dumps(args, ensure_ascii=False))
        return ModelTurn(content=None, tool_calls=[fenced_call], usage=usage, raw=raw)
    if acting:
        try:
            obj = json.loads(text, strict=False)
        except ValueError:
            obj = None
        if isinstance(obj, dict) and isinstance(obj.get("name"), str):
            arguments = json.dumps(obj.get("arguments", {}), ensure_ascii=False)
            call = ToolCall(
                id=f"call_{uuid.uuid4().hex[:16]}", name=obj["name"], arguments=arguments
            )
            return ModelTurn(content=None, tool_calls=[call], usage=usage, raw=raw)
    return ModelTurn(content=text, usage=usage, raw=raw)


def _code_format() -> str:
    forced = os.environ.get(CODE_FORMAT_ENV, "").strip().lower()
    if forced and forced not in ("fenced", "json"):
        raise ValueError(f"{CODE_FORMAT_ENV} must be 'fenced' or 'json', got {forced!r}")
    return forced or DEFAULT_CODE_FORMAT


def _guided(path: str | Path | None, model: model_files.KnownModel | None) -> bool:
    forced = os.environ.get(GUIDED_ENV, "").strip()
    if forced in ("0", "1"):
        return forced == "1"
    if path is not None:
        return "0.5b" in Path(path).name.lower()
    try:
        key = (model or model_files.choose_model()).key
    except ModelError:
        return False
    return key == "0.5b"


class LocalModel:
    """The embedded model (`local`) or a GGUF file of the user's (`local:/path`)."""

    def __init__(
        self,
        path: str | Path | None = None,
        *,
        model: model_files.KnownModel | None = None,
        n_threads: int | None = None,
        n_ctx: int = 8192,
        max_tokens: int = 1024,
        temperature: float = 0.0,
        seed: int = 0,
        llama_factory: Callable[..., Any] | None = None,
        grammar_factory: Callable[[dict[str, Any], Any], Any] | None = None,
    ) -> None:
        #: The loop spares a small model the planning turn of a single-step goal and
        #: offers it fewer tools (agent/focus.py).
        self.small = True
        #: Offer only the tools' required arguments (grammar.required_only).
        self.required_only = True
        #: `complete` takes `on_text` and streams its output (the agent shows it as it comes)
        self.streams = True
        #: `complete` takes `attempt` (another try after a failed check: sampled more freely)
        self.varies = True
        #: How code arguments are written: "fenced" (a block after the JSON call) or
        #: "json" (inside it); AGENTLS_CODE_FORMAT overrides (fenced.py)
        self.code_format = _code_format()
        #: A tiny model gets guided turns: one tool per job, arguments from the
        #: workspace (agent/guide.py). The 0.5B; AGENTLS_GUIDED=1|0 forces it either way.
        self.guided = _guided(path, model)
        self._path = Path(path).expanduser() if path is not None else None
        self._known = model
        self.name = f"local:{self._path}" if self._path else "local"
        self.n_threads = n_threads if n_threads is not None else threads_from_env()
        #: None: a fixed count; else the cores other processes leave free, per turn
        self._share = CoreShare() if self.n_threads is None else None
        self._threads = self.n_threads or self._share.threads  # type: ignore[union-attr]  # the context's now
        self.n_ctx = n_ctx
        self.max_tokens = max_tokens
        # the history's share: the window less the reply and the tool list added to the prompt
        self.context_tokens = n_ctx - max_tokens - TOOLS_RESERVE
        self.temperature = temperature
        self.seed = seed
        self._factory = llama_factory or _default_llama_factory
        self._compile = grammar_factory or gbnf.compile_grammar
        self._llama: Any = None
        self._lock = threading.Lock()
        self._grammars: dict[str, Any] = {}
        self._last_tools: list[ToolSpec] | None = None
        self._last_text: str | None = None  # the last acting reply (see complete)
        self._resamples = 0
        #: A conversation's first turn restores a kept prompt state and keeps its own
        #: (prefix_store.py); later turns reuse the live context.
        self._prefixes = prefix_store.Prefixes(n_ctx)

    # ------------------------------------------------------------------ loading

    def prepare(self, progress: model_files.Progress | None = None) -> Path:
        """The verified model file (assembled on first use). Loads nothing."""
        if self._path is not None:
            model_files.check_gguf(self._path)
            return self._path
        return model_files.ensure_model(self._known, progress=progress)

    def _loaded(self) -> Any:
        if self._llama is None:
            path = self.prepare()
            try:
                self._llama = self._factory(
                    model_path=str(path),
                    n_ctx=self.n_ctx,
                    n_threads=self._threads,
                    n_threads_batch=self._threads,
                    seed=self.seed,
                    verbose=False,
                )
            except ModelError:
                raise
            except Exception as exc:  # llama.cpp reports a bad file as ValueError/RuntimeError
                raise ModelError(f"cannot load the local model {path}: {exc}") from None
        return self._llama

    def _set_threads(self, llama: Any) -> None:
        """Follow the machine's free cores (auto threads); a fixed count never changes."""
        if self._share is None:
            return
        wanted = self._share.next_threads()
        set_threads = getattr(getattr(llama, "_ctx", None), "set_n_threads", None)
        if wanted != self._threads and set_threads is not None:
            set_threads(wanted, wanted)
            self._threads = wanted

    @property
    def threads(self) -> int:
        """The threads the last turn ran with."""
        return self._threads

    def _grammar(self, schema: dict[str, Any], llama: Any) -> Any:
        key = json.dumps(schema, sort_keys=True)
        if key not in self._grammars:
            if len(self._grammars) >= 16:
                self._grammars.pop(next(iter(self._grammars)))
            self._grammars[key] = self._compile(schema, llama)
        return self._grammars[key]

    # ------------------------------------------------------------------ turns

    def _generate(
        self,
        messages: list[Message],
        schema: dict[str, Any] | None,
        stop: threading.Event,
        temperature: float | None = None,
        seed: int | None = None,
        on_text: Callable[[str], None] | None = None,
    ) -> tuple[str, str | None, Usage]:
        with self._lock:
            if stop.is_set():
                return "", "cancelled", Usage()
            llama = self._loaded()
            self._set_threads(llama)
            grammar = self._grammar(schema, llama) if schema is not None else None
            self._prefixes.before(llama, messages)
            text, finish, pieces = [], None, 0
            try:
                stream = llama.create_chat_completion(
                    messages=messages,
                    grammar=grammar,
                    temperature=self.temperature if temperature is None else temperature,
                    max_tokens=self.max_tokens,
                    seed=self.seed if seed is None else seed,
                    stream=True,
                )
                try:
                    for chunk in stream:
                        if stop.is_set():
                            finish = "cancelled"
                            break
                        choice = chunk["choices"][0]
                        piece = choice.get("delta", {}).get("content")
                        if piece:
                            text.append(piece)
                            pieces += 1
                            if on_text is not None:
                                on_text(piece)
                            if "\n" in piece and looping("".join(text)):
                                finish = "repetition"  # a loop: stop instead of writing to the limit
                                break
                        finish = choice.get("finish_reason") or finish
                finally:
                    getattr(stream, "close", lambda: None)()
            except ModelError:
                raise
            except ValueError as exc:  # e.g. "Requested tokens (…) exceed context window of …"
                raise ModelError(f"local model: {exc} (n_ctx={self.n_ctx})") from None
            except RuntimeError as exc:
                raise ModelError(f"local model failed: {exc}") from None
            if finish != "cancelled":
                self._prefixes.after(llama)
            # one streamed piece per generated token; the context holds prompt + those
            n_tokens = int(getattr(llama, "n_tokens", 0))
            usage = Usage(prompt_tokens=max(n_tokens - pieces, 0), completion_tokens=pieces)
            return "".join(text), finish, usage

    async def complete(
        self,
        messages: list[Message],
        *,
        tools: list[ToolSpec] | None = None,
        json_schema: dict[str, Any] | None = None,
        on_text: Callable[[str], None] | None = None,
        attempt: int = 0,
    ) -> ModelTurn:
        """A turn; `on_text` hears each generated piece as it comes (on a worker thread);
        `attempt` > 0: another try at a step whose last try failed a check, sampled at
        RETRY_TEMPERATURE with another seed (at temperature 0 the 1.5B rewrote the very code
        the tests had just failed)."""
        if tools and self.required_only:
            tools = required_only(tools)
        fenced = fenced_tools(tools) if tools and self.code_format == "fenced" else {}
        try:
            schema = self._schema(tools, json_schema, fenced)
        except SchemaError as exc:
            raise ModelError(f"the local model cannot constrain this turn: {exc}") from None
        # A planning turn shows the tools of the last acting turn too: the system message
        # then stays the same across turns and llama.cpp reuses the evaluated prefix.
        if tools:
            self._last_tools = tools
        shown = tools or self._last_tools
        local_messages = to_local_messages(messages, shown, fenced_tools(shown or []) if self.code_format == "fenced" else {})
        stop = threading.Event()
        try:
            text, finish, usage = await asyncio.to_thread(
                self._generate, local_messages, schema, stop,
                RETRY_TEMPERATURE if attempt > 0 and tools else None,
                self.seed + 1000 * attempt if attempt > 0 and tools else None,
                on_text,
            )
            if tools and text == self._last_text and finish != "cancelled":
                # At temperature 0 a model that was just told its reply was wrong often
                # gives the very same reply again (the 1.5B: one edit_file with old == new,
                # three times, and the run failed on bad replies): sample a different one.
                self._resamples += 1
                text, finish, again = await asyncio.to_thread(
                    self._generate, local_messages, schema, stop,
                    RESAMPLE_TEMPERATURE, self.seed + self._resamples,
                )  # fmt: skip
                usage = Usage(usage.prompt_tokens + again.prompt_tokens, usage.completion_tokens + again.completion_tokens)
        except asyncio.CancelledError:
            stop.set()  # the worker stops at its next token, in the background
            raise
        if tools:
            self._last_text = text
        raw = {
            "model": self.name,
            "choices": [
                {"message": {"role": "assistant", "content": text}, "finish_reason": finish}
            ],
            "usage": {
                "prompt_tokens": usage.prompt_tokens,
                "completion_tokens": usage.completion_tokens,
            },
        }
        return parse_output(text, bool(tools), usage, raw, fenced)

    @staticmethod
    def _schema(
        tools: list[ToolSpec] | None, json_schema: dict[str, Any] | None, fenced: dict[str, Fenced]
    ) -> dict[str, Any] | None:
        """The turn's grammar source: a schema, or `{"gbnf": …}` with fenced code calls."""
        if not fenced:
            return turn_schema(tools, json_schema)
        plain = [t for t in tools or [] if t["function"]["name"] not in fenced]
        calls = turn_schema(plain) if plain else None
        held = {n: Fenced(f.tool, f.field, short_names(simplify(f.arguments))) for n, f in fenced.items()}
        for f in held.values():
            f.arguments.setdefault("additionalProperties", False)
        return {"gbnf": gbnf.fenced_grammar(calls, held)}

    async def aclose(self) -> None:
        def close() -> None:
            with self._lock:
                llama, self._llama = self._llama, None
                self._grammars.clear()
                if llama is not None and hasattr(llama, "close"):
                    llama.close()

        await asyncio.to_thread(close)
