"""The code's structure: the library's imports form no cycle and never reach Gradio, no file edits
sys.path, every CLI decoding default is DecodeConfig's, and the README's test command is CI's."""
import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LIBRARY = ROOT / "wedlm"


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported_modules(source: str, name: str, is_package: bool, modules: set[str]) -> set[str]:
    """Every module a file imports, at any depth (top of file or inside a function)."""
    package = name if is_package else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1] + ([base] if base else []))
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names
                         if f"{base}.{alias.name}" in modules)  # `from . import x` names a module
    return found


def library_graph() -> dict[str, set[str]]:
    files = {module_name(p): p for p in LIBRARY.rglob("*.py")}
    return {name: imported_modules(path.read_text(encoding="utf-8"), name, path.name == "__init__.py",
                                   set(files)) for name, path in files.items()}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle (as a path of module names), or None; depth-first with colours."""
    state: dict[str, int] = {}  # 1 = on the current path, 2 = done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph[node] & graph.keys()):
            if state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            if nxt not in state and (cycle := visit(nxt)):
                return cycle
        path.pop()
        state[node] = 2
        return None

    for start in sorted(graph):
        if start not in state and (cycle := visit(start)):
            return cycle
    return None


def test_the_cycle_finder_sees_function_level_and_relative_imports():
    graph = {"wedlm.a": {"wedlm.b"}, "wedlm.b": {"wedlm.c"}, "wedlm.c": {"wedlm.a"}, "wedlm.d": set()}
    assert find_cycle(graph) == ["wedlm.a", "wedlm.b", "wedlm.c", "wedlm.a"]
    assert find_cycle({"wedlm.a": {"wedlm.b"}, "wedlm.b": set()}) is None
    source = "import torch\ndef f():\n    from ..y import z\n    from . import w\n"
    assert imported_modules(source, "wedlm.sub.x", False, {"wedlm.sub.w", "wedlm.y"}) == \
        {"torch", "wedlm.y", "wedlm.sub", "wedlm.sub.w"}
    assert imported_modules("from .config import K\n", "wedlm", True, set()) == {"wedlm.config"}


def test_the_library_has_no_import_cycle():
    """Function-level imports included: train -> card/evaluate -> train is gone (install.py)."""
    graph = library_graph()
    assert {"wedlm.cli", "wedlm.decoders.core", "wedlm.training.train", "wedlm.training.install"} <= graph.keys()
    cycle = find_cycle(graph)
    assert cycle is None, "import cycle: " + " -> ".join(cycle)


def test_the_library_never_imports_gradio():
    for name, imports in library_graph().items():
        assert not {m for m in imports if m.split(".")[0] in ("gradio", "gradio_client", "app")}, name


def test_the_views_never_import_the_tabs():
    """Imports run one way: the tabs (the tour's chapters) use the views, never the reverse. Chapter 2's
    label choice (charts.named_positions) lives in the views because the Decode tab draws its chart too."""
    views = ROOT / "app" / "views"
    files = {module_name(p): p for p in (ROOT / "app").rglob("*.py")}
    offenders = {name: sorted(m for m in imported_modules(path.read_text(encoding="utf-8"), name,
                                                          path.name == "__init__.py", set(files))
                              if m == "app.tabs" or m.startswith("app.tabs."))
                 for name, path in files.items() if views in path.parents}
    assert "app.views.charts" in offenders and not any(offenders.values()), offenders
    assert imported_modules("from ..tabs.tour import ch2_fill_rule\n", "app.views.charts", False,
                            set(files)) >= {"app.tabs.tour.ch2_fill_rule"}   # the check sees a relative import


def test_no_file_edits_sys_path():
    offenders = [str(p.relative_to(ROOT)) for p in ROOT.rglob("*.py")
                 if ".venv" not in p.parts and re.search(r"sys\.path\.(insert|append)|sys\.path\s*=",
                                                          p.read_text(encoding="utf-8"))]
    assert offenders == []


@pytest.mark.parametrize("command", ["generate", "bench"])
def test_cli_decoding_defaults_are_decode_config_defaults(command):
    from wedlm.cli import build_parser
    from wedlm.config import DEFAULTS, KNOBS
    parser = build_parser()
    args = parser.parse_args([command, "a prompt"] if command == "generate" else [command])
    knobs = {k: v for k, v in vars(args).items() if k in KNOBS}
    assert {"window", "threshold", "penalty", "max_new_tokens"} <= knobs.keys()
    if command == "generate":
        assert knobs.keys() == KNOBS.keys()  # every DecodeConfig field is an option
    assert knobs == {k: DEFAULTS[k] for k in knobs}
    # and the help states each knob's help text from its Knob
    sub = next(a for a in parser._subparsers._group_actions[0].choices.items() if a[0] == command)[1]
    helps = {a.dest: a.help for a in sub._actions}
    assert all(KNOBS[k].help in helps[k] for k in knobs)


def test_readme_test_command_is_what_ci_runs():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```bash\n(.*?)\n```", readme, re.S)
    test_command = next(b for b in blocks if "pytest" in b)
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").strip().splitlines()
    assert ci[-1] == test_command
    assert len(readme.splitlines()) <= 250
