"""`python -m kg` runs the `kg` command."""
from kg.cli import run

run()
