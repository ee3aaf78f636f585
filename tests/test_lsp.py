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
    lsp_client.server_info = (await lsp_client.initialize_session(params)).server_info
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


@pytest.mark.asyncio
async def test_the_server_names_itself_with_the_installed_version(client: LanguageClient):
    from tools import version

    assert (client.server_info.name, client.server_info.version) == ("cardc", version())
    assert version()[0].isdigit()


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


# ---------------------------------------------------------------- hover


async def _hover(client: LanguageClient, uri: str, at: t.Position) -> str:
    found = await client.text_document_hover_async(t.HoverParams(t.TextDocumentIdentifier(uri), at))
    assert found is not None
    assert isinstance(found.contents, t.MarkupContent)
    return found.contents.value


@pytest.mark.asyncio
async def test_hover_shows_a_card_a_keyword_and_a_word_of_the_language(client, project):
    path = project / "cards" / "successor" / "successors.card"
    text = path.read_text(encoding="utf-8")
    uri = _open(client, path)
    card = await _hover(client, uri, _position(text, '"Sprout Token" token', 3))
    assert card.startswith('**card "Sprout Token"** (successors.card:32)')
    assert "kind successor" in card and "stats power 100, stamina 100" in card and "token" in card
    lantern = await _hover(client, uri, _position(text, '"Lantern Acolyte"', 2))
    assert lantern.endswith("When this is summoned, put 1 +100/+100 counter on target successor you control.")
    assert "*Rules text:* When Lantern Acolyte is summoned, put 1 Counter on target successor you control." in lantern
    pool = project / "cards" / "successor" / "pool_successors.card"
    keyword = await _hover(client, _open(client, pool), _position(pool.read_text(), "CannotMove, Sturdy", 14))
    assert keyword.startswith("**keyword Sturdy** (keywords.card:24)")
    assert "[頑強] Blocking does not rest this; it may block again if it can." in keyword
    event = await _hover(client, uri, _position(text, "is summoned:", 4))
    assert event.startswith("event phrase 'is summoned' — docs/language.md, **2.3.1 Event triggers with a typed scope**")
    zone = await _hover(client, uri, _position(text, "Counter on target successor", 18))
    assert zone.startswith("kind 'successor' of this ruleset — docs/language.md, **2.12.6 Kinds, stats and kind traits**")


# ---------------------------------------------------------------- completion


async def _labels(client: LanguageClient, uri: str, at: t.Position) -> list[str]:
    found = await client.text_document_completion_async(t.CompletionParams(t.TextDocumentIdentifier(uri), at))
    assert isinstance(found, t.CompletionList)
    return [i.label for i in found.items]


@pytest.mark.asyncio
async def test_completion_offers_what_the_grammar_expects_at_the_cursor(client, project):
    text = 'card "Other" {\n    kind successor\n    when this is summoned: you create 1 \n}\n\n'
    uri = _open(client, project / "cards" / "successor" / "zz_new.card", text)
    at_token = await _labels(client, uri, _position(text, "create 1 \n", 9))
    assert '"Sprout Token"' in at_token and "Sturdy" not in at_token and "when" not in at_token
    broken = 'card "New" {\n    kind successor\n    keywords \n'
    at_keywords = await _labels(client, _open(client, project / "cards" / "successor" / "zz_other.card", broken),
                                _position(broken, "keywords \n", 9))
    assert {"Sturdy", "Haste", "CannotAttack"} <= set(at_keywords)
    assert "when" not in at_keywords and '"Cinder Squire"' not in at_keywords
    whole = (project / "cards" / "successor" / "successors.card").read_text(encoding="utf-8")
    at_item = await _labels(client, _open(client, project / "cards" / "successor" / "successors.card"),
                            t.Position(whole.count("\n"), 0))
    assert at_item[:5] == ["card", "enchantment", "keyword", "ruleset", "status"]
    in_card = await _labels(client, uri, _position(text, "    when", 4))
    assert {"kind", "cost", "stats", "text", "when", "static"} <= set(in_card)
    after_this = await _labels(client, uri, _position(text, "is summoned:", 0))  # before the error: complete
    assert {"is summoned", "is destroyed", "takes damage", "attacks"} <= set(after_this)


# ---------------------------------------------------------------- definition and references


