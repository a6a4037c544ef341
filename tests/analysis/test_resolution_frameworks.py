"""Resolution on the shapes a web framework and its CLI library use (flask, click): each
row points at a use (file, text, offset) and names where its definition must be, over a
workspace written from the dict below. Every case has a same-named decoy elsewhere, so a
name-only guess fails: a namespace folder inside a package (`fw/sansio/`, no
`__init__.py`) whose `from .. import typing as ft` must reach the package's own
`typing.py` (not the stdlib, not the top-level `typing.py` of another root), and tests in
another source root importing the package."""

from __future__ import annotations

from pathlib import Path

import pytest

from agentls.analysis.index import WorkspaceIndex
from tests.analysis.workspace import built_index, position

FILES = {
    # --- the framework: src-layout package with a namespace sub-folder ---
    "src/fw/__init__.py": "import typing as t\nfrom .app import App as App\nfrom .config import ConfigAttribute as ConfigAttribute\n",
    "src/fw/config.py": (
        "import typing as t\n"
        "T = t.TypeVar('T')\n"
        "\n"
        "class ConfigAttribute(t.Generic[T]):\n"
        "    def __init__(self, name: str) -> None:\n"
        "        self.name = name\n"
        "\n"
        "    def get_converter(self):\n"
        "        return self.name\n"
    ),
    "src/fw/typing.py": "Callback = int\n\nclass Hook:\n    name = 'hook'\n",
    "src/fw/sansio/app.py": (
        "import typing as t\n"
        "from .. import typing as ft\n"
        "\n"
        "from ..config import ConfigAttribute\n"
        "\n"
        "class Base:\n"
        "    testing = ConfigAttribute[bool]('TESTING')\n"
        "\n"
        "    def run(self, cb: ft.Callback) -> ft.Hook:\n"
        "        return t.cast(ft.Hook, cb)\n"
        "\n"
        "flag = ConfigAttribute[t.Optional[str]]('FLAG')\n"
        "flag.get_converter()\n"
        "Base.testing.get_converter()\n"
    ),
    "src/fw/app.py": "from .sansio.app import Base\n\nclass App(Base):\n    pass\n",
    # --- decoys: a top-level `typing` and `app` in another source root ---
    "tools/typing.py": "Callback = str\n\nclass Hook:\n    name = 'decoy'\n",
    "tools/app.py": "class Base:\n    pass\n\nclass App:\n    def run(self, cb):\n        return cb\n",
    "tools/other.py": "class Converter:\n    name = 'n'\n\n    def get_converter(self):\n        return self.name\n",
    "src/fw/ctx.py": (
        "from .sansio.app import Base\n"
        "\n"
        "def push(request=None, other=None):\n"
        "    if request is None:\n"
        "        request = make()\n"
        "    return request, other\n"
        "\n"
        "def pop(request):\n"
        "    return request\n"
        "\n"
        "class Command(Base):\n"
        "    def run(self, cb):\n"
        "        return super().run(cb)\n"
        "\n"
        "class Group(Command):\n"
        "    def run(self, cb):\n"
        "        super().__init__()\n"
        "        return super(Group, self).run(cb)\n"
    ),
    "src/fw/scaffold.py": "class Scaffold:\n    def route(self, rule):\n        return rule\n",
    "tests/test_routes.py": (
        "from fw.scaffold import Scaffold\n"
        "\n"
        "def test_fixture(app):\n"
        "    app.route('/')\n"
        "\n"
        "def test_made(made=None):\n"
        "    made.route('/')\n"
        "    Scaffold().route('/')\n"
        "    other = make_it()\n"
        "    other.route('/')\n"
        "    s = Scaffold()\n"
        "    s.missing.route('/')\n"
        "    got = s.missing_call()\n"
        "    got.route('/')\n"
        "\n"
        "def test_reassigned(app):\n"
        "    app.route('/')\n"
        "    app = Scaffold()\n"
        "    app.route('/b')\n"
        "\n"
        "check = lambda app: app.route('/c')\n"
    ),
    "src/fw/hinted.py": (
        "import typing as t\n"
        "from .scaffold import Scaffold\n"
        "from .sansio.app import Base\n"
        "\n"
        "class Client:\n"
        "    application: 'Scaffold'\n"
        "\n"
        "    def __init__(self, box: t.Optional['Base'] = None, other: Base | None = None) -> None:\n"
        "        self.box = box\n"
        "        self.pair, self.count = other, 0\n"
        "\n"
        "    def open(self):\n"
        "        app = self.application\n"
        "        app.route('/')\n"
        "        self.box.run(1)\n"
        "        self.maker().route('/x')\n"
        "        made = self.maker()\n"
        "        made.route('/y')\n"
        "        return self.current.run(2)\n"
        "\n"
        "    def maker(self) -> 'Scaffold':\n"
        "        return self.application\n"
        "\n"
        "    @property\n"
        "    def current(self) -> Base:\n"
        "        return Base()\n"
        "\n"
        "def locate() -> t.Optional[Client]:\n"
        "    return None\n"
        "\n"
        "locate().open()\n"
        "pair_use = Client().pair\n"
        "\n"
        "def pick(box: t.Optional['Base'] = None):\n"
        "    box = box or Base()\n"
        "    return box.run(3)\n"
    ),
    # --- a CLI library: names its decorators make (click's command/group/option) ---
    "src/fw/core.py": (
        "import typing as t\n"
        "\n"
        "class Command:\n"
        "    def invoke(self, ctx):\n"
        "        return ctx\n"
        "\n"
        "class Group(Command):\n"
        "    def command(self, name: str) -> t.Callable[[t.Any], Command]:\n"
        "        return lambda f: Command()\n"
    ),
    "src/fw/decorators.py": (
        "import typing as t\n"
        "from .core import Command, Group\n"
        "F = t.TypeVar('F')\n"
        "\n"
        "@t.overload\n"
        "def command(name: t.Callable[..., t.Any]) -> Command: ...\n"
        "@t.overload\n"
        "def command(name: str | None = None) -> t.Callable[[t.Callable[..., t.Any]], Command]: ...\n"
        "def command(name=None):\n"
        "    return Command()\n"
        "\n"
        "def group(name: str | None = None) -> 't.Callable[[F], Group]':\n"
        "    return lambda f: Group()\n"
        "\n"
        "def option(*decls: str) -> t.Callable[[F], F]:\n"
        "    return lambda f: f\n"
    ),
    "src/fw/params.py": (
        "import typing as t\n"
        "\n"
        "class Param:\n"
        "    name = 'p'\n"
        "\n"
        "class Holder:\n"
        "    def __init__(self, params: t.Optional[t.List['Param']] = None) -> None:\n"
        "        self.params: t.List[Param] = params or []\n"
        "\n"
        "    def get_params(self) -> t.Sequence['Param']:\n"
        "        return self.params\n"
        "\n"
        "    def names(self):\n"
        "        for p in self.params:\n"
        "            p.name\n"
        "        return [q.name for q in self.get_params()]\n"
    ),
    "tools/runner.py": "class Runner:\n    def invoke(self, cli):\n        return cli\n\n    def command(self):\n        return 0\n",
    "tests/test_cli.py": (
        "import fw.decorators as click\n"
        "\n"
        "@click.group()\n"
        "def cli():\n"
        "    pass\n"
        "\n"
        "@cli.command('sub')\n"
        "@click.option('--x')\n"
        "def sub(x):\n"
        "    pass\n"
        "\n"
        "@click.command\n"
        "def bare():\n"
        "    pass\n"
        "\n"
        "@click.option('--y')\n"
        "def plain(y):\n"
        "    pass\n"
        "\n"
        "def test_it():\n"
        "    cli.invoke(None)\n"
        "    sub.invoke(None)\n"
        "    bare.invoke(None)\n"
        "    plain.invoke(None)\n"
    ),
    "tests/test_outside.py": (
        "import decimal\n"
        "from collections.abc import Mapping\n"
        "from fw.scaffold import Scaffold\n"
        "\n"
        "def check(m: Mapping[str, int], a: 'decimal.Decimal', s: Scaffold):\n"
        "    m.route('/')\n"
        "    a.route('/')\n"
        "    s.route('/')\n"
    ),
    # --- the framework's tests: another source root, importing the package by name ---
    "tests/test_app.py": (
        "import fw\n"
        "from fw import App\n"
        "\n"
        "def test_run():\n"
        "    app = fw.App()\n"
        "    app.run(1)\n"
        "    App().run(2)\n"
        "    assert fw.ConfigAttribute\n"
    ),
}

