"""TypeScript members reached through declared types and member groups, as the TypeScript
language service answers them: a class member with the interface member it implements
and the base member it overrides (one reference group), receivers typed by return types,
union annotations, `super`, and the parameters of callbacks whose callee declares them.
Every fixture has a same-named decoy that must stay out of the answers.
"""

from __future__ import annotations

import pytest

from agentls.analysis.index import WorkspaceIndex
from tests.analysis.workspace import built_index, position

FILES = {
    "src/types.ts": (
        "export interface Observer<T> {\n"
        "  next(value: T): void;\n"
        "  complete(): void;\n"
        "}\n"
        "export interface Unsubscribable {\n"
        "  unsubscribe(): void;\n"
        "}\n"
    ),
    "src/Subscriber.ts": (
        "import { Observer, Unsubscribable } from './types';\n"
        "export class Subscription implements Unsubscribable {\n"
        "  unsubscribe(): void {}\n"
        "}\n"
        "export class Subscriber<T> extends Subscription implements Observer<T> {\n"
        "  next(value: T): void {}\n"
        "  complete(): void {}\n"
        "}\n"
        "export class SafeSubscriber<T> extends Subscriber<T> {\n"
        "  complete(): void { super.complete(); }\n"
        "}\n"
    ),
    "src/Observable.ts": (
        "import { Subscriber } from './Subscriber';\n"
        "export class Observable<T> {\n"
        "  constructor(subscribe?: (this: Observable<T>, subscriber: Subscriber<T>) => void) {}\n"
        "  subscribe(observer?: Subscriber<T>): void {}\n"
        "}\n"
        "export function innerFrom<T>(input: T): Observable<T> {\n"
        "  return new Observable<T>();\n"
        "}\n"
        "export function operate<T>(init: (source: Observable<T>, subscriber: Subscriber<T>) => void): void {}\n"
    ),
    "src/Subject.ts": (
        "import { Observable } from './Observable';\n"
        "import { Observer } from './types';\n"
        "export class Subject<T> extends Observable<T> implements Observer<T> {\n"
        "  next(value: T): void {}\n"
        "  complete(): void {}\n"
        "}\n"
    ),
    # decoys: same member names, no relation to Observer / Observable
    "src/decoys.ts": (
        "export class Radio {\n"
        "  next(): void {}\n"
        "  complete(): void {}\n"
        "  subscribe(): void {}\n"
        "  unsubscribe(): void {}\n"
        "}\n"
        "export function tune(): Radio { return new Radio(); }\n"
        "export function listen(cb: (radio: Radio) => void): void {}\n"
        "export function tuneIn(r: Partial<Radio>): void {}\n"
    ),
    "src/errors.ts": (
        "export interface EmptyError extends Error {}\n"
        "export interface EmptyErrorCtor { new (): EmptyError; }\n"
        "export const EmptyError: EmptyErrorCtor = null as any;\n"
        "export class Replay<T> {\n"
        "  constructor(size: number) {}\n"
        "  next(v: T): void {\n"
        "    const self = this;\n"
        "    self.next(v);\n"
        "  }\n"
        "}\n"
        "export class Bare {}\n"
        "export function make() {\n"
        "  const e: EmptyError = new EmptyError();\n"
        "  return [new Replay<number>(1), new Bare(), Replay, e];\n"
        "}\n"
    ),
    "src/over.ts": (
        "export function pick(a: number): number;\n"
        "export function pick(a: number, b: number): number;\n"
        "export function pick(a: number, b?: number): number { return a; }\n"
        "export declare function only(a: string): void;\n"
        "export declare function only(a: number): void;\n"
    ),
    "src/over_use.ts": (
        "import { pick, only } from './over';\n"
        "export const twice = pick(1, 2);\n"
        "export const fns = [pick, only];\n"
    ),
    "src/arrays.ts": (
        "export class Shelf {\n"
        "  items: number[] = [];\n"
        "  size(): number { return this.items.length; }\n"
        "}\n"
        "export function count(xs: string[], word: string, ...rest: number[]): number {\n"
        "  return xs.length + word.length + rest.length;\n"
        "}\n"
        "export class Ruler { length = 3; }\n"
        "export const r = new Ruler().length;\n"
    ),
    "src/fields.ts": (
        "import { Observable } from './Observable';\n"
        "export class Base { source: Observable<number> | undefined; }\n"
        "export class Derived extends Base {\n"
        "  constructor(s: Observable<number>) { super(); this.source = s; }\n"
        "  run() { const { source } = this; source?.subscribe(); }\n"
        "}\n"
        "export class Lone { constructor() { this.source = 1; } }\n"
    ),
    "js/car.js": (
        "class Engine { start() {} }\n"
        "class Decoy { start() {} go() {} }\n"
        "export class Car {\n"
        "  constructor() { const e = new Engine(); this.engine = e; }\n"
        "  go() { const self = this; const { engine } = self; engine.start(); self.go(); }\n"
        "}\n"
    ),
    "src/use.ts": (
        "import { Observable, innerFrom, operate } from './Observable';\n"
        "import { Subscriber } from './Subscriber';\n"
        "import { Subject } from './Subject';\n"
        "import { Observer } from './types';\n"
        "import { Radio, tune, listen, tuneIn } from './decoys';\n"
        "export function run(sub: Subscriber<number>, obs: Observer<number>, subject: Subject<number>, radio: Radio) {\n"
        "  sub.complete();\n"
        "  obs.complete();\n"
        "  subject.complete();\n"
        "  radio.complete();\n"
        "  innerFrom(1).subscribe();\n"
        "  tune().subscribe();\n"
        "  const later = innerFrom(2);\n"
        "  later.subscribe();\n"
        "  operate((source, subscriber) => {\n"
        "    source.subscribe();\n"
        "    subscriber.next(1);\n"
        "  });\n"
        "  new Observable<number>((subscriber) => subscriber.complete());\n"
        "  listen((radio) => radio.next());\n"
        "  new Observable<number>(radio ? (subscriber) => subscriber.next(1) : (radio) => radio.next());\n"
        "}\n"
        "export class Keeper {\n"
        "  held: any;\n"
        "  constructor(radio: Radio, partial: Partial<Subscriber<number>>) {\n"
        "    this.held = radio;\n"
        "    partial.complete();\n"
        "  }\n"
        "  use() { this.held.next(); }\n"
        "}\n"
        "export class Holder {\n"
        "  config: { radio: Radio };\n"
        "  sub!: Subscriber<number>;\n"
        "  radio!: Radio;\n"
        "  go() {\n"
        "    const { sub, radio } = this;\n"
        "    sub.complete();\n"
        "    radio.complete();\n"
        "  }\n"
        "}\n"
        "export function unknown(thing: any) { thing.next(); }\n"
        "export function keyed(source: Observable<number>) {\n"
        "  source.subscribe({ complete: () => {} });\n"
        "  tuneIn({ complete: () => {} });\n"
        "  deep(1, { next: () => {} });\n"
        "}\n"
        "export function deep(n: number, o: Observer<number> | Radio | undefined) {}\n"
        "export function maybe(source: Observable<number> | undefined, other: Radio | undefined) {\n"
        "  source?.subscribe();\n"
        "  other?.subscribe();\n"
        "}\n"
    ),
}




