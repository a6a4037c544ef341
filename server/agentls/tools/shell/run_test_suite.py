"""The `run_test_suite` tool: detect the project's test runner (or take a command), run it
in the sandbox against the run's pending proposals, and report counts and failing tests.

Must not know: the agent, LSP, how proposals are stored, how the sandbox confines.
"""

from __future__ import annotations

from pydantic import Field

from agentls.tools.base import ToolContext, ToolError, ToolInput, ToolOutput
from agentls.tools.shell.edits import edits_in_place
from agentls.tools.shell.execution import TAIL_CHARS, ShellTool, run_checked
from agentls.tools.shell.fields import MAX_TIMEOUT_S, TIMEOUT_MARGIN_S, CommandText, PathText
from agentls.tools.shell.pending import pending_overlay
from agentls.tools.shell.suite_results import parse_output
from agentls.tools.shell.suite_runners import SuitePlan, plan_suite, runner_for_command
from agentls.workspace import PathOutsideWorkspace

SUITE_TIMEOUT_S = MAX_TIMEOUT_S


class RunTestSuiteInput(ToolInput):
    command: CommandText | None = Field(
        default=None, description="Test command to run instead of the detected runner."
    )
    path: PathText | None = Field(
        default=None,
        description="File or directory to test, relative to the workspace root. With a "
        "detected runner it narrows the run; with `command` it is the working directory.",
    )


class FailingTest(ToolOutput):
    name: str
    message: str


class RunTestSuiteOutput(ToolOutput):
    runner: str = Field(description="pytest, npm, go, cargo, make, or custom.")
    command: str
    passed: int | None = Field(description="None when the output does not say.")
    failed: int | None
    skipped: int | None
    errors: int | None
    failing: list[FailingTest] = Field(description="Failing tests (at most 50).")
    exit_code: int | None
    output_tail: str = Field(description="The last few thousand characters of the output.")
    duration_ms: int
    pending_proposals: list[str] = Field(
        description="Files whose pending (unapproved) proposed content the tests ran against."
    )
    discarded_changes: list[str] = Field(
        default_factory=list,
        description="Files the tests created, changed or deleted in their scratch copy: not "
        "kept (run_command makes changes you want to keep).",
    )
    sandbox: str


class RunTestSuite(ShellTool):
    """Run the project's tests and report passed/failed/skipped/error counts and failing tests.

    Without `command` the runner is detected from the nearest project files: pytest
    (pytest.ini, pyproject/setup.cfg/tox.ini config, tests/test_*.py), npm test
    (package.json scripts.test), go test (go.mod), cargo test (Cargo.toml), make test.
    The tests see this run's pending proposals: unless approval is 'auto' they run in a
    scratch copy of the workspace with the proposed changes applied, and what they write
    is discarded (listed in `discarded_changes`); the real files stay untouched.
    Same sandbox as run_command (no network, no secrets); failing tests are not an error.
    """

    name = "run_test_suite"
    Input = RunTestSuiteInput
    Output = RunTestSuiteOutput
    timeout_s = SUITE_TIMEOUT_S + TIMEOUT_MARGIN_S

    def _plan(self, input: RunTestSuiteInput, ctx: ToolContext) -> SuitePlan:
        try:
            target = ctx.workspace.resolve(input.path or ctx.cwd)
        except PathOutsideWorkspace as exc:
            raise ToolError("permission", str(exc), self.name, path=exc.path) from None
        if not target.exists():
            raise ToolError("runtime", f"{input.path or ctx.cwd!r} does not exist", self.name)
        if input.command:
            cwd = target if target.is_dir() else target.parent
            return SuitePlan(runner_for_command(input.command), input.command, cwd)
        plan = plan_suite(ctx.workspace.root, target)
        if plan is None:
            raise ToolError(
                "runtime",
                "no test runner detected (looked for pytest, package.json scripts.test, "
                "go.mod, Cargo.toml, a Makefile test target); pass `command`",
                self.name,
            )
        return plan

    def execute(self, input: RunTestSuiteInput, ctx: ToolContext) -> RunTestSuiteOutput:
        plan = self._plan(input, ctx)
        overlay = pending_overlay(ctx)
        scratch = bool(overlay) or not edits_in_place(ctx)
        result = run_checked(
            self.name,
            plan.command,
            plan.cwd,
            SUITE_TIMEOUT_S,
            ctx,
            overlay=overlay if scratch else None,
            keep_changes=scratch,
        )
        discarded = sorted(result.changes.files) if result.changes is not None else []
        output = f"{result.stdout}\n{result.stderr}" if result.stderr else result.stdout
        summary = parse_output(plan.runner, output)
        return RunTestSuiteOutput(
            runner=plan.runner,
            command=plan.command,
            passed=summary.passed,
            failed=summary.failed,
            skipped=summary.skipped,
            errors=summary.errors,
            failing=[FailingTest(**f) for f in summary.failing],
            exit_code=result.exit_code,
            output_tail=result.tail(TAIL_CHARS),
            duration_ms=result.duration_ms,
            pending_proposals=sorted(overlay),
            discarded_changes=discarded,
            sandbox=result.sandbox,
        )