CASES = [
    # `from .. import typing as ft` in a namespace folder: the package's typing.py
    ("src/fw/sansio/app.py", "ft.Callback", 3, 0, "src/fw/typing.py", "Callback = int", 0),
    ("src/fw/sansio/app.py", "ft.Hook:", 3, 0, "src/fw/typing.py", "class Hook", 6),
    ("src/fw/app.py", "import Base", 7, 0, "src/fw/sansio/app.py", "class Base", 6),
    # a call of a subscripted generic makes an instance of the class
    ("src/fw/sansio/app.py", "flag.get_converter", 5, 0, "src/fw/config.py", "def get_converter", 4),
    ("src/fw/sansio/app.py", "testing.get_converter", 8, 0, "src/fw/config.py", "def get_converter", 4),
    # `from .app import App as App` re-exports: the original definition, from another root
    ("tests/test_app.py", "fw.App()", 3, 0, "src/fw/app.py", "class App", 6),
    ("tests/test_app.py", "app.run", 4, 0, "src/fw/sansio/app.py", "def run", 4),
    ("tests/test_app.py", "App().run", 6, 0, "src/fw/sansio/app.py", "def run", 4),
    ("tests/test_app.py", "fw.ConfigAttribute", 3, 0, "src/fw/config.py", "class ConfigAttribute", 6),
    ("src/fw/__init__.py", "App as App", 7, 0, "src/fw/app.py", "class App", 6),
    # `super()` looks in the bases of the enclosing class, not in the class itself
    ("src/fw/ctx.py", "super().run", 8, 0, "src/fw/sansio/app.py", "def run", 4),
    ("src/fw/ctx.py", "super(Group, self).run", 19, 0, "src/fw/ctx.py", "def run", 4),
    # hints: string and optional annotations, aliases, return annotations, properties
    ("src/fw/hinted.py", "app.route", 4, 0, "src/fw/scaffold.py", "def route", 4),
    ("src/fw/hinted.py", "self.box.run", 9, 0, "src/fw/sansio/app.py", "def run", 4),
    ("src/fw/hinted.py", "maker().route", 8, 0, "src/fw/scaffold.py", "def route", 4),
    ("src/fw/hinted.py", "made.route", 5, 0, "src/fw/scaffold.py", "def route", 4),
    ("src/fw/hinted.py", "current.run", 8, 0, "src/fw/sansio/app.py", "def run", 4),
    ("src/fw/hinted.py", "locate().open", 9, 0, "src/fw/hinted.py", "def open", 4),
    # what a decorator makes of a function: its return annotation, overloads by shape
    ("tests/test_cli.py", "cli.invoke", 4, 0, "src/fw/core.py", "def invoke", 4),
    ("tests/test_cli.py", "cli.command", 4, 0, "src/fw/core.py", "def command", 4),
    ("tests/test_cli.py", "sub.invoke", 4, 0, "src/fw/core.py", "def invoke", 4),
    ("tests/test_cli.py", "bare.invoke", 5, 0, "src/fw/core.py", "def invoke", 4),
    # `x = x or make()` keeps x's value
    ("src/fw/hinted.py", "box.run(3)", 4, 0, "src/fw/sansio/app.py", "def run", 4),
    # a loop variable is an item of a typed container
    ("src/fw/params.py", "p.name", 2, 0, "src/fw/params.py", "name = 'p'", 0),
    ("src/fw/params.py", "q.name", 2, 0, "src/fw/params.py", "name = 'p'", 0),
    # `self.a, self.b = …` declares both attributes
    ("src/fw/hinted.py", "Client().pair", 9, 0, "src/fw/hinted.py", "self.pair", 5),
]




