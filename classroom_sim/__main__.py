"""``python -m classroom_sim``: the same as the classroom-sim command."""

import sys

from .cli import main

sys.exit(main())
