"""The documentation: rulings, models, and a repository that stands on its own."""

import re
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RULES = ROOT / "docs" / "RULES.md"
MODELS = ROOT / "docs" / "MODELS.md"

#: A ruling mentioned anywhere: R1, R12, ...
MENTION = re.compile(r"\bR(\d{1,2})\b")
#: A ruling defined in docs/RULES.md: a line starting with **R5.** or a heading "## R5".
DEFINITION = re.compile(r"^(?:\*\*R(\d{1,2})\.\*\*|#{1,6}\s+R(\d{1,2})\b)", re.MULTILINE)

FRESH_DECK_TURN = Fraction(9663700139, 622614630)


def _read(path):
    return path.read_text(encoding="utf-8")


def _defined_rulings():
    return [int(a or b) for a, b in DEFINITION.findall(_read(RULES))]


def _files_mentioning_rulings():
    files = []
    for folder in ("solver", "tests", "views"):
        files += sorted((ROOT / folder).rglob("*.py"))
    files += [ROOT / "advisor_app.py", ROOT / "README.md", ROOT / "data" / "README.md"]
    return [f for f in files if f.is_file()]


def _text_files():
    files = [ROOT / "README.md", ROOT / "data" / "README.md", ROOT / "advisor_app.py",
             ROOT / "Makefile", ROOT / "pyproject.toml"]
    files += sorted((ROOT / "docs").glob("*.md"))
    for folder in ("solver", "tests", "views"):
        files += sorted((ROOT / folder).glob("*.py"))
    this = Path(__file__).resolve()
    return [f for f in files if f.is_file() and f.resolve() != this]


def test_rules_define_exactly_r1_to_r15_once_each():
    defined = _defined_rulings()
    assert sorted(defined) == list(range(1, 16)), f"docs/RULES.md defines {sorted(defined)}"


def test_every_ruling_mentioned_is_defined():
    defined = set(_defined_rulings())
    mentioned = {}
    for path in _files_mentioning_rulings():
        for number in MENTION.findall(_read(path)):
            mentioned.setdefault(int(number), []).append(str(path.relative_to(ROOT)))
    assert mentioned, "no ruling is mentioned anywhere: the scan is looking in the wrong place"
    undefined = {f"R{n}": sorted(set(where)) for n, where in mentioned.items() if n not in defined}
    assert not undefined, f"rulings mentioned but not defined in docs/RULES.md: {undefined}"


def test_models_doc_names_every_model_and_the_fresh_deck_value():
    text = _read(MODELS)
    headings = [line for line in text.splitlines() if line.startswith("#")]
    for model in ["turn", "bank", "duel"]:
        assert any(f"`{model}`" in h for h in headings), f"docs/MODELS.md has no section for `{model}`"
    value = f"{FRESH_DECK_TURN.numerator}/{FRESH_DECK_TURN.denominator}"
    assert value == "9663700139/622614630"  # already in lowest terms, as the doc writes it
    assert value in text, "docs/MODELS.md does not state the fresh-deck `turn` value"


def test_fresh_deck_turn_value_is_what_the_solver_computes():
    from solver.cards import DECK_COPIES
    from solver.turn import TurnSolver

    try:  # the solver is rooted at a turn point (solver.core); before that, at a pile
        from solver.core import TurnPoint
    except ImportError:
        root = DECK_COPIES
    else:
        root = TurnPoint.start(DECK_COPIES)
    assert TurnSolver(root).draw_value() == FRESH_DECK_TURN


def test_no_pointers_outside_the_repository():
    files = _text_files()
    assert ROOT / "README.md" in files and any(f.parent.name == "solver" for f in files)
    offenders = [
        f"{path.relative_to(ROOT)}:{i}: {line.strip()}"
        for path in files
        for i, line in enumerate(_read(path).splitlines(), start=1)
        if "shared/" in line
    ]
    assert not offenders, "pointers outside the repository:\n" + "\n".join(offenders)


def test_every_dependency_is_pinned_in_the_lock_file():
    import re
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    wanted = list(project["dependencies"]) + [d for deps in project["optional-dependencies"].values() for d in deps]
    names = {re.split(r"[\[<>=!~; ]", d, maxsplit=1)[0].lower().replace("_", "-") for d in wanted}
    pins = {}
    for line in (ROOT / "requirements.lock").read_text().splitlines():
        if line and not line.startswith("#"):
            name, _, version = line.partition("==")
            pins[name.strip().lower().replace("_", "-")] = version.strip()
    missing = sorted(n for n in names if n not in pins)
    assert not missing, f"not in requirements.lock (run make lock): {missing}"
    assert all(re.fullmatch(r"[0-9][0-9A-Za-z.+!-]*", v) for v in pins.values())  # exact versions only
    assert "-c $(LOCK)" in (ROOT / "Makefile").read_text()  # and make installs from it
