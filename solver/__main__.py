"""``python -m solver``: the command line (see :mod:`solver.cli`)."""

from .cli import main

raise SystemExit(main())
