"""`cardc gallery`: the page of a real ruleset in a real headless Chromium (tests/browser.py): every card
shown, the search box and the filters, the link to the generated class, card text that stays text."""

from __future__ import annotations

import inspect
import shutil
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from tests.browser import chromium, console_errors, screenshot
from tests.conftest import ROOT, generated_package
from tools.cli import main
from tools.gallery import gallery_files, write_folder

RULESET = "code_of_joker"
HOSTILE_NAME = "Moth <img src=x onerror='window.pwned=1'>"
HOSTILE_TEXT = "</script><b id='injected'>bold</b> & <!-- more"


@pytest.fixture(scope="module")
def pool():
    """The compiled Code of Joker cards, by name (what the gallery must show)."""
    import generated.code_of_joker as module

    return module.CARDS


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """The gallery of Code of Joker, written by the real command."""
    out = tmp_path_factory.mktemp("gallery") / "site"
    assert main(["--root", str(ROOT), "gallery", RULESET, "-o", str(out), "--no-build"]) == 0
    return out


@pytest.fixture(scope="module")
def browser():
    with chromium() as driver:
        yield driver


def _open(browser, page: Path) -> None:
    browser.get(page.as_uri())
    console_errors(browser)  # start from a clean console for each test's page


def _shown(browser) -> list[str]:
    """Return the names of the cards the page shows now."""
    return browser.execute_script("return Array.from(document.querySelectorAll('.card'))"
                                  ".filter(c => c.offsetParent !== null).map(c => c.dataset.name)")


def test_every_card_of_the_pool_is_shown_without_console_errors(browser, site, pool, tmp_path):
    browser.get((site / "index.html").as_uri())
    assert console_errors(browser) == []
    assert sorted(_shown(browser)) == sorted(pool)
    assert browser.find_element(By.ID, "count").text == f"{len(pool)} of {len(pool)} cards"
    shown = browser.execute_script("return Object.fromEntries(Array.from(document.querySelectorAll('.card'))"
                                   ".map(c => [c.dataset.name, Array.from(c.querySelectorAll('.rules p'), p => p.textContent).join('\\n')]))")
    assert shown == {name: card.rules for name, card in pool.items()}  # the rendered rules text, line by line
    screenshot(browser, "gallery.png", tmp_path)


def test_a_battle_ruleset_shows_every_sword_state_and_swordsman(browser, tmp_path):
    import generated.marguerite as module

    out = tmp_path / "marguerite"
    assert main(["--root", str(ROOT), "gallery", "marguerite", "-o", str(out), "--no-build"]) == 0
    browser.get((out / "index.html").as_uri())
    assert console_errors(browser) == []
    assert sorted(_shown(browser)) == sorted(module.CARDS)
    Select(browser.find_element(By.ID, "keyword")).select_by_value("Delayed")
    assert sorted(_shown(browser)) == sorted(n for n, c in module.CARDS.items() if "Delayed" in dict(c.keywords))


