// Helpers for the pass infrastructure tests: recording instruments, small modules, passes that log.
#pragma once

#include <ctir/ir/builder.hpp>
#include <ctir/ir/graph/expr.hpp>
#include <ctir/ir/module.hpp>
#include <ctir/ir/tensor/prim_func.hpp>
#include <ctir/pass/pass.hpp>

#include <error_testing.hpp>

#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace ctir::testing {

/// A shared list of events ("1enter", "t1", ...), printed space-separated.
class EventLog {
public:
  EventLog() : events_(std::make_shared<std::vector<std::string>>()) {}
  void add(std::string event) const { events_->push_back(std::move(event)); }
  std::string str() const {
    std::string out;
    for (const std::string& event : *events_) {
      if (!out.empty()) {
        out += ' ';
      }
      out += event;
    }
    return out;
  }
  void clear() const { events_->clear(); }
  std::size_t size() const { return events_->size(); }

private:
  std::shared_ptr<std::vector<std::string>> events_;
};

/// An instrument that logs each hook as "<id><hook>" (enter, exit, sr, rb, ra, raf), can
/// veto passes, and can throw from one hook.
struct RecordingInstrument {
  std::string id;
  EventLog log;
  /// The hook that throws: "enter", "exit", "sr", "rb", "ra", "raf" or "".
  std::string throw_in = {};
  /// should_run says yes only to passes whose name contains this (all if empty).
  std::string only = {};
  /// should_run says no to passes whose name contains this (none if empty).
  std::string skip = {};
  /// Whether should_run logs (off for instruments that only record runs).
  bool log_should_run = true;

  std::string name() const { return "PI" + id; }
  void enter_pass_ctx() { hook("enter"); }
  void exit_pass_ctx() { hook("exit"); }
  bool should_run(const IRModule&, const PassInfo& info) {
    if (log_should_run) {
      hook("sr");
    }
    const std::string pass_name(info.name);
    if (!only.empty() && pass_name.find(only) == std::string::npos) {
      return false;
    }
    return skip.empty() || pass_name.find(skip) == std::string::npos;
  }
  void run_before_pass(const IRModule&, const PassInfo&) { hook("rb"); }
  void run_after_pass(const IRModule&, const PassInfo&) { hook("ra"); }
  void run_after_pass_failed(const IRModule&, const PassInfo&, const Error&) { hook("raf"); }

private:
  void hook(const std::string& what) {
    log.add(id + what);
    if (throw_in == what) {
      throw std::runtime_error("dummy error in " + what);
    }
  }
};

/// An instrument that logs only the names of the passes that reach run_before_pass.
struct PassNameRecorder {
  EventLog log;
  void run_before_pass(const IRModule&, const PassInfo& info) { log.add(std::string(info.name)); }
};

/// A module pass that logs its name and returns its input.
inline auto logging_pass(std::string name, EventLog log, int opt_level = 0) {
  const std::string event = name;
  return make_module_pass(PassInfo{.name = name, .opt_level = opt_level},
                          [event, log](IRModule mod, const PassContext&) {
                            log.add(event);
                            return mod;
                          });
}

/// A module pass that logs its name, changes the module, then throws.
inline auto throwing_pass(std::string name, EventLog log) {
  const std::string event = name;
  return make_module_pass(PassInfo{.name = name, .opt_level = 0},
                          [event, log](IRModule mod, const PassContext&) -> IRModule {
                            log.add(event);
                            mod.remove(mod.global_at(0)->name); // a change that must not leak
                            throw std::runtime_error("just a dummy error");
                          });
}

/// `fn (%x) { %x }`
inline Function identity_function(const std::string& name, Attrs attrs = {}) {
  const Var x = Var::make("x", tensor_type({2}, DataType::float32()));
  return Function::make({x}, x, {}, std::move(attrs), name);
}

/// A tensor-level function filling its argument with zeros.
inline PrimFunc zero_fill(const std::string& name) {
  const Var n = Var::make("n", DataType::int32());
  const Var a = Var::make("A", TensorType::make({n}, DataType::float32()));
  const Var i = Var::make("i", DataType::int32());
  return PrimFunc::make(name, {a}, For::make(i, 0, n, TensorStore::make(a, {i}, 0.0f)));
}

/// A module with graph-level @main and @helper and tensor-level @fill.
inline IRModule sample_module() {
  IRModule mod;
  mod.add("main", identity_function("main"));
  mod.add("helper", identity_function("helper"));
  mod.add("fill", zero_fill("fill"));
  return mod;
}

/// The names of the functions of a module, in order.
inline std::vector<std::string> function_names(const IRModule& mod) {
  std::vector<std::string> names;
  for (auto [global, function] : mod) {
    names.push_back(global->name);
  }
  return names;
}

} // namespace ctir::testing
