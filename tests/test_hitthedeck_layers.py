"""The Hit the Deck package stands apart from Hit!, and its layers point down only."""

from __future__ import annotations

import ast
import importlib
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "solver" / "hitthedeck"
#: Each module and the modules of the package it may import: cards -> matching -> rules -> knowledge ->
#: odds -> advice -> link -> bots -> tournament -> cli.
LAYERS = ["cards", "matching", "rules", "knowledge", "odds", "advice", "link", "bots", "tournament", "cli"]


def _imports(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            found.add("." * node.level + (node.module or ""))
        elif isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
    return found


#: The project's modules that belong to neither game, which the package may share.
NEUTRAL = {"solver.utilities.stats", "solver.utilities.outputs"}


def test_nothing_of_hit_is_imported_and_no_streamlit():
    for path in sorted(PACKAGE.glob("*.py")):
        for name in _imports(path) - NEUTRAL:
            assert not name.startswith("..") and not name.startswith("solver."), (path.name, name)
            assert not name.startswith("streamlit"), path.name


def test_each_layer_imports_only_the_layers_below_it():
    for i, module in enumerate(LAYERS):
        ups = {f".{m}" for m in LAYERS[i:]}
        got = {n for n in _imports(PACKAGE / f"{module}.py") if n.startswith(".")}
        assert not got & ups, (module, got & ups)


def test_the_engine_imports_without_pydantic():
    code = ("import sys, solver.hitthedeck.rules; "
            "print(sorted(m for m in ('pydantic', 'numba', 'solver.models.turn', 'solver.hitthedeck.advice') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert done.stdout.strip() == "[]"


def _isort_key(name: str) -> tuple[int, str]:
    kind = 0 if name.isupper() else 1 if name[:1].isupper() else 2
    return (kind, name)


def test_every_module_has_an_alphabetised_all_of_names_it_defines():
    for module in ["__init__", *LAYERS]:
        mod = importlib.import_module("solver.hitthedeck" + ("" if module == "__init__" else f".{module}"))
        names = list(mod.__all__)
        assert names == sorted(names, key=_isort_key), module  # constants, then classes, then functions
        assert all(hasattr(mod, n) for n in names), module


def test_every_exported_name_is_what_it_says_even_after_every_module_is_loaded():
    """A package attribute named like a submodule becomes that module once it is imported, so no exported name
    may be a module's: each one is a class or a function, whatever was imported before."""
    import importlib
    import inspect
    import pkgutil

    import solver.hitthedeck as package

    for info in pkgutil.iter_modules(package.__path__):
        if info.name != "__main__":  # the command line itself
            importlib.import_module(f"solver.hitthedeck.{info.name}")
    for name in package.__all__:
        got = getattr(package, name)
        assert not inspect.ismodule(got), f"solver.hitthedeck.{name} is a module, not the exported {name}"
    from solver.hitthedeck.odds import odds
    from solver.hitthedeck.tournament import tournament
    assert callable(odds) and callable(tournament)
