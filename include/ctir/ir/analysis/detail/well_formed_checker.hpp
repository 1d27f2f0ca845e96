// The well-formedness checker's engine: its work items and the Checker class (internal to the
// analysis, included only by the definitions of <ctir/ir/analysis/well_formed.hpp>).
#pragma once

#include <ctir/core/detail/pointer_map.hpp>
#include <ctir/core/linkage.hpp>
#include <ctir/core/object.hpp>
#include <ctir/core/type_info.hpp>
#include <ctir/ir/analysis/well_formed.hpp>
#include <ctir/ir/graph/expr.hpp>
#include <ctir/ir/module.hpp>
#include <ctir/ir/tensor/expr.hpp>
#include <ctir/ir/tensor/prim_func.hpp>
#include <ctir/ir/tensor/stmt.hpp>
#include <ctir/ir/type.hpp>
#include <ctir/ir/var.hpp>
#include <ctir/traverse/detail/sharing.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ctir::detail::well_formed {

/// The role of the position a node is reached at.
enum class Region : std::uint8_t {
  use,            ///< a use site (variables must be in scope)
  simple_def,     ///< a def_simple field: defines exactly this variable
  pattern_top,    ///< a variable of a def_pattern field: defines it
  pattern_nested, ///< inside the type of a pattern variable: defines it unless in scope
};

/// begin_scope opens a node's scope, begin_block a block field's; end_scope closes either.
enum class Op : std::uint8_t { visit, check, define, begin_scope, begin_block, end_scope };

/// One step of an access path: `.field` or `.field[index]`.
struct Step {
  std::string_view field;
  std::size_t index = npos;
  static constexpr std::size_t npos = static_cast<std::size_t>(-1);
};

/// A shared node and the set of variables in scope (epoch) it was checked with.
struct MemoKey {
  const Object* node = nullptr;
  std::uint64_t epoch = 0;
  friend bool operator==(const MemoKey&, const MemoKey&) = default;
};
inline std::uint64_t key_hash(const MemoKey& key) noexcept {
  return ctir::detail::key_hash(key.node) ^ ctir::detail::key_hash(key.epoch + 1);
}

struct Item {
  Op op = Op::visit;
  Region region = Region::use;
  const Object* node = nullptr;
  /// For visit and check: the length of the parent's path; `step` leads from it to `node`.
  std::size_t depth = 0;
  Step step;
};

/// `message` without its leading "ctir: " (a message quoted inside another one).
std::string strip_ctir_prefix(std::string_view message);

/// The verifier's engine: one iterative pass over each function of the module (no
/// recursion: IR nested a million levels deep is fine), driven by the runtime field tables,
/// so node types registered at run time are walked too.
///
/// Scopes come from the field tables (FieldInfo::scope, FieldInfo::is_block), as the hooks
/// declare them: a def field's variables are in scope in the node's later fields
/// (DefScope::rest_of_node: a function's parameters, patterns with the variables of their
/// types), from a named field on (DefScope::field: `for` and graph-level `let` in their body,
/// a `let` whose value is a function also in that value), or to the end of the enclosing
/// block field (DefScope::block_end: `Bind`, `Allocate` in a SeqStmt).
/// A variable may be defined once per top-level function; inside a pattern, a variable
/// already in scope (the `n` of `B: Tensor[(n)]` after `A: Tensor[(n)]`) is a check, not a
/// definition.
///
/// Shared expression nodes (a DAG) are checked once per set of variables in scope, so
/// sharing costs no exponential time; statements and nodes with definitions are always
/// walked (meeting one twice is meeting its definitions twice).
class Checker {
public:
  Checker(const IRModule& mod, const WellFormedOptions& options) : mod_(mod), options_(options) {}

  std::vector<WellFormedDiagnostic> run();

private:
  void check_function(std::size_t i);
  void enter_path(const Item& item);

  // ---- scopes -----------------------------------------------------------------------------

  bool in_scope(const Object* var) const;
  void define(const Object* var);
  void end_scope();

