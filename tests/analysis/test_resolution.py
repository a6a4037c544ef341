"""Resolution tables: each row points at a use (file, text, offset) and names where its
definition must be (file, text, offset), over a workspace written from the dict below.
Covers scopes, every import form, re-exports, members, inheritance, src-layout, several
source roots, and for TypeScript ES imports/re-exports, index files, tsconfig paths,
`this`, `new` and namespaces."""

from __future__ import annotations

from pathlib import Path

import pytest

from agentls.analysis.index import WorkspaceIndex
from tests.analysis.workspace import built_index, position

FILES = {
    # --- Python: src-layout package + a second root (tools/) + top-level script ---
    "src/pkg/__init__.py": "from .core import Engine as Engine\nfrom . import util\n",
    "src/pkg/core.py": (
        "import os.path as osp\n"
        "from .util import helper, CONST as K\n"
        "from pkg.base import Base\n"
        "\n"
        "class Engine(Base):\n"
        "    speed = 1\n"
        "\n"
        "    def __init__(self):\n"
        "        self.fuel = K\n"
        "\n"
        "    def run(self):\n"
        "        x = helper(self.fuel)\n"
        "        self.stop()\n"
        "        return self.speed + x + self.inherited()\n"
        "\n"
        "    def stop(self):\n"
        "        def inner():\n"
        "            return speed_local\n"
        "        speed_local = 2\n"
        "        return inner()\n"
        "\n"
        "def make():\n"
        "    e = Engine()\n"
        "    e.run()\n"
        "    return osp.join('a', 'b')\n"
    ),
    "src/pkg/base.py": "class Base:\n    def inherited(self):\n        return 0\n",
    "src/pkg/util.py": "CONST = 3\n\ndef helper(v):\n    return v * CONST\n",
    "tools/runner.py": "import pkg\nfrom pkg import Engine\nfrom pkg.util import *\n\npkg.core.make()\nEngine().run()\nhelper(1)\npkg.util.helper(2)\n",
    "scopes.py": (
        "value = 1\n"
        "class C:\n"
        "    value = 2\n"
        "    other = value\n"
        "    def m(self):\n"
        "        return value\n"
        "def f(value):\n"
        "    return [value for value in range(3)], value\n"
        "def g():\n"
        "    global value\n"
        "    value = 5\n"
    ),
    # --- TypeScript ---
    "web/tsconfig.json": '{ "compilerOptions": { "baseUrl": "src", "paths": { "@lib/*": ["lib/*"] } } }',
    "web/src/lib/shapes.ts": (
        "export interface Shape { area(): number }\n"
        "export class Square implements Shape {\n"
        "  constructor(private side: number) {}\n"
        "  area(): number { return this.side * this.side; }\n"
        "  double(): Square { return new Square(this.area()); }\n"
        "}\n"
        "export default function unit(): Square { return new Square(1); }\n"
    ),
    "web/src/lib/generic.ts": (
        "export interface Shape2 { area(): number; name: string }\n"
        "export function pick<T>(items: T[], f: (t: T) => boolean): T { return items[0]; }\n"
        "export class Box<V> {\n"
        "  value: V;\n"
        "  constructor(v: V) { this.value = v; }\n"
        "  get(): V { return this.value; }\n"
        "}\n"
        "export function over(a: string): string;\n"
        "export function over(a: number): number;\n"
        "export function over(a: any): any { return a; }\n"
        "function use(s: Shape2) { s.area(); return over(1); }\n"
        "export function two(a: number): number;\n"
        "export function two(a: number, b: number): number;\n"
        "export function two(a: number, b?: number): number { return a; }\n"
        "two(1, 2);\n"
        "class Holder { constructor(private readonly box: Box<number>, public label?: string) {}\n"
        "  show(cfg?: Shape2) { this.box.get(); this.label; return cfg!.name; } }\n"
    ),
    "web/src/lib/doc.ts": (
        'import { Square } from "./shapes";\n'
        "/**\n"
        " * Makes a square. See {@link Square} and {@link Square.area}.\n"
        " * @param size The size.\n"
        " */\n"
        "export function make(size: number): Square {\n"
        "  return new Square(size);\n"
        "}\n"
    ),
    "web/src/lib/index.ts": 'export { Square as Box } from "./shapes";\nexport * from "./shapes";\nexport * as geo from "./shapes";\n',
    "web/src/app.ts": (
        'import unit, { Square } from "./lib/shapes";\n'
        'import { Box } from "./lib";\n'
        'import * as shapes from "@lib/shapes";\n'
        'import { Square as Sq } from "lib/shapes";\n'
        "const s: Square = new Square(2);\n"
        "s.area();\n"
        "new Box(3);\n"
        "shapes.unit;\n"
        "let t: shapes.Shape = unit();\n"
        "new Sq(4);\n"
        'import { geo } from "./lib";\n'
        "geo.unit();\n"
    ),
}

