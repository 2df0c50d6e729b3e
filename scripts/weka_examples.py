"""Every ARFF file Weka ships, through ``fit``, ``evaluate`` and ``show``: each one a model or one clear
line, never a traceback. ``python scripts/weka_examples.py`` prints a table (the files come from Debian's
``weka`` package: ``apt-get install weka``; ``dpkg -L weka`` lists them)."""

import contextlib
import glob
import io
import os
import subprocess
import sys

COMMANDS = (("fit", []), ("evaluate", ["--cv", "5"]), ("show", []))


def weka_arff_files():
    """The ARFF files of the installed Debian package ``weka`` (none where it is not installed)."""
    try:
        listed = subprocess.run(["dpkg", "-L", "weka"], capture_output=True, text=True, timeout=60).stdout.split()
    except (OSError, subprocess.SubprocessError):
        listed = []
    found = [p for p in listed if p.endswith(".arff") and os.path.isfile(p)]
    return sorted(found or glob.glob("/usr/share/doc/weka/examples/*.arff"))


def run(argv):
    """(exit status, stdout, stderr) of the command line, in this process."""
    from seminaive.cli.main import main
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as e:
            code = e.code
    return code, out.getvalue(), err.getvalue()


def summary(command, code, out, err):
    """One cell: the result's first line, or the error line."""
    if code == 0:
        lines = out.strip().splitlines()
        line = next((x for x in lines if "accuracy" in x), lines[0] if lines else "") if command == "evaluate" \
            else (lines[0] if lines else "")
        return line.strip()[:90]
    return f"exit {code}: " + " ".join(err.strip().splitlines()[-1:])[:160]


def main():
    files = weka_arff_files()
    if not files:
        print("no Weka ARFF files here (apt-get install weka)", file=sys.stderr)
        return 1
    print("| file | " + " | ".join(c for c, _ in COMMANDS) + " |")
    print("|---" * (len(COMMANDS) + 1) + "|")
    for path in files:
        cells = [summary(c, *run([c, path, *extra])) for c, extra in COMMANDS]
        print(f"| {os.path.basename(path)} | " + " | ".join(c.replace("|", "/") for c in cells) + " |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
