"""Evaluated prompt prefixes kept on disk, so a new process starts where the last one was.

Evaluating a prompt is most of a small model's first turn here (~100 tokens/s on 2
cores: ~10 s for the ~1,000 tokens of a run's first prompt). Within one process llama.cpp
reuses the evaluated prefix a new prompt shares with the last one; across processes (each
`agentls run`, a restarted server) nothing was kept. This store keeps a few model states
(llama.cpp's state file: the KV cache and its tokens, ~29 MB per 1,000 tokens of the
1.5B), each with the text it was evaluated from. A process's first turn restores the state
whose text shares the longest beginning with its own prompt (the system message and the
workspace's map, the same from one run to the next); llama.cpp then evaluates only what
follows. After that turn the state is saved when no kept one already covers the prompt.
The same holds for the first turn of every later run in one process (a server): its
prompt shares little with the context the last run left (whose last turn offered other
tools), so the kept state of a run's first turn is the better start (`Prefixes`).

Files: `$XDG_CACHE_HOME/agentls/prefixes/<model key>/<digest>.state` with a `.json` beside
it `{text, tokens, used}`; written to a temporary name, fsync'd and renamed, so a kill
never leaves a torn state under a real name. A state llama.cpp refuses to load (torn,
another llama.cpp version) is deleted and the turn evaluates everything, as without the
store. At most MAX_ENTRIES per model; the least recently used goes. `AGENTLS_PREFIX_CACHE=0`
turns the store off.
Must not know: the agent loop, what the messages say.
"""

from __future__ import annotations

import contextlib
import ctypes
import hashlib
import json
import logging
import os
import tempfile
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

ENV = "AGENTLS_PREFIX_CACHE"
MAX_ENTRIES = 4
#: A kept state is restored when it shares at least this many characters with the prompt.
MIN_SHARED_CHARS = 1000
#: A kept state replaces the live context when it shares at least this many more characters.
MIN_GAIN_CHARS = 800
#: The text kept beside a state (enough to compare the prompt's stable beginning).
TEXT_CHARS = 24_000


def enabled(env: Mapping[str, str] = os.environ) -> bool:
    return env.get(ENV, "1").strip() not in ("0", "false", "no", "off")


def store_dir(model_file: Path, n_ctx: int, env: Mapping[str, str] = os.environ) -> Path:
    """This model file's (and context size's) folder: a state fits only the model it came
    from."""
    base = env.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    try:
        size = model_file.stat().st_size
    except OSError:
        size = 0
    key = hashlib.sha256(f"{model_file.name}\0{size}\0{n_ctx}".encode()).hexdigest()[:16]
    return Path(base) / "agentls" / "prefixes" / key


def prompt_text(messages: list[dict[str, Any]]) -> str:
    """The prompt as compared with the kept ones (roles and texts, in order)."""
    return "".join(f"<{m.get('role')}>\n{m.get('content') or ''}\n" for m in messages)[:TEXT_CHARS]


def _shared(a: str, b: str) -> int:
    n = min(len(a), len(b))
    i = 0
    while i < n and a[i] == b[i]:
        i += 1
    return i


