"""Every Python snippet of docs/python.md runs, in order, in one namespace; and the demo."""

import os
import re
import subprocess
import sys

from conftest import SOURCE_DIR


def python_snippets(path):
    text = path.read_text()
    return re.findall(r"```python\n(.*?)```", text, flags=re.S)


def test_the_python_guide_has_snippets():
    assert len(python_snippets(SOURCE_DIR / "docs" / "python.md")) >= 8


def test_every_snippet_of_the_python_guide_runs(capsys):
    namespace = {"__name__": "docs_python"}
    for i, snippet in enumerate(python_snippets(SOURCE_DIR / "docs" / "python.md")):
        try:
            exec(compile(snippet, f"docs/python.md snippet {i + 1}", "exec"), namespace)
        except Exception as error:  # name the snippet in the failure
            raise AssertionError(f"snippet {i + 1} of docs/python.md failed: {error!r}") from error
    out = capsys.readouterr().out
    assert "ir.PrimFunc" in out
    assert "pass" in out and "total" in out  # the timing table was printed


def test_the_demo_runs_and_checks_its_result():
    result = subprocess.run([sys.executable, str(SOURCE_DIR / "examples" / "python" / "demo.py")],
                            capture_output=True, text=True, env=dict(os.environ), timeout=120)
    assert result.returncode == 0, result.stderr
    assert "FoldConstant" in result.stdout
    assert "computes the same before and after: True" in result.stdout
