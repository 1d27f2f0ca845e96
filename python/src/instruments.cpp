// Pass instruments written in Python, and the built-in instruments, printing to sys.stdout.
#include "common.hpp"

#include <ctir/pass/instrument.hpp>
#include <ctir/pass/instruments/print_changed.hpp>
#include <ctir/pass/instruments/print_ir.hpp>
#include <ctir/pass/instruments/timing.hpp>
#include <ctir/pass/instruments/verify.hpp>

#include <pybind11/stl.h>

#include <memory>
#include <ostream>
#include <streambuf>
#include <string>
#include <utility>
#include <vector>

namespace ctir::python {
namespace {

/// An instrument object written in Python: each hook it defines is called with the GIL held
/// (a hook it does not define does nothing; should_run then says yes).
struct PyInstrument {
  std::shared_ptr<const py::object> object;

  std::string name() const {
    py::gil_scoped_acquire gil;
    return py::str(py::type::handle_of(*object).attr("__name__"));
  }
  py::object hook(const char* name) const {
    if (!py::hasattr(*object, name)) {
      return py::none();
    }
    return object->attr(name);
  }
  void enter_pass_ctx() const { call("enter_pass_ctx"); }
  void exit_pass_ctx() const { call("exit_pass_ctx"); }
  bool should_run(const IRModule& mod, const PassInfo& info) const {
    py::gil_scoped_acquire gil;
    return call_python([&] {
      const py::object fn = hook("should_run");
      return fn.is_none() || py::bool_(fn(mod, info));
    });
  }
  void run_before_pass(const IRModule& mod, const PassInfo& info) const {
    call("run_before_pass", mod, info);
  }
  void run_after_pass(const IRModule& mod, const PassInfo& info) const {
    call("run_after_pass", mod, info);
  }
  void run_after_pass_failed(const IRModule& mod, const PassInfo& info, const Error&) const {
    py::gil_scoped_acquire gil;
    call_python([&] {
      const py::object fn = hook("run_after_pass_failed");
      if (!fn.is_none()) {
        // Called while the pass's error is in flight: the hook gets it as a Python exception.
        fn(mod, info, exception_object(std::current_exception()));
      }
    });
  }

  template <class... Args>
  void call(const char* name, const Args&... args) const {
    py::gil_scoped_acquire gil;
    call_python([&] {
      const py::object fn = hook(name);
      if (!fn.is_none()) {
        fn(args...);
      }
    });
  }
};

/// A stream buffer that writes to a Python stream (sys.stdout, sys.stderr) when flushed.
class PyStreamBuf : public std::streambuf {
public:
  explicit PyStreamBuf(const char* stream) : stream_(stream) {}

protected:
  int_type overflow(int_type c) override {
    if (c != traits_type::eof()) {
      pending_ += traits_type::to_char_type(c);
    }
    return traits_type::not_eof(c);
  }
  std::streamsize xsputn(const char* text, std::streamsize count) override {
    pending_.append(text, static_cast<std::size_t>(count));
    return count;
  }
  int sync() override {
    if (!pending_.empty()) {
      py::gil_scoped_acquire gil;
      const std::string text = std::move(pending_);
      pending_.clear();
      call_python([&] { py::module_::import("sys").attr(stream_).attr("write")(text); });
    }
    return 0;
  }

private:
  const char* stream_;
  std::string pending_;
};

struct PyStream {
  explicit PyStream(const char* name) : buf(name), out(&buf) {}
  PyStreamBuf buf;
  std::ostream out;
};

/// A built-in printing instrument that writes to a Python stream it keeps alive.
template <class I>
struct Printing {
  std::shared_ptr<PyStream> stream;
  I inner;

