"""A real headless Chromium for the page tests (tests/test_gallery.py, tests/test_viewer.py).

It runs the system's chromium through the system's chromedriver (the Debian packages `chromium` and
`chromium-driver`; .ci/run installs them), never a downloaded browser, and collects the console's
messages so a test can assert that a page raised no error.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.remote.webdriver import WebDriver

ROOT = Path(__file__).resolve().parent.parent
SCREENSHOTS = ROOT / "docs" / "screenshots"


def _binary(name: str, fallback: str) -> str:
    """Return the path of a system program (on PATH, else its Debian place)."""
    return shutil.which(name) or fallback


@contextmanager
def chromium(width: int = 1280, height: int = 900) -> Iterator[WebDriver]:
    """Yield a headless Chromium driven by the system chromedriver; it is closed afterwards."""
    options = webdriver.ChromeOptions()
    options.binary_location = _binary("chromium", "/usr/bin/chromium")
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 f"--window-size={width},{height}", "--hide-scrollbars", "--force-device-scale-factor=1"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(options=options, service=Service(_binary("chromedriver", "/usr/bin/chromedriver")))
    try:
        yield driver
    finally:
        driver.quit()


def console_errors(driver: WebDriver) -> list[str]:
    """Return the console's error messages since the last call (SEVERE: errors, failed loads)."""
    return [entry["message"] for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]


def screenshot(driver: WebDriver, name: str, tmp_path: Path) -> Path:
    """Save a screenshot: into docs/screenshots/ with CARDC_UPDATE_SCREENSHOTS=1, else into tmp_path."""
    folder = SCREENSHOTS if os.environ.get("CARDC_UPDATE_SCREENSHOTS") == "1" else tmp_path
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    driver.save_screenshot(str(path))
    return path
