"""Project membership of TypeScript/JavaScript files, as tsconfig.json (or jsconfig.json)
decides it: the nearest config above a file that decides (`files` / `include`, `exclude`,
`compilerOptions.outDir` / `declarationDir`, `extends` followed for them) says whether the
file is source. Build output (the outDir, `.d.ts` copies the project does not include)
must not answer as if it were source.

What is out of the project: a file under the outDir or declarationDir, or matched by
`exclude` (default `node_modules`, `bower_components`, `jspm_packages`); a file that
`files` / `include` do not list, when it is TypeScript (`.d.ts` included) or when the
project takes JavaScript (`allowJs`). A JavaScript file a TypeScript project does not take
stays (an editor treats it as a project of its own). A solution-style config (`files: []`
with `references`) decides nothing. Must not know: tree-sitter, LSP, how files are read.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from agentls.analysis.modules import read_config

TS_SUFFIXES = (".ts", ".tsx", ".mts", ".cts")
JS_SUFFIXES = (".js", ".jsx", ".mjs", ".cjs")
DEFAULT_EXCLUDE = ("node_modules", "bower_components", "jspm_packages")


def _glob(pattern: str) -> re.Pattern[str]:
    """A tsconfig pattern (`**/`, `*`, `?`; a last segment without a wildcard or an
    extension is a folder) as a regex over workspace-relative paths."""
    pattern = posixpath.normpath(pattern)
    last = pattern.rsplit("/", 1)[-1]
    folder = not any(c in last for c in "*?") and "." not in last
    out = []
    i = 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out.append("(?:[^/]+/)*")
            i += 3
        elif pattern.startswith("**", i):
            out.append(".*")
            i += 2
        elif pattern[i] == "*":
            out.append("[^/]*")
            i += 1
        elif pattern[i] == "?":
            out.append("[^/]")
            i += 1
        else:
            out.append(re.escape(pattern[i]))
            i += 1
    body = "".join(out)
    return re.compile(f"^{body}(?:/.*)?$" if folder else f"^{body}$")


@dataclass
class Config:
    folder: str
    files: set[str] | None = None
    include: list[re.Pattern[str]] | None = None
    exclude: list[re.Pattern[str]] = field(default_factory=list)
    out: list[str] = field(default_factory=list)  # outDir, declarationDir
    allow_js: bool = False
    decides: bool = True

    def out_of_project(self, rel: str) -> bool:
        if any(rel == d or rel.startswith(d + "/") for d in self.out):
            return True
        if any(p.match(rel) for p in self.exclude) and not (self.files and rel in self.files):
            return True
        if self.files is None and self.include is None:
            return False  # everything under the folder
        listed = bool(self.files and rel in self.files) or any(p.match(rel) for p in self.include or ())
        if listed:
            return False
        return rel.endswith(TS_SUFFIXES) or (self.allow_js and rel.endswith(JS_SUFFIXES))


def _join(folder: str, path: str) -> str:
    return posixpath.normpath(posixpath.join(folder, path)) if folder else posixpath.normpath(path)


def load(rel: str, read_text: Callable[[str], str | None], depth: int = 0) -> Config | None:
    data = read_config(rel, read_text)
    if data is None:
        return None
    folder = posixpath.dirname(rel)
    cfg = Config(folder)
    parent = data.get("extends")
    if isinstance(parent, str) and parent.startswith(".") and depth < 3:
        target = _join(folder, parent)
        base = load(target if target.endswith(".json") else target + ".json", read_text, depth + 1)
        if base is not None:  # files/include/exclude are inherited, relative to the base
            cfg = Config(folder, base.files, base.include, base.exclude, base.out, base.allow_js)
    if isinstance(data.get("files"), list):
        cfg.files = {_join(folder, f) for f in data["files"] if isinstance(f, str)}
    if isinstance(data.get("include"), list):
        cfg.include = [_glob(_join(folder, p)) for p in data["include"] if isinstance(p, str)]
    if isinstance(data.get("exclude"), list):
        cfg.exclude = [_glob(_join(folder, p)) for p in data["exclude"] if isinstance(p, str)]
    elif depth == 0 and not cfg.exclude:
        cfg.exclude = [_glob(_join(folder, p)) for p in DEFAULT_EXCLUDE]
    opts = data.get("compilerOptions") or {}
    for key in ("outDir", "declarationDir"):
        if isinstance(opts.get(key), str):
            cfg.out.append(_join(folder, opts[key]))
    if isinstance(opts.get("allowJs"), bool):
        cfg.allow_js = opts["allowJs"]
    if cfg.files is not None and not cfg.files and cfg.include is None and data.get("references"):
        cfg.decides = False  # a solution-style config: its references decide
    return cfg


class Projects:
    def __init__(self, configs: Iterable[str], read_text: Callable[[str], str | None]) -> None:
        self.configs: list[Config] = []
        for rel in configs:
            cfg = load(rel, read_text)
            if cfg is not None and cfg.decides:
                self.configs.append(cfg)
        self.configs.sort(key=lambda c: -len(c.folder))  # nearest first

    def out_of_project(self, rel: str) -> bool:
        """Whether a TypeScript/JavaScript file is outside the project its nearest config describes."""
        if not rel.endswith(TS_SUFFIXES + JS_SUFFIXES):
            return False
        for cfg in self.configs:
            if not cfg.folder or rel.startswith(cfg.folder + "/"):
                return cfg.out_of_project(rel)
        return False
