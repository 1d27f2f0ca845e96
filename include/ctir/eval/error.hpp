// EvalError: what the reference interpreter throws, naming the node and where it is.
#pragma once

#include <ctir/core/error.hpp>
#include <ctir/core/linkage.hpp>
#include <ctir/ir/span.hpp>
#include <ctir/ir/var.hpp>

#include <string>
#include <string_view>

namespace ctir::eval {

/// An error while evaluating IR: out-of-bounds access, shape or type mismatch,
/// integer division by zero, a missing kernel, bad inputs, a resource limit.
///
/// The message reads `file:line:col: error: <what> in <node> (in @function)`; without
/// a source span it starts with `ctir: eval error:`. `node()` is the offending node
/// (null for errors about the inputs as a whole), so a caller can underline it in the
/// printed IR.
class EvalError : public NodeError {
public:
  EvalError(const ObjectRef& node, const std::string& message, Span span = {});

  /// Where the offending node was parsed from (undefined when it was built in code).
  const Span& span() const noexcept { return span_; }

private:
  Span span_;
};

namespace detail {

/// `%name` for messages (`?` for a null variable).
std::string var_str(const VarNode* var);

/// A short rendering of a node for messages: the expression itself for tensor-level
/// expressions (cut at 80 characters), a one-line summary for everything else.
std::string describe(const Object* node);

/// The EvalError for `what` at `node` while running `function` (a name, may be empty).
EvalError make_error(const Object* node, std::string_view what, std::string_view function);

} // namespace detail
} // namespace ctir::eval

#ifdef CTIR_HEADER_ONLY
#include <ctir/eval/error-inl.hpp>
#endif
