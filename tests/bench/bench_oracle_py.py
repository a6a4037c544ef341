"""Python oracles: jedi and pyright answers to definition / references at given positions.

Answers are sets of (workspace-relative path, 0-based line, UTF-16 start character);
anything outside the project (stdlib, typeshed, site-packages) is dropped. jedi runs
in-process with `jedi.Project(root, sys_path=<source roots> + the stdlib)` (the source
roots: the project root, and `src/` where the package lives there; the venv's
site-packages are left out so an installed copy of the project never answers);
pyright runs as `pyright-langserver --stdio` with the venv taken off PATH, driven by
bench_lsp.LspClient. Must not know: agentls.
"""

from __future__ import annotations

import os
import sys
import sysconfig
import time
from pathlib import Path
from typing import Any

from bench_data import npm_bin
from bench_lsp import LspClient, LspError, locations
from bench_positions import Position

Answer = list[tuple[str, int, int]]


class LineText:
    """Per-file line cache to turn code-point columns into UTF-16 characters."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._lines: dict[str, list[str]] = {}

    def utf16(self, rel: str, line: int, col: int) -> int:
        lines = self._lines.get(rel)
        if lines is None:
            text = (self.root / rel).read_text(encoding="utf-8", errors="replace")
            lines = self._lines[rel] = text.split("\n")
        if line >= len(lines):
            return col
        prefix = lines[line][:col]
        return len(prefix.encode("utf-16-le")) // 2


def _relative(root: Path, path: Path | str | None) -> str | None:
    if path is None:
        return None
    try:
        return Path(os.path.realpath(path)).relative_to(root).as_posix()
    except ValueError:
        return None


# --- jedi -------------------------------------------------------------------------------
def jedi_project(root: Path, source_roots: list[Path] | None = None) -> Any:
    import jedi

    stdlib = {sysconfig.get_paths()["stdlib"], sysconfig.get_paths()["platstdlib"]}
    roots = [str(os.path.realpath(r)) for r in (source_roots or [root])]
    sys_path = roots + [
        p
        for p in sys.path
        if p and ("site-packages" not in p) and any(p.startswith(s) for s in stdlib)
    ]
    return jedi.Project(str(root), sys_path=sys_path, smart_sys_path=False)


def _jedi_names(root: Path, lines: LineText, names: list[Any]) -> Answer:
    out = set()
    for n in names:
        rel = _relative(root, n.module_path)
        if rel is None:
            continue
        line = (n.line or 1) - 1
        out.add((rel, line, lines.utf16(rel, line, n.column or 0)))
    return sorted(out)


def jedi_answers(
    root: Path,
    positions: list[Position],
    references: bool = True,
    log_every: int = 20,
    source_roots: list[Path] | None = None,
) -> dict[str, Any]:
    """key -> {definition, references, def_s, ref_s[, error]} for each position."""
    import jedi

    root = Path(os.path.realpath(root))
    project = jedi_project(root, source_roots)
    lines = LineText(root)
    out: dict[str, Any] = {}
    for i, pos in enumerate(positions):
        entry: dict[str, Any] = {}
        path = str(root / pos.path)
        try:
            t0 = time.perf_counter()
            names = jedi.Script(path=path, project=project).goto(
                pos.line + 1, pos.col, follow_imports=True
            )
            entry["def_s"] = time.perf_counter() - t0
            entry["definition"] = _jedi_names(root, lines, names)
        except Exception as exc:  # jedi raises on odd positions; record and go on
            entry["definition_error"] = f"{type(exc).__name__}: {exc}"
        if references:
            try:
                t0 = time.perf_counter()
                refs = jedi.Script(path=path, project=project).get_references(
                    pos.line + 1, pos.col, include_builtins=False
                )
                entry["ref_s"] = time.perf_counter() - t0
                entry["references"] = _jedi_names(root, lines, refs)
            except Exception as exc:
                entry["references_error"] = f"{type(exc).__name__}: {exc}"
        out[pos.key()] = entry
        if log_every and (i + 1) % log_every == 0:
            print(f"  jedi {i + 1}/{len(positions)}", file=sys.stderr, flush=True)
    return out


# --- pyright ----------------------------------------------------------------------------
def pyright_env() -> dict[str, str]:
    env = dict(os.environ)
    venv = str(Path(sys.executable).parent)
    env.pop("VIRTUAL_ENV", None)
    env["PATH"] = os.pathsep.join(p for p in env.get("PATH", "").split(os.pathsep) if p != venv)
    return env


def pyright_answers(
    root: Path, positions: list[Position], stderr_path: Path, log_every: int = 20
) -> dict[str, Any]:
    root = Path(os.path.realpath(root))
    client = LspClient(
        [str(npm_bin("pyright-langserver")), "--stdio"], root, stderr_path, env=pyright_env()
    )
    out: dict[str, Any] = {}
    try:
        client.initialize(root)
        by_file: dict[str, list[Position]] = {}
        for pos in positions:
            by_file.setdefault(pos.path, []).append(pos)
        done = 0
        for rel, group in by_file.items():
            uri = client.open(root / rel, "python")
            for pos in group:
                entry: dict[str, Any] = {}
                doc = {
                    "textDocument": {"uri": uri},
                    "position": {"line": pos.line, "character": pos.char},
                }
                try:
                    t0 = time.perf_counter()
                    defs = client.request("textDocument/definition", doc, timeout=300)
                    entry["def_s"] = time.perf_counter() - t0
                    entry["definition"] = _lsp_answer(root, defs)
                    t0 = time.perf_counter()
                    refs = client.request(
                        "textDocument/references",
                        {**doc, "context": {"includeDeclaration": True}},
                        timeout=300,
                    )
                    entry["ref_s"] = time.perf_counter() - t0
                    entry["references"] = _lsp_answer(root, refs)
                except LspError as exc:
                    entry["error"] = str(exc)
                out[pos.key()] = entry
                done += 1
                if log_every and done % log_every == 0:
                    print(f"  pyright {done}/{len(positions)}", file=sys.stderr, flush=True)
            client.close_document(uri)
    finally:
        client.close()
    return out


def _lsp_answer(root: Path, result: Any) -> Answer:
    from urllib.parse import unquote, urlparse

    out = set()
    for uri, line, char in locations(result):
        rel = _relative(root, unquote(urlparse(uri).path))
        if rel is not None:
            out.add((rel, line, char))
    return sorted(out)


def versions() -> dict[str, str]:
    import jedi

    pkg = npm_bin("pyright-langserver").parent.parent / "pyright" / "package.json"
    import json

    return {"jedi": jedi.__version__, "pyright": json.loads(pkg.read_text())["version"]}
