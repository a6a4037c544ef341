"""Reading a test run's output: pass/fail/skip/error counts and the failing tests.

One parser per runner family (pytest, node's runners — jest, vitest, mocha, node --test —,
go test -v, cargo test) and a generic one that reads 'N passed, N failed' lines. A count
the output does not show stays None; the exit code is always the last word.
Must not know: processes, the sandbox, how the runner was chosen.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

MAX_FAILING = 50
_MESSAGE_CHARS = 800

_COUNT = re.compile(
    r"(\d+) (passed|passing|pass|failed|failing|fail|skipped|pending|ignored|todo|errors?)\b"
)
_KIND = {
    "passed": "passed", "passing": "passed", "pass": "passed",
    "failed": "failed", "failing": "failed", "fail": "failed",
    "skipped": "skipped", "pending": "skipped", "ignored": "skipped", "todo": "skipped",
    "error": "errors", "errors": "errors",
}  # fmt: skip


@dataclass(slots=True)
class SuiteSummary:
    passed: int | None = None
    failed: int | None = None
    skipped: int | None = None
    errors: int | None = None
    failing: list[dict[str, str]] = field(default_factory=list)

    def add_failing(self, name: str, message: str = "") -> None:
        name = name.strip()
        if (
            name
            and len(self.failing) < MAX_FAILING
            and all(f["name"] != name for f in self.failing)
        ):
            self.failing.append({"name": name, "message": message.strip()[:_MESSAGE_CHARS]})

    def count(self, kind: str, n: int) -> None:
        setattr(self, kind, (getattr(self, kind) or 0) + n)


def _counts_from(lines: Iterable[str], summary: SuiteSummary) -> None:
    """Add every 'N passed' style count found in `lines`."""
    for line in lines:
        for n, word in _COUNT.findall(line):
            summary.count(_KIND[word], int(n))


def _last_matching(lines: list[str], pattern: re.Pattern[str]) -> list[str]:
    found = [line for line in lines if pattern.search(line)]
    return found[-1:]


_PYTEST_SUMMARY = re.compile(r"\d+ (passed|failed|skipped|errors?|xfailed|xpassed)\b.* in [\d.]+s")
_PYTEST_FAILED = re.compile(r"^(FAILED|ERROR) (.+?)(?: - (.*))?$")


def parse_pytest(output: str) -> SuiteSummary:
    lines = output.splitlines()
    summary = SuiteSummary()
    _counts_from(_last_matching(lines, _PYTEST_SUMMARY), summary)
    if summary.passed is None and any("no tests ran" in line for line in lines):
        summary.passed = summary.failed = 0
    sections = pytest_sections(lines)
    for line in lines:
        if m := _PYTEST_FAILED.match(line):
            name = m.group(2)
            brief = m.group(3) or m.group(1).lower()
            key = name.split("::", 1)[-1].replace("::", ".")
            detail = sections.get(key) or sections.get(name.split("::")[0])
            summary.add_failing(name, detail or brief)
    return summary


_SECTIONS_START = re.compile(r"^=+ (FAILURES|ERRORS) =+$")
_SECTION_END = re.compile(r"^=+ .* =+$")
_SECTION_TITLE = re.compile(r"^_{3,} (?:ERROR collecting )?(.+?) _{3,}$")
_FRAME = re.compile(r"^(\S+?):(\d+): (?:in \S+|\w+)")
#: Frames kept per failure: the test's own first one and the last ones (where it broke).
_LAST_FRAMES = 2


def pytest_sections(lines: list[str]) -> dict[str, str]:
    """Each failure of a `--tb=short` report, compact: its first frame (the test's own
    line), its last frames and the `E` lines that say what went wrong; by title."""
    out: dict[str, str] = {}
    title: str | None = None
    body: list[str] = []
    inside = False

    def flush() -> None:
        if title is not None and body:
            out[title] = _compact(body)

    for line in lines:
        if _SECTIONS_START.match(line):
            inside = True
            continue
        if not inside:
            continue
        if m := _SECTION_TITLE.match(line):
            flush()
            title, body = m.group(1).strip(), []
        elif _SECTION_END.match(line):
            flush()
            title, body = None, []
            inside = "short test summary" not in line
        elif title is not None:
            body.append(line)
    flush()
    return out


def _compact(body: list[str]) -> str:
    frames: list[list[str]] = []
    errors: list[str] = []
    for line in body:
        if _FRAME.match(line):
            frames.append([line.strip()])
        elif line.startswith("E "):
            errors.append(line[1:].strip())
        elif frames and line.startswith("    ") and line.strip(" ^~") and len(frames[-1]) < 3:
            frames[-1].append("  " + line.strip())
    kept = frames[:1] + frames[1:][-_LAST_FRAMES:]
    text = "\n".join([*("\n".join(f) for f in kept), *errors[:6]])
    return text or "\n".join(line.strip() for line in body[-6:])


# jest: "Tests:  1 failed, 2 passed, 3 total"; vitest: "Tests  1 failed | 2 passed (3)";
# node --test: "# pass 2" (tap) or "ℹ pass 2" (spec); mocha: "  2 passing (5ms)".
_JEST_TESTS = re.compile(r"^\s*Tests:\s+(.*)")
_VITEST_TESTS = re.compile(r"^\s*Tests\s+(\d+ \w+.*)\(\d+\)")
_NODE_COUNT = re.compile(r"^(?:#|ℹ) (pass|fail|skipped|todo) (\d+)\s*$")
_MOCHA = re.compile(r"^\s+(\d+) (passing|failing|pending)\b")
_JEST_FAIL = re.compile(r"^\s*● (.+›.+)$")
_NODE_FAIL = re.compile(r"^\s*(?:not ok \d+ - |✖ )(.+?)(?: \([\d.]+m?s\))?\s*$")
_VITEST_FAIL = re.compile(r"^\s*(?:FAIL|×)\s+(.+?)(?: \d+m?s)?\s*$")


def parse_node(output: str) -> SuiteSummary:
    lines = output.splitlines()
    summary = SuiteSummary()
    if jest := [m.group(1) for line in lines if (m := _JEST_TESTS.match(line))][-1:]:
        _counts_from(jest, summary)
    elif vitest := [m.group(1) for line in lines if (m := _VITEST_TESTS.match(line))][-1:]:
        _counts_from(vitest, summary)
    elif node := [m.groups() for line in lines if (m := _NODE_COUNT.match(line))]:
        for word, n in node:
            summary.count(_KIND[word], int(n))
    else:
        mocha = (f"{m.group(1)} {m.group(2)}" for line in lines if (m := _MOCHA.match(line)))
        _counts_from(mocha, summary)
    for line in lines:
        m = _JEST_FAIL.match(line) or _NODE_FAIL.match(line) or _VITEST_FAIL.match(line)
        if m and "failing tests:" not in line:
            summary.add_failing(m.group(1))
    return summary


_GO_RESULT = re.compile(r"^--- (PASS|FAIL|SKIP): (\S+)")
_GO_BUILD_FAILED = re.compile(r"^FAIL\s+\S+\s+\[(build|setup) failed\]")


def _go_log(lines: list[str], at: int) -> str:
    """The test's log lines: printed before its '--- FAIL' with -v, after it without."""

    def logged(line: str) -> bool:
        return line.startswith("    ") and not line.lstrip().startswith(("--- ", "=== "))

    before: list[str] = []
    for line in reversed(lines[:at]):
        if line.startswith("=== RUN"):
            break
        if logged(line):
            before.insert(0, line.strip())
    after = []
    for line in lines[at + 1 :]:
        if not line.startswith("    "):
            break
        if logged(line):
            after.append(line.strip())
    return " ".join((before or after)[:3])


