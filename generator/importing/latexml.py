"""Run LaTeXML on a paper's source, sandboxed, and read what it says.

A paper's LaTeX is code: TeX reads any file the user can (``\\input{/etc/passwd}``)
and writes where it is told. LaTeXML runs inside bubblewrap with the system's
programs and TeX files read-only, the source folder read-only, a scratch folder as
the only place it may write, no network, no other process in sight and nothing of
the user's home, with limits on time, memory and the size of what it writes.
A source that tries to read outside its folder finds nothing there.

TikZ and pgfplots pictures are skipped, not typeset (``bindings/``): stock LaTeXML
can spend minutes drawing them, and the import needs only the figures' captions.
"""

from __future__ import annotations

import os
import re
import resource
import shutil
import signal
import subprocess
import time
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from ..errors import PaperdeckError

TIME_LIMIT = 300
"""Seconds LaTeXML may take for one paper (the Transformer's takes about 12 on a quiet 2-core machine)."""
MEMORY_LIMIT = 4 * 1024**3
"""Bytes of address space LaTeXML may use (it needs about 250 MB for a 15-page paper)."""
WRITE_LIMIT = 512 * 1024**2
"""Largest file LaTeXML may write, in bytes."""

INSTALL = (
    "LaTeXML is not installed: install it with `sudo apt install latexml` "
    "(Debian, Ubuntu; Homebrew: `brew install latexml`), then run the import again"
)
INSTALL_SANDBOX = (
    "bubblewrap is not installed: the import runs LaTeX only inside its sandbox; "
    "install it with `sudo apt install bubblewrap`, then run the import again"
)

SOURCE = "/paper/source"
"""Where the sandbox shows the source folder (read-only)."""
SCRATCH = "/paper/out"
"""Where the sandbox shows the scratch folder, the one place LaTeXML may write."""
BINDINGS = "/paper/bindings"
"""Where the sandbox shows paperdeck's stand-in bindings (``bindings/``)."""
SYSTEM = ("/usr", "/etc/texmf", "/var/lib/texmf", "/etc/perl", "/etc/alternatives")
"""What LaTeXML needs of the system, read-only: programs, Perl, TeX Live and their settings."""

_MESSAGE = re.compile(
    r"^(Warning|Error|Fatal):(\S+?):(\S*) (.*?)(?: at (\S+?); line (\d+)(?: col \d+)?)?\s*$"
)
_AT = re.compile(r"^\s+at (\S+?); line (\d+)")


class ImportFailure(PaperdeckError):
    """The import cannot go on: LaTeXML is missing, failed, or the source is unusable."""


@dataclass(frozen=True)
class Message:
    """One of LaTeXML's errors or warnings."""

    severity: str
    """``warning``, ``error`` or ``fatal``."""
    category: str
    """LaTeXML's category: ``undefined``, ``missing_file``, ``expected``, …"""
    what: str
    """What it is about (the undefined macro, the missing file)."""
    text: str
    """LaTeXML's words."""
    file: str = ""
    """The source file, relative to the source folder, when LaTeXML names one."""
    line: int = 0
    """The line in that file, 0 when unknown."""

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}: " if self.file else ""
        return f"{where}{self.severity}: {self.text}"


@dataclass(frozen=True)
class Conversion:
    """What a LaTeXML run made."""

    xml: Path
    """LaTeXML's XML of the paper, in the scratch folder."""
    messages: tuple[Message, ...]
    """Its errors and warnings, in order."""
    seconds: float
    """How long LaTeXML took."""
    cpu_seconds: float = 0.0
    """The processor time it used (user and system): what a busy machine does not inflate."""

    def count(self, severity: str) -> int:
        return sum(1 for m in self.messages if m.severity == severity)


def find_tools() -> tuple[str, str]:
    """The paths of ``latexml`` and ``bwrap``, or a one-line ``ImportFailure`` saying how to install them."""
    latexml = shutil.which("latexml")
    if latexml is None:
        raise ImportFailure(INSTALL)
    bwrap = shutil.which("bwrap")
    if bwrap is None:
        raise ImportFailure(INSTALL_SANDBOX)
    return latexml, bwrap


def sandbox_command(bwrap: str, source: Path, scratch: Path, bindings: Path, command: list[str]) -> list[str]:
    """``command`` run by bubblewrap: the system read-only, ``source`` read-only at
    ``SOURCE``, ``scratch`` writable at ``SCRATCH``, nothing else of the machine, no network."""
    args = [
        bwrap,
        "--unshare-all",
        "--die-with-parent",
        "--new-session",
        "--proc",
        "/proc",
        "--dev",
        "/dev",
        "--tmpfs",
        "/tmp",
    ]
    for folder in SYSTEM:
        if Path(folder).is_dir():
            args += ["--ro-bind", folder, folder]
    for link in ("bin", "lib", "lib64", "sbin"):  # merged /usr: /bin -> usr/bin
        target = Path("/") / link
        if target.is_symlink():
            args += ["--symlink", os.readlink(target), f"/{link}"]
        elif target.is_dir():
            args += ["--ro-bind", str(target), f"/{link}"]
    args += [
        "--ro-bind",
        str(source),
        SOURCE,
        "--ro-bind",
        str(bindings),
        BINDINGS,
        "--bind",
        str(scratch),
        SCRATCH,
        "--chdir",
        SOURCE,
        "--clearenv",
        "--setenv",
        "PATH",
        "/usr/bin:/bin",
        "--setenv",
        "HOME",
        SCRATCH,
        "--setenv",
        "LANG",
        "C.UTF-8",
        "--setenv",
        "TEXMFVAR",
        f"{SCRATCH}/texmf-var",
        # bindings/policy.xml: ImageMagick runs no Ghostscript on the figures (see there)
        "--setenv",
        "MAGICK_CONFIGURE_PATH",
        BINDINGS,
        "--",
    ]
    return args + command


