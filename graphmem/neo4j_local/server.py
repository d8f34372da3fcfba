"""Run a real Neo4j 5.26 server on this machine, without Docker or a Neo4j tarball.

The package ships two sources (``java/pom.xml`` and ``java/Launcher.java``). On install
they are copied into a home folder (the user's cache, ``~/.cache/graphmem/neo4j-local``
on Linux, unless configured), Maven resolves the community server and Neo4j Browser
jars into ``home/lib`` once, and after that every start is offline. The launcher runs
them as a small Java program (Bolt and HTTP on 127.0.0.1, Browser at ``/browser/``).
Nothing is written inside the package, so a ``pip install graphmem`` can run it too. :class:`LocalNeo4j`
installs, starts, stops and reports on that process, so the CLI (``graphmem neo4j ...``),
``make test`` and the test fixtures share one way of getting a Neo4j.

"""

from __future__ import annotations

import fcntl
import hashlib
import os
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import platformdirs
from pydantic import BaseModel, ConfigDict, Field, SecretStr, model_validator

from graphmem.errors import SetupError
from graphmem.neo4j_local.system import (
    check_java_version,
    find_executable,
    is_launcher_process,
    port_free,
    port_open,
    send_password,
    signal_pid,
)

SOURCES = Path(__file__).resolve().parent / "java"
"""``pom.xml`` and ``Launcher.java`` as shipped in the package; copied to the home on install."""
SOURCE_FILES = ("pom.xml", "Launcher.java")


def default_home() -> Path:
    """Where the jars, the compiled launcher and the default data folder live."""
    return platformdirs.user_cache_path("graphmem", appauthor=False) / "neo4j-local"

_MARKER = ".installed"
_READY_LINE = b"graphmem-launcher: ready"  # printed by Launcher.java once the password is set
# java.nio, java.io and sun.nio.ch are opened for Neo4j's off-heap page cache and Netty.
_JVM_FLAGS = (
    "--add-opens=java.base/java.nio=ALL-UNNAMED",
    "--add-opens=java.base/java.io=ALL-UNNAMED",
    "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
    "-XX:+ExitOnOutOfMemoryError",
    "-Dfile.encoding=UTF-8",
)


class LocalNeo4jConfig(BaseModel):
    """Where the local server lives and how it listens. Built by the CLI or a test fixture."""

    model_config = ConfigDict(frozen=True)

    home: Path = Field(default_factory=default_home)
    """Folder for the copied sources, ``lib/`` (jars, compiled launcher) and ``data/``."""
    data_dir: Path | None = None
    """Store, Neo4j's own logs, ``neo4j.log`` and ``neo4j.pid.json``; ``home/data`` when unset."""
    bolt_port: int = Field(default=7687, ge=1, le=65535)
    http_port: int = Field(default=7474, ge=1, le=65535)
    auth: bool = False
    password: SecretStr | None = None
    heap: str = Field(default="1g", pattern=r"^\d+[mMgG]$")
    page_cache_mb: int = Field(default=512, ge=16)
    quick_start: bool = True
    """JIT with C1 only: halved the JVM's start-up CPU (10.3 s -> 5.7 s) and kept the speed
    of 3,000 small queries; turn off for long, heavy benchmarks, where C2 code pays off."""
    start_timeout: float = Field(default=120.0, gt=0)
    stop_timeout: float = Field(default=30.0, gt=0)
    java: str = "java"
    mvn: str = "mvn"

    @model_validator(mode="after")
    def _check_auth(self) -> LocalNeo4jConfig:
        if self.auth and (self.password is None or len(self.password.get_secret_value()) < 8):
            raise ValueError("auth needs a password of at least 8 characters (Neo4j's minimum)")
        if self.bolt_port == self.http_port:
            raise ValueError("bolt_port and http_port must differ")
        return self

    @property
    def data_path(self) -> Path:
        return (self.data_dir or self.home / "data").resolve()


class LocalNeo4jStatus(BaseModel):
    """What :meth:`LocalNeo4j.status` reports; also returned by :meth:`LocalNeo4j.start`."""

    running: bool
    pid: int | None
    bolt_listening: bool
    bolt_uri: str
    browser_url: str
    auth: bool
    data_dir: Path
    log_file: Path


class _RunRecord(BaseModel):
    pid: int
    bolt_port: int
    http_port: int
    auth: bool