def parse_go(output: str) -> SuiteSummary:
    lines = output.splitlines()
    summary = SuiteSummary(passed=0, failed=0, skipped=0, errors=0)
    for i, line in enumerate(lines):
        if m := _GO_RESULT.match(line):  # top-level tests only (subtests are indented)
            kind = {"PASS": "passed", "FAIL": "failed", "SKIP": "skipped"}[m.group(1)]
            summary.count(kind, 1)
            if kind == "failed":
                summary.add_failing(m.group(2), _go_log(lines, i))
        elif _GO_BUILD_FAILED.match(line):
            summary.count("errors", 1)
            summary.add_failing(line.split()[1], "build failed")
    return summary


_CARGO_RESULT = re.compile(r"^test result: \w+\. (.*)$")
_CARGO_FAIL = re.compile(r"^test (\S+) \.\.\. FAILED$")


def parse_cargo(output: str) -> SuiteSummary:
    lines = output.splitlines()
    summary = SuiteSummary()
    _counts_from((m.group(1) for line in lines if (m := _CARGO_RESULT.match(line))), summary)
    for line in lines:
        if m := _CARGO_FAIL.match(line):
            summary.add_failing(m.group(1))
    return summary


def parse_generic(output: str) -> SuiteSummary:
    """Counts from the last line that has any, e.g. '3 passed, 1 failed'."""
    summary = SuiteSummary()
    _counts_from(_last_matching(output.splitlines(), _COUNT), summary)
    return summary


PARSERS: dict[str, Callable[[str], SuiteSummary]] = {
    "pytest": parse_pytest,
    "npm": parse_node,
    "go": parse_go,
    "cargo": parse_cargo,
}


def parse_output(runner: str, output: str) -> SuiteSummary:
    return PARSERS.get(runner, parse_generic)(output)
