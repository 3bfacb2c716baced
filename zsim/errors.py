"""The base of the project's user errors.

A ``UserError`` is an error a user can fix (a file, a key, a name, a directory or a missing
package): the command line shows its message in one line, with no traceback, and exits with an
error status. An error that is not one of them is a bug, and its traceback is wanted. A user
error also derives from the built-in class it refines (``ValueError``, ``OSError``...), so that
code catching that class still catches it.
"""

from __future__ import annotations


class UserError(Exception):
    """An error a user can fix, shown in one line."""
