// How deeply the parser lets text nest.
#pragma once

#include <cstddef>
#include <string>

namespace ctir {

/// How deeply constructs may nest in parsed text: parentheses, calls, tuples, blocks,
/// loops, ifs, closures, block-valued lets, types, constant brackets (each expression,
/// statement and type inside another counts a level). A type counts one level however
/// deeply its tuple and function types nest: those are read with a stack of their own,
/// since type inference makes them as deep as the values they describe, and the printer
/// writes them whole in annotations.
///
/// The parser is recursive descent, and a level costs a few native frames: measured,
/// about 1 KB in an optimized build and up to 8 KB in the costliest one (clang,
/// AddressSanitizer, -O0). At 500 levels even that uses at most 4 MiB, half of the
/// default 8 MiB stack, leaving the rest to the caller. Deeper text is rejected with the
/// error "nesting too deep" rather than overflowing the stack; long sequences (a
/// million statements, lets, bindings or operands in a row) do not nest and have no limit.
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