# (file, needle, offset in needle, nth) -> (target file, needle, offset)
CASES = [
    ("src/pkg/core.py", "helper(self", 0, 0, "src/pkg/util.py", "def helper", 4),
    ("src/pkg/core.py", "CONST as K", 0, 0, "src/pkg/util.py", "CONST = 3", 0),  # the name in `import … as`
    ("src/pkg/core.py", "from .util", 6, 0, "src/pkg/util.py", "CONST = 3", 0),
    ("src/pkg/__init__.py", "Engine as", 0, 0, "src/pkg/core.py", "class Engine", 6),
    ("src/pkg/core.py", "= K", 2, 0, "src/pkg/util.py", "CONST = 3", 0),
    ("src/pkg/core.py", "Engine(Base)", 7, 0, "src/pkg/base.py", "class Base", 6),
    ("src/pkg/core.py", "self.stop()", 5, 0, "src/pkg/core.py", "def stop", 4),
    ("src/pkg/core.py", "self.speed", 5, 0, "src/pkg/core.py", "speed = 1", 0),
    ("src/pkg/core.py", "self.inherited", 5, 0, "src/pkg/base.py", "def inherited", 4),
    ("src/pkg/core.py", "self.fuel)", 5, 0, "src/pkg/core.py", "self.fuel = K", 5),
    ("src/pkg/core.py", "return speed_local", 7, 0, "src/pkg/core.py", "speed_local = 2", 0),
    ("src/pkg/core.py", "e.run()", 2, 0, "src/pkg/core.py", "def run", 4),
    ("tools/runner.py", "pkg.core.make", 9, 0, "src/pkg/core.py", "def make", 4),
    ("tools/runner.py", "Engine().run", 9, 0, "src/pkg/core.py", "def run", 4),
    ("tools/runner.py", "Engine()", 0, 0, "src/pkg/core.py", "class Engine", 6),
    ("tools/runner.py", "helper(1)", 0, 0, "src/pkg/util.py", "def helper", 4),
    ("tools/runner.py", "pkg.util.helper", 9, 0, "src/pkg/util.py", "def helper", 4),
    ("scopes.py", "other = value", 8, 0, "scopes.py", "value = 2", 0),
    ("scopes.py", "], value", 3, 0, "scopes.py", "def f(value", 6),
    ("scopes.py", "[value for", 1, 0, "scopes.py", "for value in", 4),
    ("web/src/app.ts", "s.area()", 2, 0, "web/src/lib/shapes.ts", "area(): number {", 0),
    ("web/src/app.ts", "shapes.unit", 7, 0, "web/src/lib/shapes.ts", "function unit", 9),
    ("web/src/app.ts", "shapes.Shape", 7, 0, "web/src/lib/shapes.ts", "interface Shape", 10),
    ("web/src/app.ts", "= unit()", 2, 0, "web/src/lib/shapes.ts", "function unit", 9),
    ("web/src/app.ts", "geo.unit", 4, 0, "web/src/lib/shapes.ts", "function unit", 9),
    ("web/src/lib/generic.ts", "items: T[]", 7, 0, "web/src/lib/generic.ts", "pick<T>", 5),
    ("web/src/lib/generic.ts", "get(): V", 7, 0, "web/src/lib/generic.ts", "Box<V>", 4),
    ("web/src/lib/generic.ts", "this.value = v", 5, 0, "web/src/lib/generic.ts", "value: V", 0),
    ("web/src/lib/generic.ts", "this.value;", 5, 0, "web/src/lib/generic.ts", "value: V", 0),
    ("web/src/lib/generic.ts", "s.area()", 2, 0, "web/src/lib/generic.ts", "area(): number", 0),
    ("web/src/lib/generic.ts", "over(1)", 0, 0, "web/src/lib/generic.ts", "over(a: string)", 0),
    ("web/src/lib/generic.ts", "two(1, 2)", 0, 0, "web/src/lib/generic.ts", "two(a: number, b: number)", 0),
    ("web/src/lib/generic.ts", "this.box.get", 5, 0, "web/src/lib/generic.ts", "box: Box", 0),
    ("web/src/lib/generic.ts", "box.get()", 4, 0, "web/src/lib/generic.ts", "get(): V", 0),
    ("web/src/lib/generic.ts", "this.label", 5, 0, "web/src/lib/generic.ts", "label?: string", 0),
    ("web/src/lib/generic.ts", "cfg!.name", 5, 0, "web/src/lib/generic.ts", "name: string", 0),
    ("web/src/lib/doc.ts", "@link Square}", 6, 0, "web/src/lib/shapes.ts", "class Square", 6),
    ("web/src/lib/doc.ts", "Square.area}", 7, 0, "web/src/lib/shapes.ts", "area(): number {", 0),
    ("web/src/lib/doc.ts", "@param size", 7, 0, "web/src/lib/doc.ts", "make(size", 5),
    ("web/src/lib/shapes.ts", "this.area()", 5, 0, "web/src/lib/shapes.ts", "area(): number {", 0),
]




