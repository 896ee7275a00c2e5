"""``python -m solver.hitthedeck``: the Hit the Deck command line (see :mod:`solver.hitthedeck.cli`)."""

import sys

from .cli import main

raise SystemExit(main(sys.argv[1:]))
