"""Project membership from tsconfig.json: build output and files the project leaves out do
not answer as if they were source (same-named decoys in dist/, a .d.ts copy, an excluded
spec), while JavaScript a TypeScript project does not take stays indexed."""

from __future__ import annotations

from pathlib import Path

import pytest

from agentls.analysis.index import WorkspaceIndex
from agentls.analysis.projects import Projects
from tests.analysis.workspace import built_index

FILES = {
    "tsconfig.json": (
        "{\n  // comments and trailing commas, as tsc allows\n"
        '  "compilerOptions": { "outDir": "dist", "declarationDir": "types", },\n'
        '  "include": ["src", "lib/**/*.ts"],\n'
        '  "exclude": ["**/*.spec.ts"],\n}\n'
    ),
    "src/shapes.ts": "export class Square {\n  area(): number { return 1; }\n}\n",
    "src/app.ts": "import { Square } from './shapes';\nexport const a = new Square().area();\nexport function f(x: any) { return x.area(); }\n",
    "lib/extra.ts": "import { Square } from '../src/shapes';\nexport const b = new Square().area();\n",
    # decoys: build output and copies with the same names
    "dist/shapes.js": "export class Square {\n  area() { return 1; }\n}\n",
    "dist/shapes.d.ts": "export declare class Square {\n  area(): number;\n}\n",
    "types/shapes.d.ts": "export declare class Square {\n  area(): number;\n}\n",
    "copies/shapes.ts": "export class Square {\n  area(): number { return 2; }\n}\n",
    "src/shapes.spec.ts": "import { Square } from './shapes';\nclass Square2 extends Square { area(): number { return 3; } }\n",
    # JavaScript the TypeScript project does not take (allowJs off): its own project
    "scripts/build.js": "function area() { return 0; }\nmodule.exports = { area };\n",
}


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> WorkspaceIndex:
    return built_index(tmp_path_factory.mktemp("tsprojects"), FILES)


def test_the_project_decides_which_files_are_source(index: WorkspaceIndex) -> None:
    assert set(index.files) == {"src/shapes.ts", "src/app.ts", "lib/extra.ts", "scripts/build.js"}


def test_build_output_does_not_answer(index: WorkspaceIndex) -> None:
    res = index.references("src/shapes.ts", 1, 2, include_declaration=True)
    assert {loc.path for loc in res.locations} == {"src/shapes.ts", "src/app.ts", "lib/extra.ts"}
    assert len(res.locations) == 4  # the declaration, two calls, and x.area() (the only `area` member)
    found = index.find_definitions("Square")
    assert {loc.path for loc in found.locations} == {"src/shapes.ts"}


def test_a_new_file_in_the_build_output_is_not_indexed(index: WorkspaceIndex) -> None:
    (index.root / "dist" / "more.js").write_text("export class Square {}\n")
    index.update_file("dist/more.js")
    assert "dist/more.js" not in index.files
    assert "dist/more.js" not in index.refresh()


def _projects(tmp_path: Path, files: dict[str, str]) -> Projects:
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)

    def read(rel: str) -> str | None:
        p = tmp_path / rel
        return p.read_text() if p.is_file() else None

    return Projects([r for r in files if r.endswith("tsconfig.json")], read)


def test_nearest_config_files_extends_and_solution_style(tmp_path: Path) -> None:
    projects = _projects(
        tmp_path,
        {
            "tsconfig.json": '{"files": [], "references": [{"path": "./pkg"}]}',  # decides nothing
            "configs/base.json": '{"include": ["../pkg/src/**/*"], "compilerOptions": {"allowJs": true}}',
            "pkg/tsconfig.json": '{"extends": "../configs/base.json", "files": ["main.ts"]}',
            "other/tsconfig.json": '{"files": ["only.ts"]}',
        },
    )
    out = projects.out_of_project
    assert not out("pkg/src/a.ts") and not out("pkg/src/deep/b.js")  # inherited include, relative to the base
    assert not out("pkg/main.ts")  # files, relative to the config that lists them
    assert out("pkg/stray.ts") and out("pkg/stray.js")  # allowJs inherited: JavaScript is judged too
    assert not out("other/only.ts") and out("other/not.ts") and out("other/not.d.ts")
    assert not out("other/tool.js")  # a TypeScript project without allowJs does not take JavaScript
    assert not out("elsewhere/x.ts")  # the root config is solution-style: no decision
    assert not out("pkg/readme.md")  # only TypeScript and JavaScript files are judged