@pytest.mark.asyncio
async def test_definition_of_a_card_from_a_deck_and_of_a_keyword_from_a_card(client, project):
    deck = project / "cards" / "successor" / "decks" / "dawn_archive.deck"
    uri = _open(client, deck)
    [found] = await client.text_document_definition_async(t.DefinitionParams(
        t.TextDocumentIdentifier(uri), _position(deck.read_text(), "Lantern Acolyte", 3)))
    assert found.uri == (project / "cards" / "successor" / "successors.card").as_uri()
    assert (found.range.start.line, found.range.start.character, found.range.end.character) == (17, 5, 22)
    pool = project / "cards" / "successor" / "pool_successors.card"
    [found] = await client.text_document_definition_async(t.DefinitionParams(
        t.TextDocumentIdentifier(_open(client, pool)), _position(pool.read_text(), "CannotMove, Sturdy", 14)))
    assert found.uri == (project / "cards" / "successor" / "keywords.card").as_uri()
    assert (found.range.start.line, found.range.start.character) == (23, 8)


@pytest.mark.asyncio
async def test_references_of_a_card_across_card_files_decks_and_scenarios(client, project):
    path = project / "cards" / "successor" / "successors.card"
    uri = _open(client, path)
    found = await client.text_document_references_async(t.ReferenceParams(
        text_document=t.TextDocumentIdentifier(uri), position=_position(path.read_text(), '"Seedcaller"', 2),
        context=t.ReferenceContext(include_declaration=True)))
    where = sorted((Path(t_uri_path(r.uri)).relative_to(project).as_posix(), r.range.start.line + 1) for r in found)
    named = sorted((p.relative_to(project).as_posix(), number) for p in project.rglob("*")
                   if p.suffix in (".card", ".deck", ".scenario")
                   for number, line in enumerate(p.read_text(encoding="utf-8").split("\n"), 1)
                   if "Seedcaller" in line.split("#")[0])
    assert where == named
    assert ("cards/successor/successors.card", 38) in where and ("tests/scenarios/successor/R-SU-60.scenario", 17) in where


@pytest.mark.asyncio
async def test_references_of_a_keyword_across_the_card_files(client, project):
    path = project / "cards" / "successor" / "keywords.card"
    uri = _open(client, path)
    found = await client.text_document_references_async(t.ReferenceParams(
        text_document=t.TextDocumentIdentifier(uri), position=_position(path.read_text(), "keyword Sturdy", 9),
        context=t.ReferenceContext(include_declaration=False)))
    files = {Path(t_uri_path(r.uri)).name for r in found}
    assert {"pool_memorions.card", "pool_successors.card"} <= files
    assert all(r.range.end.character - r.range.start.character == len("Sturdy") for r in found)
    assert not any(r.uri == uri and r.range.start.line == 23 for r in found)  # the declaration left out


def t_uri_path(uri: str) -> str:
    from pygls.uris import to_fs_path

    path = to_fs_path(uri)
    assert path is not None
    return path


# ---------------------------------------------------------------- outline


@pytest.mark.asyncio
async def test_document_symbols_outline_cards_keywords_statuses_and_the_ruleset(client, project):
    ruleset = project / "cards" / "successor" / "ruleset.card"
    found = await client.text_document_document_symbol_async(t.DocumentSymbolParams(
        t.TextDocumentIdentifier(_open(client, ruleset))))
    [top] = found
    assert (top.name, top.kind, top.detail) == ("successor", t.SymbolKind.Namespace, "ruleset")
    assert top.children and len(top.children) > 10
    assert top.range.end.line + 1 >= ruleset.read_text().rstrip().count("\n")
    cards = project / "cards" / "successor" / "successors.card"
    found = await client.text_document_document_symbol_async(t.DocumentSymbolParams(
        t.TextDocumentIdentifier(_open(client, cards))))
    assert [s.name for s in found[:3]] == ["Cinder Squire", "Tidewall Sentinel", "Brass Lancer"]
    first = found[0]
    assert (first.range.start.line, first.range.end.line, first.selection_range.start.character) == (2, 5, 5)
    keywords = project / "cards" / "successor" / "keywords.card"
    found = await client.text_document_document_symbol_async(t.DocumentSymbolParams(
        t.TextDocumentIdentifier(_open(client, keywords))))
    assert (found[0].name, found[0].kind) == ("CannotAttack", t.SymbolKind.Function)


