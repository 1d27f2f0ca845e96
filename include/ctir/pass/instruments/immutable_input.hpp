// The immutable-input check: a pass must not change the module it was given in place.
#pragma once

#include <ctir/core/error.hpp>
#include <ctir/core/linkage.hpp>
#include <ctir/ir/module.hpp>
#include <ctir/pass/info.hpp>

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
/// module per pass (ctir::structural_hash): a debugging aid.
class ImmutableInputInstrument {
public:
  static std::string_view name() noexcept { return "ImmutableInput"; }

  void exit_pass_ctx() noexcept;
  void run_before_pass(const IRModule& mod, const PassInfo& info);
  void run_after_pass(const IRModule& mod, const PassInfo& info);
  void run_after_pass_failed(const IRModule& mod, const PassInfo& info, const Error& error);

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

  static std::vector<Function> snapshot(const IRModule& mod);

  /// What changed in `mod` since `before` was taken ("" if nothing).
  static std::string compare(const std::vector<Function>& before, const IRModule& mod);

  bool close(std::string_view name, Open& run);

  std::vector<Open> open_;
};

} // namespace ctir

#ifdef CTIR_HEADER_ONLY
#include <ctir/pass/instruments/immutable_input-inl.hpp>
#endif
