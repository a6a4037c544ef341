"""Benchmark corpora and peer tools: fetch them when absent, and say where they are.

Corpora are real projects unpacked under tests/bench/.data/projects/<name>/, each holding
only the package directory (so "every *.py under the root" is "every module of the
package"): sympy, django and rich from their PyPI sdists, rxjs (TypeScript sources) from
its npm tarball. flask and click keep their sdist's `src/<package>/` beside its `tests/`
(PYTHON_MEMBERS): the tests import the package from another source root (`src/`), as in
a clone of the project. npm peers (pyright, typescript 5 — the last line with the JS language
service API) live under tests/bench/.tools/. Run directly to fetch everything:
`.venv/bin/python tests/bench/bench_data.py`. Must not know: agentls.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent.parent
DATA = BENCH / ".data"
TOOLS = BENCH / ".tools"
RESULTS = BENCH / "results"
PROJECTS = DATA / "projects"
SDISTS = DATA / "sdist"
VENV_BIN = Path(sys.executable).parent

# name -> (PyPI requirement, package directory inside the sdist)
PYTHON_PROJECTS: dict[str, tuple[str, str]] = {
    "sympy": ("sympy==1.13.3", "sympy"),
    "django": ("django==5.1.4", "django"),
    "rich": ("rich==13.9.4", "rich"),
    "flask": ("flask==3.1.0", "flask"),
    "click": ("click==8.1.8", "click"),
}
# name -> the sdist's members kept (default: the package directory alone); the first one
# holds the package, and its parent folder is a source root
PYTHON_MEMBERS: dict[str, tuple[str, ...]] = {
    "flask": ("src/flask", "tests"),
    "click": ("src/click", "tests"),
}
TS_PROJECT = ("rxjs", "7.8.2")  # npm package shipping its .ts sources in src/
NPM_PEERS = ("pyright@1.1.414", "typescript@5.9.3")


def _log(msg: str) -> None:
    print(f"[bench_data] {msg}", file=sys.stderr, flush=True)


def _sdist(requirement: str) -> Path:
    name, version = requirement.split("==")
    stem = f"{name}-{version}".lower()
    for found in sorted(SDISTS.glob("*.tar.gz")) if SDISTS.exists() else []:
        if found.name.lower() == f"{stem}.tar.gz":
            return found
    SDISTS.mkdir(parents=True, exist_ok=True)
    _log(f"pip download {requirement}")
    cmd = [str(VENV_BIN / "pip"), "download", "--no-deps", "--no-binary", ":all:"]
    subprocess.run([*cmd, requirement, "-d", str(SDISTS)], check=True)
    return _sdist(requirement)


def _extract(archive: Path, member_prefixes: tuple[str, ...], dest: Path) -> None:
    """Extract members under `<top>/<prefix>` of a tarball into dest (atomically); an
    empty prefix takes everything under `<top>/`."""
    tmp = dest.with_name(dest.name + ".partial")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    with tarfile.open(archive) as tar:
        members = []
        for m in tar.getmembers():
            parts = m.name.split("/", 1)
            if len(parts) == 2 and parts[1] and any(
                not prefix or parts[1] == prefix or parts[1].startswith(prefix + "/")
                for prefix in member_prefixes
            ):
                m.name = parts[1]
                members.append(m)
        if not members:
            raise RuntimeError(f"{archive}: nothing under {member_prefixes!r}")
        tar.extractall(tmp, members=members, filter="data")
    shutil.rmtree(dest, ignore_errors=True)
    tmp.rename(dest)


def python_project(name: str) -> Path:
    """The root of an unpacked Python project (its package directory, or PYTHON_MEMBERS)."""
    requirement, package = PYTHON_PROJECTS[name]
    members = PYTHON_MEMBERS.get(name, (package,))
    root = PROJECTS / name
    if not (root / members[0] / "__init__.py").exists():
        _extract(_sdist(requirement), members, root)
    return root


def python_source_roots(name: str) -> list[Path]:
    """The folders a tool must put on its import path to see the project's modules."""
    root = python_project(name)
    package_dir = root / PYTHON_MEMBERS.get(name, (PYTHON_PROJECTS[name][1],))[0]
    return list(dict.fromkeys([root, package_dir.parent]))


def whole_sdist(requirement: str) -> Path:
    """The root of a PyPI sdist unpacked whole (package, tests, docs, bin/, setup.py...), as
    a user who clones the project opens it: `.data/projects/<name>-<version>/`."""
    name, version = requirement.split("==")
    root = PROJECTS / f"{name}-{version}"
    if not ((root / "setup.py").exists() or (root / "pyproject.toml").exists()):
        _extract(_sdist(requirement), ("",), root)
    return root


def ts_project() -> Path:
    """The root of the TypeScript project: the package's tsconfig.json plus src/."""
    name, version = TS_PROJECT
    root = PROJECTS / name
    if (root / "src" / "index.ts").exists():
        return root
    DATA.mkdir(parents=True, exist_ok=True)
    tgz = DATA / f"{name}-{version}.tgz"
    if not tgz.exists():
        _log(f"npm pack {name}@{version}")
        subprocess.run(["npm", "pack", f"{name}@{version}", "--silent"], cwd=DATA, check=True)
    tmp = root.with_name(root.name + ".partial")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    with tarfile.open(tgz) as tar:
        keep = [
            m
            for m in tar.getmembers()
            if m.name in ("package/tsconfig.json",) or m.name.startswith("package/src/")
        ]
        for m in keep:
            m.name = m.name.removeprefix("package/")
        tar.extractall(tmp, members=keep, filter="data")
    shutil.rmtree(root, ignore_errors=True)
    tmp.rename(root)
    return root


def npm_bin(tool: str) -> Path:
    """Path of an npm peer's executable (installs the peers when absent)."""
    exe = TOOLS / "node_modules" / ".bin" / tool
    ts_api = TOOLS / "node_modules" / "typescript" / "lib" / "typescript.js"
    if not exe.exists() or not ts_api.exists():
        TOOLS.mkdir(parents=True, exist_ok=True)
        _log(f"npm install {' '.join(NPM_PEERS)}")
        subprocess.run(["npm", "install", "--prefix", str(TOOLS), *NPM_PEERS], check=True)
    return exe


def agentls_command() -> Path:
    return VENV_BIN / "agentls"


def source_files(root: Path, suffix: str) -> list[Path]:
    """Every file with the suffix under root, sorted (no ignore rules)."""
    out: list[Path] = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()
        out.extend(Path(dirpath) / f for f in sorted(filenames) if f.endswith(suffix))
    return out


def main() -> None:
    for name in PYTHON_PROJECTS:
        root = python_project(name)
        print(f"{name}: {root} ({len(source_files(root, '.py'))} .py files)")
    root = ts_project()
    print(f"rxjs: {root} ({len(source_files(root, '.ts'))} .ts files)")
    for tool in ("pyright-langserver", "tsc"):
        print(f"{tool}: {npm_bin(tool)}")


if __name__ == "__main__":
    main()
