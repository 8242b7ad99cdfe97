"""bisolve: a fast, exact Sokoban solver.

Parse levels, solve them (one at a time or many in parallel), check solutions and replay them
into positions::

    import bisolve
    level = bisolve.parse(open("level.xsb").read())[0]
    result = bisolve.solve(level, time_limit=10)
    if result.solved:
        print(result.moves, result.pushes, result.solution)

Solving runs in native threads with the GIL released; Ctrl-C stops it within milliseconds.
"""

from typing import Callable, Iterable, List, Optional, Union

from . import _native
from ._native import Level, Result, __version__, parse, replay, verify

__all__ = ["Level", "Result", "parse", "solve", "solve_many", "verify", "replay", "__version__"]


def solve(
    level: Union[Level, str],
    *,
    threads: Optional[int] = None,
    time_limit: Optional[float] = None,
    memory: Optional[int] = None,
    optimal: Optional[str] = None,
    preset: Optional[str] = None,
) -> Result:
    """Solves one level (a Level, or XSB text holding exactly one).

    threads: worker threads; None or 0 means every core, 1 is deterministic.
    time_limit: seconds, or None for no limit.
    memory: bytes the search may hold; None means 60% of the machine's memory.
    optimal: None, or "pushes" for a solution with the fewest pushes (A* on one thread,
        which proves it; the result's ``optimal`` is then "pushes").
    preset: a named set of search options (None: "default").

    Returns a Result whose ``status`` says how the solve ended ("solved", "unsolvable",
    "timeout", "memory" or "cancelled"); a solve cut off by a limit is not an error. Raises
    ValueError for a bad level or argument, and KeyboardInterrupt on Ctrl-C after the solve
    has stopped.
    """
    return _native.solve(
        level, threads=threads, time_limit=time_limit, memory=memory, optimal=optimal, preset=preset
    )


def solve_many(
    levels: Iterable[Union[Level, str]],
    *,
    jobs: Optional[int] = None,
    threads_per_level: int = 1,
    time_limit: Optional[float] = 60.0,
    memory: Optional[int] = None,
    optimal: Optional[str] = None,
    preset: Optional[str] = None,
    progress: Union[bool, Callable[[int], object]] = False,
) -> List[Result]:
    """Solves many levels in parallel inside this process; returns their results in input order.

    jobs: levels solved at once (None: every core), each on ``threads_per_level`` threads.
    time_limit: seconds per level (default 60; None for no limit).
    memory: bytes per level (None: 60% of the machine's memory shared among the jobs).
    optimal, preset: as for ``solve``.
    progress: True shows a tqdm bar when tqdm is installed (nothing otherwise); a callable is
        called with the number of levels done whenever it grows.

    Raises ValueError for a bad level or argument before anything runs, and KeyboardInterrupt
    on Ctrl-C after every running solve has stopped.
    """
    levels = list(levels)
    bar = None
    callback = None
    if callable(progress):
        callback = progress
    elif progress:
        try:
            from tqdm.auto import tqdm
        except ImportError:
            tqdm = None
        if tqdm is not None:
            bar = tqdm(total=len(levels), unit="level")

            def callback(done: int) -> None:
                bar.update(done - bar.n)

    try:
        return _native.solve_many(
            levels,
            jobs=jobs,
            threads_per_level=threads_per_level,
            time_limit=time_limit,
            memory=memory,
            optimal=optimal,
            preset=preset,
            progress=callback,
        )
    finally:
        if bar is not None:
            bar.close()
