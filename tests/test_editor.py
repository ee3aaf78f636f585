"""The VS Code extension of editors/vscode/: its grammars, checked with the real TextMate engine, and its package.

- The committed grammars are what editors/vscode/gen_grammar.py writes (CARDC_UPDATE_GRAMMAR=1 rewrites them).
- The annotated samples of editors/vscode/tests/ pass vscode-tmgrammar-test; a planted wrong scope fails it.
- Every ```card block of docs/*.md and README.md, every replay file and every card file of cards/ is
  tokenized (vscode-textmate with vscode-oniguruma, editors/vscode/tokenize.js): no visible character is
  left without a scope of its own, none is marked invalid; a planted stray character is caught.
- `vsce package` builds a .vsix holding the manifest, the grammars and extension.js.

The node packages come from `npm ci` in editors/vscode (.ci/run does it); a test never installs them.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.conftest import ROOT

EXT = ROOT / "editors" / "vscode"
SAMPLES = sorted((EXT / "tests").glob("*.test.*"))
GRAMMARS = sorted((EXT / "syntaxes").glob("*.tmLanguage.json"))
INSTALL = "cd editors/vscode && npm ci --no-audit --no-fund"
FENCE = re.compile(r"^```(card\S*)[^\n]*\n(.*?)^```", re.M | re.S)
# scopes that only group (a block, a section): a character under nothing else has no scope of its own
GROUPING = ("source.", "meta.")


def _bin(name: str) -> Path:
    """Return a program of editors/vscode/node_modules/.bin, failing with the command that installs it."""
    path = EXT / "node_modules" / ".bin" / name
    assert path.exists(), f"editors/vscode/node_modules is missing {name}: run `{INSTALL}`"
    return path


def _grammar_args() -> list[str]:
    return [arg for g in GRAMMARS for arg in ("-g", str(g.relative_to(EXT)))]


def _tmgrammar_test(*samples: Path) -> subprocess.CompletedProcess:
    return subprocess.run([str(_bin("vscode-tmgrammar-test")), *_grammar_args(), *map(str, samples)],
                          cwd=EXT, capture_output=True, text=True)


def tokenize(scope: str, texts: list[str]) -> list[list[list]]:
    """Return the tokens of each text, line by line, as [start, end, scopes] from the real engine."""
    _bin("vscode-tmgrammar-test")
    done = subprocess.run(["node", str(EXT / "tokenize.js"), scope], input=json.dumps(texts),
                          capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def unscoped(scope: str, texts: list[str]) -> list[str]:
    """Return each visible piece of the texts left without a scope of its own or marked invalid."""
    problems = []
    for i, (text, lines) in enumerate(zip(texts, tokenize(scope, texts), strict=True)):
        for n, (line, tokens) in enumerate(zip(text.split("\n"), lines, strict=True), 1):
            for start, end, scopes in tokens:
                piece = line[start:end]
                own = [s for s in scopes if not s.startswith(GROUPING)]
                if piece.strip() and (not own or any(s.startswith("invalid") for s in own)):
                    problems.append(f"text {i} line {n}: {piece!r} has {scopes}")
    return problems


def test_committed_grammars_are_generated():
    sys.path.insert(0, str(EXT))
    import gen_grammar

    fresh = {name: gen_grammar.render(g) for name, g in gen_grammar.grammars().items()}
    if os.environ.get("CARDC_UPDATE_GRAMMAR"):
        gen_grammar.main()
    stale = [name for name, text in fresh.items()
             if not (EXT / "syntaxes" / name).exists() or (EXT / "syntaxes" / name).read_text(encoding="utf-8") != text]
    assert not stale, f"stale grammars {stale}: run `CARDC_UPDATE_GRAMMAR=1 pytest tests/test_editor.py`"
    assert sorted(fresh) == [g.name for g in GRAMMARS]


def test_samples_pass_the_textmate_engine():
    assert {s.suffix for s in SAMPLES} == {".card", ".deck", ".sw", ".scenario", ".battle", ".team"}
    done = _tmgrammar_test(*SAMPLES)
    assert done.returncode == 0, done.stdout + done.stderr
    for sample in SAMPLES:
        assert f"{sample.relative_to(EXT)} run successfuly" in done.stdout


def test_a_planted_wrong_scope_fails(tmp_path):
    text = (EXT / "tests" / "sample.test.card").read_text(encoding="utf-8")
    planted = text.replace("support.function.effect.card", "support.constant.zone.card", 1)
    assert planted != text
    sample = tmp_path / "planted.test.card"
    sample.write_text(planted, encoding="utf-8")
    done = _tmgrammar_test(sample)
    assert done.returncode != 0
    assert "missing required scopes: support.constant.zone.card" in done.stdout


def _doc_blocks() -> list[tuple[str, str]]:
    """Return every ```card block (any card language) of README.md and docs/*.md, with where it is."""
    blocks = []
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        text = path.read_text(encoding="utf-8")
        for m in FENCE.finditer(text):
            blocks.append((f"{path.name}:{text.count(chr(10), 0, m.start()) + 1} ({m.group(1)})", m.group(2)))
    return blocks


def test_doc_card_blocks_are_scoped():
    blocks = _doc_blocks()
    assert len(blocks) > 150 and any(where.startswith("README.md") for where, _ in blocks)
    problems = unscoped("source.card", [text for _, text in blocks])
    named = [blocks[int(p.split()[1])][0] + ": " + p for p in problems]
    assert not named, "\n".join(named[:20])


def test_the_doc_check_catches_a_stray_character():
    assert unscoped("source.card", ['card "A" {\n    kind creature\n}']) == []
    problems = unscoped("source.card", ['card "A" {\n    kind @creature\n}', 'card "B" { text "open\n}'])
    assert len(problems) == 2 and "'@'" in problems[0] and "unclosed-string" in problems[1]


@pytest.mark.parametrize("scope, pattern", [("source.card", "*.card"), ("source.cardc-replay", "*.replay.json"),
                                            ("source.cardc-deck", "*.deck"), ("source.cardc-team", "*.team")])
def test_project_files_are_scoped(scope, pattern):
    files = sorted(p for p in (ROOT / "cards").rglob(pattern)) + sorted((ROOT / "tests" / "replays").rglob(pattern))
    assert files
    assert unscoped(scope, [p.read_text(encoding="utf-8") for p in files]) == []


def test_replay_grammar_marks_bad_json():
    problems = unscoped("source.cardc-replay", ['{"seed": 1, "ok": tru, "s": "\\q"}'])
    assert any("'tru'" in p or "'t'" in p for p in problems) and any("\\\\q" in p for p in problems)


def test_vsce_packages_the_extension(tmp_path):
    out = tmp_path / "cardc.vsix"
    done = subprocess.run([str(_bin("vsce")), "package", "--out", str(out)], cwd=EXT, capture_output=True,
                          text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    names = set(zipfile.ZipFile(out).namelist())
    needed = {"extension/package.json", "extension/extension.js", "extension/server.js",
              "extension/language-configuration.json",
              *(f"extension/syntaxes/{g.name}" for g in GRAMMARS),
              "extension/node_modules/vscode-languageclient/package.json"}
    assert needed <= names, needed - names
    assert not any("/tests/" in n or n.endswith(".py") for n in names)


def test_the_extension_starts_the_language_server_it_is_configured_with(tmp_path):
    # server.js is the extension's own code for the command (the settings' defaults: `cardc lsp`); the
    # client speaks vscode-jsonrpc, the transport vscode-languageclient uses. VS Code itself is not run:
    # it comes from neither PyPI, Debian nor npm.
    folder = tmp_path / "cards" / "simple_duel"
    shutil.copytree(ROOT / "cards" / "simple_duel", folder)
    path = folder / "extra.card"
    doc = {"uri": path.as_uri(), "languageId": "card",
           "text": 'card "Stray Ember" {\n    kind creture\n    text "A spark."\n}\n'}
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")
    done = subprocess.run(["node", str(EXT / "tests" / "start_server.js")], input=json.dumps(doc), cwd=tmp_path,
                          env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    reply = json.loads(done.stdout)
    assert reply["command"] == ["cardc", "lsp"] and reply["server"]["name"] == "cardc"
    assert reply["diagnostics"]["uri"] == path.as_uri()
    [found] = reply["diagnostics"]["diagnostics"]
    assert (found["code"], found["message"], found["range"]["start"]) == (
        "E101", "unknown card kind 'creture'; did you mean 'creature'?", {"line": 1, "character": 9})
