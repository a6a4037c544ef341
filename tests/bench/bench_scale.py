"""Navigation at sympy scale, measured from outside as an editor sees `agentls serve`.

Corpus: the sympy 1.14.0 sdist unpacked whole (1543 `.py` files, 756k lines; package,
tests, docs' scripts, bin/). Everything is timed in this process, across stdio:

1. bare — a child process walks the root and parses every `.py` with tree-sitter in one
   process (bench_index.child_bare): the yardstick of the cold target.
2. expected — a server builds the index (cache deleted), is left until its process group
   is idle, and answers the probes: a definition (a use of `sympify` in
   sympy/core/expr.py) and references (includeDeclaration) of `Basic.subs`, a method used
   all over the code. Those answers are the right ones.
3. cold — the cache deleted, a new server: clock from the spawn; `initialize` (the client
   offers work-done progress), `initialized`, then the probes are asked in rounds (both at
   once, the next round when both answered) until a round answers both right. Reported:
   time to right answers from the spawn and from `initialize`, when the indexing progress
   ended, and the peak of the RSS summed over the server's process group (the server and
   every process it starts: workers, fork server), sampled every 20 ms from spawn until the
   group is idle after the answers.
4. latency — on that server, once idle: definition at N seeded identifier uses
   (bench_positions), references at M of them; each request alone; p50/p95/max; the
   slowest positions are named.
5. streaming and cancel (before step 4, so no search is remembered yet) — references of
   the class Symbol with a `partialResultToken` (time to the first partial result and to
   the end); references of sympy.abc's x cancelled (`$/cancelRequest`) 50 ms after they
   are sent (time to the reply), with a definition sent meanwhile; a definition sent while
   the references of S (the singleton registry) run.
5b. after step 4 — definitions asked 20, 80 and 180 ms into each of ten fresh references
   searches of names used all over sympy (sin, exp, sqrt, Rational, Integer, Add, …).
6. warm — the server shut down, a new one on the same cache, timed like cold (3 runs).

    .venv/bin/python tests/bench/bench_scale.py [--defs 400] [--refs 200] [--warm 3]

Writes tests/bench/results/scale.json. Targets (issue 8): cold ≤ 1.2 × bare with progress
ending only when answers are ready; warm ≤ 0.10 × cold; peak summed RSS ≤ 400 MB;
definition p95 ≤ 5 ms / max ≤ 100 ms; references p95 ≤ 50 ms / max ≤ 1 s.
Must not know: agentls internals (the LSP wire only).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import sys
import threading
import time
from pathlib import Path
from typing import Any

from bench_data import DATA, agentls_command, whole_sdist
from bench_index import run_child
from bench_lsp import LspClient, LspError
from bench_positions import sample
from bench_report import note_load, ratio, summary_ms, write_results

SEED = 4321
CORPUS = "sympy==1.14.0"
MB = 1024 * 1024
PAGE = os.sysconf("SC_PAGE_SIZE")
TICKS = os.sysconf("SC_CLK_TCK")


def _find(root: Path, rel: str, needle: str, nth: int = 0) -> tuple[int, int]:
    """(line, UTF-16 character) of the nth `needle` in rel (ASCII files)."""
    k = -1
    for i, line in enumerate((root / rel).read_text(encoding="utf-8").splitlines()):
        col = line.find(needle)
        while col >= 0:
            k += 1
            if k == nth:
                return i, col
            col = line.find(needle, col + 1)
    raise LookupError(f"{needle!r} not in {rel}")


class Server:
    """`agentls serve` in a session of its own, with its process group sampled."""

    def __init__(self, root: Path, label: str) -> None:
        self.root = root
        self.t0 = time.perf_counter()
        self.client = LspClient([str(agentls_command()), "serve"], root, DATA / f"scale-{label}.stderr")
        self.peak_rss = 0
        self.progress_end: float | None = None
        self.partials: list[tuple[float, int]] = []
        self._stop = threading.Event()
        self._sampler = threading.Thread(target=self._sample_loop, daemon=True)
        self._sampler.start()
        self._watch = threading.Thread(target=self._watch_notifications, daemon=True)
        self._watch.start()

    # --- the process group -----------------------------------------------------------
    def pids(self) -> list[int]:
        return self.client.group() or [self.client.proc.pid]

    def rss(self) -> int:
        total = 0
        for pid in self.pids():
            with contextlib.suppress(OSError, ValueError, IndexError):
                total += int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * PAGE
        return total

    def cpu_ticks(self) -> int:
        total = 0
        for pid in self.pids():
            try:
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
                total += int(fields[11]) + int(fields[12])
            except (OSError, ValueError, IndexError):
                pass
        return total

    def _sample_loop(self) -> None:
        while not self._stop.wait(0.02):
            self.peak_rss = max(self.peak_rss, self.rss())

    def _watch_notifications(self) -> None:
        seen = 0
        while not self._stop.wait(0.005):
            notes = self.client.notifications
            while seen < len(notes):
                msg = notes[seen]
                seen += 1
                if msg.get("method") != "$/progress":
                    continue
                value = msg["params"].get("value")
                if isinstance(value, dict) and value.get("kind") == "end" and str(msg["params"].get("token", "")).startswith("agentls-index"):
                    self.progress_end = self.progress_end or time.perf_counter()
                elif isinstance(value, list):
                    self.partials.append((time.perf_counter(), len(value)))

    def wait_idle(self, quiet_s: float = 1.0, limit_s: float = 120.0) -> float:
        """Wait until the group used < 5 % of a core over `quiet_s`; returns the wait."""
        start = time.perf_counter()
        while time.perf_counter() - start < limit_s:
            a = self.cpu_ticks()
            time.sleep(quiet_s)
            if (self.cpu_ticks() - a) / TICKS < 0.05 * quiet_s:
                break
        return time.perf_counter() - start

    # --- LSP -------------------------------------------------------------------------
    def initialize(self) -> None:
        uri = self.root.resolve().as_uri()
        caps = {
            "textDocument": {"definition": {"linkSupport": False}, "references": {}, "synchronization": {"didSave": False}},
            "workspace": {"workspaceFolders": True, "configuration": False},
            "window": {"workDoneProgress": True},
            "general": {"positionEncodings": ["utf-16"]},
        }
        self.client.request(
            "initialize",
            {"processId": os.getpid(), "rootUri": uri, "capabilities": caps, "initializationOptions": {},
             "workspaceFolders": [{"uri": uri, "name": self.root.name}]},
            timeout=120,
        )
        self.t_init = time.perf_counter()
        self.client.notify("initialized", {})

    def params(self, rel: str, line: int, char: int) -> dict[str, Any]:
        return {"textDocument": {"uri": (self.root / rel).resolve().as_uri()}, "position": {"line": line, "character": char}}

    def close(self) -> None:
        self._stop.set()
        self.client.close()


def _norm(result: Any) -> list[tuple[str, int, int]]:
    if not result:
        return []
    items = result if isinstance(result, list) else [result]
    return sorted((x["uri"], x["range"]["start"]["line"], x["range"]["start"]["character"]) for x in items)


def probes(root: Path) -> dict[str, tuple[str, int, int]]:
    rel = "sympy/core/expr.py"
    d_line, d_char = _find(root, rel, "sympify(", 0)
    r_rel = "sympy/core/basic.py"
    r_line, r_char = _find(root, r_rel, "def subs(", 0)
    return {"definition": (rel, d_line, d_char), "references": (r_rel, r_line, r_char + 4)}


def heavy(root: Path) -> dict[str, tuple[str, int, int]]:
    """Names used all over sympy, asked nowhere else before step 5 (a search not yet
    remembered): the class Symbol, the singleton registry S, sympy.abc's x."""
    sym = _find(root, "sympy/core/symbol.py", "class Symbol(", 0)
    s = _find(root, "sympy/core/singleton.py", "S = SingletonRegistry()", 0)
    x = _find(root, "sympy/abc.py", "u, v, w, x, y, z = ", 0)
    return {
        "stream": ("sympy/core/symbol.py", sym[0], sym[1] + 6),
        "cancel": ("sympy/abc.py", x[0], x[1] + 9),
        "during": ("sympy/core/singleton.py", s[0], s[1]),
    }


