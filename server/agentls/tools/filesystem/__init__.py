"""Filesystem tools: read, list, search, and propose writes and edits."""

from agentls.tools.filesystem.edit_file import EditFile
from agentls.tools.filesystem.list_directory import ListDirectory
from agentls.tools.filesystem.read_file import ReadFile
from agentls.tools.filesystem.search_files import SearchFiles
from agentls.tools.filesystem.write_file import WriteFile

TOOLS = [ReadFile, ListDirectory, SearchFiles, WriteFile, EditFile]

__all__ = ["TOOLS", "EditFile", "ListDirectory", "ReadFile", "SearchFiles", "WriteFile"]
