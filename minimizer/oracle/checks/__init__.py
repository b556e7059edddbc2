"""The checks a ``Property`` is made of, one module each (see ``base`` for what a check is). The
registry (``checks()``) imports every module here, so adding a check is adding its file."""
from .base import SAME, Check, Missing, Trial, by_name, checks, failure_words, register
from .error import ErrorMatches
from .failure import Failure, Status
from .layout import LayoutDependent, LayoutResult
from .mismatch import Mismatch, MismatchEvidence
from .order import OrderDependent, OrderResult
from .schedulers import Schedulers
from .segments import Segments
from .shell import ShellResult, ShellTest, run_shell_test
from .slower import Slower, Timings

__all__ = ["SAME", "Check", "Missing", "Trial", "by_name", "checks", "failure_words", "register", "ErrorMatches",
           "Failure", "Status", "LayoutDependent", "LayoutResult", "Mismatch", "MismatchEvidence", "OrderDependent",
           "OrderResult", "Schedulers", "Segments", "ShellResult", "ShellTest", "run_shell_test", "Slower", "Timings"]