def _limits() -> None:
    # Runs in the child before bwrap starts: the limits hold for LaTeXML and all it runs.
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
    resource.setrlimit(resource.RLIMIT_FSIZE, (WRITE_LIMIT, WRITE_LIMIT))
    resource.setrlimit(resource.RLIMIT_CPU, (2 * TIME_LIMIT, 2 * TIME_LIMIT))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def convert(source: Path, main: str, scratch: Path, *, time_limit: float = TIME_LIMIT) -> Conversion:
    """Convert ``main`` (a path relative to ``source``) to LaTeXML's XML in ``scratch``."""
    latexml, bwrap = find_tools()
    scratch.mkdir(parents=True, exist_ok=True)
    with resources.as_file(resources.files(__package__) / "bindings") as bindings:
        # sh's `times` after LaTeXML: the processor time it used (bubblewrap's own accounting
        # loses the sandbox's processes).
        command = sandbox_command(
            bwrap,
            source.resolve(),
            scratch.resolve(),
            bindings,
            [
                "/bin/sh",
                "-c",
                f'"$@"; status=$?; times > {SCRATCH}/cpu-times; exit $status',
                "sh",
                latexml,
                f"--path={BINDINGS}",
                f"--dest={SCRATCH}/paper.xml",
                f"--log={SCRATCH}/latexml.log",
                # --noparse: formulas keep their LaTeX (``tex``), which is all the import and the
                # source index read; LaTeXML's own math parsing is about a sixth of its time.
                "--noparse",
                "--nocomments",
                "--inputencoding=utf-8",
                main,
            ],
        )
        started = time.monotonic()
        process = subprocess.Popen(
            command,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            preexec_fn=_limits,
            start_new_session=True,
        )
        try:
            _, stderr = process.communicate(timeout=time_limit)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
            raise ImportFailure(
                f"LaTeXML took longer than {time_limit:g} s on {main} and was stopped; nothing was imported"
            ) from None
        seconds = time.monotonic() - started
        cpu = _cpu_seconds(scratch / "cpu-times")
    log = scratch / "latexml.log"
    text = log.read_text("utf-8", "replace") if log.is_file() else stderr.decode("utf-8", "replace")
    messages = tuple(read_messages(text))
    xml = scratch / "paper.xml"
    if process.returncode != 0 or not xml.is_file() or xml.stat().st_size == 0:
        fatal = next((m for m in messages if m.severity == "fatal"), None) or next(
            (m for m in messages if m.severity == "error"), None
        )
        said = str(fatal) if fatal else _last_line(stderr.decode("utf-8", "replace"))
        raise ImportFailure(f"LaTeXML could not convert {main}: {said}")
    return Conversion(xml, messages, seconds, cpu)


def _cpu_seconds(path: Path) -> float:
    # `times` prints the shell's own user and system time, then its children's: "0m15.20s 0m0.34s".
    try:
        lines = path.read_text("utf-8").splitlines()
    except OSError:
        return 0.0
    found = re.findall(r"(\d+)m([\d.]+)s", lines[-1]) if lines else []
    return sum(int(m) * 60 + float(s) for m, s in found)


def _last_line(text: str) -> str:
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[-1] if lines else "it stopped without a message"


def read_messages(log: str) -> list[Message]:
    """LaTeXML's errors and warnings in a log, each with its file and line when it names them
    (on the message's line, or on the ``at FILE; line N`` line under it)."""
    found = []
    lines = log.splitlines()
    for i, line in enumerate(lines):
        match = _MESSAGE.match(line)
        if match is None:
            continue
        severity, category, what, text, file, number = match.groups()
        if category in ("uninitialized", "perl"):  # LaTeXML's own Perl warnings: nothing the author can fix
            continue
        if not file and i + 1 < len(lines):
            at = _AT.match(lines[i + 1])
            if at is not None:
                file, number = at.groups()
        file = file or ""
        if file.startswith(SOURCE + "/"):
            file = file[len(SOURCE) + 1 :]
        elif file.startswith("/") or file.startswith("Anonymous"):
            file = ""
        found.append(Message(severity.lower(), category, what, text.strip(), file, int(number or 0)))
    return found


__all__ = ["Conversion", "ImportFailure", "Message", "convert", "find_tools", "read_messages"]
