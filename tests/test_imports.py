"""The package's import graph: no cycles, every module importable on its own,
and the command line's modules light until a command runs."""

import ast
import pathlib
import subprocess
import sys

import pytest

import seminaive

ROOT = pathlib.Path(seminaive.__file__).parent


def _modules():
    out = {}
    for path in sorted(ROOT.rglob("*.py")):
        parts = path.relative_to(ROOT.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        out[name] = path
    return out


def _resolve(module, is_package, node, known):
    """Modules of the package that one module-level import statement names."""
    if isinstance(node, ast.Import):
        return [a.name for a in node.names if a.name in known]
    base = module if is_package else module.rpartition(".")[0]
    for _ in range(node.level - 1):
        base = base.rpartition(".")[0]
    target = (base + "." + node.module if node.module else base) if node.level else node.module
    got = []
    for a in node.names:
        sub = f"{target}.{a.name}"
        if sub in known:
            got.append(sub)
        elif target in known:
            got.append(target)
    return got


def import_graph(deferred=False):
    """``{module: set of package modules it imports}``: at module level, or with
    ``deferred`` also inside functions (a cycle there is hidden, not absent)."""
    known = _modules()
    graph = {}
    for name, path in known.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        edges = set()
        for node in (ast.walk(tree) if deferred else tree.body):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                edges.update(_resolve(name, path.name == "__init__.py", node, known))
        graph[name] = edges - {name}
    return graph


def _cycle(graph):
    state, stack = {}, []

    def visit(v):
        state[v] = "open"
        stack.append(v)
        for w in sorted(graph[v]):
            if state.get(w) == "open":
                return stack[stack.index(w):] + [w]
            if w not in state:
                found = visit(w)
                if found:
                    return found
        stack.pop()
        state[v] = "done"
        return None

    for v in sorted(graph):
        if v not in state:
            found = visit(v)
            if found:
                return found
    return None


def test_the_graph_is_read_correctly():
    graph = import_graph()
    assert "seminaive.components.gaussian" in graph["seminaive.naive_bayes"] or \
        "seminaive.components" in graph["seminaive.naive_bayes"]
    assert "seminaive.registry" in graph["seminaive.persistence"]
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]


@pytest.mark.parametrize("deferred", [False, True], ids=["module level", "with deferred imports"])
def test_no_import_cycle(deferred):
    cycle = _cycle(import_graph(deferred))
    assert cycle is None, " -> ".join(cycle)


def test_persistence_imports_no_model():
    """Models join the registry; the model file reader does not import them."""
    graph = import_graph()
    models = {"seminaive.naive_bayes", "seminaive.search", "seminaive.constrained", "seminaive.rules"}
    assert not (graph["seminaive.persistence"] & models)


def test_every_module_imports_on_its_own():
    """In a fresh interpreter, each module imported first (the package forgotten before each)."""
    names = sorted(_modules())
    code = ("import importlib, sys\n"
            f"for name in {names!r}:\n"
            "    for k in [k for k in sys.modules if k == 'seminaive' or k.startswith('seminaive.')]:\n"
            "        del sys.modules[k]\n"
            "    importlib.import_module(name)\n"
            "print('ok', len(" + repr(names) + "))\n")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0 and run.stdout.startswith("ok"), run.stderr[-2000:]


def test_help_imports_nothing_heavy():
    """``seminaive --help`` and every subcommand's help build without scikit-learn, pandas, matplotlib (or numpy)."""
    code = ("import sys\n"
            "from seminaive.cli.main import SUBCOMMANDS, build_parser\n"
            "import io, contextlib\n"
            "for argv in [['--help']] + [[m.__name__.rsplit('.', 1)[1], '--help'] for m in SUBCOMMANDS]:\n"
            "    with contextlib.redirect_stdout(io.StringIO()):\n"
            "        try:\n"
            "            build_parser().parse_args(argv)\n"
            "        except SystemExit:\n"
            "            pass\n"
            "print(sorted({m.split('.')[0] for m in sys.modules} & {'sklearn', 'pandas', 'matplotlib', 'numpy'}))\n")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0 and run.stdout.strip() == "[]", run.stdout + run.stderr[-2000:]


def test_a_naive_bayes_fit_of_a_csv_loads_no_compiled_loop_or_parquet_reader(tmp_path):
    """What a process loads is what its command needs: fitting Naive Bayes on a CSV file runs no
    compiled loop (numba's start costs a new process a quarter of a second) and reads no Parquet."""
    data = tmp_path / "small.csv"
    data.write_text("a,x,class\n" + "".join(f"{'uv'[i % 2]},{i * 0.5},{'pn'[i % 3 == 0]}\n" for i in range(30)))
    code = ("import sys\n"
            "from seminaive.cli.main import main\n"
            f"assert main(['fit', {str(data)!r}, '-m', {str(tmp_path / 'm.json')!r}]) == 0\n"
            "print(sorted({'numba', 'pyarrow.parquet'} & set(sys.modules)))\n")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0 and run.stdout.splitlines()[-1] == "[]", run.stdout + run.stderr[-2000:]
    assert "Naive Bayes: 2 attributes, 2 classes, 30 training instances" in run.stdout


def test_the_catalog_is_the_registry():
    """seminaive/_catalog.py (the names --help shows without importing a model) is what the registry
    writes today: run scripts/write_catalog.py after adding or renaming a name."""
    import pathlib
    from seminaive import _catalog
    from seminaive.registry import catalog_text
    assert pathlib.Path(_catalog.__file__).read_text(encoding="utf-8") == catalog_text()


def test_the_command_lines_names_are_the_registrys():
    """The command line's names are the catalog's (which the test above holds equal to the registry)."""
    from seminaive import _catalog, _names
    assert _names.MODEL_NAMES == _catalog.MODELS
    assert _names.SEARCH_NAMES == tuple(_catalog.SEARCHES)
    assert _names.COMPARE_NAMES == tuple(_catalog.COMPARE)
    assert _names.NUMERIC_MODELS == ("gaussian", "kernel") + tuple(_catalog.DISCRETIZERS)
    assert _names.ESTIMATIONS == tuple(_catalog.ESTIMATIONS)
