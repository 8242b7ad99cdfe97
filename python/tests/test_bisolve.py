"""Tests of the bisolve Python package: parsing, solving, verification, replay, arrays, the
batch in order, errors, limits, the GIL and Ctrl-C.

Run with ``pytest python/tests`` after ``pip install ./python[test]``.
"""

import os
import signal
import threading
import time
from collections import deque
from pathlib import Path

import pytest

import bisolve

REPO = Path(__file__).resolve().parents[2]
SHARED = REPO.parent / "shared" / "levels"


def read(path):
    return (REPO / path).read_text()


@pytest.fixture(scope="module")
def demo():
    return bisolve.parse(read("levels/demo.xsb"))


# A level no search finishes in seconds.
ENDLESS = read("levels/engine/endless.xsb")


def test_parse_gives_every_level_with_its_figures(demo):
    assert len(demo) == 10
    first = demo[0]
    assert first.title == "Warm-up" and first.index == 1
    assert (first.width, first.height, first.boxes) == (7, 5, 1)
    assert str(first).splitlines()[2] == "# @$ .#"
    assert repr(first) == '<bisolve.Level "Warm-up": 7x5, 1 box>'
    # str() is XSB that parses back to the same level.
    for level in demo:
        (again,) = bisolve.parse(str(level))
        assert again == level and hash(again) == hash(level)


def test_parse_reads_run_length_and_boxoban_text():
    (rle,) = bisolve.parse("5#\n#@$.#\n5#\n")
    assert str(rle) == "#####\n#@$.#\n#####"
    boxoban = "; 0\n#####\n#@$.#\n#####\n\n; 1\n######\n#@ $.#\n######\n"
    levels = bisolve.parse(boxoban)
    assert [lv.title for lv in levels] == ["0", "1"]


def test_a_bad_level_raises_value_error_naming_level_and_line():
    text = "; fine\n#####\n#@$.#\n#####\n\n; broken\n#####\n#@$ #\n#####\n"
    with pytest.raises(ValueError, match=r"line 7: level 2 \(\"broken\"\): 1 box"):
        bisolve.parse(text)
    with pytest.raises(ValueError):
        bisolve.parse("")
    with pytest.raises(ValueError, match="unknown character"):
        bisolve.parse("#####\n#@$X.#\n#####\n")
    with pytest.raises(ValueError):
        bisolve.solve("#####\n#@$ #\n#####\n")
    with pytest.raises(ValueError, match="expected one level"):
        bisolve.solve(read("levels/demo.xsb"))


def test_solve_finds_solutions_that_verify(demo):
    for level in demo:
        result = bisolve.solve(level, threads=1, time_limit=30)
        assert result.solved and bool(result) and result.status == "solved", level
        assert bisolve.verify(level, result.solution)
        assert len(result.solution) == result.moves
        assert sum(c.isupper() for c in result.solution) == result.pushes
        assert 1 <= result.box_changes <= result.box_lines <= result.pushes
        assert result.threads == 1 and result.states > 0 and result.seconds >= 0
        assert result.optimal is None
    # Text holding one level is a level too.
    assert bisolve.solve(str(demo[0]), threads=1).solved


def test_one_thread_repeats_itself(demo):
    runs = [bisolve.solve(demo[9], threads=1) for _ in range(2)]
    assert runs[0].solution == runs[1].solution and runs[0].states == runs[1].states


def test_an_unsolvable_level_is_proved_so():
    result = bisolve.solve(read("levels/edge/unsolvable-2x2.xsb"), threads=1, time_limit=30)
    assert result.status == "unsolvable" and not result.solved
    assert result.solution is None and result.moves is None and result.pushes is None
    assert result.box_lines is None and result.box_changes is None


def test_verify_rejects_what_does_not_solve(demo):
    level = demo[1]
    solution = bisolve.solve(level, threads=1).solution
    assert bisolve.verify(level, solution)
    assert not bisolve.verify(level, solution[:-1])
    assert not bisolve.verify(level, "")
    assert not bisolve.verify(level, "not moves")
    assert not bisolve.verify(level, "L" * 5)


