"""The Ray backend of `cardc tournament --backend ray`: the games as Ray tasks, on a cluster or a local one.

Ray is imported here only (the optional extra `pip install 'cardc[ray]'`). The schedule is cut in chunks;
each task plays its games from the entries the driver read (sent once with ray.put), so the nodes need
cardc and its generated/ installed but not the deck files. Results are put back in schedule order, and
each game is seeded by its place in the schedule, so the figures are those of the local pool, byte for byte.
"""

from __future__ import annotations

import logging
import socket

import ray

from runtime.load import load_game
from tools.progress import Bar
from tools.tournament_play import BackendError, Game1, Played, play_one

CONNECT_SECONDS = 5.0  # Ray itself retries an unreachable cluster for minutes; a refused port fails at once
DEFAULT_PORT = 6379  # the port `ray start --head` listens on unless told otherwise

_LOADED: dict = {}  # in a Ray worker process: the setup of the last chunk and its game, loaded once


@ray.remote
def _play_chunk(setup: tuple, chunk: list[Game1]) -> list[Played]:
    """Return the results of a chunk of games, loading the game once per worker process and setup."""
    ruleset, options, lists, agent = setup
    if _LOADED.get("setup") != setup:
        _LOADED.update(setup=setup, game=load_game(ruleset).with_options(options))
    return [play_one(_LOADED["game"], lists, one, agent) for one in chunk]


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


def play_ray(ruleset: str, options: dict[str, str], lists: dict[str, list], todo: list[Game1], agent: str,
             workers: int, address: str | None, bar: Bar) -> list[Played]:
    """Return the result of every game, in schedule order, played as Ray tasks; bar counts the games."""
    started = connect(address, workers)
    try:
        return _play_chunks(ruleset, options, lists, todo, agent, bar)
    finally:
        if started:
            ray.shutdown()


def _play_chunks(ruleset: str, options: dict[str, str], lists: dict[str, list], todo: list[Game1], agent: str,
                 bar: Bar) -> list[Played]:
    """Return the results of the games, sent as chunks to the cluster's CPUs, in schedule order."""
    cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
    size = max(1, min(16, len(todo) // (cpus * 4)))  # small chunks: the bar moves, every CPU stays busy
    setup = ray.put((ruleset, options, lists, agent))
    pending = {_play_chunk.remote(setup, todo[i:i + size]): i for i in range(0, len(todo), size)}
    done: dict[int, list[Played]] = {}
    while pending:
        ready, _ = ray.wait(list(pending), num_returns=1)
        for ref in ready:
            done[pending.pop(ref)] = [bar.done(r) for r in ray.get(ref)]
    return [r for i in sorted(done) for r in done[i]]