def ask_probes(srv: Server, where: dict[str, tuple[str, int, int]], timeout: float = 120) -> tuple[Any, Any]:
    box: dict[str, Any] = {}

    def refs() -> None:
        p = srv.params(*where["references"])
        p["context"] = {"includeDeclaration": True}
        try:
            box["references"] = srv.client.request("textDocument/references", p, timeout=timeout)
        except LspError as exc:
            box["references"] = f"error: {exc}"

    t = threading.Thread(target=refs)
    t.start()
    try:
        d = srv.client.request("textDocument/definition", srv.params(*where["definition"]), timeout=timeout)
    except LspError as exc:
        d = f"error: {exc}"
    t.join()
    return d, box.get("references")


def start_to_right(root: Path, label: str, expected: tuple[Any, Any] | None, where: dict[str, Any], clear: bool) -> tuple[dict[str, Any], Server]:
    if clear:
        shutil.rmtree(root / ".agentls", ignore_errors=True)
    srv = Server(root, label)
    out: dict[str, Any] = {}
    srv.initialize()
    out["initialize_s"] = round(srv.t_init - srv.t0, 3)
    rounds = 0
    answers: tuple[Any, Any] = (None, None)
    while time.perf_counter() - srv.t0 < 180:
        rounds += 1
        d, r = ask_probes(srv, where)
        answers = (_norm(d) if not isinstance(d, str) else d, _norm(r) if not isinstance(r, str) else r)
        if expected is None or answers == expected:
            break
        time.sleep(0.01)
    t_right = time.perf_counter()
    out.update({
        "right_after_spawn_s": round(t_right - srv.t0, 3),
        "right_after_initialize_s": round(t_right - srv.t_init, 3),
        "rounds": rounds,
        "right": expected is None or answers == expected,
        "definition_locations": len(answers[0]) if isinstance(answers[0], list) else answers[0],
        "reference_locations": len(answers[1]) if isinstance(answers[1], list) else answers[1],
    })
    idle = srv.wait_idle()
    if srv.progress_end is not None:
        out["progress_end_after_spawn_s"] = round(srv.progress_end - srv.t0, 3)
        out["progress_end_before_right_s"] = round(t_right - srv.progress_end, 3)
    out["idle_after_right_s"] = round(idle, 2)
    out["peak_group_rss_mb"] = round(srv.peak_rss / MB, 1)
    out["rss_idle_mb"] = round(srv.rss() / MB, 1)
    out["answers"] = answers
    return out, srv


