"""Every test that starts a process carries the ``workflow`` mark, so that the quick loop
``uv run pytest -m "not workflow"`` never waits for Snakemake, ``python -m imlbench``, a shell
or R.

Nothing is imported: every file under ``tests/`` is parsed (``ast``). A function *starts a
process* when it calls ``subprocess`` (``run``, ``Popen``, ...), ``os.system``, ``os.popen``,
``os.exec*``/``os.spawn*`` or ``asyncio.create_subprocess_*``, or uses a function or a fixture
that does: one of its own module, of a ``conftest.py`` above it, or of a helper module of
``tests/`` (``workflow_runs.py``, ``broken_configs.py``, ...). Such a test must be marked
``workflow``: by a decorator, by its class, or by its module's ``pytestmark``. A test marked
``e2e`` or ``cluster`` must be marked ``workflow`` as well.
"""

from __future__ import annotations

import ast
import textwrap
from dataclasses import dataclass, field
from pathlib import Path

TESTS = Path(__file__).resolve().parent
MARK = "workflow"
#: marks of tests that always start Snakemake
IMPLY_WORKFLOW = {"e2e", "cluster"}

SUBPROCESS_CALLS = {"run", "Popen", "call", "check_call", "check_output", "getoutput",
                    "getstatusoutput"}
ASYNCIO_CALLS = {"create_subprocess_exec", "create_subprocess_shell"}


def _os_call(name: str) -> bool:
    return (name in {"system", "popen", "fork", "forkpty"}
            or name.startswith(("exec", "spawn", "posix_spawn")))


def _primitive(module: str, name: str) -> bool:
    """Whether ``module.name`` starts a process."""
    return ((module == "subprocess" and name in SUBPROCESS_CALLS)
            or (module == "os" and _os_call(name))
            or (module == "asyncio" and name in ASYNCIO_CALLS))


def _marks(exprs: list[ast.expr]) -> set[str]:
    """The names ``X`` of the ``pytest.mark.X`` / ``pytest.mark.X(...)`` among ``exprs``
    (decorators, or the items of a ``pytestmark``)."""
    out = set()
    for expr in exprs:
        if isinstance(expr, ast.Call):
            expr = expr.func
        if (isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Attribute)
                and expr.value.attr == "mark"):
            out.add(expr.attr)
    return out


def _pytestmark(body: list[ast.stmt]) -> set[str]:
    """The marks a module's or a class's ``pytestmark = ...`` gives."""
    out = set()
    for node in body:
        if (isinstance(node, ast.Assign)
                and any(isinstance(t, ast.Name) and t.id == "pytestmark" for t in node.targets)):
            value = node.value
            out |= _marks(list(value.elts) if isinstance(value, ast.List | ast.Tuple)
                          else [value])
    return out


def _is_fixture(fn: ast.FunctionDef) -> bool:
    return any("fixture" in ast.unparse(d) for d in fn.decorator_list)


def _used_fixtures(fn: ast.FunctionDef) -> set[str]:
    """The parameters of ``fn`` and the names in its ``pytest.mark.usefixtures(...)``."""
    args = fn.args
    out = {a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs]}
    for d in fn.decorator_list:
        if isinstance(d, ast.Call) and _marks([d]) == {"usefixtures"}:
            out |= {a.value for a in d.args if isinstance(a, ast.Constant)}
    return out


@dataclass
class Module:
    """One parsed file: its functions, what it imported, its module-level marks."""

    path: Path
    tree: ast.Module
    #: local name -> module name, for ``import x`` / ``import x as y``
    modules: dict[str, str] = field(default_factory=dict)
    #: local name -> (module, name), for ``from x import name``
    names: dict[str, tuple[str, str]] = field(default_factory=dict)
    #: module-level functions and the methods of module-level classes, by name
    functions: dict[str, ast.FunctionDef] = field(default_factory=dict)
    #: test name -> (function, marks of its class)
    tests: dict[str, tuple[ast.FunctionDef, set[str]]] = field(default_factory=dict)

    @classmethod
    def parse(cls, path: Path) -> Module:
        mod = cls(path, ast.parse(path.read_text(), str(path)))
        for node in ast.walk(mod.tree):
            if isinstance(node, ast.Import):
                for a in node.names:
                    mod.modules[a.asname or a.name.split(".")[0]] = a.name
            elif isinstance(node, ast.ImportFrom) and not node.level:
                for a in node.names:
                    mod.names[a.asname or a.name] = (node.module or "", a.name)
        for node in mod.tree.body:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                mod.functions[node.name] = node
                if node.name.startswith("test"):
                    mod.tests[node.name] = (node, set())
            elif isinstance(node, ast.ClassDef):
                marks = _marks(node.decorator_list) | _pytestmark(node.body)
                for item in node.body:
                    if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef):
                        mod.functions.setdefault(item.name, item)
                        if node.name.startswith("Test") and item.name.startswith("test"):
                            mod.tests[f"{node.name}::{item.name}"] = (item, marks)
        return mod

    def fixtures(self) -> set[str]:
        return {name for name, fn in self.functions.items() if _is_fixture(fn)}

    def starters(self, helpers: dict[str, set[str]], fixtures: set[str]) -> set[str]:
        """The names of this module's functions that start a process; ``helpers`` gives the
        starting functions of each helper module of ``tests/``, ``fixtures`` the starting
        fixtures of the ``conftest.py`` files above this module."""
        imported = {local for local, (module, name) in self.names.items()
                    if _primitive(module, name) or name in helpers.get(module, ())}
        own_fixtures = self.fixtures()
        found: set[str] = set()
        changed = True
        while changed:
            changed = False
            for name, fn in self.functions.items():
                if name in found:
                    continue
                uses = _used_fixtures(fn) & ((own_fixtures & found) | (fixtures - own_fixtures))
                if uses or self._calls(fn, imported | found, helpers):
                    found.add(name)
                    changed = True
        return found

    def _calls(self, fn: ast.FunctionDef, starters: set[str],
               helpers: dict[str, set[str]]) -> bool:
        for node in ast.walk(fn):
            if isinstance(node, ast.Name) and node.id in starters:
                return True
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
                module = self.modules.get(node.value.id)
                if module and (_primitive(module, node.attr)
                               or node.attr in helpers.get(module, ())):
                    return True
        return False


