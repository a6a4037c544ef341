"""The agentls language server's class: state on the server subclass (the projects, what
features share) and the transport. The features (features/, one module per LSP method)
register on it and read it; server.py makes it with every feature registered.

A workspace folder is a Project (its Workspace of buffers and its WorkspaceIndex);
documents are routed to the project whose root contains them. State that features share
without the server knowing it (the run manager, the diagnostics publisher) is attached:
`attached(Kind)` makes `Kind(server)` on first use and keeps that one.
Must not know: analysis internals (it calls the index's public methods), the features.
"""

from __future__ import annotations

import asyncio
import logging
import sys
import threading
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO, TypeVar, cast

from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcException, JsonRpcInternalError
from pygls.io_ import StdoutWriter
from pygls.lsp.server import LanguageServer

from agentls import __version__
from agentls.analysis.index import WorkspaceIndex
from agentls.lsp.convert import uri_to_path
from agentls.lsp.framing import Framer
from agentls.lsp.protocol import AgentProtocol
from agentls.lsp.streams import StdinReader, StreamLineReader
from agentls.settings import Settings
from agentls.workspace import PathOutsideWorkspace, Workspace

log = logging.getLogger(__name__)

T = TypeVar("T")


@dataclass
class Project:
    root: Path
    workspace: Workspace
    index: WorkspaceIndex
    ready: threading.Event = field(default_factory=threading.Event)
    build_stats: dict[str, object] = field(default_factory=dict)


class AgentLanguageServer(LanguageServer):
    protocol: AgentProtocol
    exit_code = 0  # of the process: 1 when `exit` came without `shutdown`

    def __init__(self) -> None:
        super().__init__(
            "agentls",
            __version__,
            protocol_cls=AgentProtocol,
            text_document_sync_kind=lsp.TextDocumentSyncKind.Incremental,
        )
        self.settings = Settings()
        self.projects: dict[Path, Project] = {}
        self.client_watches_files = False
        self.background: set[asyncio.Task[object]] = set()
        self._attached: dict[Callable[..., Any], Any] = {}

    # --- attached state --------------------------------------------------------------
    def attached(self, kind: Callable[[AgentLanguageServer], T]) -> T:
        """The server's one `kind` (a class taking the server), made on first use."""
        found = self._attached.get(kind)
        if found is None:
            found = self._attached[kind] = kind(self)
        return cast(T, found)

    def attached_if_made(self, kind: Callable[[AgentLanguageServer], T]) -> T | None:
        """The server's `kind` if something made it already, else None."""
        return cast("T | None", self._attached.get(kind))

    # --- projects --------------------------------------------------------------------
    def add_project(self, root: Path) -> Project:
        root = root.resolve()
        project = self.projects.get(root)
        if project is None:
            ws = Workspace(root)
            index = WorkspaceIndex(root, workspace=ws, jobs=self.settings.index_jobs, cache_dir=None if self.settings.index_cache else False)
            project = self.projects[root] = Project(root, ws, index)
        return project

    def remove_project(self, root: Path) -> None:
        self.projects.pop(root.resolve(), None)

    def locate(self, uri: str) -> tuple[Project, str] | None:
        """The project holding a document and its relative path; None if outside every root."""
        path = uri_to_path(uri)
        if path is None:
            return None
        best: Project | None = None
        for project in self.projects.values():
            inside = path == project.root or project.root in path.parents or project.root in path.resolve().parents
            if inside and (best is None or len(project.root.parts) > len(best.root.parts)):
                best = project
        if best is None:
            return None
        try:
            return best, best.workspace.relative(str(path))
        except PathOutsideWorkspace:
            return None

    async def wait_ready(self, uri: str, timeout: float = 30.0) -> tuple[Project, str] | None:
        """The project and path of a document once its index is built (bounded wait)."""
        found = self.locate(uri)
        if found is None:
            return None
        project, rel = found
        if not project.ready.is_set() and not await asyncio.to_thread(project.ready.wait, timeout):
            return None
        if rel not in project.index.files:
            return None
        return project, rel

    # --- transport: our framing (framing.py) in place of pygls' read loop ------------------
    def start_io(self, stdin: BinaryIO | None = None, stdout: BinaryIO | None = None) -> None:
        self.protocol.set_writer(StdoutWriter(stdout or sys.stdout.buffer))
        self._serve(lambda stop: Framer(StdinReader(stdin or sys.stdin.buffer), self.protocol.receive, self.protocol.reject).run(stop))

    def start_tcp(self, host: str, port: int) -> None:
        async def serve(stop: threading.Event) -> None:
            done: asyncio.Future[None] = asyncio.get_running_loop().create_future()

            async def connection(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
                self.protocol.set_writer(writer)  # type: ignore[arg-type]
                outcome: BaseException | None = None
                try:
                    await Framer(StreamLineReader(reader), self.protocol.receive, self.protocol.reject).run(stop)
                except SystemExit as exc:  # `exit` ends the server with its code
                    outcome = exc
                except Exception:
                    log.exception("the connection failed; shutting down")
                if not done.done():
                    done.set_exception(outcome) if outcome else done.set_result(None)

            server = await asyncio.start_server(connection, host, port)
            log.info("serving on %s:%s", host, port)
            async with server:
                await done

        self._serve(serve)

    def _serve(self, main: Any) -> None:
        self._stop_event = stop = threading.Event()
        try:
            asyncio.run(main(stop))
        except SystemExit as exc:  # `exit`: pygls 2.1 drops its code, we keep it
            self.exit_code = exc.code if isinstance(exc.code, int) else 1
        except BrokenPipeError:
            log.error("the connection to the client is lost; shutting down")
        except KeyboardInterrupt:
            pass
        finally:
            self.shutdown()

    def report_server_error(self, error: Exception, source: Any) -> None:
        """Internal failures go to the log, never to the user as `window/showMessage`
        (pygls shows "Error in server: …"); requests are answered with the error."""
        where = getattr(source, "__name__", source)
        if isinstance(error, JsonRpcException) and error.code != JsonRpcInternalError.CODE:
            log.info("request refused (%s): %s", where, error)  # answered to the client already
        else:
            log.error("internal error (%s): %s", where, error)

    def show(self, message: str, kind: lsp.MessageType = lsp.MessageType.Warning) -> None:
        self.window_show_message(lsp.ShowMessageParams(type=kind, message=message))

    def spawn(self, coro: Coroutine[Any, Any, object]) -> None:
        task = asyncio.ensure_future(coro)
        self.background.add(task)
        task.add_done_callback(self.background.discard)

