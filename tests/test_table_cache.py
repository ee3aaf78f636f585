"""The card parser's tables are cached beside the grammar (compiler/table_cache.py): a parser loaded from the
cache reads every card as a built one does, and a missing, foreign, damaged or unwritable cache only costs
the time to build the tables again."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

from compiler.parser import _ToAst, card_parser
from compiler.table_cache import cached
from tests.conftest import ROOT


def _store(calls: list[str], key: str, path: Path) -> object:
    """Return what cached() gives for `key`, noting in `calls` whether it was built or loaded."""
    def build() -> dict:
        calls.append("built")
        return {"made for": key}

    def load(fh) -> dict:
        found = pickle.load(fh)
        calls.append("loaded")
        return found

    return cached(path, key, build, lambda made, fh: pickle.dump(made, fh), load)


def test_a_cache_is_loaded_for_its_key_and_built_again_for_another(tmp_path):
    calls: list[str] = []
    path = tmp_path / "__pycache__" / "x.tables"
    assert _store(calls, "k1", path) == {"made for": "k1"} and path.is_file()
    assert _store(calls, "k1", path) == {"made for": "k1"}
    assert _store(calls, "k2", path) == {"made for": "k2"}  # another grammar's tables are not used
    assert calls == ["built", "loaded", "built"]
    assert _store(calls, "k2", path) == {"made for": "k2"} and calls[-1] == "loaded"
    assert [p.name for p in path.parent.iterdir()] == ["x.tables"]  # no temporary file is left


@pytest.mark.parametrize("damage", [b"", b"k1\n", b"k1\nnot a pickle", b"\x80\x04garbage"])
def test_a_damaged_cache_is_built_again_and_rewritten(tmp_path, damage):
    calls: list[str] = []
    path = tmp_path / "x.tables"
    path.write_bytes(damage)
    assert _store(calls, "k1", path) == {"made for": "k1"} and calls == ["built"]
    assert _store(calls, "k1", path) == {"made for": "k1"} and calls == ["built", "loaded"]


def test_a_folder_that_cannot_be_written_means_no_cache_and_no_error(tmp_path):
    (tmp_path / "not_a_folder").write_text("", encoding="utf-8")
    path = tmp_path / "not_a_folder" / "x.tables"  # its folder cannot be made (root may write anywhere else)
    calls: list[str] = []
    assert _store(calls, "k1", path) == {"made for": "k1"}
    assert _store(calls, "k1", path) == {"made for": "k1"} and calls == ["built", "built"]


def test_a_parser_loaded_from_the_cache_reads_every_card_file_as_a_built_one(tmp_path):
    cache = tmp_path / "cards.lark.tables"
    built = card_parser(None)
    card_parser(cache)  # computes the tables and saves them
    saved = cache.stat().st_ino
    loaded = card_parser(cache)
    assert cache.stat().st_ino == saved  # loaded, not built and saved again
    for path in sorted((ROOT / "cards").rglob("*.card")):
        text = path.read_text(encoding="utf-8")
        assert _ToAst().transform(loaded.parse(text)) == _ToAst().transform(built.parse(text)), path
    broken = 'card "Broken" {\n    kind creature\n    cost 2 mana\n    stats power\n}\n'
    with pytest.raises(Exception) as from_built:
        built.parse(broken)
    with pytest.raises(Exception) as from_cache:
        loaded.parse(broken)
    assert str(from_cache.value) == str(from_built.value)