@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> WorkspaceIndex:
    return built_index(tmp_path_factory.mktemp("resolve"), FILES)


@pytest.mark.parametrize(("rel", "needle", "off", "nth", "target", "tneedle", "toff"), CASES, ids=[f"{c[0]}:{c[1]}" for c in CASES])
def test_definition_resolves(index: WorkspaceIndex, rel: str, needle: str, off: int, nth: int, target: str, tneedle: str, toff: int) -> None:
    line, char = position(index.root, rel, needle, off, nth)
    res = index.definition(rel, line, char)
    assert res.how == "resolved", f"{needle!r} fell back to {res.locations}"
    want = (target, position(index.root, target, tneedle, toff))
    assert [(loc.path, loc.start) for loc in res.locations] == [want]


NEW_CASES = [
    ("web/src/app.ts", "new Square(2)", 4),
    ("web/src/app.ts", "new Box", 4),  # an alias of Square
    ("web/src/app.ts", "new Sq", 4),
    ("web/src/lib/shapes.ts", "new Square(this", 4),
]


@pytest.mark.parametrize(("rel", "needle", "off"), NEW_CASES, ids=[c[1] for c in NEW_CASES])
def test_new_resolves_to_the_class_and_its_constructor(index: WorkspaceIndex, rel: str, needle: str, off: int) -> None:
    """As the TypeScript language service answers `new Foo(…)`: the class, then the constructor."""
    line, char = position(index.root, rel, needle, off)
    res = index.definition(rel, line, char)
    assert res.how == "resolved"
    shapes = "web/src/lib/shapes.ts"
    want = [(shapes, position(index.root, shapes, "class Square", 6)), (shapes, position(index.root, shapes, "constructor", 0))]
    assert [(loc.path, loc.start) for loc in res.locations] == want


def test_every_assignment_of_a_variable_is_a_definition(index: WorkspaceIndex) -> None:
    line, char = position(index.root, "scopes.py", "return value", 7)
    res = index.definition("scopes.py", line, char)
    assert [loc.start for loc in res.locations] == [(0, 0), (10, 4)]  # `value = 5` is under `global value`


@pytest.mark.parametrize(
    ("needle", "off", "where"),
    [("osp.join", 0, "os.path"), ("osp.join", 4, "os.path.join"), ("x = helper", 0, None)],
)
def test_names_from_outside_the_workspace_have_no_location(index: WorkspaceIndex, needle: str, off: int, where: str | None) -> None:
    line, char = position(index.root, "src/pkg/core.py", needle, off)
    res = index.definition("src/pkg/core.py", line, char)
    if where is None:  # a local variable: resolved, for contrast
        assert res.how == "resolved"
        return
    assert (res.how, res.locations) == ("none", [])
    assert res.note == f"defined outside the workspace: {where}"


