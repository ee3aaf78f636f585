"""The Ray backend of `cardc tournament --backend ray`: the games as Ray tasks, on a cluster or a local one.

Ray is imported here only (the optional extra `pip install 'cardc[ray]'`). The schedule is cut in chunks;
each task plays its games from the entries the driver read (the Contest, sent once with ray.put), so the nodes need
cardc and its generated/ installed but not the deck files. Results are put back in schedule order, and
each game is seeded by its place in the schedule, so the figures are those of the local pool, byte for byte.
"""

from __future__ import annotations

import logging
import socket

import ray

from tools.progress import Bar
from tools.tournament_play import BackendError, Contest, Game1, Played, play_game

CONNECT_SECONDS = 5.0  # Ray itself retries an unreachable cluster for minutes; a refused port fails at once
DEFAULT_PORT = 6379  # the port `ray start --head` listens on unless told otherwise

_LOADED: dict = {}  # in a Ray worker process: the contest of the last chunk and its ruleset, loaded once


@ray.remote
def _play_chunk(contest: Contest, chunk: list[Game1]) -> list[Played]:
    """Return the results of a chunk of games, loading the ruleset once per worker process and contest."""
    if _LOADED.get("contest") != contest:
        _LOADED.update(contest=contest, loaded=contest.load())
    return [play_game(_LOADED["loaded"], contest, one) for one in chunk]


def address_problem(address: str) -> str:
    """Return why the Ray cluster at address cannot be reached ('' when its port answers, or for 'auto')."""
    if address == "auto":
        return ""
    host, colon, port = address.removeprefix("ray://").rpartition(":")
    host, port = (host, port) if colon else (port, str(DEFAULT_PORT))
    if not host or not port.isdigit():
        return f"--address {address}: expected HOST:PORT (or ray://HOST:PORT, or auto)"
    try:
        socket.create_connection((host, int(port)), timeout=CONNECT_SECONDS).close()
    except OSError as err:
        return f"cannot reach the Ray cluster at {address}: {err.strerror or err}"
    return ""


def connect(address: str | None, workers: int) -> bool:
    """Join the cluster at address, or start a local one of `workers` CPUs; return whether to shut it down
    after (not when this process had already joined one)."""
    if ray.is_initialized():
        return False
    if address is None:
        ray.init(address="local", num_cpus=max(1, workers), include_dashboard=False, log_to_driver=False,
                 logging_level=logging.ERROR)
        return True
    problem = address_problem(address)
    if problem:
        raise BackendError(problem)
    try:
        ray.init(address=address, log_to_driver=False, logging_level=logging.ERROR)
    except (ConnectionError, RuntimeError, ValueError) as err:
        raise BackendError(f"cannot join the Ray cluster at {address}: {str(err).splitlines()[0]}") from None
    return True


def play_ray(contest: Contest, todo: list[Game1], workers: int, address: str | None, bar: Bar) -> list[Played]:
    """Return the result of every game, in schedule order, played as Ray tasks; bar counts the games."""
    started = connect(address, workers)
    try:
        return _play_chunks(contest, todo, bar)
    finally:
        if started:
            ray.shutdown()


def _play_chunks(contest: Contest, todo: list[Game1], bar: Bar) -> list[Played]:
    """Return the results of the games, sent as chunks to the cluster's CPUs, in schedule order."""
    cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
    size = max(1, min(16, len(todo) // (cpus * 4)))  # small chunks: the bar moves, every CPU stays busy
    sent = ray.put(contest)
    pending = {_play_chunk.remote(sent, todo[i:i + size]): i for i in range(0, len(todo), size)}
    done: dict[int, list[Played]] = {}
    while pending:
        ready, _ = ray.wait(list(pending), num_returns=1)
        for ref in ready:
            done[pending.pop(ref)] = [bar.done(r) for r in ray.get(ref)]
    return [r for i in sorted(done) for r in done[i]]
