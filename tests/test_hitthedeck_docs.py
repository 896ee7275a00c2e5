"""docs/HITTHEDECK.md: every ruling defined once and tested by name; its examples run."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

from solver.hitthedeck.cards import parse_card
from solver.hitthedeck.cli import advise_text

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "HITTHEDECK.md"
#: A ruling defined in the doc: a line starting with **H5.**
DEFINITION = re.compile(r"^\*\*H(\d{1,2})\.\*\*", re.MULTILINE)
MENTION = re.compile(r"\bH(\d{1,2})\b")
TESTS = sorted((ROOT / "tests").glob("test_hitthedeck*.py"))


def _text():
    return DOC.read_text(encoding="utf-8")


def _defined():
    return [int(n) for n in DEFINITION.findall(_text())]


def test_the_doc_defines_h1_to_h14_once_each_in_order():
    assert _defined() == list(range(1, 15))


def test_every_ruling_has_a_test_that_names_it():
    named = set()
    for path in TESTS:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test"):
                named |= {int(n) for n in re.findall(r"(?:^|_)h(\d{1,2})_", node.name)}
                named |= {int(n) for n in MENTION.findall(ast.get_docstring(node) or "")}
    missing = sorted(set(_defined()) - named)
    assert not missing, f"rulings with no test naming them: {['H%d' % n for n in missing]}"


def test_every_ruling_mentioned_in_the_code_is_defined():
    defined = set(_defined())
    files = sorted((ROOT / "solver" / "hitthedeck").glob("*.py")) + TESTS + [DOC]
    mentioned = {int(n): p.name for p in files for n in MENTION.findall(p.read_text())}
    assert mentioned and set(mentioned) <= defined, {f"H{n}": w for n, w in mentioned.items() if n not in defined}


def test_the_schema_example_is_answered_and_the_answer_fields_are_documented():
    text = _text()
    example = re.search(r"```json\n(.*?)```", text, re.S).group(1)
    answer = advise_text(example, "example")
    rows = re.findall(r"^\| `(\w+)` \|", text, re.M)
    assert set(answer) <= set(rows), set(answer) - set(rows)
    for field in ("hand", "top", "discard", "opponents"):
        assert field in rows
    assert set(json.loads(example)) == {"hand", "top", "discard", "opponents"}


def test_every_card_the_notation_table_shows_is_a_card():
    table = _text().split("## Card notation", 1)[1].split("## The command line", 1)[0]
    rows = [ln for ln in table.splitlines() if ln.startswith("| ") and "`" in ln]
    names = [n for ln in rows for n in re.findall(r"`([^`]+)`", ln.split("|")[2])]
    examples = table.split("first letter:", 1)[1].split(". Cards", 1)[0]  # the short forms in the prose
    names += re.findall(r"`([^`]+)`", examples)
    assert len(rows) == 5 and len(names) == 13
    for name in names:
        parse_card(name)
