"""`python -m kg` runs the `kg` command."""
import sys

from kg.cli import main

sys.exit(main())