# ---------------------------------------------------------------- formatting


async def _format(client: LanguageClient, uri: str) -> list[t.TextEdit]:
    found = await client.text_document_formatting_async(t.DocumentFormattingParams(
        t.TextDocumentIdentifier(uri), t.FormattingOptions(4, True)))
    return list(found or [])


@pytest.mark.asyncio
async def test_formatting_is_cardc_fmt_and_gives_no_edit_for_a_file_with_errors(client, project):
    messy = 'card "Cinder Squire"   {\n  kind   successor\n stats power 200,stamina 200\n}\n'
    path = project / "cards" / "successor" / "successors.card"
    uri = _open(client, path, messy)
    [edit] = await _format(client, uri)
    assert edit.new_text == format_text(messy, str(path)) != messy
    assert (edit.range.start.line, edit.range.start.character, edit.range.end.line) == (0, 0, 4)
    bad = _open(client, project / "cards" / "successor" / "zz_bad.card", 'card "X" {\n    kind\n}\n')
    assert await _format(client, bad) == []
    deck = _open(client, project / "cards" / "successor" / "decks" / "zz.deck", "2   Cinder Squire\n\n\n1 Brass Lancer\n")
    [edit] = await _format(client, deck)
    assert edit.new_text == "2 Cinder Squire\n\n1 Brass Lancer\n"


# ---------------------------------------------------------------- rename


def _apply(text: str, edits: list[t.TextEdit]) -> str:
    """Return a text with LSP edits applied (last first, so earlier ranges stay put)."""
    lines = text.split("\n")
    offsets = [sum(len(x) + 1 for x in lines[:i]) for i in range(len(lines))]
    for e in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
        start = offsets[e.range.start.line] + e.range.start.character
        end = offsets[e.range.end.line] + e.range.end.character
        text = text[:start] + e.new_text + text[end:]
    return text


@pytest.mark.asyncio
async def test_rename_a_card_across_card_files_decks_and_scenarios(client, project):
    path = project / "cards" / "successor" / "successors.card"
    uri = _open(client, path)
    made = await client.text_document_rename_async(t.RenameParams(
        t.TextDocumentIdentifier(uri), _position(path.read_text(), '"Lantern Acolyte"', 3), "Lantern Adept"))
    assert made is not None and made.changes is not None
    changed = {Path(t_uri_path(u)).relative_to(project).as_posix(): e for u, e in made.changes.items()}
    assert {"cards/successor/successors.card", "cards/successor/decks/dawn_archive.deck",
            "tests/scenarios/successor/R-SU-57.scenario"} <= set(changed)
    for rel, edits in changed.items():  # applied to the copy, the project still compiles
        (project / rel).write_text(_apply((project / rel).read_text(encoding="utf-8"), edits), encoding="utf-8")
    assert _cardc_check(project, "cards/successor/successors.card") == []
    left = [line for p in project.rglob("*") if p.is_file() and p.suffix in (".card", ".deck", ".scenario")
            for line in p.read_text(encoding="utf-8").split("\n") if "Lantern Acolyte" in line]
    assert all(line.lstrip().startswith("#") for line in left), left
    assert 'card "Lantern Adept" {' in path.read_text(encoding="utf-8")


@pytest.mark.asyncio
async def test_rename_refuses_a_name_that_exists_or_is_not_a_card_name(client, project):
    path = project / "cards" / "successor" / "successors.card"
    uri = _open(client, path)
    at = _position(path.read_text(), '"Lantern Acolyte"', 3)
    for new, message in (("Brass Lancer", "a card named 'Brass Lancer' already exists in successor/; choose another name"),
                         ('Lantern "Adept"', "'Lantern \"Adept\"' is not a valid card name: a card name is one line with "
                                             "no '\"', '\\\\', ',' or ' #', and no space at either end"),
                         ("Lantern, Adept", "'Lantern, Adept' is not a valid card name")):
        with pytest.raises(JsonRpcException) as refused:
            await client.text_document_rename_async(t.RenameParams(t.TextDocumentIdentifier(uri), at, new))
        assert refused.value.message.startswith(message)
