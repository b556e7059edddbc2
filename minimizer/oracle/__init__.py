"""Running scripts in worker processes and judging what they did."""
from .outcome import Outcome
from .pool import Pool, Pools, Request, Worker, run_script

__all__ = ["Outcome", "Pool", "Pools", "Request", "Worker", "run_script"]
