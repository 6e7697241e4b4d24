"""Connecting to a Dask scheduler: a client within seconds, or one line saying why not (never a hang).

`connect` checks a TCP address with one plain connection that must receive a Dask handshake
before Dask's own client tries, so a silent port, an HTTP server (the dashboard) or another
service's banner are refused in time; `import_distributed` names the extra to install.
"""

from __future__ import annotations

import contextlib
import importlib
import logging
import socket
import struct
import time
from collections.abc import Iterator
from types import ModuleType
from typing import TYPE_CHECKING

from azul_fast.core.errors import AzulFastError

if TYPE_CHECKING:
    from distributed import Client

__all__ = ["CONNECT_TIMEOUT", "SchedulerUnreachableError", "connect", "import_distributed", "own_client_quiet"]

#: Seconds a scheduler has to greet a new connection (it does so at once; a service that is not
#: one never does) before SchedulerUnreachableError. With Python's start, a command given a wrong
#: address ends within 5 s.
CONNECT_TIMEOUT = 2.0
#: The largest first message a scheduler sends (its handshake: a few dozen bytes of msgpack).
_HANDSHAKE_MAX_BYTES = 1 << 16
_INSTALL_HINT = 'Running on a Dask cluster needs the dask extra: pip install "azul_fast[dask]"'


class SchedulerUnreachableError(AzulFastError, ConnectionError):
    """No Dask scheduler answered at the given address in time."""


def import_distributed() -> ModuleType:
    # import_module, not `import distributed`: typed as a module whether or not the dask extra is
    # installed (without it mypy sees the import as Any and --strict rejects returning it).
    try:
        return importlib.import_module("distributed")
    except ImportError as error:
        raise ImportError(_INSTALL_HINT) from error


def connect(distributed: ModuleType, address: object, timeout: float) -> Client:
    """A client for `address`, or a one-line error within `timeout` seconds (never a hang)."""
    if not isinstance(address, str):
        raise ValueError(f"scheduler must be an address such as 'tcp://host:8786', got {address!r}")
    deadline = time.monotonic() + timeout
    scheme, location = distributed.comm.parse_address(address, strict=False)
    if scheme == "tcp":  # other schemes (tls, ucx, inproc) go straight to Dask
        try:
            host, port = distributed.comm.parse_host_port(location)
            if not 0 < port < 65536:
                raise ValueError(f"port {port} is not in 1..65535")
        except ValueError as error:  # no port, a port that is not a number, ...
            raise _malformed(address, error) from None
        _expect_scheduler(address, host, port, deadline)
    # Made in two steps so that a failed connection can be let go: Client.__del__ would otherwise try
    # to close it, wait seconds, and print a traceback after the one-line error.
    client: Client = distributed.Client.__new__(distributed.Client)
    try:
        distributed.Client.__init__(client, address, timeout=timeout, set_as_default=False)
    except BaseException as error:
        _abandon(client)
        if isinstance(error, ValueError):  # malformed: an unknown scheme (http://), inproc:// without its parts
            raise _malformed(address, error) from None
        if isinstance(error, TypeError):  # tls:// without security settings, ucx:// without ucx
            raise ValueError(f"scheduler {address!r}: Dask cannot connect to it from here ({error}); a tls:// "
                             "scheduler needs security settings: pass client=distributed.Client(address, "
                             "security=...)") from None
        if isinstance(error, OSError):  # refused, unknown host, timed out
            raise _unreachable(address, f"no answer within {timeout:g} s: {error}") from None
        raise
    return client


@contextlib.contextmanager
def own_client_quiet() -> Iterator[None]:
    """Only critical log records from Dask's client while a run uses its own: a lost scheduler is
    reported by SchedulerLostError, in one line, not also by the client's reconnection errors."""
    logger = logging.getLogger("distributed.client")
    level = logger.level
    logger.setLevel(logging.CRITICAL)
    try:
        yield
    finally:
        logger.setLevel(level)


def _abandon(client: Client) -> None:
    """Mark a client whose constructor failed as closed and stop its event loop thread."""
    client.status = "closed"
    runner = getattr(client, "_loop_runner", None)
    if runner is not None:
        runner.stop()


def _expect_scheduler(address: str, host: str, port: int, deadline: float) -> None:
    """Check that a Dask scheduler listens at host:port before Dask's client tries, by its first message.

    A scheduler greets every connection with its handshake (a frame length, then msgpack naming
    its pickle protocol) before reading anything. A silent service or an HTTP server (the
    dashboard's port) never sends one, and Dask's client would wait for ever; another service's
    banner would be read by Dask as an absurd frame length. Only this address is contacted.
    """
    try:
        with socket.create_connection((host, port), timeout=max(0.01, deadline - time.monotonic())) as sock:
            header = _receive(sock, 8, deadline)
            (size,) = struct.unpack("Q", header)  # as Dask's TCP comm frames a message, in native order
            if not 16 <= size <= _HANDSHAKE_MAX_BYTES:
                raise _not_dask(address, f"it sent {header!r}")
            greeting = _receive(sock, size, deadline)
    except TimeoutError:
        raise _not_dask(address, "it accepted the connection but sent nothing; is it the dashboard's port?") from None
    except OSError as error:  # refused, unknown host, unreachable network
        raise _unreachable(address, error.strerror or str(error)) from None
    if b"pickle-protocol" not in greeting:
        raise _not_dask(address, f"its first message was {greeting[:40]!r}...")


def _receive(sock: socket.socket, n: int, deadline: float) -> bytes:
    """Exactly `n` bytes from `sock` by `deadline` (socket.timeout if they do not come)."""
    data = b""
    while len(data) < n:
        sock.settimeout(max(0.01, deadline - time.monotonic()))
        chunk = sock.recv(n - len(data))
        if not chunk:
            raise ConnectionResetError(0, f"the connection closed after {len(data)} bytes")
        data += chunk
    return data


def _malformed(address: str, error: ValueError) -> ValueError:
    return ValueError(f"scheduler {address!r} is not a Dask address such as 'tcp://host:8786' ({error})")


def _not_dask(address: str, why: str) -> SchedulerUnreachableError:
    return SchedulerUnreachableError(
        f"no Dask scheduler at {address!r}: {why} (a scheduler listens on port 8786 unless told otherwise)")


def _unreachable(address: str, why: str) -> SchedulerUnreachableError:
    return SchedulerUnreachableError(
        f"no Dask scheduler answered at {address!r} ({why}); "
        "start one with `dask scheduler` and workers with `dask worker tcp://HOST:8786`"
    )
