// Well-formedness of a module, an IR analysis: variables defined before use and once, calls,
// call_dps and tensor accesses that type-check. Scopes come from the node types' hooks.
#pragma once

#include <ctir/core/linkage.hpp>
#include <ctir/core/ref.hpp>
#include <ctir/ir/module.hpp>
#include <ctir/traverse/access_path.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ctir {

/// One problem the verifier found: what is wrong, and where.
struct WellFormedDiagnostic {
  enum class Kind : std::uint8_t {
    /// A variable used where no definition of it is in scope.
    undefined_variable,
    /// A variable defined at a second definition site.
    duplicate_definition,
    /// A call its operator's type relation rejects, a call of a missing global, a call_dps
    /// of something other than a PrimFunc of the module, a tensor access with the wrong
    /// number of indices, a non-bool operand of `!`, `&&` or `||` or condition of a select
    /// or an if, a bool negated with `-`, ...
    ill_typed,
  };
  Kind kind = Kind::ill_typed;
  /// What is wrong: "variable '%y' is used but not defined".
  std::string message;
  /// The offending node from the module's root: `<root>.functions[1].body.args[0]`.
  AccessPath path;
  /// The same place from the function's name: `@main.body.args[0]`.
  std::string location;
  /// The offending node (a variable at a use or definition site, a call, a store, ...).
  ObjectRef node;

  /// `@main.body.args[0]: variable '%y' is used but not defined (at <root>.functions[0]...)`.
  std::string str() const;
};

/// The name of a diagnostic kind: "undefined variable", "duplicate definition", "ill-typed".
constexpr std::string_view to_string(WellFormedDiagnostic::Kind kind) noexcept {
  switch (kind) {
  case WellFormedDiagnostic::Kind::undefined_variable:
    return "undefined variable";
  case WellFormedDiagnostic::Kind::duplicate_definition:
    return "duplicate definition";
  case WellFormedDiagnostic::Kind::ill_typed:
    return "ill-typed";
  }
  return "?";
}

/// Settings of verify_well_formed.
struct WellFormedOptions {
  /// The verifier stops collecting after this many diagnostics (it still checks everything).
  std::size_t max_diagnostics = 100;
};

/// Checks that `mod` is well-formed and returns what is wrong (nothing when it is):
///
/// - every variable is used only where a definition of it is in scope, as the hooks of its
///   definition site's node type declare (field_desc::scope_over, scope_to_block_end,
///   recursive_in and block): `for` and `let` in their body (a `let` of a function in its
///   value too), `Bind` and `Allocate` for the rest of their block, function parameters
///   (patterns, with the variables of their types) in the function;
/// - every variable is defined once per top-level function (a second mention inside a
///   pattern, as `n` in `%B: Tensor[(%n)]`, is a check, not a definition);
/// - calls type-check where the argument types are known (variables with a type, literals,
///   constants, call_dps, calls checked before them): a registered operator with the right
///   number of inputs, valid attributes and argument types its type relation accepts, or a
///   graph-level function of the module with the right number of arguments;
/// - every call_dps calls a PrimFunc of the module with its arguments plus one output;
/// - tensor stores and loads give one index per dimension of their tensor's type.
///
/// Each diagnostic names the problem and where it is, as an access path from the module
/// (`<root>.functions[1].body.args[0]`) and from the function (`@main.body.args[0]`).
std::vector<WellFormedDiagnostic> verify_well_formed(const IRModule& mod,
                                                     WellFormedOptions options = {});

} // namespace ctir

#ifdef CTIR_HEADER_ONLY
#include <ctir/ir/analysis/well_formed-inl.hpp>
#endif