  static std::string_view name() noexcept { return I::name(); }
  void enter_pass_ctx() {
    if constexpr (has_enter_pass_ctx<I>) {
      inner.enter_pass_ctx();
    }
  }
  void exit_pass_ctx() {
    if constexpr (has_exit_pass_ctx<I>) {
      inner.exit_pass_ctx();
    }
  }
  void run_before_pass(const IRModule& mod, const PassInfo& info) {
    inner.run_before_pass(mod, info);
  }
  void run_after_pass(const IRModule& mod, const PassInfo& info) {
    inner.run_after_pass(mod, info);
  }
  void run_after_pass_failed(const IRModule& mod, const PassInfo& info, const Error& error) {
    if constexpr (has_run_after_pass_failed<I>) {
      inner.run_after_pass_failed(mod, info, error);
    }
  }
};

template <class I, class Make>
Instrument printing(const char* stream, Make make) {
  auto out = std::make_shared<PyStream>(stream);
  I inner = make(out->out);
  return Instrument(Printing<I>{std::move(out), std::move(inner)});
}

PassFilter filter_of(const std::vector<std::string>& names) { return PassFilter(names); }

} // namespace

Instrument to_instrument(py::handle value) {
  if (py::isinstance<Instrument>(value)) {
    return value.cast<const Instrument&>();
  }
  return Instrument(PyInstrument{std::shared_ptr<const py::object>(
      new py::object(py::reinterpret_borrow<py::object>(value)), [](const py::object* held) {
        py::gil_scoped_acquire gil;
        delete held;
      })});
}

py::object instrument_object(const Instrument& instrument) {
  if (const PyInstrument* python = instrument.target<PyInstrument>()) {
    return *python->object;
  }
  return py::cast(instrument);
}

void bind_instruments(py::module_& m) {
  py::class_<Instrument>(m, "Instrument", "A built-in pass instrument.")
      .def_property_readonly("name", &Instrument::name)
      .def("same_as", &Instrument::same_as)
      .def(
          "render",
          [](const Instrument& i) {
            const TimingInstrument* timing = i.target<TimingInstrument>();
            if (timing == nullptr) {
              throw py::type_error("render() is for the pass timing instrument, not " + i.name());
            }
            return timing->render();
          },
          "The timing table of the passes run so far in the current context.")
      .def("__repr__", [](const Instrument& i) { return "<ctir.Instrument " + i.name() + ">"; });

  m.def(
      "PassTimingInstrument", [] { return Instrument(make_timing_instrument()); },
      "Times every pass run (nested, with self time); read it with render() before the "
      "context exits.");
  m.def(
      "PrintBeforeAll",
      [] {
        return printing<PrintIRInstrument>(
            "stdout", [](std::ostream& out) { return PrintIRInstrument::before_all(out); });
      },
      "Prints the module before every pass.");
  m.def(
      "PrintAfterAll",
      [] {
        return printing<PrintIRInstrument>(
            "stdout", [](std::ostream& out) { return PrintIRInstrument::after_all(out); });
      },
      "Prints the module after every pass.");
  m.def(
      "PrintBefore",
      [](const std::vector<std::string>& passes) {
        return printing<PrintIRInstrument>("stdout", [&](std::ostream& out) {
          return PrintIRInstrument::before(filter_of(passes), out);
        });
      },
      py::arg("passes"), "Prints the module before the named passes.");
  m.def(
      "PrintAfter",
      [](const std::vector<std::string>& passes) {
        return printing<PrintIRInstrument>("stdout", [&](std::ostream& out) {
          return PrintIRInstrument::after(filter_of(passes), out);
        });
      },
      py::arg("passes"), "Prints the module after the named passes.");
  m.def(
      "PrintChanged",
      [](std::size_t context) {
        return printing<PrintChangedInstrument>("stdout", [&](std::ostream& out) {
          PrintChangedOptions options;
          options.context = context;
          return PrintChangedInstrument(out, options);
        });
      },
      py::arg("context") = 3,
      "After each pass that changed the module, prints a unified diff of its text.");
  m.def(
      "VerifyWellFormed",
      [](bool check_input) {
        VerifyWellFormedOptions options;
        options.check_input = check_input;
        return Instrument(VerifyWellFormedInstrument(options));
      },
      py::arg("check_input") = true,
      "Checks that the module is well-formed after every pass; an ill-formed module raises "
      "an InstrumentError naming the pass.");
}

} // namespace ctir::python
