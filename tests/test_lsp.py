"""`cardc lsp` end to end: a real LSP client (pytest-lsp) starts the server as a subprocess and speaks
JSON-RPC to it over stdio. Each test opens copies of real project files in a temporary project
(cards/successor/ and its scenarios), so nothing is written into the repository; the server itself
only computes edits and never writes.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types as t
from pygls.exceptions import JsonRpcException
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from compiler.build import compile_project
from compiler.diagnostics import CompileError
from compiler.fmt import format_text

ROOT = Path(__file__).resolve().parent.parent
SERVER = [sys.executable, "-m", "tools", "--root", str(ROOT), "lsp"]


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A throw-away project: Successor's card folder (with its decks) and its scenarios."""
    shutil.copytree(ROOT / "cards" / "successor", tmp_path / "cards" / "successor")
    shutil.copytree(ROOT / "tests" / "scenarios" / "successor", tmp_path / "tests" / "scenarios" / "successor")
    return tmp_path


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER))
async def client(lsp_client: LanguageClient, project: Path):
    params = t.InitializeParams(capabilities=client_capabilities("visual-studio-code"), root_uri=project.as_uri())
    await lsp_client.initialize_session(params)
    yield
    await lsp_client.shutdown_session()


def _open(client: LanguageClient, path: Path, text: str | None = None) -> str:
    uri = path.as_uri()
    language = "card" if path.suffix == ".card" else path.suffix.lstrip(".")
    body = path.read_text(encoding="utf-8") if text is None else text
    client.text_document_did_open(t.DidOpenTextDocumentParams(t.TextDocumentItem(uri, language, 1, body)))
    return uri


async def _diagnostics(client: LanguageClient, uri: str) -> list[t.Diagnostic]:
    """Return the diagnostics the server publishes next for a document."""
    while True:
        params = await client.wait_for_notification(t.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        if params.uri == uri:
            return list(params.diagnostics)


def _position(text: str, needle: str, into: int = 1) -> t.Position:
    """Return the position `into` characters inside the first occurrence of needle."""
    at = text.index(needle) + into
    return t.Position(text.count("\n", 0, at), at - (text.rfind("\n", 0, at) + 1))


def _cardc_check(project: Path, rel: str) -> list[tuple[str, str, int, int]]:
    """Return what `cardc check`'s compile step reports for one file of the project on disk."""
    try:
        compile_project(project)
    except CompileError as err:
        return [(d.code, d.message, d.line, d.col) for d in err.diagnostics if d.path == rel]
    return []


def _seen(diagnostics: list[t.Diagnostic]) -> list[tuple[str, str, int, int]]:
    return [(str(d.code), d.message, d.range.start.line + 1, d.range.start.character + 1) for d in diagnostics]


# ---------------------------------------------------------------- diagnostics


BROKEN = '''card "Cinder Squire" {
    kind successr
    stats power 200, stamina 200
}

card "Tidewall Sentinel" {
    kind successor
    stats powr 100, stamina 300
    keywords Hast
}
'''


@pytest.mark.asyncio
async def test_diagnostics_report_every_error_of_the_unsaved_text_as_cardc_check_does(client, project):
    path = project / "cards" / "successor" / "successors.card"
    uri = _open(client, path, BROKEN)
    seen = _seen(await _diagnostics(client, uri))
    path.write_text(BROKEN, encoding="utf-8")  # the same text saved: what cardc check says of it
    assert seen == _cardc_check(project, "cards/successor/successors.card")
    assert ("E101", "unknown card kind 'successr'; did you mean 'successor'?", 2, 10) in seen
    assert ("E101", "unknown stat 'powr'; did you mean 'power'?", 8, 11) in seen
    assert len(seen) >= 3


@pytest.mark.asyncio
async def test_diagnostics_check_a_card_file_with_the_other_files_of_its_folder(client, project):
    # 'Wellspring Herald' is defined in rulings.card; Sturdy is a keyword of keywords.card
    text = ('card "Wellspring Herald" {\n    kind successor\n    stats power 1, stamina 1\n    keywords Sturdy\n}\n'
            'card "Fresh Face" {\n    kind successor\n    stats power 1, stamina 1\n    keywords Sturdyy\n}\n')
    uri = _open(client, project / "cards" / "successor" / "zz_extra.card", text)
    seen = _seen(await _diagnostics(client, uri))
    first = [line for line, body in enumerate((project / "cards/successor/rulings.card").read_text().split("\n"), 1)
             if body.startswith('card "Wellspring Herald"')][0]
    assert seen == [("E102", f"card 'Wellspring Herald' is defined twice; first at cards/successor/rulings.card:{first}:1",
                     1, 1),
                    ("E101", "unknown keyword 'Sturdyy'; did you mean 'Sturdy'?", 9, 14)]


@pytest.mark.asyncio
async def test_a_bad_edit_then_a_good_edit_clears_the_diagnostics(client, project):
    path = project / "cards" / "successor" / "successors.card"
    good = path.read_text(encoding="utf-8")
    uri = _open(client, path)
    assert await _diagnostics(client, uri) == []
    for version, text in ((2, good.replace("kind successor", "kind successr", 1)), (3, good)):
        client.text_document_did_change(t.DidChangeTextDocumentParams(
            t.VersionedTextDocumentIdentifier(version=version, uri=uri),
            [t.TextDocumentContentChangeWholeDocument(text)]))
        found = _seen(await _diagnostics(client, uri))
        assert found == ([("E101", "unknown card kind 'successr'; did you mean 'successor'?", 4, 10)]
                         if version == 2 else [])


@pytest.mark.asyncio
async def test_diagnostics_of_a_deck_and_a_scenario_come_from_their_own_checks(client, project):
    deck = project / "cards" / "successor" / "decks" / "x.deck"
    uri = _open(client, deck, "1 Cinder Squirre\n0 Brass Lancer\n")
    assert _seen(await _diagnostics(client, uri)) == [
        ("E202", "unknown card 'Cinder Squirre'; did you mean 'Cinder Squire'?", 1, 3),
        ("E203", "a count must be at least 1, found 0", 2, 1)]
    scenario = project / "tests" / "scenarios" / "successor" / "R-SU-01.scenario"
    uri = _open(client, scenario, scenario.read_text().replace("P1 hand: Wellspring Herald", "P1 hand: Welspring Herald"))
    found = _seen(await _diagnostics(client, uri))
    assert [(code, line) for code, _, line, _ in found] == [("E202", 10)], found
    assert "did you mean 'Wellspring Herald'" in found[0][1]