def test_builtins_and_external_imports_are_one_binding_across_files(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("from collections import deque\nq = deque()\nprint(len(q))\n")
    (tmp_path / "b.py").write_text("import collections\nfrom collections import deque as dq\nprint(dq(), collections.deque)\n")
    ix = WorkspaceIndex(tmp_path, cache_dir=False, jobs=1)
    ix.build()
    refs = ix.references("a.py", 1, 4)
    assert {(loc.path, loc.start[0]) for loc in refs.locations} == {("a.py", 0), ("a.py", 1), ("b.py", 1), ("b.py", 2)}
    prints = ix.references("a.py", 2, 0)
    assert {(loc.path, loc.start) for loc in prints.locations} == {("a.py", (2, 0)), ("b.py", (2, 0))}
    assert ix.definition("a.py", 2, 0).how == "none"


def test_unresolvable_member_falls_back_to_ranked_name_matches(index: WorkspaceIndex) -> None:
    (index.root / "dyn.py").write_text("def h(obj):\n    return obj.inherited()\n")
    index.update_file("dyn.py")
    res = index.definition("dyn.py", 1, 16)
    assert res.how == "fallback"
    assert res.locations[0].path == "src/pkg/base.py"


def test_references_cross_files_and_aliases(index: WorkspaceIndex) -> None:
    line, char = position(index.root, "src/pkg/util.py", "def helper", 4)
    res = index.references("src/pkg/util.py", line, char)
    got = {(loc.path, loc.start[0]) for loc in res.locations}
    assert {("src/pkg/util.py", line), ("src/pkg/core.py", 11), ("tools/runner.py", 6), ("tools/runner.py", 7)} <= got
    assert all(loc.name == "helper" for loc in res.locations)


def test_global_declaration_binds_at_module_level(index: WorkspaceIndex) -> None:
    res = index.references("scopes.py", 0, 0)
    lines = {loc.start[0] for loc in res.locations}
    assert {0, 5, 10} <= lines  # `return value` in C.m and `value = 5` under `global value`
    assert not {2, 3, 6, 7} & lines  # the class attribute and f's parameter are other bindings


def test_dependency_graph_has_internal_edges(index: WorkspaceIndex) -> None:
    graph = index.import_graph()
    assert {"pkg.core", "pkg.util"} <= graph["pkg"]
    assert {"pkg.util", "pkg.base"} <= graph["pkg.core"]
    ts = index.dependency_graph("web").adjacency()
    assert "web/src/lib/shapes.ts" in ts["web/src/app.ts"] and "web/src/lib/index.ts" in ts["web/src/app.ts"]


def test_incremental_edit_updates_answers(index: WorkspaceIndex) -> None:
    from agentls.workspace import TextChange

    ws = index.workspace
    rel = "src/pkg/util.py"
    ws.open(rel, (index.root / rel).read_text(), 1)
    index.update_file(rel)
    doc, edits = ws.change(rel, [TextChange("\n\ndef extra():\n    return helper(1)\n", (4, 0), (4, 0))], 2)
    index.update_file(rel, doc.data, edits)
    res = index.definition(rel, 7, 12)
    assert res.how == "resolved" and res.locations[0].start == (2, 4)
    ws.close(rel)
    index.close_file(rel)
    assert index.definition(rel, 7, 12).how == "none"


def test_occurrence_tables_fill_lazily_or_all_at_once(tmp_path: Path) -> None:
    for rel, text in FILES.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    lazy = WorkspaceIndex(tmp_path, cache_dir=False, jobs=1, occurrences=False)
    lazy.build()
    assert not any(fi.has_occurrences for fi in lazy.files.values())
    line, char = position(tmp_path, "src/pkg/util.py", "def helper", 4)
    by_lazy = lazy.references("src/pkg/util.py", line, char).locations
    assert by_lazy and any(fi.has_occurrences for fi in lazy.files.values())
    later = WorkspaceIndex(tmp_path, cache_dir=False, jobs=2, occurrences=False)
    later.build()
    assert later.fill_occurrences() == len(later.files)
    assert later.references("src/pkg/util.py", line, char).locations == by_lazy
    eager = WorkspaceIndex(tmp_path, cache_dir=tmp_path / "cache", jobs=2)
    eager.build()  # the build fills them in the same parse
    assert all(fi.has_occurrences for fi in eager.files.values())
    assert eager.fill_occurrences() == 0
    assert eager.references("src/pkg/util.py", line, char).locations == by_lazy
    warm = WorkspaceIndex(tmp_path, cache_dir=tmp_path / "cache", jobs=1)
    assert warm.build()["cached"] == len(FILES) - 1  # tsconfig.json is not an analysed file
    assert all(fi.has_occurrences for fi in warm.files.values())  # the cache kept them


def test_a_file_changed_on_disk_is_reindexed_before_its_occurrences_are_read(index: WorkspaceIndex) -> None:
    path = index.root / "late.py"
    path.write_text("def late():\n    return 1\n")
    index.update_file("late.py")
    path.write_text("# moved down\n\ndef late():\n    return late()\n")  # no update_file: disk only
    res = index.definition("late.py", 3, 12)
    assert res.how == "resolved" and res.locations[0].start == (2, 4)
