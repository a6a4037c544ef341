import * as assert from "node:assert/strict";
import type { AgentEvent } from "../../src/protocol";
import { RunStore } from "../../src/runs/runStore";
import {
  formatDuration,
  proposalPath,
  runDescription,
  runIcon,
  runLabel,
  stepDescription,
  stepLabel,
  stepTooltip,
  taskIcon,
} from "../../src/views/format";

describe("views: format", () => {
  const durations: [number | undefined, string][] = [
    [0, "0 ms"],
    [12.4, "12 ms"],
    [999, "999 ms"],
    [1000, "1.0 s"],
    [1234, "1.2 s"],
    [12_345, "12 s"],
    [59_999, "59 s"],
    [185_000, "3 min 05 s"],
    [3_720_000, "1 h 02 min"],
    [undefined, ""],
    [-5, ""],
    [Number.NaN, ""],
  ];
  for (const [ms, text] of durations) {
    it(`duration ${String(ms)} → "${text}"`, () => assert.equal(formatDuration(ms), text));
  }

  type Event = AgentEvent extends infer E ? (E extends AgentEvent ? Omit<E, "runId"> : never) : never;
  function store(events: Event[], clock: { t: number }): RunStore {
    const s = new RunStore(() => clock.t);
    s.started("r1", "Fix the failing test in parser.py");
    for (const e of events) {
      clock.t += 500;
      s.apply({ runId: "r1", ...e });
    }
    return s;
  }

  it("a running run: status · steps · duration, spinner icon", () => {
    const clock = { t: 10_000 };
    const s = store(
      [
        { kind: "task", index: 0, title: "Read parser.py", status: "running" },
        { kind: "tool_call", task: 0, id: "c1", name: "read_file", arguments: { path: "parser.py" } },
      ],
      clock,
    );
    const run = s.get("r1")!;
    assert.equal(runDescription(run, 10_000 + 12_000), "running · 1 step · 12 s");
    assert.equal(runIcon(run.status), "sync~spin");
    assert.equal(runLabel(run), "Fix the failing test in parser.py");
  });

  it("planning shows as such; finished runs read their status and real duration", () => {
    const clock = { t: 0 };
    const s = store([{ kind: "status", status: "running", phase: "planning" }], clock);
    assert.equal(runDescription(s.get("r1")!, 2000), "planning · 0 steps · 2.0 s");
    s.apply({ runId: "r1", kind: "finished", status: "budget_exhausted", steps: 3 });
    assert.equal(runDescription(s.get("r1")!, 999_999), "out of budget · 3 steps · 500 ms");
    assert.equal(runIcon("budget_exhausted"), "warning");
    assert.equal(taskIcon("done"), "pass");
  });

  it("steps: tool and short arguments; status with duration; tooltip with the error", () => {
    const clock = { t: 0 };
    const s = store(
      [
        { kind: "tool_call", id: "c1", name: "read_file", arguments: { path: "a.py", start_line: 3 } },
        {
          kind: "tool_result",
          id: "c1",
          name: "read_file",
          ok: false,
          durationMs: 4.2,
          error: { type: "permission", message: "outside the workspace", tool: "read_file" },
        },
        { kind: "tool_call", id: "c2", name: "git_status", arguments: {} },
      ],
      clock,
    );
    const [failed, running] = s.get("r1")!.looseSteps;
    assert.equal(stepLabel(failed), 'read_file path="a.py", start_line=3');
    assert.equal(stepDescription(failed), "permission error · 4 ms");
    assert.match(stepTooltip(failed), /"start_line": 3/);
    assert.match(stepTooltip(failed), /Error \(permission\): outside the workspace/);
    assert.equal(stepLabel(running), "git_status");
    assert.equal(stepDescription(running), "running");
  });

  it("a long goal is cut on one line", () => {
    const label = runLabel({ goal: `do\n${"x".repeat(200)}`, runId: "r" }, 20);
    assert.equal(label.length, 20);
    assert.ok(label.startsWith("do x"));
    assert.ok(label.endsWith("…"));
    assert.equal(runLabel({ goal: "  ", runId: "r9" }), "Run r9");
  });

  it("proposal paths: the server's, else relative, else the URI's tail", () => {
    assert.equal(proposalPath({ path: "src/a.py", uri: "file:///w/src/a.py" }), "src/a.py");
    assert.equal(proposalPath({ uri: "file:///w/src/a.py" }, () => "src/a.py"), "src/a.py");
    assert.equal(proposalPath({ uri: "file:///w/src/my%20file.py" }), "src/my file.py");
  });
});