def _helpers(root: Path) -> dict[str, set[str]]:
    """The functions that start a process of each helper module (a ``.py`` file directly in
    ``root`` that is neither a test module nor a ``conftest.py``), by module name."""
    modules = {p.stem: Module.parse(p) for p in sorted(root.glob("*.py"))
               if not p.name.startswith("test_") and p.name != "conftest.py"}
    out: dict[str, set[str]] = {name: set() for name in modules}
    changed = True
    while changed:  # helpers may use one another
        changed = False
        for name, mod in modules.items():
            found = mod.starters(out, set())
            if found != out[name]:
                out[name] = found
                changed = True
    return out


def unmarked(root: Path) -> list[str]:
    """The tests under ``root`` that start a process and are not marked ``workflow``, and those
    marked ``e2e`` or ``cluster`` without it, as ``path::name``."""
    helpers = _helpers(root)
    conftest_fixtures: dict[Path, set[str]] = {}
    for path in sorted(root.rglob("conftest.py"), key=lambda p: len(p.parts)):
        mod = Module.parse(path)
        above = set().union(*(conftest_fixtures.get(d / "conftest.py", set())
                              for d in path.parent.parents))
        conftest_fixtures[path] = mod.starters(helpers, above) & mod.fixtures() | above
    out = []
    for path in sorted(root.rglob("test_*.py")):
        mod = Module.parse(path)
        fixtures = set().union(*(conftest_fixtures.get(d / "conftest.py", set())
                                 for d in path.parents))
        starters = mod.starters(helpers, fixtures)
        module_marks = _pytestmark(mod.tree.body)
        for name, (fn, class_marks) in mod.tests.items():
            marks = module_marks | class_marks | _marks(fn.decorator_list)
            starts = fn.name in starters or marks & IMPLY_WORKFLOW
            if starts and MARK not in marks:
                out.append(f"{path.relative_to(root)}::{name}")
    return out


def test_every_test_that_starts_a_process_is_marked_workflow():
    missing = unmarked(TESTS)
    assert not missing, (
        f"these tests start a process (Snakemake, python -m imlbench, a shell, ...) but are "
        f"not marked `{MARK}`: add `pytestmark = pytest.mark.{MARK}` to the module or "
        f"`@pytest.mark.{MARK}` to the test, so that `uv run pytest -m \"not {MARK}\"` stays "
        f"quick:\n  " + "\n  ".join(missing))


UNMARKED = '''
import os
import subprocess as sp

import pytest
from runner import snakemake, tail
from subprocess import check_output


def _helper():
    return sp.run(["true"])


@pytest.fixture
def started():
    return check_output(["true"])


@pytest.fixture
def indirect(started):
    return started


def test_direct():
    sp.Popen(["true"]).wait()


def test_through_a_helper():
    _helper()


def test_through_a_fixture(indirect):
    pass


def test_through_a_conftest_fixture(smoke):
    pass


def test_through_the_runner():
    snakemake("-n")


def test_os_system():
    os.system("true")


@pytest.mark.e2e
def test_e2e_only():
    pass


def test_quick(tmp_path):
    tail("no process")


class TestInAClass:
    def test_method(self):
        _helper()
'''

RUNNER = '''
import subprocess


def _run(*args):
    return subprocess.run(["snakemake", *args])


def snakemake(*args):
    return _run(*args)


def tail(res: subprocess.CompletedProcess) -> str:
    return str(res)
'''

CONFTEST = '''
import pytest
from runner import snakemake


@pytest.fixture
def smoke():
    return snakemake("--cores", "2")
'''


def _tree(tmp_path: Path, test_source: str) -> Path:
    """A tests folder: the test module in a subfolder, a runner helper, a conftest.py."""
    (tmp_path / "sub").mkdir(parents=True)
    (tmp_path / "runner.py").write_text(textwrap.dedent(RUNNER))
    (tmp_path / "conftest.py").write_text(textwrap.dedent(CONFTEST))
    (tmp_path / "sub" / "test_unmarked.py").write_text(test_source)
    return tmp_path


def test_the_check_finds_every_unmarked_test_that_starts_a_process(tmp_path):
    root = _tree(tmp_path, UNMARKED)
    assert unmarked(root) == [f"sub/test_unmarked.py::{name}" for name in [
        "test_direct", "test_through_a_helper", "test_through_a_fixture",
        "test_through_a_conftest_fixture", "test_through_the_runner", "test_os_system",
        "test_e2e_only", "TestInAClass::test_method",
    ]]


def test_the_check_accepts_a_module_mark_or_a_test_mark(tmp_path):
    marked = UNMARKED.replace("\nimport pytest\n", "\nimport pytest\n\npytestmark = "
                              "[pytest.mark.e2e, pytest.mark.workflow]\n")
    assert unmarked(_tree(tmp_path / "module", marked)) == []
    per_test = UNMARKED.replace("\ndef test_", "\n@pytest.mark.workflow\ndef test_").replace(
        "\nclass TestInAClass", "\n@pytest.mark.workflow\nclass TestInAClass")
    assert unmarked(_tree(tmp_path / "test", per_test)) == []
