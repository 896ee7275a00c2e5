"""``python -m solver``: the command line (see :mod:`solver.cli`)."""

from solver.cli import main

raise SystemExit(main())
