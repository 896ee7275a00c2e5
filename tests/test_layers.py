"""The architecture holds: packages by concern with imports pointing down, light imports, one R5, the
registry used everywhere, no measurement inside the package."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCES = sorted((ROOT / "solver").rglob("*.py")) + [ROOT / "advisor_app.py", *sorted((ROOT / "views").glob("*.py"))]

#: Hit!'s packages from the bottom up: each may import only those before it (and itself).
LAYERS = ["utilities", "game", "models", "play", "study", "cli"]


def _imports(path: Path) -> set[str]:
    """The ``solver`` modules a file imports, anywhere in it (top or inside a function), as dotted names."""
    text = path.read_text()
    found = set(re.findall(r"^\s*from (solver(?:\.\w+)*) import", text, re.M))
    found |= set(re.findall(r"^\s*import (solver(?:\.\w+)*)", text, re.M))
    return found


def _layer(dotted: str) -> str:
    parts = dotted.split(".")
    return parts[1] if len(parts) > 1 else ""


def test_each_package_imports_only_the_layers_below_it():
    for path in sorted((ROOT / "solver").rglob("*.py")):
        rel = path.relative_to(ROOT / "solver")
        here = rel.parts[0] if len(rel.parts) > 1 else rel.stem
        if here in ("__init__", "__main__", "hitthedeck"):
            continue
        below = LAYERS[:LAYERS.index(here) + 1]
        for dotted in _imports(path):
            assert _layer(dotted) in below, f"{rel} imports {dotted}, above its layer ({here})"


def test_hit_never_imports_hit_the_deck():
    """Hit the Deck is another game, a package of its own: nothing of Hit!'s (the library, the pages, the
    app) imports it, and it imports nothing of Hit!'s but the game-neutral utilities."""
    hit = [p for p in SOURCES if "hitthedeck" not in p.parts and not p.name.startswith("hitthedeck")]
    for path in hit:
        assert not [d for d in _imports(path) if d.startswith("solver.hitthedeck")], path
        assert not re.search(r"^\s*from \.+hitthedeck", path.read_text(), re.M), path
    for path in sorted((ROOT / "solver" / "hitthedeck").rglob("*.py")):
        assert {_layer(d) for d in _imports(path)} <= {"hitthedeck", "utilities"}, path


def test_no_module_inside_the_package_is_a_measurement():
    """The benchmarks and the research measurements live in bench/, outside the importable package."""
    for path in sorted((ROOT / "solver").rglob("*.py")):
        assert not [d for d in _imports(path) if d.startswith("bench")], path
        assert not re.search(r"^\s*(from|import) bench\b", path.read_text(), re.M), path
    assert not [p for p in (ROOT / "solver").rglob("*.py") if p.stem in ("bench", "pruned", "foresight")]


def test_the_solver_package_has_no_loose_modules():
    """Every module is in its package; only the command line (and the package's own files) sit on top."""
    loose = sorted(p.name for p in (ROOT / "solver").glob("*.py"))
    assert loose == ["__init__.py", "__main__.py", "cli.py"]


def test_cards_rules_and_position_import_without_numba_or_the_models():
    code = ("import sys, solver.game.cards, solver.game.core, solver.game.rules, solver.game.position; "
            "print(sorted(m for m in ('numba', 'streamlit', 'pandas', 'solver.models.turn', 'solver.models') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert done.stdout.strip() == "[]"
    done = subprocess.run([sys.executable, "-c", "import sys, solver.game.cards; print('pydantic' in sys.modules)"],
                          capture_output=True, text=True, cwd=ROOT, check=True)
    assert done.stdout.strip() == "False"


def test_the_library_never_imports_streamlit():
    for path in sorted((ROOT / "solver").rglob("*.py")):
        assert not re.search(r"^\s*(import|from) streamlit", path.read_text(), re.M), path.name


def test_r5_is_written_once_in_python():
    # The threshold is a named constant of the core; no other module compares
    # a line size with a literal 3, and only the core (and the compiled kernel,
    # its one specialised copy) defines the bust test.
    literal = re.compile(r"(>=|<=|<|>|==)\s*3\b")
    for path in SOURCES:
        if path.relative_to(ROOT).as_posix() in ("solver/game/core.py", "solver/models/kernel.py"):
            continue
        code = [ln for ln in path.read_text().splitlines() if not ln.lstrip().startswith((">>>", "#", "..."))]
        assert not [ln for ln in code if literal.search(ln)], path.name
    core = ROOT / "solver" / "game" / "core.py"
    assert "def busts(" in core.read_text()
    assert not [p.name for p in SOURCES if p != core and "def busts(" in p.read_text()]


def test_no_model_is_named_in_a_branch():
    # The command line, the advisor and the tables ask the registry.
    for path in SOURCES:
        assert not re.search(r"""\bif\s+\w*model\w*\s*==""", path.read_text()), path.name


def test_one_vocabulary_for_the_choices():
    """A choice is a :class:`solver.game.rules.Action` everywhere: the advice's own enums are gone, and its
    records, bots and pages compare against the rules engine's (the JSON's "take" is one mapping at its edge)."""
    import solver.models.advice as advice
    from solver.game.rules import Action
    from solver.models.advice import CHOICE_WORDS, StealChoice

    assert not hasattr(advice, "Play") and not hasattr(advice, "StealAction")
    assert StealChoice(2, 1).action is Action.STEAL and StealChoice(1, 1).action is Action.DECLINE
    assert set(CHOICE_WORDS) == set(Action) and CHOICE_WORDS[Action.STEAL] == "take"
    for path in SOURCES:
        text = path.read_text()
        assert not re.search(r"\b(StealAction|Play\.(DRAW|STOP))\b", text), path


def test_views_read_records_through_the_record_api():
    """The pages read a game record's lines with :func:`solver.game.record.read_line`, never by its JSON keys."""
    for path in sorted((ROOT / "views").glob("*.py")) + [ROOT / "advisor_app.py"]:
        if path.name.startswith("hitthedeck"):
            continue
        text = path.read_text()
        assert not re.search(r"\.get\(\s*[\"'](event|seat)[\"']", text), path
        assert not re.search(r"json\.loads\((live\.)?rows\b", text), path


def test_each_package_names_its_modules():
    """The layout is in the package docstrings (docs/DESIGN.md points there): each names all its modules."""
    import importlib

    for package in LAYERS[:-1]:
        doc = importlib.import_module(f"solver.{package}").__doc__ or ""
        for path in sorted((ROOT / "solver" / package).glob("*.py")):
            if path.stem != "__init__":
                assert f"solver.{package}.{path.stem}" in doc, f"solver.{package}'s docstring leaves out {path.stem}"
