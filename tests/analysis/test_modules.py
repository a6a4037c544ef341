"""Module systems as tables: which dotted name each Python file gets, which file a
relative import names, and which file an ES specifier resolves to."""

from __future__ import annotations

import pytest

from agentls.analysis.modules import EsModules, PythonModules, load_jsonc

PY_FILES = [
    "src/pkg/__init__.py",
    "src/pkg/core.py",
    "src/pkg/sub/__init__.py",
    "src/pkg/sub/leaf.py",
    "src/pkg/ns/deep/tool.py",  # folders without __init__.py inside a package: part of it
    "scripts/tool.py",
    "nsroot/nspkg/mod.py",  # namespace package (no __init__.py)
    "stubs/only.pyi",
    "1bad-name/x.py",
]


@pytest.mark.parametrize(
    ("rel", "name"),
    [
        ("src/pkg/__init__.py", "pkg"),
        ("src/pkg/core.py", "pkg.core"),
        ("src/pkg/sub/leaf.py", "pkg.sub.leaf"),
        ("src/pkg/ns/deep/tool.py", "pkg.ns.deep.tool"),
        ("scripts/tool.py", "tool"),
        ("nsroot/nspkg/mod.py", "mod"),
        ("stubs/only.pyi", "only"),
    ],
)
def test_module_names(rel: str, name: str) -> None:
    assert PythonModules(PY_FILES).name_of[rel] == name


@pytest.mark.parametrize(
    ("name", "rel"),
    [("pkg.sub", "src/pkg/sub/__init__.py"), ("tool", "scripts/tool.py"), ("deep.tool", None), ("nspkg.mod", "nsroot/nspkg/mod.py"), ("nsroot.nspkg.mod", "nsroot/nspkg/mod.py"), ("missing", None)],
)
def test_files_by_name(name: str, rel: str | None) -> None:
    assert PythonModules(PY_FILES).file_of(name) == rel


@pytest.mark.parametrize(
    ("rel", "module", "absolute"),
    [
        ("src/pkg/core.py", ".sub", "pkg.sub"),
        ("src/pkg/core.py", ".", "pkg"),
        ("src/pkg/sub/leaf.py", "..core", "pkg.core"),
        ("src/pkg/sub/__init__.py", ".leaf", "pkg.sub.leaf"),
        ("src/pkg/ns/deep/tool.py", "...core", "pkg.core"),
        ("src/pkg/core.py", "....too.far", None),
        ("src/pkg/core.py", "os.path", "os.path"),
    ],
)
def test_relative_imports(rel: str, module: str, absolute: str | None) -> None:
    assert PythonModules(PY_FILES).absolute(rel, module) == absolute


def test_a_workspace_folder_that_is_a_package_names_its_modules() -> None:
    mods = PythonModules(["__init__.py", "core/__init__.py", "core/basic.py", "loose/script.py"], root_name="sympy")
    assert mods.name_of["core/basic.py"] == "sympy.core.basic"
    assert mods.name_of["__init__.py"] == "sympy"
    assert mods.name_of["loose/script.py"] == "script"  # not in the package


ES_FILES = ["web/src/a.ts", "web/src/lib/index.ts", "web/src/lib/b.tsx", "web/src/util/c.d.ts", "web/src/js/d.js", "web/tsconfig.json"]
TSCONFIG = """{
  // comments and trailing commas
  "compilerOptions": { "baseUrl": "src", "paths": { "@lib/*": ["lib/*"], "util": ["util/c"], }, },
}"""


@pytest.mark.parametrize(
    ("rel", "spec", "target"),
    [
        ("web/src/a.ts", "./lib", "web/src/lib/index.ts"),
        ("web/src/a.ts", "./lib/b", "web/src/lib/b.tsx"),
        ("web/src/a.ts", "./lib/b.js", "web/src/lib/b.tsx"),  # TS source naming the emitted .js
        ("web/src/a.ts", "./util/c", "web/src/util/c.d.ts"),
        ("web/src/a.ts", "./js/d.js", "web/src/js/d.js"),
        ("web/src/lib/b.tsx", "../a", "web/src/a.ts"),
        ("web/src/a.ts", "@lib/b", "web/src/lib/b.tsx"),
        ("web/src/a.ts", "util", "web/src/util/c.d.ts"),
        ("web/src/a.ts", "lib", "web/src/lib/index.ts"),  # baseUrl
        ("web/src/a.ts", "react", None),
        ("web/src/a.ts", "./nope", None),
    ],
)
def test_es_resolution(rel: str, spec: str, target: str | None) -> None:
    files = {"web/tsconfig.json": TSCONFIG}
    mods = EsModules([f for f in ES_FILES if not f.endswith(".json")], files.get, ["web/tsconfig.json"])
    assert mods.resolve(rel, spec) == target


def test_jsonc_keeps_comment_markers_inside_strings() -> None:
    assert load_jsonc('{"a": "http://x//y", /* c */ "b": [1,],}') == {"a": "http://x//y", "b": [1]}


def test_graph_follows_grimp_conventions(tmp_path) -> None:
    from agentls.analysis.index import WorkspaceIndex

    files = {
        "pkg/__init__.py": "",
        "pkg/a.py": "import pkg.missing.deep\nfrom pkg.gone import x\nfrom . import b\nfrom pkg.a import y\n",
        "pkg/b.py": "import pkg.migrations\n",
        "pkg/migrations/__init__.py": "",
        "pkg/migrations/0001_initial.py": "from pkg import b\n",
    }
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    ix = WorkspaceIndex(tmp_path, cache_dir=False, jobs=1)
    ix.build()
    graph = ix.import_graph()
    assert graph["pkg.a"] == {"pkg", "pkg.b", "pkg.a"}  # nearest ancestor; `from missing` dropped; self-edge kept
    assert graph["pkg.migrations.0001_initial"] == {"pkg.b"}  # not an identifier, still a module
