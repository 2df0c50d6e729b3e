"""The package's layers: no module of the package imported inside a function
outside the command line (so the import graph shows every dependency), no
import cycle even counting such imports, no module over 400 lines."""

import ast
import itertools
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1] / "src" / "seminaive"


def _name(path):
    parts = ["seminaive", *path.relative_to(ROOT).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_name(p): p for p in ROOT.rglob("*.py")}


def _target(module, node):
    """The absolute module an ``import``/``from ... import`` names (None outside the package)."""
    if isinstance(node, ast.Import):
        return [a.name for a in node.names if a.name.split(".")[0] == "seminaive"]
    if node.level == 0:
        base = node.module or ""
    else:
        pkg = module.split(".") if MODULES[module].name == "__init__.py" else module.split(".")[:-1]
        base = ".".join(pkg[:len(pkg) - node.level + 1] + ([node.module] if node.module else []))
    if base.split(".")[0] != "seminaive":
        return []
    return [base] + [f"{base}.{a.name}" for a in node.names if f"{base}.{a.name}" in MODULES]


def import_graph():
    """Module -> the package's modules importing it runs (each package on the way included), counting
    imports anywhere in the module, inside functions too."""
    graph = {m: set() for m in MODULES}
    for m, path in MODULES.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, (ast.Import, ast.ImportFrom)):
                continue
            for t in _target(m, node):
                parts = t.split(".")
                for i in range(2, len(parts) + 1):
                    step = ".".join(parts[:i])
                    if step in MODULES and step != m and not m.startswith(step + "."):  # its own packages run first
                        graph[m].add(step)
    return graph


def strongly_connected(graph):
    """Tarjan's components of more than one module (the cycles)."""
    index, low, stack, on, out, counter = {}, {}, [], set(), [], itertools.count()

    def visit(v):
        index[v] = low[v] = next(counter)
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_no_module_of_the_package_is_imported_inside_a_function_outside_the_command_line():
    found = []
    for m, path in MODULES.items():
        if m.startswith("seminaive.cli"):
            continue  # the command line imports what a subcommand needs when it runs (--help stays instant)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                found += [f"{m}:{sub.lineno}" for sub in ast.walk(node)
                          if isinstance(sub, (ast.Import, ast.ImportFrom)) and _target(m, sub)]
    assert not found, found


def test_no_import_cycle_even_through_deferred_imports():
    assert strongly_connected(import_graph()) == []


def test_the_cycle_finder_sees_a_cycle():
    graph = import_graph()
    graph["seminaive.naive_bayes"] = graph["seminaive.naive_bayes"] | {"seminaive.calibration"}
    assert any("seminaive.naive_bayes" in c for c in strongly_connected(graph))


def test_no_module_over_400_lines():
    long = {m: n for m, p in MODULES.items() if (n := len(p.read_text(encoding="utf-8").splitlines())) > 400}
    assert not long, long


def test_scikit_learns_parameter_validation_is_not_misled():
    """scikit-learn reads ``_parameter_constraints`` in its own format (``_validate_params``, its
    estimator checks): the package's rules live under another name, so that its validation runs
    and finds nothing of ours to misread."""
    from seminaive.models import PEERS, make_model, model_names
    names = sorted((set(model_names("model")) | set(model_names("search"))) - set(PEERS))
    assert len(names) > 10
    for name in names:
        model = make_model(name)
        assert model._parameter_constraints == {} and isinstance(model._param_rules, dict), name
        model._validate_params()  # raised "Unknown constraint type: kind" when the names were shared


def _registers(path):
    """Whether a module registers a model or a name when it is imported (``@register``,
    ``register_variant(...)`` at its top level or in a class body's decorators)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in tree.body:
        decorated = getattr(node, "decorator_list", [])
        if any(isinstance(d, ast.Name) and d.id == "register" for d in decorated):
            return True
        for sub in ast.walk(node):
            if isinstance(sub, ast.Call) and isinstance(sub.func, ast.Name) and sub.func.id == "register_variant" \
                    and not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                return True
    return False


def test_the_registry_loads_every_module_that_registers():
    """The registry imports its providers by name (``registry._PROVIDERS``) and each module of a provider
    package, which no import statement shows: every provider is a module of the package, and every module
    that registers a model or a name is reached from them (else a name would exist only when something
    else happened to import its module first). A module added to a provider package registers without
    being listed: the registry finds it."""
    from seminaive import registry
    from seminaive.registry import _PROVIDERS
    assert _unreached(_PROVIDERS) == []
    assert "seminaive.bayesnet.eskdb" in _unreached(tuple(p for p in _PROVIDERS if p != "seminaive.bayesnet"))
    registry._load()
    assert set(_modules_under(_PROVIDERS)) <= set(sys.modules)  # what the layer test counts, the registry loads


def _modules_under(providers):
    """The modules of the provider packages, one level down (as the registry imports them)."""
    return [m for m in MODULES for p in providers if m.startswith(p + ".") and "." not in m[len(p) + 1:]]


def _unreached(providers):
    """The modules that register something but are not imported by loading ``providers``."""
    graph = import_graph()
    assert set(providers) <= set(MODULES), set(providers) - set(MODULES)
    reached, todo = set(), list(providers) + _modules_under(providers)
    while todo:
        m = todo.pop()
        if m not in reached:
            reached.add(m)
            todo += graph[m]
    registering = {m for m, p in MODULES.items() if m != "seminaive.registry" and _registers(p)}
    assert len(registering) > 10
    return sorted(registering - reached)
