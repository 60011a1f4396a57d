from jsgym.cli import main
import sys

sys.exit(main())
