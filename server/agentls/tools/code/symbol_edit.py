"""Edits addressed by symbol: find a function, method or class by name in the current text
of a file and build the file's new text; shared by replace_symbol, insert_symbol and
add_docstring. The text is the one the agent sees (its pending proposal, the open buffer,
the disk) and is parsed as it is, so edits stack. The result becomes a proposal
(`propose`, which also refuses a change that breaks the syntax).
Must not know: the agent, LSP, tree-sitter (the analysis layer parses).
"""

from __future__ import annotations

import re
import textwrap

from agentls.analysis.syntax import ASSIGNMENT_KINDS, SymbolSpan, symbol_spans
from agentls.tools.base import ToolContext, ToolError
from agentls.tools.filesystem.content import current_content, require_text, target

MAX_LISTED = 30


def source(ctx: ToolContext, tool: str, path: str) -> tuple[str, bytes, str]:
    """(relative path, current bytes, text) of an existing text file."""
    real, rel = target(ctx, path)
    current = current_content(ctx, rel, real, tool)
    if current is None:
        raise ToolError("runtime", f"file not found: {rel}", tool, path=rel)
    require_text(current, tool)
    try:
        text = current.data.decode("utf-8")
    except UnicodeDecodeError:
        raise ToolError("runtime", f"{rel} is not valid UTF-8", tool, path=rel) from None
    return rel, current.data, text


def spans(tool: str, rel: str, data: bytes, assignments: bool = False) -> list[SymbolSpan]:
    found = symbol_spans(rel, data, assignments)
    if found is None:
        raise ToolError(
            "runtime",
            f"{rel} is not in a language the code index analyses; use edit_file",
            tool,
            path=rel,
        )
    return found


#: A name written with code around it: "def f(x):", "class C:", "f(a, b) = …".
_WRITTEN_AS_CODE = re.compile(r"^\s*(?:async\s+)?(?:def\s+|class\s+)?([A-Za-z_][\w.]*)\s*[(:=\s]")


def find(tool: str, rel: str, data: bytes, name: str, assignments: bool = False) -> SymbolSpan:
    """The one definition `name` means: its dotted name (`Cart.total`), or a unique last
    part; a name written with its signature or body after it (`f(x) = …`, `def f(x):`)
    means the name it starts with. With `assignments`, a module-level assignment
    (`TIMEOUT = 30`) is one too, where no function or class has the name."""
    all_spans = spans(tool, rel, data, assignments)
    wanted = name.strip().removesuffix("()")
    if not any(s.name == wanted for s in all_spans) and (m := _WRITTEN_AS_CODE.match(wanted)):
        wanted = m.group(1)  # "def slugify(title):", "slugify(title) = …": the name it starts with
    exact = [s for s in all_spans if s.name == wanted]
    if len(exact) > 1:  # `f = …` and `def f`: the definition
        exact = [s for s in exact if s.kind not in ASSIGNMENT_KINDS] or exact
    if not exact:
        exact = [s for s in all_spans if s.name.rsplit(".", 1)[-1] == wanted.rsplit(".", 1)[-1]]
    if len(exact) == 1:
        return exact[0]
    names = ", ".join(s.name for s in all_spans[:MAX_LISTED]) or "(none)"
    if not exact:
        what = "function, method, class or module variable" if assignments else "function, method or class"
        raise ToolError(
            "runtime",
            f"no {what} named {name!r} in {rel}; it defines: {names}",
            tool,
            path=rel,
        )
    which = ", ".join(s.name for s in exact)
    raise ToolError(
        "runtime", f"{name!r} is ambiguous in {rel} ({which}); give the dotted name", tool, path=rel
    )


def line_start(data: bytes, offset: int) -> int:
    return data.rfind(b"\n", 0, offset) + 1


def line_end(data: bytes, offset: int) -> int:
    """The offset just past the newline that ends the line `offset` is on (or the end);
    `offset` itself when it already follows a newline."""
    if offset > 0 and data[offset - 1 : offset] == b"\n":
        return offset
    end = data.find(b"\n", offset)
    return len(data) if end < 0 else end + 1


def indent_of(data: bytes, offset: int) -> str:
    start = line_start(data, offset)
    return data[start:offset].decode("utf-8", "replace") if data[start:offset].isspace() else ""


def reindent(text: str, indent: str, python: bool = False) -> str:
    """`text` dedented, then indented by `indent`, ending with one newline.

    For Python, a body written no deeper than its `def`/`class` line (small models drop
    indentation inside JSON strings) is moved to one level under it."""
    lines = textwrap.dedent(text.strip("\n")).rstrip().split("\n")
    if python and len(lines) > 1 and lines[0].rstrip().endswith(":"):
        head = len(lines[0]) - len(lines[0].lstrip())
        rest = [len(ln) - len(ln.lstrip()) for ln in lines[1:] if ln.strip()]
        if rest and min(rest) <= head:
            shift = " " * (4 + head - min(rest))
            lines = [lines[0], *[shift + ln if ln.strip() else "" for ln in lines[1:]]]
    return "\n".join(indent + line if line.strip() else "" for line in lines) + "\n"


def decorated_start(data: bytes, start: int) -> int:
    """The start of the line of `start`, moved up over decorator lines right above it."""
    begin = line_start(data, start)
    while begin > 0:
        above = line_start(data, begin - 1)
        if not data[above:begin].strip().startswith(b"@"):
            break
        begin = above
    return begin
