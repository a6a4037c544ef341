"""Overload choice by arity, as tables."""

from __future__ import annotations

import math

import pytest

from agentls.analysis.overloads import arity, call_arguments, choose


@pytest.mark.parametrize(
    ("text", "bounds"),
    [
        (b"function f(a: number, b?: string): void;", (1, 2)),
        (b"function f(a, b = 2, ...rest: T[]) {", (1, math.inf)),
        (b"function f(this: Window, cb: (x: number, y: number) => void): void", (1, 1)),
        (b"function f(): void", (0, 0)),
        (b"function f(o: { a: 1, b: 2 }, s = 'x,y'): void", (1, 2)),
    ],
)
def test_arity(text: bytes, bounds: tuple[int, float]) -> None:
    assert arity(text, b"f") == bounds


@pytest.mark.parametrize(
    ("src", "args"),
    [(b"f(a, g(b, c), [d, e])", 3), (b"f()", 0), (b"f<T>(x)", 1), (b"f('a,b', `c,${d}`)", 2), (b"f + 1", None), (b"f(", None)],
)
def test_call_arguments(src: bytes, args: int | None) -> None:
    assert call_arguments(src, 1) == args


def test_choose_the_first_overload_that_fits() -> None:
    decls = [b"function f(a: A, b: B, c: C): void;", b"function f(a: A): void;", b"function f(...x: any[]) {"]
    assert [choose(decls, b"f", n) for n in (3, 1, 2, 0)] == [0, 1, 2, 2]