def test_the_time_limit_holds():
    started = time.monotonic()
    result = bisolve.solve(ENDLESS, threads=1, time_limit=0.5)
    took = time.monotonic() - started
    assert result.status == "timeout" and not result.solved
    assert 0.4 < result.seconds < 5 and took < 10


def test_bad_arguments_raise_value_error(demo):
    for kwargs, message in [
        ({"time_limit": -1}, "time_limit"),
        ({"time_limit": float("nan")}, "time_limit"),
        ({"memory": 1000}, "memory"),
        ({"optimal": "sideways"}, "optimal"),
        ({"preset": "no-such-preset"}, "preset"),
    ]:
        with pytest.raises(ValueError, match=message):
            bisolve.solve(demo[0], **kwargs)
    with pytest.raises(ValueError):
        bisolve.solve(42)


def fewest_pushes(level):
    """Breadth-first search over pushes, in plain Python: the fewest pushes that solve a small
    level, or None."""
    rows = str(level).splitlines()
    width = max(map(len, rows))
    grid = [row.ljust(width) for row in rows]
    walls = {(x, y) for y, row in enumerate(grid) for x, c in enumerate(row) if c == "#"}
    goals = frozenset((x, y) for y, row in enumerate(grid) for x, c in enumerate(row) if c in ".*+")
    boxes = frozenset((x, y) for y, row in enumerate(grid) for x, c in enumerate(row) if c in "$*")
    player = next((x, y) for y, row in enumerate(grid) for x, c in enumerate(row) if c in "@+")
    steps = [(1, 0), (-1, 0), (0, 1), (0, -1)]

    def reach(player, boxes):
        seen, todo = {player}, [player]
        while todo:
            x, y = todo.pop()
            for dx, dy in steps:
                n = (x + dx, y + dy)
                if n not in seen and n not in walls and n not in boxes and 0 <= n[1] < len(grid):
                    seen.add(n)
                    todo.append(n)
        return seen

    def key(player, boxes):
        return (min(reach(player, boxes)), boxes)

    start = (player, boxes)
    seen = {key(*start)}
    queue = deque([(start, 0)])
    while queue:
        (player, boxes), pushes = queue.popleft()
        if boxes == goals:
            return pushes
        area = reach(player, boxes)
        for bx, by in boxes:
            for dx, dy in steps:
                if (bx - dx, by - dy) in area:
                    to = (bx + dx, by + dy)
                    if to not in walls and to not in boxes:
                        nxt = ((bx, by), (boxes - {(bx, by)}) | {to})
                        k = key(*nxt)
                        if k not in seen:
                            seen.add(k)
                            queue.append((nxt, pushes + 1))
    return None


def test_push_optimal_solutions_match_brute_force():
    for level in bisolve.parse(read("levels/engine/optimal.xsb")):
        result = bisolve.solve(level, optimal="pushes", time_limit=30)
        assert result.solved and result.optimal == "pushes", level.title
        assert bisolve.verify(level, result.solution)
        assert result.pushes == fewest_pushes(level), level.title


def test_the_two_optimal_modes_differ_where_they_should(demo):
    # "Double back": the fewest pushes cost 43 moves, the fewest moves need 16 pushes.
    level = next(l for l in demo if l.title == "Double back")
    pushes = bisolve.solve(level, optimal="pushes", threads=2, time_limit=30)
    moves = bisolve.solve(level, optimal="moves", threads=2, time_limit=30)
    assert (pushes.optimal, pushes.moves, pushes.pushes) == ("pushes", 43, 12)
    assert (moves.optimal, moves.moves, moves.pushes) == ("moves", 39, 16)
    assert pushes.lower_bound is None and bisolve.verify(level, moves.solution)


def test_a_cut_off_optimal_solve_gives_a_lower_bound():
    result = bisolve.solve(ENDLESS, optimal="pushes", threads=1, time_limit=0.3)
    assert result.status == "timeout" and result.optimal is None
    assert result.lower_bound is not None and result.lower_bound >= 1


