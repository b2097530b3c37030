"""`python -m pacman`: the same as the `pacman` command."""

import sys

from pacman.cli import main

sys.exit(main())