@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> WorkspaceIndex:
    return built_index(tmp_path_factory.mktemp("frameworks"), FILES)


@pytest.mark.parametrize(("rel", "needle", "off", "nth", "target", "tneedle", "toff"), CASES, ids=[f"{c[0]}:{c[1]}" for c in CASES])
def test_definition_resolves(index: WorkspaceIndex, rel: str, needle: str, off: int, nth: int, target: str, tneedle: str, toff: int) -> None:
    line, char = position(index.root, rel, needle, off, nth)
    res = index.definition(rel, line, char)
    assert res.how == "resolved", f"{needle!r} fell back to {res.locations}"
    want = (target, position(index.root, target, tneedle, toff))
    assert [(loc.path, loc.start) for loc in res.locations] == [want]


def _refs(index: WorkspaceIndex, rel: str, needle: str, off: int, nth: int = 0) -> set[tuple[str, int]]:
    line, char = position(index.root, rel, needle, off, nth)
    res = index.references(rel, line, char, include_declaration=True)
    assert res.how == "resolved", f"{needle!r}: {res.how}"
    return {(loc.path, loc.start[0]) for loc in res.locations}


def test_a_namespace_folder_inside_a_package_is_part_of_it(index: WorkspaceIndex) -> None:
    assert index.py_modules.name_of["src/fw/sansio/app.py"] == "fw.sansio.app"
    assert index.py_modules.file_of("app") == "tools/app.py"  # not the framework's sansio/app.py
    assert _refs(index, "src/fw/typing.py", "class Hook", 6) == {("src/fw/typing.py", 2), ("src/fw/sansio/app.py", 8), ("src/fw/sansio/app.py", 9)}


