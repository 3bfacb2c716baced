"""The walls around an isolated strategy's process (``zsim.runner.isolate``), on Linux without
root where the kernel allows it, and what is left of them elsewhere.

Always (any POSIX system): the process starts in a session and process group of its own, with
no descriptor of the worker but its socket (standard input and output are ``/dev/null``), in a
scratch working directory of its own, and under resource limits: ``RLIMIT_FSIZE`` (no file
larger than ``FILE_MIB``), ``RLIMIT_NOFILE`` (``OPEN_FILES`` descriptors), ``RLIMIT_NPROC``
(no new process or thread: it needs none; the kernel does not hold root to it), no core files,
and its address space (``isolate.py``).

Where ``unshare`` can make user namespaces (most Linux systems; ``sandboxed()`` says whether
this one can), the process also runs in namespaces of its own, made without root:

- a PID namespace, of which it is process 1: nothing it starts can outlive it (the kernel
  kills every process of the namespace with process 1), every process it started in a game
  is killed when that game ends (``isolate.Isolated.game_over``), and it cannot see nor signal
  any process of the run (the worker, the run's process);
- a network namespace with no interface up: it opens no connection, local or remote;
- a mount namespace in which every file system is read-only, the run directory is covered by
  an empty read-only file system, and its scratch directory is a small file system in memory
  (``SCRATCH_MIB``). The mounts are locked by a second user namespace, so that the process,
  though "root" in its namespaces, can neither remove nor remount them.

It can still read the files its user may read (outside the run directory), and spend CPU time
up to its decision time limit.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import resource
import shutil
import subprocess
import time

FILE_MIB = 64  # the largest file it may write (in its scratch directory)
SCRATCH_MIB = 64  # its scratch directory's size, in the namespaces
OPEN_FILES = 64  # descriptors it may hold at once
REAP_SECONDS = 5.0  # the most a game's end waits for what the strategy started to be gone
UNSHARE = ("--user", "--map-root-user", "--pid", "--fork", "--kill-child", "--mount", "--net")
_MS_RDONLY, _MS_NOSUID, _MS_NODEV, _MS_NOEXEC = 1, 2, 4, 8
_MS_REMOUNT, _MS_BIND, _MS_REC, _MS_PRIVATE = 32, 4096, 16384, 1 << 18
_MS_NOATIME, _MS_NODIRATIME, _MS_RELATIME = 1024, 2048, 1 << 21
_FLAGS = {"ro": _MS_RDONLY, "nosuid": _MS_NOSUID, "nodev": _MS_NODEV, "noexec": _MS_NOEXEC,
          "noatime": _MS_NOATIME, "nodiratime": _MS_NODIRATIME, "relatime": _MS_RELATIME}
_CLONE_NEWNS, _CLONE_NEWUSER = 0x00020000, 0x10000000
_KERNEL_FILE_SYSTEMS = ("proc", "sysfs", "cgroup", "cgroup2", "devpts", "mqueue")
_prefix: list[str] | None = None


class SandboxError(OSError):
    """The namespaces were made, but the walls in them could not be put up."""


def prefix() -> list[str]:
    """The command that starts a process in namespaces of its own, or [] where none can be
    made here (asked once per process: it runs ``unshare`` once)."""
    global _prefix
    if _prefix is None:
        _prefix = []
        tool = shutil.which("unshare")
        if tool is not None:
            command = [tool, *UNSHARE]
            with contextlib.suppress(OSError, subprocess.SubprocessError):
                done = subprocess.run([*command, "true"], stdin=subprocess.DEVNULL,
                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                      timeout=30, check=False)
                if done.returncode == 0:
                    _prefix = command
    return _prefix


def sandboxed() -> bool:
    """Whether an isolated strategy gets namespaces of its own on this machine."""
    return bool(prefix())


def enclose(hidden: list[str], scratch: str) -> bool:
    """Put up the walls, in the process 1 of the namespaces ``prefix`` made (False, doing
    nothing, in a process that is not: no namespaces here)."""
    if os.getpid() != 1:
        return False
    libc = ctypes.CDLL(None, use_errno=True)

    def mount(source: str | None, target: str, kind: str | None, flags: int,
              data: str | None = None) -> None:
        if libc.mount(_bytes(source), _bytes(target), _bytes(kind), ctypes.c_ulong(flags),
                      _bytes(data)) != 0:
            number = ctypes.get_errno()
            raise SandboxError(number, f"mount {target}: {os.strerror(number)}")

    mount(None, "/", None, _MS_REC | _MS_PRIVATE)  # nothing done here shows outside
    mounts = _mounts()
    mount("zsim-scratch", scratch, "tmpfs", _MS_NOSUID | _MS_NODEV,
          f"size={SCRATCH_MIB}m,mode=0700")
    for path in hidden:
        mount("zsim-hidden", path, "tmpfs", _MS_RDONLY | _MS_NOSUID | _MS_NODEV | _MS_NOEXEC,
              "size=4k,mode=0")
    for target, kind, flags in mounts:
        if kind in _KERNEL_FILE_SYSTEMS or target in hidden or target == scratch:
            continue
        try:
            mount(None, target, None, _MS_REMOUNT | _MS_BIND | _MS_RDONLY | flags)
        except SandboxError:
            if target == "/":
                raise
    os.chdir(scratch)
    # A second user namespace locks the mounts as they stand: not to be removed nor remounted.
    if libc.unshare(_CLONE_NEWUSER | _CLONE_NEWNS) != 0:
        number = ctypes.get_errno()
        raise SandboxError(number, f"unshare: {os.strerror(number)}")
    for name, text in (("setgroups", "deny"), ("uid_map", "0 0 1"), ("gid_map", "0 0 1")):
        with open(f"/proc/self/{name}", "w", encoding="ascii") as file:
            file.write(text)
    return True


def limit() -> None:
    """The resource limits (after the strategy is built: building it opens its files)."""
    for which, value in ((resource.RLIMIT_FSIZE, FILE_MIB * 1024 * 1024),
                         (resource.RLIMIT_NOFILE, OPEN_FILES), (resource.RLIMIT_NPROC, 0),
                         (resource.RLIMIT_CORE, 0)):
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(which, (value, value))


def kill_strays() -> None:
    """Kill every other process of the namespace (as its process 1): what the strategy started
    in a game does not outlive it."""
    if os.getpid() != 1:
        return
    deadline = time.monotonic() + REAP_SECONDS
    while time.monotonic() < deadline:  # killed again each time: one may have forked meanwhile
        with contextlib.suppress(OSError):
            os.kill(-1, 9)
        try:
            if os.waitpid(-1, os.WNOHANG)[0] == 0:
                time.sleep(0.001)  # a killed process is not gone at once
        except ChildProcessError:  # none left
            return


def _mounts() -> list[tuple[str, str, int]]:
    """(mount point, file system type, flags to keep) of every mount, parents first."""
    found = []
    with open("/proc/self/mountinfo", encoding="utf-8") as info:
        for line in info:
            fields = line.split()
            dash = fields.index("-")
            target = fields[4].encode().decode("unicode_escape")
            flags = 0
            for option in fields[5].split(","):
                flags |= _FLAGS.get(option, 0)
            found.append((target, fields[dash + 1], flags & ~_MS_RDONLY))
    return found


def _bytes(text: str | None) -> bytes | None:
    return None if text is None else os.fsencode(text)