@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> WorkspaceIndex:
    return built_index(tmp_path_factory.mktemp("tsmembers"), FILES)


def _at(index: WorkspaceIndex, rel: str, needle: str, offset: int = 0, nth: int = 0) -> tuple[str, tuple[int, int]]:
    return rel, position(index.root, rel, needle, offset, nth)


DEFINITIONS = [
    # (file, needle, offset into the needle) -> (file, needle of the declaration)
    ("src/use.ts", "sub.complete", 4, "src/Subscriber.ts", "complete(): void {}"),
    ("src/use.ts", "obs.complete", 4, "src/types.ts", "complete(): void;"),
    ("src/use.ts", "radio.complete", 6, "src/decoys.ts", "complete(): void {}"),
    ("src/use.ts", "innerFrom(1).subscribe", 13, "src/Observable.ts", "subscribe(observer"),
    ("src/use.ts", "tune().subscribe", 7, "src/decoys.ts", "subscribe(): void"),
    ("src/use.ts", "later.subscribe", 6, "src/Observable.ts", "subscribe(observer"),
    ("src/use.ts", "source.subscribe", 7, "src/Observable.ts", "subscribe(observer"),
    ("src/use.ts", "subscriber.next", 11, "src/Subscriber.ts", "next(value: T): void {}"),
    ("src/use.ts", "subscriber.complete", 11, "src/Subscriber.ts", "complete(): void {}"),
    ("src/use.ts", "radio.next", 6, "src/decoys.ts", "next(): void"),
    ("src/use.ts", "(subscriber) => subscriber.next", 27, "src/Subscriber.ts", "next(value: T): void {}"),
    ("src/use.ts", "(radio) => radio.next()", 17, "src/decoys.ts", "next(): void"),
    ("src/use.ts", "    sub.complete", 8, "src/Subscriber.ts", "complete(): void {}"),
    ("src/use.ts", "partial.complete", 8, "src/Subscriber.ts", "complete(): void {}"),  # Partial<X> is an X
    ("src/use.ts", "subscribe({ complete", 12, "src/Subscriber.ts", "complete(): void {}"),  # an object-literal key
    ("src/use.ts", "tuneIn({ complete", 9, "src/decoys.ts", "complete(): void {}"),
    ("src/use.ts", "{ next: () => {} }", 2, "src/types.ts", "next(value: T): void;"),  # first of `A | B | C`
    ("src/use.ts", "this.held.next", 10, "src/decoys.ts", "next(): void"),  # `this.held = radio`
    ("src/use.ts", "    radio.complete", 10, "src/decoys.ts", "complete(): void {}"),
    ("src/use.ts", "source?.subscribe", 8, "src/Observable.ts", "subscribe(observer"),
    ("src/use.ts", "other?.subscribe", 7, "src/decoys.ts", "subscribe(): void"),
    ("src/Subscriber.ts", "super.complete", 6, "src/Subscriber.ts", "complete(): void {}"),
    ("src/errors.ts", "self.next", 5, "src/errors.ts", "next(v: T)"),
    ("js/car.js", "engine.start", 7, "js/car.js", "start() {} }"),  # JavaScript: the same hints
    ("js/car.js", "self.go", 5, "js/car.js", "go() { const"),
    ("src/errors.ts", "new Bare", 4, "src/errors.ts", "Bare {}"),
    ("src/errors.ts", "Replay, e", 0, "src/errors.ts", "Replay<T> {"),
]


