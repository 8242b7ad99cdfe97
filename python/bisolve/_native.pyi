"""Type stubs of bisolve's native module (re-exported by the ``bisolve`` package)."""

from typing import Any, Callable, Iterable, List, Optional, Union

import numpy

__version__: str

class Level:
    """A valid Sokoban level. ``str(level)`` gives its XSB text."""

    @property
    def title(self) -> Optional[str]:
        """The title the file gives the level, or None."""
    @property
    def index(self) -> int:
        """The 1-based position of the level in the text it was parsed from."""
    @property
    def width(self) -> int:
        """Columns of the board (the longest row)."""
    @property
    def height(self) -> int:
        """Rows of the board."""
    @property
    def boxes(self) -> int:
        """The number of boxes (and of goals)."""
    def to_array(self) -> "numpy.ndarray":
        """A uint8 array of shape (5, height, width): planes wall, floor, goal, box, player."""
    @staticmethod
    def from_grid(grid: Any, title: Optional[str] = None) -> "Level":
        """A level from a (5, height, width) grid in the convention of ``to_array``."""
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

class Result:
    """The result of a solve."""

    solved: bool
    status: str
    solution: Optional[str]
    moves: Optional[int]
    pushes: Optional[int]
    box_lines: Optional[int]
    box_changes: Optional[int]
    seconds: float
    states: int
    optimal: Optional[str]
    lower_bound: Optional[int]
    threads: int
    strategy: str
    def __bool__(self) -> bool: ...

def parse(text: str) -> List[Level]:
    """Every level of XSB or SOK text, in order; ValueError names a level that is not valid."""

def solve(
    level: Union[Level, str],
    *,
    threads: Optional[int] = None,
    time_limit: Optional[float] = None,
    memory: Optional[int] = None,
    optimal: Optional[str] = None,
    preset: Optional[str] = None,
) -> Result: ...
def solve_many(
    levels: Iterable[Union[Level, str]],
    *,
    jobs: Optional[int] = None,
    threads_per_level: int = 1,
    time_limit: Optional[float] = None,
    memory: Optional[int] = None,
    optimal: Optional[str] = None,
    preset: Optional[str] = None,
    progress: Optional[Callable[[int], object]] = None,
) -> List[Result]: ...
def verify(level: Union[Level, str], lurd: str) -> bool:
    """True when the LURD moves solve the level."""

def replay(level: Union[Level, str], lurd: str, *, pushes_only: bool = False) -> List[Level]:
    """The start and the position after each move (or each push) as Levels."""
