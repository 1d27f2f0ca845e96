// Definitions of <ctir/pass/instruments/immutable_input.hpp>.
#pragma once

#include <ctir/pass/instruments/immutable_input.hpp>

#include <ctir/ir/families.hpp>
#include <ctir/pass/detail/open_runs.hpp>
#include <ctir/traverse/structural_hash.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ctir {

CTIR_INLINE void ImmutableInputInstrument::exit_pass_ctx() noexcept { open_.clear(); }

CTIR_INLINE void ImmutableInputInstrument::run_before_pass(const IRModule& mod,
                                                           const PassInfo& info) {
  open_.push_back({std::string(info.name), mod, snapshot(mod)});
}

CTIR_INLINE void ImmutableInputInstrument::run_after_pass(const IRModule&, const PassInfo& info) {
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

CTIR_INLINE void ImmutableInputInstrument::run_after_pass_failed(const IRModule&,
                                                                 const PassInfo& info,
                                                                 const Error&) {
  Open run;
  close(info.name, run);
}

CTIR_INLINE std::vector<ImmutableInputInstrument::Function>
ImmutableInputInstrument::snapshot(const IRModule& mod) {
  std::vector<Function> result;
  result.reserve(mod.size());
  for (std::size_t i = 0; i < mod.size(); ++i) {
    const BaseFunc& function = mod.function_at(i);
    result.push_back(
        {mod.global_at(i)->name, function, function.defined() ? structural_hash(function) : 0});
  }
  return result;
}

CTIR_INLINE std::string ImmutableInputInstrument::compare(const std::vector<Function>& before,
                                                          const IRModule& mod) {
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
    } else if ((function.defined() ? structural_hash(function) : 0) != was.hash) {
      add("@" + name + " changed");
    }
  }
  return changes;
}

CTIR_INLINE bool ImmutableInputInstrument::close(std::string_view name, Open& run) {
  return detail::take_open_run(open_, name, run);
}

} // namespace ctir
