"""The lock of a run directory: one ``zsim run`` at a time plays into a directory.

Two runs started into the same ``--out`` would both find it empty and mix their games in one set
of tables; a ``--resume`` of a run that is still playing would play its chunks twice. So a run
holds ``run.lock`` for its whole life: an exclusive ``flock`` on the file, which also records
the holder's process id for the messages. The system drops the lock when the process ends,
however it ends, so a lock left by a killed run is stale at once: the next ``--resume`` takes it
over. A new run creates the file exclusively before it checks that the directory is otherwise
empty, so of two runs started together only one gets past the check. A worker process forked
from the run's process closes its copy of the lock's file descriptor as it starts: otherwise
the lock would outlive a killed run for as long as its workers take to notice.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
from pathlib import Path

from zsim.errors import UserError

LOCK = "run.lock"
_HELD: set[int] = set()  # the descriptors of the locks this process holds


def _forget_held() -> None:
    """In a forked child: close the held locks' descriptors, which are the parent's to keep."""
    for fd in _HELD:
        with contextlib.suppress(OSError):
            os.close(fd)
    _HELD.clear()


os.register_at_fork(after_in_child=_forget_held)


class LockError(UserError, OSError):
    """The run directory is in use by another process."""


class RunLock:
    """The lock held on a run directory; ``release`` (or the end of the process) drops it."""

    def __init__(self, out: Path, fd: int) -> None:
        self.out, self._fd = out, fd
        _HELD.add(fd)

    def release(self) -> None:
        """Remove the lock file, then drop the lock (in this order, so that whoever opened the
        file meanwhile sees it is gone and tries again)."""
        if self._fd < 0:
            return
        (self.out / LOCK).unlink(missing_ok=True)
        _HELD.discard(self._fd)
        os.close(self._fd)
        self._fd = -1

    def __enter__(self) -> RunLock:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


def create(out: Path) -> RunLock:
    """Lock a directory for a new run; ``FileExistsError`` when a lock file is already there
    (the directory then holds another run, playing or not)."""
    fd = os.open(out / LOCK, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o644)
    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # nobody else has it open yet
    _record_pid(fd)
    return RunLock(out, fd)


def acquire(out: Path) -> RunLock:
    """Lock an existing run directory, taking over a stale lock; ``LockError`` naming the
    process that holds it otherwise."""
    path = out / LOCK
    while True:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as error:
            holder = _read_pid(fd)
            os.close(fd)
            if error.errno not in (errno.EAGAIN, errno.EACCES):
                raise
            raise LockError(f"{out}: another zsim run (process {holder or 'unknown'}) is "
                            f"playing into this directory; wait for it to end, or stop it "
                            f"first") from None
        try:
            same = os.fstat(fd).st_ino == os.stat(path).st_ino
        except FileNotFoundError:
            same = False
        if same:
            _record_pid(fd)
            return RunLock(out, fd)
        os.close(fd)  # released and removed while we waited: try the new file


def _record_pid(fd: int) -> None:
    os.ftruncate(fd, 0)
    os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)


def _read_pid(fd: int) -> str:
    try:
        return os.pread(fd, 32, 0).decode().strip()
    except (OSError, UnicodeDecodeError):
        return ""
