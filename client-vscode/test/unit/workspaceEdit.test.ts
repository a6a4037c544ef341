import * as assert from "node:assert/strict";
import type { Hunk, ProposalParams, TextEdit, WorkspaceEditJson } from "../../src/protocol";
import {
  describeHunk,
  diffFor,
  findStale,
  hasHunks,
  parseUnifiedDiff,
  proposedText,
  selectHunks,
  splitByFile,
} from "../../src/proposals/workspaceEdit";

const edit = (sl: number, el: number, newText: string): TextEdit => ({
  range: { start: { line: sl, character: 0 }, end: { line: el, character: 0 } },
  newText,
});
const A = "file:///ws/app/a.py";
const B = "file:///ws/app/b.py";
const NEW = "file:///ws/tests/test_a.py";

// as the server builds them (tools/proposal_edit.py): one TextDocumentEdit, or create + insert
const multi: WorkspaceEditJson = {
  documentChanges: [
    { textDocument: { uri: A, version: 4 }, edits: [edit(1, 2, "B\n")] },
    { kind: "create", uri: NEW, options: { overwrite: false, ignoreIfExists: false } },
    { textDocument: { uri: NEW, version: null }, edits: [edit(0, 0, "def test(): pass\n")] },
    { textDocument: { uri: B, version: null }, edits: [edit(0, 1, "")] },
    { textDocument: { uri: A, version: 4 }, edits: [edit(3, 3, "tail\n")] },
  ],
};

describe("splitByFile", () => {
  it("gives one entry per document in order, with its create and version", () => {
    const files = splitByFile(multi);
    assert.deepEqual(
      files.map((f) => [f.uri, f.create, f.version, f.edits.length]),
      [
        [A, false, 4, 2],
        [NEW, true, null, 1],
        [B, false, null, 1],
      ],
    );
  });

  it("reads plain `changes` too", () => {
    const files = splitByFile({ changes: { [A]: [edit(0, 1, "x\n")] } });
    assert.deepEqual(files, [{ uri: A, create: false, version: null, edits: [edit(0, 1, "x\n")] }]);
  });

  it("builds each file's proposed text", () => {
    const [a, created, b] = splitByFile(multi);
    assert.equal(proposedText("a\nb\nc\n", a), "a\nB\nc\ntail\n");
    assert.equal(proposedText("", created), "def test(): pass\n");
    assert.equal(proposedText("gone\nkept\n", b), "kept\n");
  });
});

