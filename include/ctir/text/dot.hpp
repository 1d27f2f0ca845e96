// Graphviz output: a graph-level function's dataflow as a dot digraph.
#pragma once

#include <ctir/core/linkage.hpp>
#include <ctir/ir/graph/expr.hpp>
#include <ctir/ir/module.hpp>

#include <string>
#include <string_view>

namespace ctir {

/// The dataflow of `function` as a Graphviz digraph: one node per distinct value (a value
/// shared by several users is drawn once), edges from operands to their users.
///
/// - a call is a box labelled with its operator (`add`) or global (`@f`); a call of a
///   variable or a closure gets an edge `callee` from it; a call_dps is a box
///   `call_dps @f -> T`;
/// - parameters and let-bound variables are ellipses (`%x`), a let draws an edge `let`
///   from the bound value to its variable; a let itself is no node (its value is its body);
/// - constants are notes showing up to four elements, else their type; tuples are
///   records `tuple`, projections `.N`; an if is a diamond with edges `cond`, `then`,
///   `else`;
/// - a closure is a cluster holding its parameters and body, and a node `fn` its result
///   flows to; the function's result flows to a node `return`.
///
/// Linear in the number of distinct nodes, iterative (deep chains do not use the native
/// stack).
std::string print_dot(const Function& function, std::string_view name = "main");

/// Every graph-level function of `mod` as one digraph, a cluster per function (tensor-level
/// functions appear where call_dps names them). Throws Error if `mod` has no graph-level
/// function.
std::string print_dot(const IRModule& mod);

} // namespace ctir

#ifdef CTIR_HEADER_ONLY
#include <ctir/text/dot-inl.hpp>
#endif
