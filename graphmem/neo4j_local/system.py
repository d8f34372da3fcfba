"""What the local Neo4j's manager asks of the operating system: Java, ports, processes.

Kept apart from :mod:`graphmem.neo4j_local.server` so the server's logic reads as
install, start, wait, stop, and each probe here can be tested on its own.
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
from contextlib import ExitStack
from pathlib import Path
from typing import IO

from pydantic import SecretStr

from graphmem.errors import SetupError

MIN_JAVA = 17
def signal_pid(pid: int, signum: int) -> None:
    try:
        os.kill(pid, signum)
    except ProcessLookupError:
        pass  # it exited on its own meanwhile




def send_password(stdin: IO[bytes] | None, password: SecretStr | None) -> None:
    # Through stdin rather than argv or the environment, where other tools would see it.
    if stdin is None:
        return
    try:
        if password is not None:
            stdin.write(password.get_secret_value().encode() + b"\n")
        stdin.close()
    except BrokenPipeError:
        pass  # the JVM died at once; _wait_ready reports it with the log


def find_executable(name: str, what: str, hint: str) -> str:
    found = shutil.which(name)
    if found is None:
        raise SetupError(f"{what} not found (looked for {name!r}); install it, e.g. `{hint}`")
    return found


def check_java_version(java: str) -> None:
    done = subprocess.run([java, "-version"], capture_output=True, text=True, check=False)
    match = re.search(r'version "(\d+)(?:\.(\d+))?', done.stderr + done.stdout)
    if match is None:
        raise SetupError(f"could not tell the version of {java}: {done.stderr.strip()[:300]}")
    major = int(match.group(1))
    if major == 1:  # "1.8.0_392" style
        major = int(match.group(2) or 0)
    if major < MIN_JAVA:
        raise SetupError(f"Neo4j 5.26 needs Java {MIN_JAVA} or newer; {java} is Java {major}")


def free_ports(count: int) -> list[int]:
    """Ports the OS reports free right now (all bound at once, so they are distinct)."""
    with ExitStack() as stack:
        sockets = [stack.enter_context(socket.socket()) for _ in range(count)]
        for sock in sockets:
            sock.bind(("127.0.0.1", 0))
        return [int(sock.getsockname()[1]) for sock in sockets]


def port_free(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        # As Netty does: lets a just-stopped server's TIME_WAIT sockets not count as "taken".
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def port_open(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.settimeout(0.5)
        return sock.connect_ex(("127.0.0.1", port)) == 0


def is_launcher_process(pid: int) -> bool:
    """True when pid is alive and runs Launcher.java, so a recycled pid is never signalled."""
    proc = Path(f"/proc/{pid}")
    if proc.is_dir():
        try:
            state = (proc / "stat").read_text().rsplit(")", 1)[1].split()[0]
            cmdline = (proc / "cmdline").read_bytes()
        except OSError:
            return False
        return state != "Z" and b"Launcher" in cmdline
    try:  # no /proc (macOS): trust the pid file
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