@pytest.mark.parametrize(("rel", "needle", "off", "target", "tneedle"), DEFINITIONS, ids=[f"{d[1]}" for d in DEFINITIONS])
def test_member_definition_through_declared_types(index: WorkspaceIndex, rel: str, needle: str, off: int, target: str, tneedle: str) -> None:
    line, char = position(index.root, rel, needle, off)
    res = index.definition(rel, line, char)
    assert res.how == "resolved", f"{needle!r} fell back to {res.locations}"
    assert [(loc.path, loc.start) for loc in res.locations] == [_at(index, target, tneedle)]


def _refs(index: WorkspaceIndex, rel: str, needle: str, off: int = 0) -> set[tuple[str, tuple[int, int]]]:
    line, char = position(index.root, rel, needle, off)
    res = index.references(rel, line, char, include_declaration=True)
    assert res.how == "resolved"
    return {(loc.path, loc.start) for loc in res.locations}


def test_references_group_a_member_with_what_it_implements_and_overrides(index: WorkspaceIndex) -> None:
    want = {
        _at(index, "src/types.ts", "complete"),  # Observer.complete, implemented by both
        _at(index, "src/Subscriber.ts", "complete"),  # Subscriber.complete
        _at(index, "src/Subscriber.ts", "complete", nth=1),  # SafeSubscriber's override
        _at(index, "src/Subscriber.ts", "complete", nth=2),  # super.complete()
        _at(index, "src/Subject.ts", "complete"),  # Subject.complete: implements Observer too
        _at(index, "src/use.ts", "complete", 0, 0),  # sub.complete()
        _at(index, "src/use.ts", "complete", 0, 1),  # obs.complete()
        _at(index, "src/use.ts", "complete", 0, 2),  # subject.complete()
        _at(index, "src/use.ts", "subscriber.complete", 11),  # callback parameter
        _at(index, "src/use.ts", "    sub.complete", 8),  # destructured from a typed field
        _at(index, "src/use.ts", "partial.complete", 8),
        _at(index, "src/use.ts", "subscribe({ complete", 12),
    }
    for rel, needle, off in (
        ("src/Subscriber.ts", "complete(): void {}", 0),
        ("src/types.ts", "complete", 0),
        ("src/use.ts", "obs.complete", 4),
        ("src/use.ts", "subject.complete", 8),
    ):
        got = _refs(index, rel, needle, off)
        assert got == want, (needle, sorted(got ^ want))
    radio = _refs(index, "src/use.ts", "radio.complete", 6)
    assert radio == {_at(index, "src/decoys.ts", "complete"), _at(index, "src/use.ts", "radio.complete", 6), _at(index, "src/use.ts", "    radio.complete", 10), _at(index, "src/use.ts", "tuneIn({ complete", 9)}


