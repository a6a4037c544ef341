"""What a web_fetch costs on this machine, network excluded: the whole call through the
executor (policy, guarded resolution and connection, redirect-free GET, body cap,
trafilatura extraction) against a loopback server, and the extraction alone, for each
hand-made saved page in tests/tools/web/fixtures/ — plus one page 40 times the blog post
to show how extraction grows with size.

Run on demand: `.venv/bin/python tests/bench/bench_web.py [--runs N]`; writes
`results/web.json`. Must not know: anything beyond the web tools' public API.
"""

from __future__ import annotations

import argparse
import tempfile
import threading
import time
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from bench_report import REPO, note_load, summary_ms, table, write_results

from agentls.settings import Settings
from agentls.tools.base import ToolContext
from agentls.tools.executor import ToolExecutor
from agentls.tools.permissions import PermissionSet
from agentls.tools.registry import ToolRegistry
from agentls.tools.web import TOOLS
from agentls.tools.web.readable import readable
from agentls.workspace import Workspace

FIXTURES = REPO / "tests" / "tools" / "web" / "fixtures"


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, *args: object) -> None:
        pass


def pages(site: Path) -> dict[str, bytes]:
    out = {p.name: p.read_bytes() for p in sorted(FIXTURES.glob("*.html"))}
    post = out["blog_post.html"].decode()
    head, _, rest = post.partition("<article")
    article, _, tail = rest.partition("</article>")
    out["long_post_x40.html"] = (head + ("<article" + article + "</article>") * 40 + tail).encode()
    for name, body in out.items():
        (site / name).write_bytes(body)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=30)
    args = parser.parse_args()
    load = note_load("start")
    with tempfile.TemporaryDirectory() as tmp:
        site = Path(tmp)
        bodies = pages(site)
        httpd = ThreadingHTTPServer(("127.0.0.1", 0), partial(_Quiet, directory=str(site)))
        threading.Thread(target=httpd.serve_forever, daemon=True).start()
        base = f"http://127.0.0.1:{httpd.server_address[1]}"
        ctx = ToolContext(
            workspace=Workspace(site), permissions=PermissionSet.for_mode("dev"),
            settings=Settings.model_validate({"webAllow": ["127.0.0.1"]}),
        )  # fmt: skip
        executor = ToolExecutor(ToolRegistry(TOOLS))
        executor.execute("web_fetch", {"url": f"{base}/blog_post.html"}, ctx)  # warm: imports
        results: dict[str, dict] = {}
        for name, body in bodies.items():
            calls, extract = [], []
            for _ in range(args.runs):
                start = time.perf_counter()
                result = executor.execute("web_fetch", {"url": f"{base}/{name}"}, ctx)
                calls.append(time.perf_counter() - start)
                assert result.ok, result.error
                start = time.perf_counter()
                readable(body, "text/html", "utf-8")
                extract.append(time.perf_counter() - start)
            results[name] = {"bytes": len(body), "web_fetch": summary_ms(calls), "extract": summary_ms(extract)}
        httpd.shutdown()
    rows = [
        (n, r["bytes"], r["web_fetch"]["p50_ms"], r["web_fetch"]["p95_ms"], r["extract"]["p50_ms"])
        for n, r in results.items()
    ]
    print(table(["page", "bytes", "web_fetch p50 ms", "p95 ms", "extraction p50 ms"], rows))
    path = write_results("web", {"runs": args.runs, "pages": results, "load_start": load, "load_end": note_load("end")})
    print(f"written {path}")


if __name__ == "__main__":
    main()