  // ---- the walk ---------------------------------------------------------------------------

  void visit(const Item& item);
  static bool has_def_fields(const TypeInfo& info) noexcept;
  /// The index of the field before which the variables of def field `index` come into scope
  /// (`info.fields.size()`: after the node).
  static std::size_t scope_start(const Object& node, const TypeInfo& info, std::size_t index);

  /// Appends the node's fields to plan_, with the scopes, blocks and definitions its field
  /// table declares.
  void add_fields(const Object& node, const TypeInfo& info, Region inherited, bool has_defs);
  void visit_variable(const Item& item, const Object& var, const TypeInfo& info);

  // ---- type checks ------------------------------------------------------------------------

  void check(const Object& node);
  void check_call(const CallNode& call);
  void check_call_dps(const CallDpsNode& call);
  void check_access(const Object& node, std::string_view what, const Var& tensor,
                    std::size_t index_count);

  /// The tensor-level operands whose dtype is fixed: `!`, `&&`, `||`, a select's or an
  /// if's condition must be bools, the operand of `-` must not be one. Checked where the
  /// dtype is known (ctir::detail::known_dtype_of_node), as the parser does.
  void check_dtypes(const Object& node, std::uint32_t type);
  void check_bool(const Object& node, const PrimExpr& operand, std::string_view what);

  /// The type of a graph-level expression when it is known without inference: variables
  /// (their annotation), literals (graph-level scalars are rank-0 tensors), constants,
  /// call_dps (its output type), checked calls, tuples of known types and their items.
  Type type_of(const Expr& expr) const;

  // ---- diagnostics ------------------------------------------------------------------------

  static std::string variable_name(const Object& var);
  void report_undefined(const Object& var);
  void report_duplicate(const Object& var);

  /// Records a diagnostic at the current path; its index, or npos past max_diagnostics.
  std::size_t report(WellFormedDiagnostic::Kind kind, const Object& node, std::string message);

  struct Undefined {
    std::size_t uses = 0;
    std::size_t diagnostic = Step::npos;
  };

  const IRModule& mod_;
  WellFormedOptions options_;
  std::vector<WellFormedDiagnostic> diagnostics_;
  std::size_t function_ = 0;

  std::vector<Item> stack_;
  std::vector<Item> plan_;
  /// Variables of def_simple fields met in the node being planned, with the index of the
  /// field they come into scope before.
  std::vector<std::pair<std::size_t, const Object*>> pending_defines_;
  std::vector<Step> path_;

  /// Definitions in scope (a count: a doubly defined variable is still in scope once the
  /// inner definition's scope ends), the order they were made, and the scope starts.
  PointerMap<std::size_t> live_;
  std::vector<const Object*> log_;
  std::vector<std::pair<std::size_t, std::uint64_t>> marks_;
  /// Every variable defined so far in the function.
  PointerMap<bool> ever_defined_;
  /// Variables defined inside a pattern's types (shape variables), which one parameter of
  /// the pattern may be as well (the ones whose value is true).
  PointerMap<bool> shape_defined_;
  /// Identifies the set of variables in scope: a new value at each change.
  std::uint64_t epoch_ = 0;
  std::uint64_t epoch_counter_ = 0;
  /// The shared nodes checked so far, each with the set of variables in scope it was
  /// checked with.
  FlatMap<MemoKey, bool> memo_;
  PointerMap<Undefined> undefined_;
  /// Shared graph-level nodes with definitions, checked once (at their first use).
  PointerMap<bool> shared_definitions_;
  PointerMap<Type> call_types_;
  /// The argument types of the call being checked (one vector for all calls).
  std::vector<Type> arg_types_;
};

} // namespace ctir::detail::well_formed

#ifdef CTIR_HEADER_ONLY
#include <ctir/ir/analysis/detail/well_formed_checker-inl.hpp>
#include <ctir/ir/analysis/detail/well_formed_type_checks-inl.hpp>
#endif
