"""Escape attempts against each real sandbox backend: writes and reads outside the
workspace, the home directory, private system files, the network (a loopback server),
other processes, /proc tricks, symlinks planted in the workspace, setuid binaries,
capabilities and the root remount. Each one must be blocked.

The backends: bubblewrap (chosen explicitly) and Landlock (bubblewrap hidden from PATH,
`auto` must then pick Landlock). With neither, see test_no_backend.py.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import threading
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from agentls.tools import sandbox
from agentls.tools.base import ToolContext
from agentls.tools.permissions import PermissionSet
from agentls.tools.sandbox import SandboxConfig, bubblewrap_status, landlock_status, run_process
from agentls.workspace import Workspace

PY = sys.executable
needs_bwrap = pytest.mark.skipif(bubblewrap_status()[0] is None, reason=f"bubblewrap unusable here: {bubblewrap_status()[1]}")
needs_landlock = pytest.mark.skipif(
    not landlock_status()[0], reason=f"Landlock unusable here: {landlock_status()[1]}"
)
Run = Callable[[str], "sandbox.ProcessResult"]


def path_without_bwrap(bin_dir: Path) -> str:
    """A PATH whose one folder links every program on ours except bwrap."""
    bin_dir.mkdir()
    for folder in os.environ.get("PATH", os.defpath).split(os.pathsep):
        if not os.path.isdir(folder):
            continue
        for name in os.listdir(folder):
            link = bin_dir / name
            if name != "bwrap" and not link.exists() and not link.is_symlink():
                link.symlink_to(os.path.join(folder, name))
    return str(bin_dir)


@pytest.fixture(
    params=[
        pytest.param("bubblewrap", marks=needs_bwrap),
        pytest.param("landlock", marks=needs_landlock),
    ]
)
def backend(
    request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[SandboxConfig]:
    if request.param == "bubblewrap":
        yield SandboxConfig(kind="bubblewrap")
        return
    monkeypatch.setenv("PATH", path_without_bwrap(tmp_path / "bin"))
    sandbox.bubblewrap_status.cache_clear()
    try:
        config = SandboxConfig(kind="auto")
        assert config.kind == "landlock", config.describe()
        yield config
    finally:
        sandbox.bubblewrap_status.cache_clear()


@pytest.fixture
def place(tmp_path: Path) -> dict[str, Path]:
    ws, outside = tmp_path / "ws", tmp_path / "outside"
    ws.mkdir()
    outside.mkdir()
    (outside / "secret.txt").write_text("TOP-SECRET-OUTSIDE")
    (ws / "own.txt").write_text("mine")
    return {"ws": ws.resolve(), "outside": outside.resolve()}


@pytest.fixture
def run(backend: SandboxConfig, place: dict[str, Path]) -> Run:
    ctx = ToolContext(
        workspace=Workspace(place["ws"]),
        permissions=PermissionSet.for_mode("full"),
        sandbox=backend,
    )
    return lambda command: run_process(command, place["ws"], 30, ctx)


def output(result: sandbox.ProcessResult) -> str:
    return result.stdout + result.stderr


def test_the_workspace_itself_works(run: Run, place: dict[str, Path]) -> None:
    result = run("echo hi > made.txt && cat own.txt made.txt && ls /usr/bin/env")
    assert result.exit_code == 0, output(result)
    assert (place["ws"] / "made.txt").read_text() == "hi\n"


def test_writes_outside_are_blocked(run: Run, place: dict[str, Path]) -> None:
    outside = place["outside"]
    run(
        f"touch {outside}/pwned; echo x > {outside}/secret.txt; mkdir {outside}/d; rm {outside}/secret.txt"
    )
    name = f"pwned-agentls-{uuid.uuid4().hex[:8]}"
    system = [Path(folder) / name for folder in ("/usr", "/etc", "/tmp")]
    try:
        run("; ".join(f"touch {path}" for path in system))
        written = [str(path) for path in system if path.exists()]
    finally:  # a broken sandbox must not leave litter on the machine
        for path in system:
            path.unlink(missing_ok=True)
    assert written == []
    assert sorted(p.name for p in outside.iterdir()) == ["secret.txt"]
    assert (outside / "secret.txt").read_text() == "TOP-SECRET-OUTSIDE"


def test_reads_outside_are_blocked(run: Run, place: dict[str, Path]) -> None:
    result = run(f"cat {place['outside']}/secret.txt; ls {place['outside']}")
    assert "TOP-SECRET" not in output(result) and "secret.txt" not in result.stdout


@pytest.fixture
def home_secret() -> Iterator[Path]:
    home = Path(os.path.expanduser("~")).resolve()
    secret = home / f".agentls-escape-test-{uuid.uuid4().hex[:8]}"
    secret.write_text("TOP-SECRET-HOME")
    try:
        yield secret
    finally:
        secret.unlink(missing_ok=True)


def test_the_home_directory_is_hidden(run: Run, home_secret: Path) -> None:
    result = run(f"cat {home_secret}; ls -a {home_secret.parent}; echo HOME=$HOME")
    assert "TOP-SECRET-HOME" not in output(result) and home_secret.name not in result.stdout
    assert f"HOME={home_secret.parent}\n" not in result.stdout


def test_private_system_files_are_hidden(run: Run) -> None:
    private = [
        os.path.join(d, f)
        for d, _, files in os.walk("/etc")
        for f in files
        if os.path.isfile(os.path.join(d, f))
        and not os.stat(os.path.join(d, f)).st_mode & 0o004
        and os.path.getsize(os.path.join(d, f)) > 0
    ]
    if not private:
        pytest.skip("no private file in /etc here")
    result = run(f"cat {private[0]} | wc -c")
    assert result.stdout.strip() == "0", f"{private[0]} was readable"


@pytest.fixture
def loopback_server() -> Iterator[tuple[int, list[int]]]:
    server = socket.create_server(("127.0.0.1", 0))
    server.settimeout(0.2)
    accepted: list[int] = []
    stop = threading.Event()

    def serve() -> None:
        while not stop.is_set():
            try:
                conn, _ = server.accept()
            except OSError:
                continue
            accepted.append(1)
            conn.close()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield server.getsockname()[1], accepted
    finally:
        stop.set()
        thread.join(2)
        server.close()


def test_the_network_is_off(run: Run, loopback_server: tuple[int, list[int]]) -> None:
    port, accepted = loopback_server
    probe = f"import socket; socket.create_connection(('127.0.0.1', {port}), timeout=3); print('CONNECTED')"
    result = run(f'{PY} -c "{probe}"')
    assert "CONNECTED" not in result.stdout and result.exit_code != 0
    bind = (
        "import socket; s=socket.socket(); s.bind(('127.0.0.1', 0)); s.listen(); print('LISTENING')"
    )
    run(f'{PY} -c "{bind}"')  # bound or not, nothing outside can reach it: no assertion on it
    assert accepted == []


@pytest.fixture
def host_process() -> Iterator[subprocess.Popen[bytes]]:
    env = {**os.environ, "AGENTLS_ESCAPE_SECRET": "TOP-SECRET-ENV"}
    proc = subprocess.Popen(["sleep", "60"], env=env)
    try:
        yield proc
    finally:
        proc.kill()
        proc.wait()


def test_other_processes_are_out_of_reach(
    run: Run, backend: SandboxConfig, host_process: subprocess.Popen[bytes]
) -> None:
    pid = host_process.pid
    result = run(
        f"cat /proc/{pid}/environ; ls /proc/{pid}/root/ /proc/{pid}/cwd/; "
        f"cat /proc/{pid}/root/proc/self/environ; kill -9 {pid}; kill -STOP {pid}; "
        "echo PIDS; ls /proc | grep -E '^[0-9]+$' | tr '\\n' ' '; cat /proc/*/cmdline | tr '\\0' ' '"
    )
    assert "TOP-SECRET-ENV" not in output(result)
    if backend.kind == "bubblewrap" or os.geteuid() == 0:  # Landlock: own PID namespace as root
        listed = result.stdout.split("PIDS\n", 1)[1]
        assert str(pid) not in listed.split() and "sleep 60" not in listed, listed
    assert host_process.poll() is None, "the sandboxed command killed a process outside"
    with open(f"/proc/{pid}/stat") as fh:
        assert fh.read().split(") ")[1][0] != "T", "the sandboxed command stopped a process outside"


def test_proc_tricks_do_not_reach_outside(run: Run, place: dict[str, Path]) -> None:
    secret = place["outside"] / "secret.txt"
    result = run(
        f"cat /proc/self/root{secret} /proc/1/root{secret} /proc/$$/root{secret}; "
        f"cat /proc/1/environ | tr '\\0' '\\n' | grep SECRET; ls /proc/1/cwd/"
    )
    assert "TOP-SECRET" not in output(result)


def test_symlinks_planted_in_the_workspace_do_not_lead_out(
    run: Run, place: dict[str, Path]
) -> None:
    (place["ws"] / "escape").symlink_to(place["outside"], target_is_directory=True)
    (place["ws"] / "secret-link").symlink_to(place["outside"] / "secret.txt")
    result = run("cat escape/secret.txt secret-link; echo x > escape/pwned; echo y >> secret-link")
    assert "TOP-SECRET" not in output(result)
    assert sorted(p.name for p in place["outside"].iterdir()) == ["secret.txt"]
    assert (place["outside"] / "secret.txt").read_text() == "TOP-SECRET-OUTSIDE"


def _status(text: str) -> dict[str, str]:
    return dict(line.split(":\t", 1) for line in text.splitlines() if ":\t" in line)


def test_no_capabilities_and_no_setuid_gain(run: Run, place: dict[str, Path]) -> None:
    own = _status(run("cat /proc/self/status").stdout)
    assert (own["CapEff"], own["CapPrm"], own["CapBnd"], own["NoNewPrivs"]) == (
        "0000000000000000", "0000000000000000", "0000000000000000", "1",
    )  # fmt: skip
    setuid_cat = place["ws"] / "cat"
    shutil.copy("/bin/cat", setuid_cat)
    setuid_cat.chmod(0o4755)  # owned by whoever runs the tests: root in CI
    gained = _status(run("./cat /proc/self/status").stdout)
    assert (gained["CapEff"], gained["Uid"].split()) == ("0000000000000000", own["Uid"].split())


def test_root_cannot_remount_the_system_writable(run: Run) -> None:
    marker = f"/usr/agentls-remount-{uuid.uuid4().hex[:8]}"
    result = run(
        f"mount -o remount,bind,rw /usr; mount -o remount,rw /; touch {marker}; "
        "unshare -U -r sh -c 'mount -o remount,bind,rw /usr && touch " + marker + "'; echo tried"
    )
    wrote = os.path.exists(marker)
    Path(marker).unlink(missing_ok=True)  # a broken sandbox must not leave litter
    assert "tried" in result.stdout
    assert not wrote, "the command wrote into /usr"