def test_solve_many_keeps_the_input_order(demo):
    # Big levels first, so a level that ends early cannot take an earlier slot.
    levels = list(reversed(demo)) * 3
    seen = []
    results = bisolve.solve_many(levels, jobs=2, time_limit=30, progress=seen.append)
    assert len(results) == len(levels)
    for level, result in zip(levels, results):
        assert result.solved and bisolve.verify(level, result.solution), level.title
    assert seen and seen == sorted(seen) and seen[-1] == len(levels)
    # Texts are levels too, and an empty batch is no work.
    assert bisolve.solve_many([str(demo[0])], jobs=1)[0].solved
    assert bisolve.solve_many([]) == []
    with pytest.raises(ValueError):
        bisolve.solve_many([demo[0], "#####\n#@$ #\n#####\n"])


def test_solve_many_with_a_progress_bar_returns_the_same(demo):
    plain = bisolve.solve_many(demo, jobs=1, threads_per_level=1)
    shown = bisolve.solve_many(demo, jobs=1, threads_per_level=1, progress=True)
    assert [r.solution for r in plain] == [r.solution for r in shown]


def test_solve_many_on_boxoban_levels():
    path = SHARED / "boxoban-hard-000.txt"
    if not path.exists():
        pytest.skip(f"{path} is absent")
    levels = bisolve.parse(path.read_text())[:50]
    results = bisolve.solve_many(levels, time_limit=30)
    assert all(r.solved for r in results)
    assert all(bisolve.verify(lv, r.solution) for lv, r in zip(levels, results))


def test_solving_releases_the_gil():
    counted = 0
    running = True

    def count():
        nonlocal counted
        while running:
            counted += 1
            time.sleep(0.001)

    counter = threading.Thread(target=count)
    counter.start()
    try:
        result = bisolve.solve(ENDLESS, threads=1, time_limit=1.0)
    finally:
        running = False
        counter.join()
    assert result.status == "timeout"
    # A held GIL would let the counter run only between the solve's polls, if at all; a
    # loaded machine still gives it hundreds of turns in a second.
    assert counted > 50, counted


@pytest.mark.skipif(os.name != "posix", reason="SIGINT from a timer needs POSIX")
def test_ctrl_c_stops_a_running_solve_promptly():
    # A process started in the background by a shell inherits SIGINT ignored, and Python then
    # raises nothing for it; the test sets Python's own handler for its duration. The time
    # limit only keeps a lost signal from running the endless level to the memory limit: the
    # test then fails in half a minute.
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        for run in (
            lambda: bisolve.solve(ENDLESS, threads=1, time_limit=30),
            lambda: bisolve.solve_many([ENDLESS] * 4, jobs=2, time_limit=30),
        ):
            timer = threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT))
            started = time.monotonic()
            timer.start()
            with pytest.raises(KeyboardInterrupt):
                run()
            took = time.monotonic() - started
            timer.join()
            assert took < 5, took
    finally:
        signal.signal(signal.SIGINT, before)


def test_replay_gives_the_positions_along_a_solution(demo):
    level = demo[9]
    result = bisolve.solve(level, threads=1)
    every = bisolve.replay(level, result.solution)
    assert len(every) == result.moves + 1 and every[0] == level
    pushes = bisolve.replay(level, result.solution, pushes_only=True)
    assert len(pushes) == result.pushes + 1
    assert pushes[-1] == every[-1]
    last = every[-1].to_array()
    assert (last[3] == last[2]).all(), "every box on a goal at the end"
    assert all(p.boxes == level.boxes and p.title == level.title for p in every)
    with pytest.raises(ValueError, match="character 1"):
        bisolve.replay(level, "X")
    with pytest.raises(ValueError, match="wall"):
        bisolve.replay(demo[0], "lll")


def test_arrays_round_trip(demo):
    np = pytest.importorskip("numpy")
    for level in demo:
        planes = level.to_array()
        assert planes.shape == (5, level.height, level.width) and planes.dtype == np.uint8
        wall, floor, goal, box, player = planes
        assert player.sum() == 1 and box.sum() == goal.sum() == level.boxes
        assert not (wall & floor).any() and not (box & wall).any()
        assert (floor >= box).all() and (floor >= player).all()
        assert bisolve.Level.from_grid(planes) == level
        assert bisolve.Level.from_grid(planes.tolist(), title="t").title == "t"
    with pytest.raises(ValueError, match="planes"):
        bisolve.Level.from_grid(demo[0].to_array()[:4])
    with pytest.raises(ValueError):
        bisolve.Level.from_grid("not a grid")