def test_references_of_a_re_exported_class_include_uses_through_the_re_export(index: WorkspaceIndex) -> None:
    got = _refs(index, "src/fw/app.py", "class App", 6)
    assert {("src/fw/app.py", 2), ("src/fw/__init__.py", 1), ("tests/test_app.py", 1), ("tests/test_app.py", 4), ("tests/test_app.py", 6)} <= got
    assert not {p for p, _ in got} & {"tools/app.py"}


def test_a_parameter_assigned_again_is_defined_by_both(index: WorkspaceIndex) -> None:
    line, char = position(index.root, "src/fw/ctx.py", "return request", 7)
    res = index.definition("src/fw/ctx.py", line, char)
    assert [loc.start for loc in res.locations] == [(2, 9), (4, 8)]  # not pop's `request`


def test_members_on_receivers_without_a_type_are_no_references(index: WorkspaceIndex) -> None:
    """`route` is the only member of its name, so uses on receivers of unknown type count
    as its references — except where no type checker could know the type either: an
    untyped parameter without default (a pytest fixture), or a member missing on a class
    whose bases are all known."""
    got = _refs(index, "src/fw/scaffold.py", "def route", 4)
    assert {("tests/test_routes.py", n) for n in (6, 7, 9)} <= got  # default, made, make_it()
    assert ("tests/test_routes.py", 3) not in got  # the fixture `app`
    assert ("tests/test_routes.py", 11) not in got  # `s.missing` on a Scaffold
    assert ("tests/test_routes.py", 13) not in got  # a variable whose value is such a dead end
    assert {("tests/test_outside.py", 5), ("tests/test_outside.py", 6)}.isdisjoint(got)  # outside types
    assert ("tests/test_outside.py", 7) in got
    line, char = position(index.root, "tests/test_outside.py", "m.route", 2)
    assert index.references("tests/test_outside.py", line, char).how == "fallback"  # not Scaffold's
    assert ("tests/test_routes.py", 20) in got  # a lambda's parameter is typed by its call
    assert ("tests/test_routes.py", 18) in got and ("tests/test_routes.py", 16) not in got  # the assignment before the use


@pytest.mark.parametrize(
    ("text", "want"),
    [("Foo", "Foo"), ("'m.Foo'", "m.Foo"), ("t.Optional['Foo']", "Foo"), ("Foo | None", "Foo"), ("None | 'Foo'", "Foo"),
     ("Union[Foo, None]", "Foo"), ("Foo[int]", "Foo[]"), ("t.Optional[t.List['Foo']]", "*Foo"), ("tuple[Foo, ...]", "*Foo"), ("tuple[Foo, Bar]", None), ("Union[Foo, Bar]", None), ("Foo | Bar", None), ("t.Callable[[int], Foo]", "->Foo"), ("Callable[..., 'Foo' | None]", "->Foo")],
)
def test_annotation_names_one_class(text: str, want: str | None) -> None:
    from agentls.analysis.grammar import language_specs
    from agentls.analysis.hints import annotation

    assert annotation(text, language_specs()["python"]) == want


def test_a_decorator_that_returns_its_argument_leaves_a_function(index: WorkspaceIndex) -> None:
    line, char = position(index.root, "tests/test_cli.py", "plain.invoke", 6)
    assert index.definition("tests/test_cli.py", line, char).how != "resolved"


def test_module_names_in_from_imports_are_references_of_the_module(tmp_path: Path) -> None:
    """`contextlib` in `from contextlib import x` names the module (outside the workspace
    too); `datetime` first in `from datetime import datetime` is the module, not the class."""
    (tmp_path / "a.py").write_text("import contextlib\nfrom datetime import datetime\n\nwith contextlib.suppress(): print(datetime.now())\n")
    (tmp_path / "b.py").write_text("from contextlib import contextmanager\nfrom datetime import datetime, timedelta\nimport datetime as dt\n")
    ix = WorkspaceIndex(tmp_path, cache_dir=False, jobs=1)
    ix.build()
    mod = ix.references("a.py", 0, 7, include_declaration=True)
    assert {(loc.path, loc.start) for loc in mod.locations} == {("a.py", (0, 7)), ("a.py", (3, 5)), ("b.py", (0, 5))}
    cls = ix.references("a.py", 3, 34, include_declaration=True)
    assert {(loc.path, loc.start) for loc in cls.locations} == {("a.py", (1, 21)), ("a.py", (3, 34)), ("b.py", (1, 21))}
    dt_mod = ix.references("b.py", 2, 7, include_declaration=True)
    assert {("a.py", (1, 5)), ("b.py", (1, 5)), ("b.py", (2, 7))} <= {(loc.path, loc.start) for loc in dt_mod.locations}


