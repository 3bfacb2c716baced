"""docs/notebook.md runs as written: its python blocks, in order, in one namespace."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[1] / "docs" / "notebook.md"


# The suite's own designs are whole balanced blocks: a DesignWarning here is a defect.
pytestmark = pytest.mark.filterwarnings("error::zsim.api.DesignWarning")


def python_blocks(text: str) -> list[str]:
    return re.findall(r"```python\n(.*?)```", text, flags=re.DOTALL)


def test_the_notebook_guide_runs_as_written():
    blocks = python_blocks(DOC.read_text(encoding="utf-8"))
    assert len(blocks) >= 6
    namespace: dict = {}
    for number, block in enumerate(blocks, 1):
        exec(compile(block, f"{DOC.name} block {number}", "exec"), namespace)
    assert namespace["results"].summary.games == 64
    assert namespace["page"].is_file()


def test_importing_zsim_loads_neither_pandas_nor_the_runner():
    code = "import sys, zsim, zsim.cli; print(sorted(m for m in ('pandas', 'pyarrow', " \
           "'zsim.api', 'zsim.runner.batch') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "[]"
