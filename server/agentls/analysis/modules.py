"""Module systems: which file an import names.

Python: dotted module names from source roots discovered in the workspace (every folder
above a package that has no `__init__.py` is a root, so src-layouts and several roots
work; a folder without one inside a package is a namespace part of that package),
relative imports by level. ES (TypeScript/JavaScript): relative specifiers with
suffix and `index.*` probing, `tsconfig.json` `baseUrl` and `paths`.
Must not know: parsing, LSP.
"""

from __future__ import annotations

import json
import posixpath
import re
from collections.abc import Callable, Iterable

PY_SUFFIXES = (".py", ".pyi")
ES_PROBE = (".ts", ".tsx", ".d.ts", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs")


def _module_part(part: str) -> bool:
    """A file or folder name that can be a module name's part. Like grimp, names that are
    not identifiers (django's `0001_initial`) still name modules; dotted ones cannot."""
    return bool(part) and "." not in part and " " not in part and "-" not in part


def _is_init(rel: str) -> bool:
    base = posixpath.basename(rel)
    return base in ("__init__.py", "__init__.pyi")


class PythonModules:
    """Module name ↔ file maps for the Python files of a workspace."""

    def __init__(self, paths: Iterable[str], root_name: str = "") -> None:
        """`root_name` names the workspace folder, used when the folder is itself a package."""
        files = sorted(p for p in paths if p.endswith(PY_SUFFIXES))
        present = set(files)
        package_dirs = {posixpath.dirname(p) for p in files if _is_init(p)}
        in_package: dict[str, bool] = {}

        def named(d: str) -> bool:
            """A package, or a folder without `__init__.py` inside one (a namespace portion
            of it: flask's `sansio/` makes `flask.sansio.app`, not a root of `app`)."""
            if d in package_dirs:
                return True
            got = in_package.get(d)
            if got is None:
                parent = posixpath.dirname(d)
                got = in_package[d] = bool(parent) and named(parent)
            return got
        self.by_name: dict[str, str] = {}
        self.name_of: dict[str, str] = {}
        self.roots: set[str] = set()
        secondary: list[tuple[str, str]] = []
        for rel in files:
            if rel.endswith(".pyi") and rel[:-1] in present:
                continue  # the .py wins; the stub still gets indexed
            folder = posixpath.dirname(rel)
            parts = [] if _is_init(rel) else [posixpath.splitext(posixpath.basename(rel))[0]]
            d = folder
            while d and named(d):
                parts.insert(0, posixpath.basename(d))
                d = posixpath.dirname(d)
            if not d and "" in package_dirs and root_name.isidentifier():
                parts.insert(0, root_name)  # the workspace folder is a package itself
            self.roots.add(d)
            if not parts or not all(_module_part(p) for p in parts):
                continue
            name = ".".join(parts)
            self.name_of[rel] = name
            self.by_name.setdefault(name, rel)
            while d:  # namespace packages: also reachable from every folder above
                parts.insert(0, posixpath.basename(d))
                d = posixpath.dirname(d)
                if all(_module_part(p) for p in parts):
                    secondary.append((".".join(parts), rel))
        for name, rel in secondary:
            self.by_name.setdefault(name, rel)

    def package_of(self, rel: str) -> str | None:
        name = self.name_of.get(rel)
        if name is None:
            return None
        return name if _is_init(rel) else name.rpartition(".")[0]

    def absolute(self, rel: str, module: str) -> str | None:
        """The absolute dotted name an import statement in `rel` refers to."""
        if not module.startswith("."):
            return module
        level = len(module) - len(module.lstrip("."))
        rest = module[level:]
        package = self.package_of(rel)
        if package is None:
            return None
        parts = package.split(".") if package else []
        if level - 1 > len(parts):
            return None
        base = parts[: len(parts) - (level - 1)]
        if rest:
            base.append(rest)
        return ".".join(base)

    def file_of(self, name: str | None) -> str | None:
        return self.by_name.get(name) if name else None

    def is_package(self, rel: str) -> bool:
        return _is_init(rel)


_JSONC_TOKEN = re.compile(r'"(?:\\.|[^"\\])*"|//[^\n]*|/\*.*?\*/', re.S)
_TRAILING_COMMA = re.compile(r",(\s*[}\]])")


def load_jsonc(text: str) -> dict:
    """tsconfig.json is JSON with comments and trailing commas."""
    stripped = _JSONC_TOKEN.sub(lambda m: m.group(0) if m.group(0).startswith('"') else "", text)
    stripped = _TRAILING_COMMA.sub(r"\1", stripped)
    data = json.loads(stripped)
    return data if isinstance(data, dict) else {}


def read_config(rel: str, read_text: Callable[[str], str | None]) -> dict | None:  # type: ignore[type-arg]
    """A tsconfig/jsconfig file's settings; None when it cannot be read or parsed."""
    text = read_text(rel)
    if text is None:
        return None
    try:
        return load_jsonc(text)
    except ValueError:
        return None


class EsModules:
    """Specifier → file for TypeScript/JavaScript files."""

    def __init__(self, paths: Iterable[str], read_text: Callable[[str], str | None], configs: Iterable[str] = ()) -> None:
        self.files = set(paths)
        self.configs: list[tuple[str, str | None, dict[str, list[str]]]] = []
        for rel in sorted(configs):
            cfg = self._load_config(rel, read_text)
            if cfg is not None:
                self.configs.append(cfg)
        self.configs.sort(key=lambda c: -len(c[0]))

    def _load_config(self, rel: str, read_text: Callable[[str], str | None], depth: int = 0) -> tuple[str, str | None, dict[str, list[str]]] | None:
        data = read_config(rel, read_text)
        if data is None:
            return None
        folder = posixpath.dirname(rel)
        base_url: str | None = None
        paths: dict[str, list[str]] = {}
        parent = data.get("extends")
        if isinstance(parent, str) and parent.startswith(".") and depth < 3:
            target = posixpath.normpath(posixpath.join(folder, parent))
            if not target.endswith(".json"):
                target += ".json"
            inherited = self._load_config(target, read_text, depth + 1)
            if inherited:
                _, base_url, paths = inherited
        opts = data.get("compilerOptions") or {}
        if isinstance(opts.get("baseUrl"), str):
            base_url = posixpath.normpath(posixpath.join(folder, opts["baseUrl"]))
        if isinstance(opts.get("paths"), dict):
            root = base_url if base_url is not None else folder
            paths = {
                k: [posixpath.normpath(posixpath.join(root, t)) for t in v if isinstance(t, str)]
                for k, v in opts["paths"].items()
                if isinstance(v, list)
            }
        return folder, base_url, paths

    def _probe(self, base: str) -> str | None:
        base = posixpath.normpath(base)
        if base in self.files:
            return base
        stem = re.sub(r"\.(m|c)?jsx?$", "", base)  # `./x.js` in TS source means ./x.ts
        for cand in (stem, base):
            for ext in ES_PROBE:
                if cand + ext in self.files:
                    return cand + ext
        for ext in ES_PROBE:
            if f"{base}/index{ext}" in self.files:
                return f"{base}/index{ext}"
        return None

    def resolve(self, rel: str, spec: str) -> str | None:
        if spec.startswith("."):
            return self._probe(posixpath.join(posixpath.dirname(rel), spec))
        for folder, base_url, paths in self.configs:
            if folder and not rel.startswith(folder + "/"):
                continue
            for pattern, targets in paths.items():
                if "*" in pattern:
                    pre, _, post = pattern.partition("*")
                    if spec.startswith(pre) and spec.endswith(post) and len(spec) >= len(pre) + len(post):
                        star = spec[len(pre) : len(spec) - len(post)]
                        for t in targets:
                            hit = self._probe(t.replace("*", star))
                            if hit:
                                return hit
                elif spec == pattern:
                    for t in targets:
                        hit = self._probe(t)
                        if hit:
                            return hit
            if base_url is not None:
                hit = self._probe(posixpath.join(base_url, spec) if base_url else spec)
                if hit:
                    return hit
        return None
