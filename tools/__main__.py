"""`python -m tools ...` is the `cardc` command."""

import sys

from tools.cli import main

sys.exit(main())
