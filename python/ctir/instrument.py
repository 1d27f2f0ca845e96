"""Pass instruments (as tvm.instrument): hooks called around pass contexts and pass runs."""

from . import _ctir


class PassInstrument:
    """Base class of instruments written in Python; override the hooks you need.

    The hooks are called in this order: enter_pass_ctx when a PassContext holding the
    instrument is entered; for each pass run, should_run (every instrument is asked, the pass
    runs if all say yes; not asked for passes the context requires), run_before_pass, the
    pass, then run_after_pass, or run_after_pass_failed(mod, info, error) if the pass raised
    (mod is the pass's input); exit_pass_ctx when the context is left.
    """

    def enter_pass_ctx(self):
        pass

    def exit_pass_ctx(self):
        pass

    def should_run(self, mod, info):
        return True

    def run_before_pass(self, mod, info):
        pass

    def run_after_pass(self, mod, info):
        pass

    def run_after_pass_failed(self, mod, info, error):
        pass


def pass_instrument(pi_cls=None):
    """Class decorator: the class becomes a PassInstrument (its hooks are the methods it
    defines; the others do nothing)."""

    def create(cls):
        if not isinstance(cls, type):
            raise TypeError("pass_instrument decorates a class")
        if issubclass(cls, PassInstrument):
            return cls
        wrapped = type(cls.__name__, (cls, PassInstrument), {"__doc__": cls.__doc__})
        wrapped.__module__ = cls.__module__
        wrapped.__qualname__ = cls.__qualname__
        return wrapped

    if pi_cls is not None:
        return create(pi_cls)
    return create


Instrument = _ctir.Instrument
PassTimingInstrument = _ctir.PassTimingInstrument
PrintBeforeAll = _ctir.PrintBeforeAll
PrintAfterAll = _ctir.PrintAfterAll
PrintBefore = _ctir.PrintBefore
PrintAfter = _ctir.PrintAfter
PrintChanged = _ctir.PrintChanged
VerifyWellFormed = _ctir.VerifyWellFormed

__all__ = [
    "Instrument", "PassInstrument", "PassTimingInstrument", "PrintAfter", "PrintAfterAll",
    "PrintBefore", "PrintBeforeAll", "PrintChanged", "VerifyWellFormed", "pass_instrument",
]