def latency(srv: Server, root: Path, n_defs: int, n_refs: int) -> dict[str, Any]:
    positions = sample(root, "python", n_defs + n_refs, SEED, uses_only=True)
    defs, refs = positions[::2][:n_defs], positions[1::2][:n_refs]
    out: dict[str, Any] = {}
    for label, method, chosen in (("definition", "textDocument/definition", defs), ("references", "textDocument/references", refs)):
        times: list[float] = []
        slow: list[tuple[float, str, int]] = []
        for pos in chosen:
            p = srv.params(pos.path, pos.line, pos.char)
            if label == "references":
                p["context"] = {"includeDeclaration": True}
            a = time.perf_counter()
            try:
                res = srv.client.request(method, p, timeout=60)
            except LspError as exc:
                res = None
                slow.append((60.0, f"{pos.path}:{pos.line + 1}:{pos.char + 1} {exc}", 0))
            dt = time.perf_counter() - a
            times.append(dt)
            slow.append((dt, f"{pos.path}:{pos.line + 1}:{pos.char + 1}", len(res or [])))
        slow.sort(reverse=True)
        out[label] = {**summary_ms(times), "slowest": [{"ms": round(s * 1000, 1), "at": w, "locations": n} for s, w, n in slow[:5]]}
        if label == "references":  # what sets the tail: answer size (the JSON alone of 8k locations is ~35 ms)
            out[label]["by_size"] = {
                f"{lo}-{hi - 1}" if hi else f"{lo}+": summary_ms(ts)
                for lo, hi in ((0, 1000), (1000, 5000), (5000, 0))
                for ts in [[s for s, _, n in slow if n >= lo and (not hi or n < hi)]]
            }
    return out


