"""The wiring: pygls features for the requests the server answers, each handed to its module.

Every request reads the editor's unsaved texts (the workspace's open documents); a card file's
diagnostics are those of its whole folder, so a change republishes those of every open card file of it.
"""

from __future__ import annotations

from pathlib import Path

from lsprotocol import types as t
from pygls.exceptions import JsonRpcInvalidParams
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from compiler.diagnostics import Diagnostic
from tools import version
from tools.lsp import checks, completion, edits, hover, names
from tools.lsp.places import Place, offset_at, offset_of, place_of, position, token_at, word_end

SYMBOL_KINDS = {"card": t.SymbolKind.Class, "keyword": t.SymbolKind.Function, "status": t.SymbolKind.Enum,
                "enchantment": t.SymbolKind.Function, "ruleset": t.SymbolKind.Namespace,
                "rule": t.SymbolKind.Property}
ITEM_KINDS = {"keyword": t.CompletionItemKind.Keyword, "event": t.CompletionItemKind.Event,
              "card": t.CompletionItemKind.Class, "keyword name": t.CompletionItemKind.Function,
              "status": t.CompletionItemKind.Enum, "zone": t.CompletionItemKind.Folder}


class CardServer(LanguageServer):
    """The language server, with the project folder it was started in (for files outside any project)."""

    root: Path = Path(".")

    def open_texts(self) -> dict[Path, str]:
        """Return the unsaved text of every open document, by its path."""
        docs = self.workspace.text_documents.values()
        return {Path(to_fs_path(d.uri) or d.uri).resolve(): d.source for d in docs}

    def place(self, uri: str) -> tuple[Place | None, str]:
        """Return where a document belongs and its text."""
        text = self.workspace.get_text_document(uri).source
        path = Path(to_fs_path(uri) or uri).resolve()
        return place_of(path, text, self.root), text


server = CardServer("cardc", version())


def _range(text: str, start: int, end: int) -> t.Range:
    return t.Range(t.Position(*position(text, start)), t.Position(*position(text, end)))


def _diagnostic(text: str, d: Diagnostic) -> t.Diagnostic:
    start = offset_of(text, d.line, d.col)
    return t.Diagnostic(_range(text, start, word_end(text, start)), d.message, t.DiagnosticSeverity.Error,
                        code=d.code, source="cardc")


def publish(ls: CardServer, uri: str) -> None:
    """Publish the diagnostics of a document (of every open card file of its folder, for a card file)."""
    place, text = ls.place(uri)
    if place is None:
        return
    if place.kind != "card":
        found = [_diagnostic(text, d) for d in checks.sheet(place, text)]
        ls.text_document_publish_diagnostics(t.PublishDiagnosticsParams(uri, found))
        return
    texts = ls.open_texts()
    by_file = checks.card_folder(place, texts)
    for path, other in texts.items():
        if path.parent == place.path.parent and path.suffix == ".card":
            rel = Place(path, "card", place.root, place.ruleset).rel
            found = [_diagnostic(other, d) for d in by_file.get(rel, [])]
            ls.text_document_publish_diagnostics(t.PublishDiagnosticsParams(from_fs_path(str(path)) or "", found))


@server.feature(t.INITIALIZE)
def initialize(ls: CardServer, params: t.InitializeParams) -> None:
    if params.root_uri:
        ls.root = Path(to_fs_path(params.root_uri) or ls.root).resolve()


@server.feature(t.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: CardServer, params: t.DidOpenTextDocumentParams) -> None:
    publish(ls, params.text_document.uri)


@server.feature(t.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: CardServer, params: t.DidChangeTextDocumentParams) -> None:
    publish(ls, params.text_document.uri)


@server.feature(t.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: CardServer, params: t.DidCloseTextDocumentParams) -> None:
    ls.text_document_publish_diagnostics(t.PublishDiagnosticsParams(params.text_document.uri, []))


def _at(ls: CardServer, doc: t.TextDocumentIdentifier, pos: t.Position):
    """Return a document's place, text, offset of a position, and its ruleset folder (read with open texts)."""
    place, text = ls.place(doc.uri)
    offset = offset_at(text, pos.line, pos.character)
    folder = names.read(place, ls.open_texts()) if place is not None else None
    return place, text, offset, folder


