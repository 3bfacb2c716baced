"""``python -m zsim``: the command line, as the ``zsim`` script runs it."""

from zsim.cli import main

if __name__ == "__main__":
    main()