def test_the_search_box_leaves_the_card_named(browser, site, pool):
    _open(browser, site / "index.html")
    name = sorted(pool)[len(pool) // 2]
    browser.find_element(By.ID, "search").send_keys(name)
    shown = _shown(browser)
    assert name in shown and len(shown) < len(pool)
    assert all(name.lower() in browser.find_element(By.CSS_SELECTOR, f'.card[data-name="{n}"]').text.lower()
               for n in shown)
    assert console_errors(browser) == []


@pytest.mark.parametrize("select, value, wanted", [
    ("kind", "joker", lambda c: c.kind == "joker"),
    ("cost", "2", lambda c: sum(c.cost.values()) == 2 and bool(c.cost)),
    ("keyword", "Penetrate", lambda c: "Penetrate" in {k for k, _a in c.keywords}),
])
def test_each_filter_shows_exactly_the_matching_cards(browser, site, pool, select, value, wanted):
    _open(browser, site / "index.html")
    Select(browser.find_element(By.ID, select)).select_by_value(value)
    expected = sorted(name for name, card in pool.items() if wanted(card))
    assert expected and len(expected) < len(pool)
    assert sorted(_shown(browser)) == expected


def test_filters_and_search_combine(browser, site, pool):
    _open(browser, site / "index.html")
    Select(browser.find_element(By.ID, "kind")).select_by_value("unit")
    Select(browser.find_element(By.ID, "cost")).select_by_value("1")
    expected = sorted(n for n, c in pool.items() if c.kind == "unit" and sum(c.cost.values()) == 1)
    assert sorted(_shown(browser)) == expected
    browser.find_element(By.ID, "search").send_keys(expected[0])
    assert expected[0] in _shown(browser) and len(_shown(browser)) < len(expected)


def test_the_class_link_opens_the_code_page_at_the_class_line(browser, site, pool):
    _open(browser, site / "index.html")
    name = sorted(n for n, c in pool.items() if c.abilities)[0]
    card = browser.find_element(By.CSS_SELECTOR, f'.card[data-name="{name}"]')
    card.find_element(By.CSS_SELECTOR, "a.class-link").click()
    cls = pool[name]
    line = inspect.getsourcelines(cls)[1]  # the interpreter's own idea of where the class starts
    assert browser.current_url.endswith(f"code/{cls.__module__.rpartition('.')[2]}.html#L{line}")
    target = browser.find_element(By.CSS_SELECTOR, ".line:target")
    assert target.get_attribute("id") == f"L{line}"
    assert target.text.endswith(f"class {cls.__name__}(CardDef):")
    assert f'name = "{name}"' in browser.find_element(By.ID, f"L{line + 1}").text
    assert console_errors(browser) == []


def test_the_output_is_deterministic_and_stays_in_its_folder(site, tmp_path):
    again = tmp_path / "again"
    assert main(["--root", str(ROOT), "gallery", RULESET, "-o", str(again), "--no-build"]) == 0
    files = sorted(p.relative_to(site) for p in site.rglob("*") if p.is_file())
    assert files == sorted(p.relative_to(again) for p in again.rglob("*") if p.is_file())
    assert all((site / f).read_bytes() == (again / f).read_bytes() for f in files)


def test_a_folder_that_is_a_file_is_refused(tmp_path, capsys):
    out = tmp_path / "taken"
    out.write_text("mine", encoding="utf-8")
    assert main(["--root", str(ROOT), "gallery", RULESET, "-o", str(out), "--no-build"]) == 2
    assert f"cardc gallery: {out} is a file, not a folder" in capsys.readouterr().err
    assert out.read_text(encoding="utf-8") == "mine"


def test_a_link_out_of_the_folder_is_refused(tmp_path, capsys):
    out, elsewhere = tmp_path / "site", tmp_path / "elsewhere"
    elsewhere.mkdir()
    out.mkdir()
    (out / "code").symlink_to(elsewhere)
    assert main(["--root", str(ROOT), "gallery", RULESET, "-o", str(out), "--no-build"]) == 2
    assert "leads outside" in capsys.readouterr().err
    assert list(elsewhere.iterdir()) == []


@pytest.fixture(scope="module")
def hostile_site(tmp_path_factory) -> Path:
    """A gallery of Simple Duel with one more card whose name and text are markup, built for real."""
    from compiler.build import build

    root = tmp_path_factory.mktemp("hostile")
    shutil.copytree(ROOT / "cards" / "simple_duel", root / "cards" / "simple_duel")
    card = (f'\ncard "{HOSTILE_NAME}" {{\n    kind creature\n    cost 1 mana\n    stats power 1, speed 5\n'
            f'    text "{HOSTILE_TEXT}"\n}}\n')
    with (root / "cards" / "simple_duel" / "creatures.card").open("a", encoding="utf-8") as fh:
        fh.write(card)
    build(root)
    out = root / "site"
    with generated_package(root, "simple_duel"):
        write_folder(out, gallery_files("simple_duel"))
    return out


def test_card_markup_is_shown_as_text(browser, hostile_site):
    browser.get((hostile_site / "index.html").as_uri())
    assert console_errors(browser) == []
    assert browser.find_elements(By.ID, "injected") == [] and browser.find_elements(By.TAG_NAME, "img") == []
    assert browser.execute_script("return window.pwned === undefined")
    browser.find_element(By.ID, "search").send_keys("Moth <img")
    card = browser.find_element(By.CSS_SELECTOR, ".card:not([hidden])")
    assert card.find_element(By.CLASS_NAME, "name").text == HOSTILE_NAME
    assert card.find_element(By.CLASS_NAME, "text").text == HOSTILE_TEXT
    card.find_element(By.CSS_SELECTOR, "a.class-link").click()
    assert browser.find_elements(By.ID, "injected") == [] and browser.find_elements(By.TAG_NAME, "img") == []
    assert HOSTILE_NAME in browser.find_element(By.CSS_SELECTOR, ".line:target + .line").text
