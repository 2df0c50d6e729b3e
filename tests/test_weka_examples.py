"""Every ARFF file Weka ships (Debian's weka package, which CI installs) through fit, evaluate and show:
a model or one clear line naming the file, never a traceback (scripts/weka_examples.py prints the table)."""

import importlib.util
import pathlib
import re

import pytest

SCRIPT = pathlib.Path(__file__).parents[1] / "scripts" / "weka_examples.py"
spec = importlib.util.spec_from_file_location("weka_examples", SCRIPT)
weka_examples = importlib.util.module_from_spec(spec)
spec.loader.exec_module(weka_examples)

FILES = weka_examples.weka_arff_files()
# what the files hold that no classifier here takes: free text (string attributes), a numeric class
REFUSED = {"ReutersCorn-test.arff": "is a string attribute", "ReutersCorn-train.arff": "is a string attribute",
           "ReutersGrain-test.arff": "is a string attribute", "ReutersGrain-train.arff": "is a string attribute",
           "cpu.arff": "the class column 'class' is declared numeric",
           "cpu.with.vendor.arff": "the class column 'class' is declared numeric"}


def test_weka_is_there_or_said():
    if not FILES:
        pytest.skip("Debian's weka package is not installed here (CI installs it: apt-get install weka)")
    assert len(FILES) >= 20


@pytest.mark.parametrize("path", FILES, ids=lambda p: pathlib.Path(p).name)
@pytest.mark.parametrize("command", [["fit"], ["evaluate", "--cv", "3"], ["show"], ["fit", "--model", "tan"]],
                         ids=" ".join)
def test_every_weka_arff_file(path, command):
    code, out, err = weka_examples.run([command[0], path, *command[1:]])
    name = pathlib.Path(path).name
    if name in REFUSED:
        assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
        assert err.startswith(f"seminaive: error: {path}") and REFUSED[name] in err
        return
    assert code == 0, err
    assert "Traceback" not in err and "error" not in err
    if command[0] == "evaluate":
        acc = float(re.search(r"mean accuracy over 3 folds ([\d.]+)%", out).group(1))
        assert 0 < acc <= 100
    else:
        assert out.startswith("Naive Bayes:" if len(command) == 1 else "TAN (")
