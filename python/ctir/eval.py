"""The reference interpreter: run a module's functions on numpy arrays."""

from ._ctir import eval as _eval

run = _eval.run

__all__ = ["run"]