def test_members_of_literals_and_builtin_annotations_are_one_binding(tmp_path: Path) -> None:
    """`", ".join` is `str.join` (language.json literal_receivers) as is `sep.join` with
    `sep: str`; bytes are another class; the only workspace `join` is none of them."""
    (tmp_path / "text.py").write_text(
        "def render(parts, sep: str, blob: bytes, var: 'ContextVar[str]'):\n"
        "    out = ', '.join(parts)\n"
        "    sep.join(parts)\n"
        "    blob.join(parts)\n"
        "    var.join(parts)\n"
        "    return b'-'.join(parts), f'{out}'.join(parts)\n"
    )
    (tmp_path / "joiner.py").write_text("class Joiner:\n    def join(self, parts):\n        return parts\n")
    ix = WorkspaceIndex(tmp_path, cache_dir=False, jobs=1)
    ix.build()
    strs = ix.references("text.py", 1, 15, include_declaration=True)
    assert {(loc.path, loc.start) for loc in strs.locations} == {("text.py", (1, 15)), ("text.py", (2, 8)), ("text.py", (5, 38))}
    assert ix.definition("text.py", 1, 15).how == "none"  # outside the workspace: no guess
    blobs = ix.references("text.py", 5, 16, include_declaration=True)
    assert {(loc.path, loc.start) for loc in blobs.locations} == {("text.py", (3, 9)), ("text.py", (5, 16))}
    own = ix.references("joiner.py", 1, 8, include_declaration=True)
    assert {(loc.path, loc.start) for loc in own.locations} == {("joiner.py", (1, 8)), ("text.py", (4, 8))}  # `var`: unknown


def test_keyword_arguments_are_references_of_the_parameter(tmp_path: Path) -> None:
    """`f(emoji=False)` names f's parameter `emoji` (as jedi and pyright say): through a
    method, a class's `__init__`, overloads; not a local that `**kwargs` feeds, not the
    same-named parameter of another function, not a call of something unknown."""
    (tmp_path / "console.py").write_text(
        "import typing as t\n"
        "\n"
        "class Console:\n"
        "    def __init__(self, emoji: bool = True) -> None:\n"
        "        self.emoji = emoji\n"
        "\n"
        "    def print(self, text, emoji=None):\n"
        "        return emoji\n"
        "\n"
        "    def log(self, text, **extra):\n"
        "        emoji = extra.pop('emoji')\n"
        "        self.print(text, emoji=emoji)\n"
        "        return emoji\n"
        "\n"
        "def show(emoji=1):\n"
        "    return emoji\n"
        "\n"
        "c = Console(emoji=False)\n"
        "c.print('x', emoji=True)\n"
        "c.log('x', emoji=True)\n"
        "show(emoji=2)\n"
        "unknown(emoji=3)\n"
    )
    (tmp_path / "use.py").write_text("from console import Console\n\nConsole().print('y', emoji=False)\n")
    ix = WorkspaceIndex(tmp_path, cache_dir=False, jobs=1)
    ix.build()

    def at(needle: str, off: int, nth: int = 0) -> tuple[int, int]:
        return position(tmp_path, "console.py", needle, off, nth)

    def refs(needle: str, off: int) -> set[tuple[int, int]]:
        return {loc.start for loc in ix.references("console.py", *at(needle, off), include_declaration=True).locations if loc.path == "console.py"}

    print_emoji = {at("text, emoji=None", 6), at("return emoji", 7, 0), at("text, emoji=emoji", 6), at("'x', emoji=True", 5, 0)}
    assert refs("text, emoji=None", 6) == print_emoji
    line, char = at("text, emoji=None", 6)
    across = ix.references("console.py", line, char, include_declaration=True).locations
    assert [(loc.path, loc.start) for loc in across if loc.path == "use.py"] == [("use.py", (2, 21))]  # from an importer
    assert refs("self, emoji: bool", 6) == {at("self, emoji: bool", 6), at("= emoji", 2), at("Console(emoji", 8)}
    assert refs("show(emoji=1", 5) == {at("show(emoji=1", 5), at("return emoji", 7, 2), at("show(emoji=2", 5)}
    res = ix.definition("console.py", *at("'x', emoji=True", 5, 0))
    assert [loc.start for loc in res.locations] == [at("text, emoji=None", 6)]
