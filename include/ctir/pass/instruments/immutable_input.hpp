// The immutable-input check: a pass must not change the module it was given in place.
#pragma once

#include <ctir/core/error.hpp>
#include <ctir/ir/module.hpp>
#include <ctir/pass/detail/open_runs.hpp>
#include <ctir/pass/info.hpp>
#include <ctir/runtime/structural_hash.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ctir {

/// Catches passes that modify their input in place (through a const_cast, say) instead of
/// building new nodes: IR is shared, so such a change corrupts every other holder of it.
///
/// Before a pass it takes the structural hash of each function of the input module and
/// notes which functions the module holds under which names; after the pass it checks the
/// input again and throws an Error naming the pass and what changed:
///
///     ctir: pass 'Broken' modified its input module in place: @main changed; passes must
///     build new nodes (with clone_object or ctir::map) and leave their input as it was
///
/// It keeps the input module alive while the pass runs, so a pass that owned its input
/// alone now sees it shared and copies on write, as a pass must. Costs two hashes of the
/// module per pass: a debugging aid. (The hash is the runtime layer's, driven by the field
/// tables: the same value as ctir::structural_hash, without instantiating a static
/// traversal of every node type in each user of this header.)
class ImmutableInputInstrument {
public:
  static std::string_view name() noexcept { return "ImmutableInput"; }

  void exit_pass_ctx() noexcept { open_.clear(); }
  void run_before_pass(const IRModule& mod, const PassInfo& info) {
    open_.push_back({std::string(info.name), mod, snapshot(mod)});
  }
  void run_after_pass(const IRModule&, const PassInfo& info) {
    Open run;
    if (!close(info.name, run)) {
      return; // started before this instrument was installed
    }
    const std::string changes = compare(run.snapshot, run.input);
    if (!changes.empty()) {
      throw Error("ctir: pass '" + run.name + "' modified its input module in place: " + changes +
                  "; passes must build new nodes (with clone_object or ctir::map) and leave "
                  "their input as it was");
    }
  }
  void run_after_pass_failed(const IRModule&, const PassInfo& info, const Error&) {
    Open run;
    close(info.name, run);
  }

private:
  struct Function {
    std::string name;
    BaseFunc function;
    std::uint64_t hash = 0;
  };
  struct Open {
    std::string name;
    IRModule input;
    std::vector<Function> snapshot;
  };

  static std::vector<Function> snapshot(const IRModule& mod) {
    std::vector<Function> result;
    result.reserve(mod.size());
    for (std::size_t i = 0; i < mod.size(); ++i) {
      const BaseFunc& function = mod.function_at(i);
      result.push_back({mod.global_at(i)->name, function,
                        function.defined() ? runtime::structural_hash(function) : 0});
    }
    return result;
  }

  /// What changed in `mod` since `before` was taken ("" if nothing).
  static std::string compare(const std::vector<Function>& before, const IRModule& mod) {
    std::string changes;
    const auto add = [&changes](const std::string& change) {
      changes += (changes.empty() ? "" : ", ") + change;
    };
    if (mod.size() != before.size()) {
      add("it held " + std::to_string(before.size()) + " functions and now holds " +
          std::to_string(mod.size()));
    }
    for (std::size_t i = 0; i < before.size() && i < mod.size(); ++i) {
      const Function& was = before[i];
      const std::string& name = mod.global_at(i)->name;
      const BaseFunc& function = mod.function_at(i);
      if (name != was.name) {
        add("function " + std::to_string(i) + " was @" + was.name + " and is now @" + name);
      } else if (!function.same_as(was.function)) {
        add("@" + name + " was replaced");
      } else if ((function.defined() ? runtime::structural_hash(function) : 0) != was.hash) {
        add("@" + name + " changed");
      }
    }
    return changes;
  }

  bool close(std::string_view name, Open& run) { return detail::take_open_run(open_, name, run); }

  std::vector<Open> open_;
};

} // namespace ctir