def streaming_and_cancel(srv: Server, root: Path, where: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    names = heavy(root)

    def refs(which: str) -> dict[str, Any]:
        p = srv.params(*names[which])
        p["context"] = {"includeDeclaration": True}
        return p

    # partial results
    srv.partials.clear()
    a = time.perf_counter()
    final = srv.client.request("textDocument/references", {**refs("stream"), "partialResultToken": "bench-partial"}, timeout=60)
    end = time.perf_counter()
    time.sleep(0.05)
    out["streamed"] = {
        "name": "Symbol",
        "partial_messages": len(srv.partials),
        "first_partial_ms": round((srv.partials[0][0] - a) * 1000, 1) if srv.partials else None,
        "partial_locations": sum(n for _, n in srv.partials),
        "final_locations": len(final or []),
        "total_ms": round((end - a) * 1000, 1),
    }
    # cancel 50 ms in, and a definition meanwhile
    client = srv.client
    with client._lock:
        client._next += 1
        rid = client._next
    event = threading.Event()
    box: list[dict[str, Any]] = []
    client._pending[rid] = (event, box)
    a = time.perf_counter()
    client._send({"jsonrpc": "2.0", "id": rid, "method": "textDocument/references", "params": refs("cancel")})
    time.sleep(0.05)
    client.notify("$/cancelRequest", {"id": rid})
    d0 = time.perf_counter()
    srv.client.request("textDocument/definition", srv.params(*where["definition"]), timeout=60)
    d1 = time.perf_counter()
    event.wait(60)
    reply = box[0] if box else {}
    out["cancelled"] = {
        "name": "x (sympy.abc)",
        "reply_after_send_ms": round((time.perf_counter() - a) * 1000, 1),
        "reply": "error " + str(reply["error"].get("code")) if "error" in reply else f"result ({len(reply.get('result') or [])} locations)",
        "definition_meanwhile_ms": round((d1 - d0) * 1000, 1),
    }
    # a definition while a whole references request runs
    box2: dict[str, float] = {}

    def whole() -> None:
        t0 = time.perf_counter()
        srv.client.request("textDocument/references", refs("during"), timeout=60)
        box2["ms"] = (time.perf_counter() - t0) * 1000

    t = threading.Thread(target=whole)
    t.start()
    time.sleep(0.02)
    d0 = time.perf_counter()
    srv.client.request("textDocument/definition", srv.params(*where["definition"]), timeout=60)
    out["definition_during_references_ms"] = round((time.perf_counter() - d0) * 1000, 1)
    t.join()
    out["references_S_ms"] = round(box2.get("ms", -1), 1)
    return out


#: Classes and functions used all over sympy, asked nowhere before step 5b (each search fresh)
BUSY = (
    ("sympy/functions/elementary/trigonometric.py", "class sin(", 6), ("sympy/functions/elementary/exponential.py", "class exp(", 6),
    ("sympy/functions/elementary/miscellaneous.py", "def sqrt(", 4), ("sympy/core/numbers.py", "class Rational(", 6),
    ("sympy/core/numbers.py", "class Integer(", 6), ("sympy/core/add.py", "class Add(", 6), ("sympy/core/mul.py", "class Mul(", 6),
    ("sympy/core/power.py", "class Pow(", 6), ("sympy/core/numbers.py", "class Float(", 6), ("sympy/core/function.py", "class Function(", 6),
)


def definitions_during_searches(srv: Server, root: Path, where: dict[str, Any]) -> dict[str, Any]:
    """Definitions asked 20, 80 and 180 ms into each of ten fresh references searches of
    names used all over sympy (each search on a thread, the definitions from this one)."""
    rows = []
    during: list[float] = []
    for rel, needle, off in BUSY:
        line, char = _find(root, rel, needle)
        p = srv.params(rel, line, char + off)
        p["context"] = {"includeDeclaration": True}
        box: dict[str, Any] = {}

        def search(p: dict[str, Any] = p, box: dict[str, Any] = box) -> None:
            t0 = time.perf_counter()
            box["n"] = len(srv.client.request("textDocument/references", p, timeout=60) or [])
            box["ms"] = (time.perf_counter() - t0) * 1000

        t = threading.Thread(target=search)
        t.start()
        ds = []
        for gap in (0.02, 0.06, 0.1):
            time.sleep(gap)
            d0 = time.perf_counter()
            srv.client.request("textDocument/definition", srv.params(*where["definition"]), timeout=60)
            ds.append(round((time.perf_counter() - d0) * 1000, 1))
        t.join()
        rows.append({"name": needle.split()[1].split("(")[0], "locations": box.get("n"), "search_ms": round(box.get("ms", -1), 1), "definitions_ms": ds})
        during += ds
    return {"searches": rows, "definitions": summary_ms([d / 1000 for d in during])}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--defs", type=int, default=400)
    ap.add_argument("--refs", type=int, default=200)
    ap.add_argument("--warm", type=int, default=3)
    ap.add_argument("--skip-bare", action="store_true")
    args = ap.parse_args()
    root = whole_sdist(CORPUS)
    where = probes(root)
    load = [note_load("start")]
    # the page cache warm for everyone
    for dirpath, _d, files in os.walk(root):
        for f in files:
            if f.endswith(".py"):
                Path(dirpath, f).read_bytes()
    results: dict[str, Any] = {"corpus": CORPUS, "probes": {k: f"{r}:{ln + 1}:{c + 1}" for k, (r, ln, c) in where.items()}}
    if not args.skip_bare:
        bare = run_child("bare", root)
        results["bare"] = {k: bare[k] for k in ("wall_s", "parse_s", "files", "bytes") if k in bare}
        print(f"bare parse: {bare['wall_s']:.2f} s ({bare['files']} files)", flush=True)

    ref, srv = start_to_right(root, "expected", None, where, clear=True)
    srv.close()
    expected = ref.pop("answers")
    print(f"expected: {len(expected[0])} definition, {len(expected[1])} reference locations", flush=True)
    results["expected"] = {"definition": len(expected[0]), "references": len(expected[1])}

    cold, srv = start_to_right(root, "cold", expected, where, clear=True)
    cold.pop("answers")
    results["cold"] = cold
    print(f"cold: {json.dumps(cold)}", flush=True)
    load.append(note_load("cold"))
    try:
        results["streaming_and_cancel"] = streaming_and_cancel(srv, root, where)
        print(f"streaming/cancel: {json.dumps(results['streaming_and_cancel'])}", flush=True)
        results["latency"] = latency(srv, root, args.defs, args.refs)
        for k in ("definition", "references"):
            r = results["latency"][k]
            print(f"{k}: p50 {r['p50_ms']} / p95 {r['p95_ms']} / max {r['max_ms']} ms; slowest {r['slowest'][:3]}", flush=True)
        results["definitions_during_searches"] = definitions_during_searches(srv, root, where)
        print(f"definitions during searches: {json.dumps(results['definitions_during_searches'])}", flush=True)
        results["peak_group_rss_mb_whole_session"] = round(srv.peak_rss / MB, 1)
    finally:
        srv.close()
    warm_runs = []
    for i in range(args.warm):
        w, srv = start_to_right(root, f"warm{i}", expected, where, clear=False)
        srv.close()
        w.pop("answers")
        warm_runs.append(w)
        print(f"warm: {json.dumps(w)}", flush=True)
    results["warm"] = warm_runs
    load.append(note_load("end"))
    bare_s = results.get("bare", {}).get("wall_s")
    warm_med = sorted(w["right_after_spawn_s"] for w in warm_runs)[len(warm_runs) // 2] if warm_runs else None
    lat = results["latency"]
    results["targets"] = {
        "cold_over_bare": ratio(cold["right_after_spawn_s"], bare_s),
        "cold_over_bare_from_initialize": ratio(cold["right_after_initialize_s"], bare_s),
        "progress_ended_before_right_s": cold.get("progress_end_before_right_s"),
        "warm_over_cold": ratio(warm_med, cold["right_after_spawn_s"]),
        "peak_group_rss_mb": max(cold["peak_group_rss_mb"], results["peak_group_rss_mb_whole_session"]),
        "definition_p95_ms": lat["definition"]["p95_ms"],
        "definition_max_ms": lat["definition"]["max_ms"],
        "references_p95_ms": lat["references"]["p95_ms"],
        "references_max_ms": lat["references"]["max_ms"],
        "definition_during_searches_max_ms": results["definitions_during_searches"]["definitions"]["max_ms"],
    }
    results["load"] = load
    print(json.dumps(results["targets"], indent=1))
    path = write_results("scale", results)
    print(f"wrote {path}", file=sys.stderr)


if __name__ == "__main__":
    main()
