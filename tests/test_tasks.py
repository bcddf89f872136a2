"""CPU tier: the invoke tasks of tasks.py build the commands they should, and `invoke graph` installs nothing unless
asked (--install): with matplotlib missing it prints the pip command and exits 1."""
import importlib.util
import sys
from pathlib import Path

import pytest

pytest.importorskip("invoke")
from invoke import Exit, MockContext, Result  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import tasks  # noqa: E402


def context():
    return MockContext(run=Result())


@pytest.fixture
def without_matplotlib(monkeypatch):
    find_spec = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "matplotlib" else find_spec(name, *a))


def test_graph_installs_nothing_by_default_and_prints_the_pip_command(without_matplotlib):
    c = context()
    with pytest.raises(Exit) as raised:
        tasks.graph(c)
    assert raised.value.code == 1
    assert f"{tasks.PYTHON} -m pip install matplotlib" in raised.value.message
    assert "invoke graph --install" in raised.value.message
    c.run.assert_not_called()
    with pytest.raises(Exit):
        tasks.graph(c, no_install=True)  # the old spelling still refuses
    c.run.assert_not_called()


def test_graph_install_is_opt_in_and_off_in_the_help():
    install = next(argument for argument in tasks.graph.get_arguments() if argument.name == "install")
    assert install.default is False and "default: install nothing" in install.help


def test_graph_with_install_lets_the_module_install(without_matplotlib):
    c = context()
    tasks.graph(c, install=True, commit="main")
    command = c.run.call_args.args[0]
    assert "-m tools.graph --output docs/gflops.png --commit main" in command and command.endswith("--install")


def test_graph_with_matplotlib_present_never_installs(monkeypatch):
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: object())
    c = context()
    tasks.graph(c)
    assert c.run.call_args.args[0].endswith("--no-install")


def test_regressions_passes_its_options_on():
    c = context()
    tasks.regressions(c, "main~1", "main", threshold=0.05, machine="nvidia-h200", strict=True, exact=True)
    command = c.run.call_args.args[0]
    assert "-m tools.regressions 'main~1' main --results-dir" in command
    assert command.endswith("--threshold 0.05 --machine nvidia-h200 --strict --exact")


@pytest.mark.parametrize("check", [False, True])
def test_docs_writes_or_checks_the_tables_and_the_pictures(check):
    c = context()
    tasks.docs(c, check=check)
    commands = [call.args[0] for call in c.run.call_args_list]
    flag = " --check" if check else ""
    assert [command.split(" ", 1)[1] for command in commands] == [f"-m tools.doc_figures{flag}",
                                                                  f"-m tools.doc_pictures{flag}",
                                                                  f"docs/tutorial/ncu/summarize.py{flag}"]


def test_sanitize_runs_the_tool_as_a_module_with_its_options():
    c = context()
    tasks.sanitize(c, tools="memcheck", kernels="naive,best")
    assert c.run.call_args.args[0].split(" ", 1)[1] == "-m tools.sanitize --tools memcheck --kernels naive,best"
