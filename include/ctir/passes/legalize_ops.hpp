// LegalizeOps: lowers graph-level operator calls to generated tensor-level functions.
#pragma once

#include <ctir/core/linkage.hpp>
#include <ctir/ir/module.hpp>
#include <ctir/pass/context.hpp>
#include <ctir/pass/info.hpp>
#include <ctir/pass/run.hpp>
#include <ctir/passes/infer_type.hpp>
#include <ctir/passes/legalize_call.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace ctir::passes {

/// The lowerings LegalizeOps knows, by operator name.
///
/// The global registry holds the built-in operators' lowerings from its first use on; a
/// user operator gets one with `LegalizeRegistry::global().add("my.op", fn)`. Thread-safe.
class LegalizeRegistry {
public:
  LegalizeRegistry();
  ~LegalizeRegistry();
  LegalizeRegistry(const LegalizeRegistry&) = delete;
  LegalizeRegistry& operator=(const LegalizeRegistry&) = delete;

  /// The process-wide registry, with the built-in lowerings.
  static LegalizeRegistry& global();

  /// Registers the lowering of operator `op`; throws ctir::Error if `op` has one
  /// already (use `replace` to override it) or `fn` is empty.
  void add(std::string op, Lowering fn);

  /// Registers or overrides the lowering of operator `op`.
  void replace(std::string op, Lowering fn);

  /// Removes the lowering of `op`; whether there was one.
  bool remove(std::string_view op);

  /// The lowering of `op` (a copy, safe to call while others register), or an empty one.
  Lowering find(std::string_view op) const;

  /// Whether `op` has a lowering.
  bool contains(std::string_view op) const;

  /// The operators with a lowering, sorted.
  std::vector<std::string> names() const;

private:
  struct State;

  static void check(const std::string& op, const Lowering& fn);

  State* state_;
};

/// `mod` with its lowerable operator calls lowered (see LegalizeOps); `mod` itself when
/// nothing is lowered. Throws NodeError for an ill-typed module.
IRModule legalize_ops(const IRModule& mod);

/// Lowers graph-level operator calls to generated tensor-level functions.
///
/// A call `op(args)` of an operator with a lowering (see LegalizeRegistry), whose
/// arguments and result are tensors of literal shape, becomes
/// `call_dps @op(args) -> <result type>`, where `@op` is a generated PrimFunc taking the
/// arguments then the output and computing exactly what the operator's reference kernel
/// computes (eval/kernels.hpp): the same scalar operations, broadcasting, and order of
/// accumulation (float sums and matrix products accumulate in float64 and round once).
///
/// - Lowered: `add subtract multiply divide maximum minimum` (numpy broadcasting,
///   graph-level scalars such as `2f` as rank-0 tensors), `negative relu nn.relu`,
///   `matmul` (batch dimensions broadcast), `transpose` (with or without `axes`),
///   `reshape`, `sum` (some or all axes, `keepdims`), `concatenate` (its tensors given
///   one by one or as one tuple), `zeros ones`; and user operators registered with
///   `LegalizeRegistry::global().add(...)`.
/// - Kept as graph-level calls: operators without a tensor-level equivalent (`exp log
///   sqrt tanh sigmoid`: the tensor-level scalar language has no transcendental
///   functions), operators without a lowering, calls whose argument or result types have
///   symbolic dimensions or are not tensors, and calls a lowering declines.
///
/// Generated functions are named after the operator (`nn.relu` -> `@nn_relu`), made
/// unique in the module by a suffix (`@add_1`); names depend only on the module, so the
/// output is deterministic. A function is never generated twice: calls of one operator
/// with the same attributes and argument types share one, and a lowering structurally
/// equal to a tensor-level function already in the module (from an earlier run, written
/// by hand, or lowered from another operator such as `relu` for `nn.relu`) calls that
/// one. The pass is idempotent and returns the very module it was given when nothing is
/// lowered.
///
/// Types: the pass needs the type of every argument. It requires InferType, and also
/// infers types itself, so a module without `let` annotations is lowered too; an
/// ill-typed module is a NodeError saying so. A lowered call has the type of the call it
/// replaces, so InferType's result stays valid.
struct LegalizeOps : pass_interface<LegalizeOps> {
  using required_passes = pass_list<InferType>;
  static constexpr PassInfo info() {
    return {.name = "LegalizeOps",
            .opt_level = 0,
            .required = {"InferType"},
            .description = "lowers operator calls to generated tensor-level functions"};
  }
  IRModule transform_module(IRModule mod, const PassContext& ctx) const;
};

} // namespace ctir::passes

#ifdef CTIR_HEADER_ONLY
#include <ctir/passes/legalize_ops-inl.hpp>
#endif
