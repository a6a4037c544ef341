// TypeScript oracle: definition / references from the TypeScript language service.
//
// usage: node bench_ts_oracle.js <typescript module dir> <request.json> <answers.json>
// request: {"root": abs dir, "positions": [{"key", "path" (relative), "offset16"}]}
// answers: {"version", "files", "answers": {key: {definition, references, def_s, ref_s}}}
// where each answer is a list of [relative path, line, character] (0-based, UTF-16),
// files outside root (lib.d.ts, node_modules) dropped. The program is the root's
// tsconfig.json (every .ts under root when it has none). Must not know: agentls.
"use strict";

const fs = require("fs");
const path = require("path");

const [tsDir, requestPath, answersPath] = process.argv.slice(2);
const ts = require(tsDir);
const request = JSON.parse(fs.readFileSync(requestPath, "utf8"));
const root = fs.realpathSync(request.root);

function programFiles() {
  const configPath = path.join(root, "tsconfig.json");
  if (fs.existsSync(configPath)) {
    const read = ts.readConfigFile(configPath, ts.sys.readFile);
    const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, root);
    const options = { ...parsed.options, noEmit: true, incremental: false };
    return { files: parsed.fileNames, options };
  }
  const files = ts.sys.readDirectory(root, [".ts"], undefined, undefined);
  return { files, options: { strict: true, target: ts.ScriptTarget.ESNext, noEmit: true } };
}

const { files, options } = programFiles();
const snapshots = new Map();
const host = {
  getScriptFileNames: () => files,
  getScriptVersion: () => "1",
  getScriptSnapshot: (fileName) => {
    if (!snapshots.has(fileName)) {
      if (!fs.existsSync(fileName)) return undefined;
      snapshots.set(fileName, ts.ScriptSnapshot.fromString(fs.readFileSync(fileName, "utf8")));
    }
    return snapshots.get(fileName);
  },
  getCurrentDirectory: () => root,
  getCompilationSettings: () => options,
  getDefaultLibFileName: (opts) => ts.getDefaultLibFilePath(opts),
  fileExists: ts.sys.fileExists,
  readFile: ts.sys.readFile,
  readDirectory: ts.sys.readDirectory,
  directoryExists: ts.sys.directoryExists,
  getDirectories: ts.sys.getDirectories,
};
const service = ts.createLanguageService(host, ts.createDocumentRegistry());
const program = service.getProgram();

function toAnswer(fileName, start) {
  const real = fs.existsSync(fileName) ? fs.realpathSync(fileName) : fileName;
  const rel = path.relative(root, real);
  if (rel.startsWith("..") || path.isAbsolute(rel) || rel.includes("node_modules")) return null;
  const sf = program.getSourceFile(fileName) || service.getProgram().getSourceFile(fileName);
  if (!sf) return null;
  const lc = sf.getLineAndCharacterOfPosition(start);
  return [rel.split(path.sep).join("/"), lc.line, lc.character];
}

function uniq(items) {
  const seen = new Map();
  for (const it of items) if (it) seen.set(it.join("\u0000"), it);
  return [...seen.values()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] - b[1] || a[2] - b[2]));
}

const answers = {};
for (const pos of request.positions) {
  const fileName = path.join(root, pos.path);
  const entry = {};
  try {
    let t0 = process.hrtime.bigint();
    const defs = service.getDefinitionAtPosition(fileName, pos.offset16) || [];
    entry.def_s = Number(process.hrtime.bigint() - t0) / 1e9;
    entry.definition = uniq(defs.map((d) => toAnswer(d.fileName, d.textSpan.start)));
    t0 = process.hrtime.bigint();
    const refs = service.getReferencesAtPosition(fileName, pos.offset16) || [];
    entry.ref_s = Number(process.hrtime.bigint() - t0) / 1e9;
    entry.references = uniq(refs.map((r) => toAnswer(r.fileName, r.textSpan.start)));
  } catch (err) {
    entry.error = String(err && err.message ? err.message : err);
  }
  answers[pos.key] = entry;
}
fs.writeFileSync(answersPath, JSON.stringify({ version: ts.version, files: files.length, answers }));
