"""Stage 4: template context -> Python source in black's style.

Public entry point: `render(template, context) -> str`. The Jinja environment is strict: an
undefined name is an error, never an empty string, and nothing is autoescaped. The templates write
black's layout; compiler/layout.py settles quotes and runs black on the few statements it could change.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import jinja2

from compiler.layout import BLACK_MODE, black_style

TEMPLATES = Path(__file__).resolve().parent / "templates"
__all__ = ["BLACK_MODE", "render", "render_text"]


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


def render_text(template: str, context: dict) -> str:
    """Return the rendered template as the templates write it, before compiler/layout.py."""
    return _env().get_template(template).render(**context)


def render(template: str, context: dict) -> str:
    """Return the rendered template in black's style."""
    return black_style(render_text(template, context))
