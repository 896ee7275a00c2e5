"""The documentation: rulings, models, a README that is a front door, and a repository that stands on its own."""

import json
import re
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RULES = ROOT / "docs" / "RULES.md"
MODELS = ROOT / "docs" / "MODELS.md"
README = ROOT / "README.md"
DOCS = sorted((ROOT / "docs").glob("*.md"))
#: Where the README's details moved; each is linked from it.
MOVED = ["PERFORMANCE.md", "STRENGTH.md", "CLI.md", "STUDY.md", "DESIGN.md", "PAGES.md"]
#: A relative link in Markdown or HTML: [text](target) or src="target".
LINK = re.compile(r"\]\(([^)\s]+)\)|src=\"([^\"]+)\"")

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
    from solver.game.cards import DECK_COPIES
    from solver.models.turn import TurnSolver

    try:  # the solver is rooted at a turn state (solver.game.core); before that, at a pile
        from solver.game.core import TurnState
    except ImportError:
        root = DECK_COPIES
    else:
        root = TurnState.start(DECK_COPIES)
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


# -- the README as a front door ------------------------------------------------------------------------


def _links(path):
    """``(target file, anchor)`` for every relative link in a Markdown file."""
    for a, b in LINK.findall(_read(path)):
        target = a or b
        if re.match(r"[a-z]+:", target):  # http:, https:, mailto:
            continue
        file, _, anchor = target.partition("#")
        yield (path.parent / file).resolve() if file else path.resolve(), anchor


def _anchors(path):
    """The anchors GitHub gives a Markdown file's headings (lower case, punctuation dropped, spaces as -)."""
    seen, anchors = {}, set()
    for heading in re.findall(r"^#{1,6}\s+(.+?)\s*$", re.sub(r"```.*?```", "", _read(path), flags=re.S), re.M):
        slug = re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        anchors.add(slug if n == 0 else f"{slug}-{n}")
    return anchors


def test_readme_is_a_front_door_of_at_most_250_lines():
    lines = _read(README).splitlines()
    assert len(lines) <= 250, f"README.md has {len(lines)} lines"
    for command in ("make run", "make test"):
        assert command in _read(README)


def test_every_link_in_the_readme_and_the_docs_exists():
    linked = {target for target, _ in _links(README)}
    for name in MOVED + ["RULES.md", "MODELS.md", "RECORDS.md", "HITTHEDECK.md"]:
        assert ROOT / "docs" / name in linked, f"README.md does not link docs/{name}"
    assert {ROOT / "docs" / f for f in ("advisor.png", "live.png", "practice.png", "hitthedeck.png")} <= linked
    broken = []
    for path in [README, *DOCS]:
        for target, anchor in _links(path):
            if not target.exists():
                broken.append(f"{path.name}: {target.relative_to(ROOT)}")
            elif anchor and target.suffix == ".md" and anchor not in _anchors(target):
                broken.append(f"{path.name}: {target.relative_to(ROOT)}#{anchor}")
            elif ROOT not in target.parents and target != ROOT:
                broken.append(f"{path.name}: {target} is outside the repository")
    assert not broken, "broken links:\n" + "\n".join(broken)


def _console_examples(path):
    """``(command, shown output)`` of each ```console block: a ``$ `` line, then its output."""
    for block in re.findall(r"```console\n(.*?)```", _read(path), re.S):
        command, _, output = block.partition("\n")
        assert command.startswith("$ python -m solver "), command
        yield command[2:].split(), output


def test_the_command_line_examples_print_what_the_readme_and_cli_doc_show():
    examples = list(_console_examples(README)) + list(_console_examples(ROOT / "docs" / "CLI.md"))
    assert len(examples) == 2
    for command, shown in examples:
        run = subprocess.run([sys.executable, *command[1:]], cwd=ROOT, capture_output=True, text=True, timeout=120)
        assert run.returncode == 0, run.stderr
        assert json.loads(run.stdout) == json.loads(shown), " ".join(command)  # the README wraps the line


def test_the_readme_python_example_is_a_doctest_that_make_test_runs():
    import tomllib

    settings = tomllib.loads(_read(ROOT / "pyproject.toml"))["tool"]["pytest"]["ini_options"]
    assert "README.md" in settings["testpaths"] and "--doctest-glob=README.md" in settings["addopts"]
    blocks = re.findall(r"```python\n(.*?)```", _read(README), re.S)
    assert blocks and all(b.lstrip().startswith(">>> ") for b in blocks)
    assert all(b.endswith("\n\n") for b in blocks), "a doctest's output runs on to the closing fence without a blank line"


#: A figure: a decimal, a percentage, a fraction or a number with thousands separators.
FIGURE = re.compile(r"(?<![\w.])(\d+(?:,\d{3})+|\d+(?:\.\d+)?%|\d+\.\d+|\d+/\d+)(?![\w/]|\.\d)")


def test_every_figure_in_the_readme_is_in_a_doc_with_its_command():
    text = _read(README)
    tested = "".join(re.findall(r"```(?:console|python)\n.*?```", text, re.S))  # the examples run in the tests
    prose = re.sub(r"```.*?```|<img[^>]*>", "", text, flags=re.S)
    docs = "\n".join(_read(p) for p in DOCS)
    missing = sorted({f for f in FIGURE.findall(prose) if f not in docs and f not in tested})
    assert not missing, f"figures in README.md that no doc under docs/ gives with its command: {missing}"


# -- figures that moved from the README, checked where they now live ------------------------------------


def test_the_printable_rule_is_stated_where_the_study_is_written_up():
    import pandas as pd

    best = pd.read_parquet(ROOT / "data" / "rules.parquet").iloc[0]
    for path in (README, ROOT / "docs" / "STUDY.md"):
        assert best["statement"] in _read(path), path.name


def test_every_strength_figure_in_docs_strength_is_the_tables():
    from test_data import check_strength_tables

    # `turn` against five rules at four table sizes, `bank` against `turn`, `hybrid`
    assert check_strength_tables(_read(ROOT / "docs" / "STRENGTH.md")) >= 25


def test_the_pace_section_opens_the_performance_doc():
    headings = re.findall(r"^## (.+)$", _read(ROOT / "docs" / "PERFORMANCE.md"), re.M)
    assert headings[0] == "Pace at the table: how fast a tap settles"