describe("per-hunk review", () => {
  const hunks: Hunk[] = [
    { index: 0, uri: A, diff: "@@ -2,1 +2,1 @@\n-b\n+B\n", edits: [edit(1, 2, "B\n")] },
    { index: 1, uri: A, diff: "@@ -4,0 +4,1 @@\n+tail\n", edits: [edit(3, 3, "tail\n")] },
    { index: 2, uri: NEW, diff: "@@ -0,0 +1 @@\n+def test(): pass\n", edits: [edit(0, 0, "def test(): pass\n")] },
  ];
  const proposal: Pick<ProposalParams, "edit" | "hunks"> = { edit: multi, hunks };

  it("applies only the chosen hunks, against the proposal's document version", () => {
    const chosen = selectHunks(proposal, [1]);
    assert.deepEqual(chosen, { documentChanges: [{ textDocument: { uri: A, version: 4 }, edits: [edit(3, 3, "tail\n")] }] });
    const [file] = splitByFile(chosen);
    assert.equal(proposedText("a\nb\nc\n", file), "a\nb\nc\ntail\n");
  });

  it("groups hunks by document and includes the create of a new file", () => {
    const chosen = selectHunks(proposal, [2, 0, 1, 0]);
    assert.deepEqual(chosen.documentChanges, [
      { textDocument: { uri: A, version: 4 }, edits: [edit(1, 2, "B\n"), edit(3, 3, "tail\n")] },
      { kind: "create", uri: NEW, options: { overwrite: false, ignoreIfExists: false } },
      { textDocument: { uri: NEW, version: null }, edits: [edit(0, 0, "def test(): pass\n")] },
    ]);
  });

  it("keeps the delete of a removed file whose hunk is chosen (the undo of a run)", () => {
    const removal: WorkspaceEditJson = {
      documentChanges: [
        { textDocument: { uri: A, version: null }, edits: [edit(0, 1, "a\n")] },
        { textDocument: { uri: NEW, version: null }, edits: [edit(0, 1, "")] },
        { kind: "delete", uri: NEW, options: { ignoreIfNotExists: true } },
      ],
    };
    const undo: Pick<ProposalParams, "edit" | "hunks"> = {
      edit: removal,
      hunks: [
        { index: 0, uri: A, diff: "@@ -1 +1 @@\n-x\n+a\n", edits: [edit(0, 1, "a\n")] },
        { index: 1, uri: NEW, diff: "@@ -1 +0,0 @@\n-x\n", edits: [edit(0, 1, "")] },
      ],
    };
    assert.deepEqual(selectHunks(undo, [1]).documentChanges, removal.documentChanges?.slice(1));
    assert.deepEqual(selectHunks(undo, [0]).documentChanges, removal.documentChanges?.slice(0, 1));
    assert.deepEqual(splitByFile(removal).map((f) => [f.uri, f.edits.length]), [[A, 1], [NEW, 1]]);
  });

  it("refuses an empty choice and unknown hunks", () => {
    assert.throws(() => selectHunks(proposal, []), /no hunk/);
    assert.throws(() => selectHunks(proposal, [7]), /no hunk 7/);
    assert.throws(() => selectHunks({ edit: multi, hunks: [] }, [0]), /no hunk 0/);
  });

  it("knows whether a proposal has hunks and labels them", () => {
    assert.equal(hasHunks(proposal), true);
    assert.equal(hasHunks({ hunks: [] }), false);
    assert.equal(hasHunks({}), false); // a server from before per-hunk review
    const label = describeHunk(hunks[0], "a.py");
    assert.equal(label.label, "a.py -2,1 +2,1 (+1 −1)");
    assert.equal(label.detail, "-b");
  });
});

describe("staleness", () => {
  const diff = [
    "--- a/app/a.py",
    "+++ b/app/a.py",
    "@@ -1,3 +1,3 @@",
    " a",
    "-b",
    "+B",
    " c",
    "--- /dev/null",
    "+++ b/tests/test_a.py",
    "@@ -0,0 +1 @@",
    "+def test(): pass",
    "",
  ].join("\n");
  const files = parseUnifiedDiff(diff);
  const [a, created] = splitByFile(multi);

  it("parses the diff's files and the old lines of each hunk", () => {
    assert.deepEqual(files, [
      { path: "app/a.py", hunks: [{ oldStart: 1, oldLines: ["a", "b", "c"] }] },
      { path: "tests/test_a.py", hunks: [{ oldStart: 0, oldLines: [] }] },
    ]);
    assert.equal(diffFor(files, A)?.path, "app/a.py");
    assert.equal(diffFor(files, B), undefined);
  });

  it("is fresh when the open document has the proposal's version", () => {
    assert.equal(findStale(a, { version: 4, text: "anything", exists: true }, diffFor(files, A), "app/a.py"), undefined);
  });

  it("is stale when the open document's version moved on", () => {
    const why = findStale(a, { version: 5, text: "a\nb\nc\n", exists: true }, diffFor(files, A), "app/a.py");
    assert.match(why ?? "", /app\/a\.py was edited .*version 5.*for 4/);
  });

  it("without a version, compares the lines the diff was made from (CRLF tolerated)", () => {
    const closed = { ...a, version: null };
    assert.equal(findStale(closed, { version: null, text: "a\r\nb\r\nc\r\n", exists: true }, diffFor(files, A), "a.py"), undefined);
    assert.match(findStale(closed, { version: null, text: "a\nX\nc\n", exists: true }, diffFor(files, A), "a.py") ?? "", /no longer holds/);
    assert.match(findStale(closed, { version: null, text: "", exists: false }, diffFor(files, A), "a.py") ?? "", /no longer exists/);
  });

  it("a file to create must not exist by now", () => {
    assert.equal(findStale(created, { version: null, text: "", exists: false }, diffFor(files, NEW), "t.py"), undefined);
    assert.match(findStale(created, { version: null, text: "x", exists: true }, diffFor(files, NEW), "t.py") ?? "", /exists now/);
  });
});