@server.feature(t.TEXT_DOCUMENT_HOVER)
def on_hover(ls: CardServer, params: t.HoverParams) -> t.Hover | None:
    place, text, offset, folder = _at(ls, params.text_document, params.position)
    if place is None or folder is None:
        return None
    found = names.at(folder, text, offset, place.kind)
    token = token_at(text, offset)
    shown: str | None = None
    if found is not None:
        shown = hover.definition_hover(found)
    elif token is not None and token[0] == "word":
        line_start = text.rfind("\n", 0, offset) + 1
        line = text[line_start:text.find("\n", offset) if "\n" in text[offset:] else len(text)]
        shown = hover.word_hover(folder, line, offset - line_start, text[token[1]:token[2]])
    where = _range(text, token[1], token[2]) if token else None
    return t.Hover(t.MarkupContent(t.MarkupKind.Markdown, shown), where) if shown else None


@server.feature(t.TEXT_DOCUMENT_COMPLETION, t.CompletionOptions(trigger_characters=[" ", '"']))
def on_completion(ls: CardServer, params: t.CompletionParams) -> t.CompletionList:
    place, text, offset, folder = _at(ls, params.text_document, params.position)
    found = completion.complete(place.kind, text, offset, folder) if place is not None else []
    items = [t.CompletionItem(i.label, kind=ITEM_KINDS.get(i.what, t.CompletionItemKind.Variable), detail=i.what)
             for i in found]
    return t.CompletionList(is_incomplete=False, items=items)


def _location(span: names.Span) -> t.Location:
    return t.Location(from_fs_path(str(span.path)) or "", _range(span.text, span.start, span.end))


@server.feature(t.TEXT_DOCUMENT_DEFINITION)
def on_definition(ls: CardServer, params: t.DefinitionParams) -> list[t.Location]:
    place, text, offset, folder = _at(ls, params.text_document, params.position)
    found = names.at(folder, text, offset, place.kind) if place and folder else None
    return [_location(found.name_span)] if found else []


@server.feature(t.TEXT_DOCUMENT_REFERENCES)
def on_references(ls: CardServer, params: t.ReferenceParams) -> list[t.Location]:
    place, text, offset, folder = _at(ls, params.text_document, params.position)
    found = names.at(folder, text, offset, place.kind) if place and folder else None
    if found is None or folder is None:
        return []
    spans = names.references(folder, found.kind, found.name, ls.open_texts())
    if not params.context.include_declaration:
        spans = [s for s in spans if s != found.name_span]
    return [_location(s) for s in spans]


@server.feature(t.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
def on_symbols(ls: CardServer, params: t.DocumentSymbolParams) -> list[t.DocumentSymbol]:
    place, text = ls.place(params.text_document.uri)
    if place is None or place.kind != "card":
        return []
    folder = names.read(place, ls.open_texts())
    ast = next((f for f, _ in folder.files if place.root / f.path == place.path), None)
    return [_symbol(s) for s in edits.outline(place.path, text, ast)] if ast else []


def _symbol(s: edits.Symbol) -> t.DocumentSymbol:
    return t.DocumentSymbol(s.name, SYMBOL_KINDS[s.kind], _range(s.span.text, s.span.start, s.span.end),
                            _range(s.name_span.text, s.name_span.start, s.name_span.end), detail=s.kind,
                            children=[_symbol(c) for c in s.children] or None)


@server.feature(t.TEXT_DOCUMENT_FORMATTING)
def on_formatting(ls: CardServer, params: t.DocumentFormattingParams) -> list[t.TextEdit]:
    place, text = ls.place(params.text_document.uri)
    pretty = edits.formatted(place, text) if place is not None else None
    return [] if pretty is None or pretty == text else [t.TextEdit(_range(text, 0, len(text)), pretty)]


@server.feature(t.TEXT_DOCUMENT_RENAME)
def on_rename(ls: CardServer, params: t.RenameParams) -> t.WorkspaceEdit:
    place, text, offset, folder = _at(ls, params.text_document, params.position)
    found = names.at(folder, text, offset, place.kind) if place and folder else None
    if found is None or found.kind != "card" or folder is None:
        raise JsonRpcInvalidParams("only a card can be renamed: put the cursor on a card's name")
    try:
        made = edits.rename(folder, found, params.new_name, ls.open_texts())
    except edits.RenameRefused as err:
        raise JsonRpcInvalidParams(str(err)) from None
    changes: dict[str, list[t.TextEdit]] = {}
    for span, new in made:
        uri = from_fs_path(str(span.path)) or ""
        changes.setdefault(uri, []).append(t.TextEdit(_range(span.text, span.start, span.end), new))
    return t.WorkspaceEdit(changes=changes)


def run(root: Path) -> int:
    """Serve on stdin and stdout until the client says exit; return the exit code."""
    server.root = root
    server.start_io()
    return 0
