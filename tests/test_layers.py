"""The architecture holds: light imports, one R5, the registry used everywhere."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCES = sorted((ROOT / "solver").glob("*.py")) + [ROOT / "advisor_app.py", *sorted((ROOT / "views").glob("*.py"))]


def test_cards_rules_and_position_import_without_numba_or_the_models():
    code = ("import sys, solver.cards, solver.core, solver.rules, solver.position; "
            "print(sorted(m for m in ('numba', 'streamlit', 'pandas', 'solver.turn', 'solver.models') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert done.stdout.strip() == "[]"
    done = subprocess.run([sys.executable, "-c", "import sys, solver.cards; print('pydantic' in sys.modules)"],
                          capture_output=True, text=True, cwd=ROOT, check=True)
    assert done.stdout.strip() == "False"


def test_the_library_never_imports_streamlit():
    for path in sorted((ROOT / "solver").glob("*.py")):
        assert not re.search(r"^\s*(import|from) streamlit", path.read_text(), re.M), path.name


def test_r5_is_written_once_in_python():
    # The threshold is a named constant of the core; no other module compares
    # a line size with a literal 3, and only the core (and the compiled kernel,
    # its one specialised copy) defines the bust test.
    literal = re.compile(r"(>=|<=|<|>|==)\s*3\b")
    for path in SOURCES:
        if path.name in ("core.py", "kernel.py"):
            continue
        code = [ln for ln in path.read_text().splitlines() if not ln.lstrip().startswith((">>>", "#", "..."))]
        assert not [ln for ln in code if literal.search(ln)], path.name
    assert "def busts(" in (ROOT / "solver" / "core.py").read_text()
    assert not [p.name for p in SOURCES if p.name != "core.py" and "def busts(" in p.read_text()]


def test_no_model_is_named_in_a_branch():
    # The command line, the advisor and the tables ask the registry.
    for path in SOURCES:
        assert not re.search(r"""\bif\s+\w*model\w*\s*==""", path.read_text()), path.name
