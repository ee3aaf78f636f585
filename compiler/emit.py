"""Stage 4: template context -> black-formatted Python source.

Public entry point: `render(template, context) -> str`. The Jinja environment is strict: an
undefined name is an error, never an empty string, and nothing is autoescaped or reformatted
except by black.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import black
import jinja2

TEMPLATES = Path(__file__).resolve().parent / "templates"
BLACK_MODE = black.Mode(line_length=100, target_versions={black.TargetVersion.PY311})


@lru_cache(maxsize=1)
def _env() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(TEMPLATES)),
        undefined=jinja2.StrictUndefined,
        autoescape=False,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )


def render(template: str, context: dict) -> str:
    """Return the rendered template, formatted by black."""
    code = _env().get_template(template).render(**context)
    return black.format_str(code, mode=BLACK_MODE)
