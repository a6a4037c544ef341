"""What names resolve to: a Key names a binding (a workspace file's scope and name, a
whole module, or a name from outside the workspace); a Value is what a receiver
expression evaluates to. Must not know: how they are computed.
"""

from __future__ import annotations

from typing import NamedTuple

MAX_DEPTH = 12
#: Key.scope of a name defined outside the workspace: Key(module or "<builtins>", EXTERNAL, name)
EXTERNAL = -2
BUILTINS = "<builtins>"


class Key(NamedTuple):
    path: str  # a workspace file, or for EXTERNAL keys the dotted module ("<builtins>")
    scope: int  # -1: the module itself; EXTERNAL: defined outside the workspace
    name: str

    @property
    def external(self) -> bool:
        return self.scope == EXTERNAL


class Value(NamedTuple):
    """What a receiver evaluates to: a module, a class (object or instance)."""

    kind: str  # module | class | instance | external | super (the bases of a class, for `super()`) | function (with a return annotation) | callable (what calling it makes: an instance of path:symbol)
    path: str
    symbol: int = -1


