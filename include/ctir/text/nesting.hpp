// How deeply the parser lets text nest.
#pragma once

#include <cstddef>
#include <string>

namespace ctir {

/// How deeply constructs may nest in parsed text: blocks, loops, ifs, closures,
/// block-valued lets, calls, statements, expressions, types and constant brackets (each
/// inside another counts a level). An expression counts one level however deeply its
/// operators, parentheses, tuples, loads, min, max, select and cast nest, and so does a
/// type however deeply its tuple and function types nest (a tensor type's dimension, an
/// expression, one more): those are read with stacks of the parser's own, since the printer writes
/// them whole where no binding can break them up (a deep dimension expression in a parameter's
/// type, a deep scalar operand of a graph-level call, a tuple type as deep as the value it
/// describes).
///
/// The rest of the parser is recursive descent, and a level costs a few native frames:
/// measured, about 1 KB in an optimized build and up to 8 KB in the costliest one (clang,
/// AddressSanitizer, -O0). At 500 levels even that uses at most 4 MiB, half of the
/// default 8 MiB stack, leaving the rest to the caller. Deeper text is rejected with the
/// error "nesting too deep" at the first token past the limit rather than overflowing the
/// stack; long sequences (a million statements, lets, bindings or operands in a row) do
/// not nest and have no limit. So IR built in C++ whose blocks nest 498 levels (a
/// statement and its expression below them) prints text that reads back.
inline constexpr std::size_t max_nesting_depth = 500;

namespace detail {
/// The parser's message for text nested deeper than max_nesting_depth, with what to do.
inline std::string nesting_too_deep_message() {
  return "nesting too deep (more than " + std::to_string(max_nesting_depth) +
         " levels); nest less: bind inner values to temporaries (`%0 = ...;`) or lets, or "
         "move inner code into a function of its own";
}
} // namespace detail

} // namespace ctir
