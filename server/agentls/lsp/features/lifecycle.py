"""`initialize`, `initialized`, `workspace/didChangeConfiguration`,
`workspace/didChangeWorkspaceFolders`: settings, projects and the background index.

`navigation: false` in the initial settings withdraws the navigation features before the
capabilities are computed, so they are not advertised (an editor that runs Pylance or the
TypeScript server does not get answers twice); the agent and its code tools keep the
index. Capabilities are fixed at `initialize`: a later change of `navigation` takes
effect when the server restarts (the VS Code extension restarts it).

The cold index runs in a thread and reports `$/progress` when the client supports
work-done progress; requests wait for it (bounded). The progress ends when answers are
ready: the build fills every occurrence table in the same parse, so no background work
is left that a references request would wait for (only the cache is written after). Invalid settings are shown to the
user and defaults are used.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from typing import Any

from lsprotocol import types as lsp

from agentls.lsp.convert import uri_to_path
from agentls.lsp.language_server import AgentLanguageServer, Project
from agentls.lsp.runs import RunManager
from agentls.settings import parse_settings

log = logging.getLogger(__name__)
SAVE_DELAY_S = 2.0
WATCH_GLOB = "**/*.{py,pyi,ts,tsx,mts,cts,js,jsx,mjs,cjs}"
NAVIGATION_METHODS = (
    lsp.TEXT_DOCUMENT_DEFINITION,
    lsp.TEXT_DOCUMENT_REFERENCES,
    lsp.TEXT_DOCUMENT_DOCUMENT_SYMBOL,
    lsp.WORKSPACE_SYMBOL,
    lsp.TEXT_DOCUMENT_HOVER,
    lsp.TEXT_DOCUMENT_PREPARE_RENAME,
    lsp.TEXT_DOCUMENT_RENAME,
)


def _apply_settings(ls: AgentLanguageServer, raw: Any, source: str) -> None:
    settings, problems = parse_settings(_plain(raw))
    ls.settings = settings
    for problem in problems:
        ls.show(f"agentls ({source}): {problem}")
    manager = ls.attached_if_made(RunManager)
    if manager is not None:  # workbenches made already follow a changed mcpServers
        manager.tools.settings_changed()


def _withdraw_navigation(ls: AgentLanguageServer) -> None:
    """Unregister the navigation features (called from `initialize`, before pygls builds
    the capabilities from the registered features)."""
    features = ls.protocol.fm.features
    options = ls.protocol.fm.feature_options
    for method in NAVIGATION_METHODS:
        features.pop(method, None)
        options.pop(method, None)
    log.info("navigation is off (setting navigation: false): not advertised")


def _plain(raw: Any) -> Any:
    """Custom params may arrive as namedtuple-like objects; settings want plain data."""
    if hasattr(raw, "_asdict"):
        return {k: _plain(v) for k, v in raw._asdict().items()}
    if isinstance(raw, dict):
        return {k: _plain(v) for k, v in raw.items()}
    if isinstance(raw, list):
        return [_plain(v) for v in raw]
    return raw


async def _index(ls: AgentLanguageServer, project: Project) -> None:
    caps = ls.client_capabilities
    token: str | None = None
    if caps and caps.window and caps.window.work_done_progress:
        token = f"agentls-index-{uuid.uuid4().hex[:8]}"
        try:
            await ls.work_done_progress.create_async(token)
            ls.work_done_progress.begin(token, lsp.WorkDoneProgressBegin(title="agentls: indexing", message=project.root.name, percentage=0))
        except Exception as exc:  # a client may refuse progress; indexing goes on
            log.info("progress refused: %s", exc)
            token = None
    loop = asyncio.get_running_loop()
    last = [-1]

    def progress(done: int, total: int) -> None:
        pct = int(done * 100 / max(total, 1))
        if token and pct != last[0]:
            last[0] = pct
            loop.call_soon_threadsafe(
                ls.work_done_progress.report, token, lsp.WorkDoneProgressReport(message=f"{done}/{total} files", percentage=pct)
            )

    project.index.progress = progress
    try:
        stats = await asyncio.to_thread(project.index.build, False)
        for rel in project.workspace.open_paths():  # edits that raced the build
            project.index.update_file(rel)
        project.build_stats = stats
        message = f"{stats['files']} files ({stats['cached']} from cache) in {stats['seconds']} s"
    except Exception as exc:
        log.exception("indexing failed")
        # the user learns what it means for them; the exception itself goes to the log only
        ls.show(f"agentls: indexing {project.root.name} failed ({type(exc).__name__}); navigation answers may be missing. Details are in the server log.", lsp.MessageType.Error)
        message = "failed"
    finally:
        project.ready.set()
    if token:
        ls.work_done_progress.end(token, lsp.WorkDoneProgressEnd(message=message))
    ls.window_log_message(lsp.LogMessageParams(type=lsp.MessageType.Info, message=f"agentls: indexed {project.root}: {message}"))
    try:  # the cache, once the first questions had their answers (the build filled every
        # occurrence table; pickling holds the GIL for ~0.2 s on sympy, which the editor's
        # first requests right after the progress ends should not wait behind)
        if project.build_stats and project.build_stats.get("parsed"):
            await asyncio.sleep(SAVE_DELAY_S)
            await asyncio.to_thread(project.index.save_cache)
    except Exception:
        log.exception("writing the index cache failed; the next start will index again")


async def _pull_configuration(ls: AgentLanguageServer) -> None:
    caps = ls.client_capabilities
    if not (caps and caps.workspace and caps.workspace.configuration):
        return
    try:
        result = await ls.workspace_configuration_async(lsp.ConfigurationParams(items=[lsp.ConfigurationItem(section="agentls")]))
    except Exception as exc:
        log.info("workspace/configuration failed: %s", exc)
        return
    if result and result[0] is not None:
        _apply_settings(ls, result[0], "workspace/configuration")


async def _watch_files(ls: AgentLanguageServer) -> None:
    caps = ls.client_capabilities
    watched = caps and caps.workspace and caps.workspace.did_change_watched_files
    if not (watched and watched.dynamic_registration):
        return
    options = lsp.DidChangeWatchedFilesRegistrationOptions(watchers=[lsp.FileSystemWatcher(glob_pattern=WATCH_GLOB)])
    try:
        await ls.client_register_capability_async(
            lsp.RegistrationParams(registrations=[lsp.Registration(id="agentls-watch", method=lsp.WORKSPACE_DID_CHANGE_WATCHED_FILES, register_options=options)])
        )
        ls.client_watches_files = True
    except Exception as exc:
        log.info("file watch registration failed: %s", exc)


def register(server: AgentLanguageServer) -> None:
    @server.feature(lsp.INITIALIZE)
    def initialize(ls: AgentLanguageServer, params: lsp.InitializeParams) -> None:
        _apply_settings(ls, params.initialization_options, "initializationOptions")
        if not ls.settings.navigation:
            _withdraw_navigation(ls)
        roots = [f.uri for f in params.workspace_folders or []]
        if not roots and params.root_uri:
            roots = [params.root_uri]
        if not roots and params.root_path:
            roots = [f"file://{params.root_path}"]
        for uri in roots:
            path = uri_to_path(uri)
            if path is not None and path.is_dir():
                ls.add_project(path)

    @server.feature(lsp.INITIALIZED)
    async def initialized(ls: AgentLanguageServer, params: lsp.InitializedParams) -> None:
        await _pull_configuration(ls)
        for project in list(ls.projects.values()):
            ls.spawn(_index(ls, project))
        ls.spawn(_watch_files(ls))

    @server.feature(lsp.WORKSPACE_DID_CHANGE_CONFIGURATION)
    async def did_change_configuration(ls: AgentLanguageServer, params: lsp.DidChangeConfigurationParams) -> None:
        settings = params.settings
        if isinstance(settings, dict) and "agentls" in settings:
            _apply_settings(ls, settings["agentls"], "settings")
        else:
            await _pull_configuration(ls)

    @server.feature(lsp.WORKSPACE_DID_CHANGE_WORKSPACE_FOLDERS)
    def did_change_folders(ls: AgentLanguageServer, params: lsp.DidChangeWorkspaceFoldersParams) -> None:
        for folder in params.event.removed:
            path = uri_to_path(folder.uri)
            if path is not None:
                ls.remove_project(path)
        for folder in params.event.added:
            path = uri_to_path(folder.uri)
            if path is not None and path.is_dir():
                ls.spawn(_index(ls, ls.add_project(path)))
