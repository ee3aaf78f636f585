"""The tools: the cardc command and what it runs (play, scenarios, fuzzing, replay, tournaments).

They sit on top of the compiler and the runtime; nothing in compiler/ or runtime/ imports them.
"""

from importlib import metadata


def version() -> str:
    """Return the installed cardc package's version (a note when run from a folder never installed)."""
    try:
        return metadata.version("cardc")
    except metadata.PackageNotFoundError:
        return "(not installed: no package metadata)"
