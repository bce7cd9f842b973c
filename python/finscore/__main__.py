import sys

from finscore.cli import main

sys.exit(main())
