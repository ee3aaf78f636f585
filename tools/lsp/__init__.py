"""`cardc lsp`: a language server (stdio) for card files and every file beside them (docs/editor.md).

server.py wires the features to pygls; places.py knows which project, ruleset folder and format a file
belongs to and turns offsets into LSP positions; checks.py runs the compiler's own checks on unsaved text;
names.py finds definitions and references; hover.py, completion.py and edits.py (formatting, rename,
outline) answer the requests.
"""