def test_references_through_a_base_class_reach_the_interface_of_the_base(index: WorkspaceIndex) -> None:
    got = _refs(index, "src/Subscriber.ts", "unsubscribe")
    assert got == {_at(index, "src/types.ts", "unsubscribe"), _at(index, "src/Subscriber.ts", "unsubscribe")}


def test_a_generic_parameter_is_not_grouped_with_the_bases_parameter(index: WorkspaceIndex) -> None:
    got = _refs(index, "src/Subject.ts", "Observable<T>", 11)
    assert {p for p, _ in got} == {"src/Subject.ts"}


def _defs(index: WorkspaceIndex, rel: str, needle: str, off: int = 0) -> list[tuple[str, tuple[int, int]]]:
    line, char = position(index.root, rel, needle, off)
    res = index.definition(rel, line, char)
    assert res.how == "resolved"
    return [(loc.path, loc.start) for loc in res.locations]


def test_merged_declarations_all_answer(index: WorkspaceIndex) -> None:
    want = [_at(index, "src/errors.ts", "EmptyError extends", 0), _at(index, "src/errors.ts", "EmptyError: EmptyErrorCtor", 0)]
    assert sorted(_defs(index, "src/errors.ts", "e: EmptyError", 3)) == want  # as a type
    assert sorted(_defs(index, "src/errors.ts", "new EmptyError", 4)) == want  # as a value


def test_new_answers_the_class_and_its_constructor(index: WorkspaceIndex) -> None:
    got = _defs(index, "src/errors.ts", "new Replay", 4)
    assert got == [_at(index, "src/errors.ts", "Replay<T>"), _at(index, "src/errors.ts", "constructor")]


def test_overloaded_functions_answer_as_the_typescript_service(index: WorkspaceIndex) -> None:
    over = "src/over.ts"
    sigs = [_at(index, over, "pick", 0, n) for n in range(3)]
    for n in range(3):  # at any declaration: the implementation
        line, char = position(index.root, over, "pick", 0, n)
        assert [(loc.path, loc.start) for loc in index.definition(over, line, char).locations] == [sigs[2]]
    # no implementation (ambient declarations): the last declaration
    line, char = position(index.root, over, "only", 0, 0)
    assert [(loc.path, loc.start) for loc in index.definition(over, line, char).locations] == [_at(index, over, "only", 0, 1)]
    assert _defs(index, "src/over_use.ts", "pick, only }", 0) == sigs  # an import names every declaration
    assert _defs(index, "src/over_use.ts", "pick, only]", 0) == sigs  # so does a function passed as a value
    assert _defs(index, "src/over_use.ts", "pick(1, 2)", 0) == [sigs[1]]  # a call: the overload that fits


def test_members_of_an_array_type_are_one_group_outside_the_workspace(index: WorkspaceIndex) -> None:
    got = _refs(index, "src/arrays.ts", "items.length", 6)
    want = {_at(index, "src/arrays.ts", "items.length", 6), _at(index, "src/arrays.ts", "xs.length", 3), _at(index, "src/arrays.ts", "rest.length", 5)}
    assert got == want  # not the string's length, not Ruler.length
    line, char = position(index.root, "src/arrays.ts", "xs.length", 3)
    assert index.definition("src/arrays.ts", line, char).locations == []  # declared outside the workspace


def test_this_x_assigns_the_member_a_base_declares(index: WorkspaceIndex) -> None:
    f = "src/fields.ts"
    base = _at(index, f, "source: Observable")
    assert _defs(index, f, "this.source = s", 5) == [base]  # TypeScript: members are declared
    assert _defs(index, f, "source?.subscribe", 8) == [_at(index, "src/Observable.ts", "subscribe(observer")]
    assert _defs(index, f, "this.source = 1", 5) == [_at(index, f, "this.source = 1", 5)]  # no base declares it
    assert _refs(index, f, "source: Observable") == {base, _at(index, f, "this.source = s", 5)}


def test_an_unresolved_member_falls_back_to_two_guesses(index: WorkspaceIndex) -> None:
    line, char = position(index.root, "src/use.ts", "thing.next", 6)
    res = index.definition("src/use.ts", line, char)
    assert res.how == "fallback" and len(res.locations) == 2  # language.json fallback_limit
    assert {loc.name for loc in res.locations} == {"next"}
