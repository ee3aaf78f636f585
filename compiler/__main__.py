"""`python -m compiler ...` is the `cardc` command."""

import sys

from compiler.cli import main

sys.exit(main())