class LocalNeo4j:
    """Controls one local Neo4j process, identified by the pid file in its data folder.

    The server runs detached (its own session), so it outlives the Python process that
    started it; any later ``LocalNeo4j`` with the same data folder can stop it.
    """

    def __init__(self, config: LocalNeo4jConfig | None = None) -> None:
        self.config = config or LocalNeo4jConfig()
        self._process: subprocess.Popen[bytes] | None = None

    @property
    def log_file(self) -> Path:
        return self.config.data_path / "neo4j.log"

    @property
    def run_file(self) -> Path:
        """The pid file: pid, ports and auth of the running server, as JSON."""
        return self.config.data_path / "neo4j.pid.json"

    def install(self) -> bool:
        """Copy the sources into the home and resolve the jars into ``home/lib`` with Maven.

        Maven runs unless already done: a marker file records the sha256 of ``pom.xml``
        and is written only after Maven succeeded, so an interrupted copy or a changed
        pom (a newer graphmem) triggers a fresh copy. Returns True when Maven ran.
        """
        home = self.config.home
        home.mkdir(parents=True, exist_ok=True)
        lib = home / "lib"
        marker = lib / _MARKER
        with _install_lock(home):  # parallel test sessions share one lib/
            _copy_sources(home)
            digest = _sha256(home / "pom.xml")
            if marker.is_file() and marker.read_text().strip() == digest:
                return False
            mvn = find_executable(self.config.mvn, "Maven", "apt-get install maven")
            # Jars of an older pom would sit beside the new ones on the classpath: start clean.
            shutil.rmtree(lib, ignore_errors=True)
            command = [
                mvn, "-q", "-B", "dependency:copy-dependencies",
                "-DoutputDirectory=lib", "-DincludeScope=runtime",
            ]
            done = subprocess.run(command, cwd=home, capture_output=True, text=True, check=False)
            if done.returncode != 0:
                tail = (done.stdout + done.stderr).strip()[-2000:]
                raise SetupError(
                    f"Maven could not fetch the Neo4j jars (exit {done.returncode}):\n{tail}"
                )
            marker.write_text(digest + "\n")
            return True

    def start(self) -> LocalNeo4jStatus:
        """Start the server and wait until Bolt answers; a no-op if it already runs.

        Raises SetupError when Java or Maven is missing, a port is taken, or the server
        is not ready within ``start_timeout`` (the process is then stopped again).
        """
        if self._running_record() is not None:
            return self.status()
        java = find_executable(self.config.java, "Java", "apt-get install openjdk-17-jdk-headless")
        check_java_version(java)
        self.install()
        launcher = self._compiled_launcher(java)
        for name, port, option in (
            ("Bolt", self.config.bolt_port, "--bolt-port"),
            ("HTTP", self.config.http_port, "--http-port"),
        ):
            if not port_free(port):
                raise SetupError(
                    f"port {port} is taken (wanted for {name}): stop what listens there "
                    f"or choose another port with {option}"
                )
        data = self.config.data_path
        data.mkdir(parents=True, exist_ok=True)
        self._process = self._spawn(java, launcher, data)
        record = _RunRecord(
            pid=self._process.pid,
            bolt_port=self.config.bolt_port,
            http_port=self.config.http_port,
            auth=self.config.auth,
        )
        self.run_file.write_text(record.model_dump_json() + "\n")
        try:
            self._wait_ready()
        except SetupError:
            self.stop()
            raise
        return self.status()

    def stop(self) -> bool:
        """Stop the server: SIGTERM (clean shutdown), then SIGKILL after ``stop_timeout``.

        Returns False when nothing was running.
        """
        record = self._running_record()
        if record is None:
            self.run_file.unlink(missing_ok=True)
            return False
        pid = record.pid
        signal_pid(pid, signal.SIGTERM)
        if not self._wait_exit(pid, self.config.stop_timeout):
            signal_pid(pid, signal.SIGKILL)
            self._wait_exit(pid, 10.0)
        self.run_file.unlink(missing_ok=True)
        self._process = None
        return True

    def status(self) -> LocalNeo4jStatus:
        """Report whether the server runs and whether its Bolt port accepts connections.

        Ports and auth come from the pid file while the server runs (it may have been
        started with other options than this object's), else from the config.
        """
        record = self._running_record()
        shown = record or _RunRecord(
            pid=0,
            bolt_port=self.config.bolt_port,
            http_port=self.config.http_port,
            auth=self.config.auth,
        )
        return LocalNeo4jStatus(
            running=record is not None,
            pid=record.pid if record else None,
            bolt_listening=record is not None and port_open(shown.bolt_port),
            bolt_uri=f"bolt://127.0.0.1:{shown.bolt_port}",
            browser_url=f"http://127.0.0.1:{shown.http_port}/browser/",
            auth=shown.auth,
            data_dir=self.config.data_path,
            log_file=self.log_file,
        )

    def _compiled_launcher(self, java: str) -> Path:
        """Compile Launcher.java once per content into ``lib/launcher-<hash>/``.

        Source launch recompiles on every start, which cost 2.5 s of a 7 s start here.
        Launcher.java stays runnable as a source file; this is only a cache.
        """
        source = self.config.home / "Launcher.java"
        classes = self.config.home / "lib" / f"launcher-{_sha256(source)[:16]}"
        if (classes / "Launcher.class").is_file():
            return classes
        javac = Path(java).resolve().parent / "javac"
        if not javac.is_file():
            raise SetupError(f"no javac beside {java}: Neo4j's launcher needs a JDK, not a JRE")
        scratch = Path(tempfile.mkdtemp(prefix=".launcher-", dir=classes.parent))
        try:
            classpath = str(self.config.home / "lib" / "*")
            command = [str(javac), "-nowarn", "-d", str(scratch), "-cp", classpath, str(source)]
            done = subprocess.run(command, capture_output=True, text=True, check=False)
            if done.returncode != 0:
                errors = done.stderr.strip()[-2000:]
                raise SetupError(f"javac could not compile {source}:\n{errors}")
            try:
                scratch.rename(classes)
            except OSError:
                pass  # a parallel start compiled the same source first
        finally:
            shutil.rmtree(scratch, ignore_errors=True)
        return classes

    def _spawn(self, java: str, launcher: Path, data: Path) -> subprocess.Popen[bytes]:
        config = self.config
        classpath = os.pathsep.join([str(launcher), str(config.home / "lib" / "*")])
        command = [
            java, f"-Xms{config.heap}", f"-Xmx{config.heap}", *_JVM_FLAGS,
            *(["-XX:TieredStopAtLevel=1"] if config.quick_start else []),
            "-cp", classpath, "Launcher",
            f"--data-dir={data}",
            f"--bolt-port={config.bolt_port}",
            f"--http-port={config.http_port}",
            f"--auth={'true' if config.auth else 'false'}",
            f"--page-cache={config.page_cache_mb}",
        ]
        with open(self.log_file, "wb") as log:
            process = subprocess.Popen(
                command,
                stdin=subprocess.PIPE,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # survives the CLI and Ctrl-C in the starting shell
            )
        send_password(process.stdin, config.password if config.auth else None)
        return process

    def _wait_ready(self) -> None:
        import neo4j  # a required dependency, imported late to keep the CLI quick

        config = self.config
        auth = None
        if config.auth and config.password is not None:
            auth = ("neo4j", config.password.get_secret_value())
        transient = (neo4j.exceptions.Neo4jError, neo4j.exceptions.DriverError, OSError)
        deadline = time.monotonic() + config.start_timeout
        last_error = "no answer yet"
        uri = f"bolt://127.0.0.1:{config.bolt_port}"
        with neo4j.GraphDatabase.driver(uri, auth=auth, connection_timeout=2.0) as driver:
            while time.monotonic() < deadline:
                if self._process is not None and self._process.poll() is not None:
                    raise SetupError(
                        f"Neo4j exited during start (exit code {self._process.returncode})"
                        f"{self._launcher_complaint()}, see log {self.log_file}"
                    )
                # Probing before the launcher has set the password would trip Neo4j's lock
                # after 3 failed logins (5 s), so wait for its ready line first.
                if not self._launcher_ready():
                    last_error = "launcher not ready yet"
                else:
                    try:
                        driver.verify_connectivity()
                        return
                    except transient as err:
                        last_error = f"{type(err).__name__}: {err}"
                time.sleep(0.25)
        raise SetupError(
            f"Neo4j not ready in {config.start_timeout:g} s, see log {self.log_file} "
            f"(last attempt: {last_error})"
        )

    def _launcher_ready(self) -> bool:
        try:
            return _READY_LINE in self.log_file.read_bytes()
        except OSError:
            return False

    def _launcher_complaint(self) -> str:
        """The launcher's own last error line ("Neo4j failed to start: ..."), if any."""
        try:
            lines = self.log_file.read_text(errors="replace").splitlines()
        except OSError:
            return ""
        complaints = [line for line in lines if line.startswith("graphmem-launcher: ")]
        return f": {complaints[-1].removeprefix('graphmem-launcher: ')[:500]}" if complaints else ""

    def _running_record(self) -> _RunRecord | None:
        try:
            record = _RunRecord.model_validate_json(self.run_file.read_bytes())
        except (OSError, ValueError):
            return None
        return record if self._alive(record.pid) else None

    def _alive(self, pid: int) -> bool:
        if self._process is not None and self._process.pid == pid:
            return self._process.poll() is None  # also reaps it, so no zombie lingers
        return is_launcher_process(pid)

    def _wait_exit(self, pid: int, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if not self._alive(pid):
                return True
            time.sleep(0.1)
        return not self._alive(pid)

def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@contextmanager
def _install_lock(home: Path) -> Iterator[None]:
    with open(home / ".install.lock", "a+b") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def _copy_sources(home: Path) -> None:
    """Put the package's pom.xml and Launcher.java in the home, where Maven and javac run."""
    for name in SOURCE_FILES:
        shipped, copy = SOURCES / name, home / name
        if not copy.is_file() or _sha256(copy) != _sha256(shipped):
            scratch = home / f".{name}.tmp"
            shutil.copyfile(shipped, scratch)
            scratch.replace(copy)