class PrefixStore:
    """The kept states of one model (see the module docstring)."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory

    def _entries(self) -> list[tuple[Path, dict[str, Any]]]:
        out = []
        for meta in self.directory.glob("*.json"):
            try:
                data = json.loads(meta.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                continue
            if (
                isinstance(data, dict)
                and isinstance(data.get("text"), str)
                and meta.with_suffix(".state").is_file()
            ):
                out.append((meta, data))
        return out

    def best(self, text: str) -> tuple[Path, int] | None:
        """The kept state sharing the longest beginning with `text` (at least
        MIN_SHARED_CHARS), and how many characters it shares."""
        found: tuple[Path, int] | None = None
        for meta, data in self._entries():
            shared = _shared(text, data["text"])
            if shared >= MIN_SHARED_CHARS and (found is None or shared > found[1]):
                found = (meta, shared)
        return found

    def restore(self, llama: Any, meta: Path) -> int:
        """Load the state into `llama` (its tokens become the evaluated ones); the tokens
        restored, 0 when llama.cpp refused the file (then deleted)."""
        import llama_cpp

        state = meta.with_suffix(".state")
        capacity = int(llama.n_ctx())
        tokens = (llama_cpp.llama_token * capacity)()
        count = ctypes.c_size_t(0)
        ok = llama_cpp.llama_state_load_file(
            llama._ctx.ctx, str(state).encode(), tokens, capacity, ctypes.byref(count)
        )
        if not ok or count.value == 0:
            log.warning("a kept prompt state could not be loaded; deleted: %s", state)
            self._delete(meta)
            llama.reset()
            return 0
        n = count.value
        llama.input_ids[:n] = tokens[:n]
        llama.n_tokens = n
        llama._requires_eval = True  # the logits are not live: generate replays one token
        with contextlib.suppress(OSError, ValueError):
            data = json.loads(meta.read_text(encoding="utf-8"))
            self._write_json(meta, {**data, "used": time.time()})
        return n

    def save(self, llama: Any, text: str) -> Path | None:
        """Keep `llama`'s evaluated state under `text`; the kept state's metadata path (None
        when it could not be written: the run goes on)."""
        import llama_cpp

        n = int(llama.n_tokens)
        if n <= 0:
            return None
        digest = hashlib.sha256(text.encode("utf-8", "replace")).hexdigest()[:24]
        meta = self.directory / f"{digest}.json"
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=self.directory, prefix=".", suffix=".state.tmp")
            os.close(fd)
            arr = (llama_cpp.llama_token * n)(*llama.input_ids[:n].tolist())
            if not llama_cpp.llama_state_save_file(llama._ctx.ctx, tmp.encode(), arr, n):
                raise OSError("llama.cpp could not write the state")
            with open(tmp, "rb+") as f:
                os.fsync(f.fileno())
            os.replace(tmp, meta.with_suffix(".state"))
            self._write_json(meta, {"text": text, "tokens": n, "used": time.time()})
        except OSError as exc:
            log.warning("the prompt state could not be kept in %s: %s", self.directory, exc)
            with contextlib.suppress(OSError, UnboundLocalError):
                os.unlink(tmp)
            return None
        self._evict()
        return meta

    def _write_json(self, meta: Path, data: dict[str, Any]) -> None:
        fd, tmp = tempfile.mkstemp(dir=self.directory, prefix=".", suffix=".json.tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(data, f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, meta)

    def _evict(self) -> None:
        entries = sorted(self._entries(), key=lambda e: float(e[1].get("used") or 0), reverse=True)
        for meta, _ in entries[MAX_ENTRIES:]:
            self._delete(meta)
        for stale in self.directory.glob(".*.tmp"):  # a save killed half-way, long ago
            with contextlib.suppress(OSError):
                if time.time() - stale.stat().st_mtime > 3600:
                    stale.unlink()

    def _delete(self, meta: Path) -> None:
        for path in (meta, meta.with_suffix(".state")):
            with contextlib.suppress(OSError):
                path.unlink()


class Prefixes:
    """One model's use of the store, turn by turn: before each turn, the kept state sharing
    the most with its prompt is restored when that saves at least MIN_GAIN_CHARS over what
    the context holds (a process's first turn, a new run after another run's last turn);
    after a turn that opens a run (no assistant turn in its prompt yet), its state is kept
    unless a kept one covers 90 % of it. Later turns of a run extend the live context,
    which llama.cpp reuses by itself."""

    def __init__(self, n_ctx: int) -> None:
        self.n_ctx = n_ctx
        self._live = ""  # the text of the prompt the context was last evaluated for
        self._store: PrefixStore | None = None
        self._keep: str | None = None  # this turn's text, to keep after it

    def before(self, llama: Any, messages: list[dict[str, Any]]) -> None:
        text = prompt_text(messages)
        live, self._live, self._keep = self._live, text, None
        shared_live = _shared(text, live) if int(getattr(llama, "n_tokens", 0)) else 0
        if (store := self._open(llama)) is None:
            return
        try:
            found = store.best(text)
            if found is not None and found[1] >= shared_live + MIN_GAIN_CHARS and not store.restore(llama, found[0]):
                found = None  # torn: deleted, this turn's state takes its place
            log.debug("prompt of %d chars: %d shared with the context, %s kept", len(text), shared_live,
                     f"{found[1]} with a" if found else "none with a")  # fmt: skip
            opening = not any(m.get("role") == "assistant" for m in messages)
            if opening and (found is None or found[1] * 10 < len(text) * 9):
                self._keep = text  # a run's opening prompt (a later turn's would crowd them out)
        except Exception as exc:  # a speed-up only: the turn goes on from the live context
            log.warning("no kept prompt state restored: %s", exc)
            with contextlib.suppress(Exception):
                llama.reset()

    def after(self, llama: Any) -> None:
        """Keep the turn's state when `before` said to (not after a cancelled turn)."""
        if self._keep is not None and self._store is not None:
            self._store.save(llama, self._keep)
        self._keep = None

    def _open(self, llama: Any) -> PrefixStore | None:
        model_path = getattr(llama, "model_path", None)
        if not enabled() or not isinstance(model_path, str) or not hasattr(llama, "_ctx"):
            return None
        if self._store is None:
            self._store = PrefixStore(store_dir(Path(model_path), self.n_ctx))
        return self._store
