"""Measurements kept out of the importable package: they time and count, and their figures go to docs/."""
