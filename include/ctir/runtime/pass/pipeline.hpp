// Pipeline strings: parse "InferType,sequential(A,B),UnrollLoop{max_extent=4}" into a Pass and
// print a Pass back to the same string.
#pragma once

#include <ctir/core/linkage.hpp>
#include <ctir/pass/config.hpp>
#include <ctir/pass/error.hpp>
#include <ctir/runtime/pass/detail/syntax.hpp>
#include <ctir/runtime/pass/erased.hpp>
#include <ctir/runtime/pass/registry.hpp>
#include <ctir/runtime/pass/sequential.hpp>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace ctir {

/// Grammar of pipeline strings (blanks are allowed between tokens):
///
///     pipeline ::= [ element { "," element } ]
///     element  ::= name [ options ] [ "(" pipeline ")" ]
///     options  ::= "{" [ option { "," option } ] "}"
///     option   ::= key "=" value
///     name/key ::= [A-Za-z_][A-Za-z0-9_.]*
///     value    ::= a bare word (no blank and none of , { } ( ) = " \)
///                | a quoted string "..." (with \" and \\)
///
/// A name is a registered pass, made with the given options; `sequential` takes nested
/// passes in parentheses and the options `name` (string) and `opt_level` (int). A string of
/// several elements is an implicit sequential of them; a single element is that pass.
/// `print_pipeline(parse_pipeline(s)) == s` for a string in canonical form (no blanks,
/// options as printed); any string parses to a pass that prints in canonical form.
///
/// Errors (PipelineError) give the column, the string with a caret under it, and for an
/// unknown pass the nearest registered names.
class PipelineParser {
public:
  PipelineParser(std::string_view text, const PassRegistry& registry)
      : text_(text), registry_(registry) {}

  Pass parse();

private:
  static constexpr std::size_t max_depth = 200;

  std::vector<Pass> parse_list(std::size_t depth);

  Pass parse_element(std::size_t depth);

  Pass parse_sequential(std::size_t start, const PassOptionValues& options, std::size_t depth);

  PassOptionValues parse_options();

  std::string parse_name(const char* what);

  std::string parse_value();

  /// Runs `make`; a PipelineError from it (a bad option, an unresolvable requirement) gets
  /// the column of the element.
  template <class F>
  Pass wrap(F&& make, std::size_t column);

  bool at_end() const noexcept { return pos_ >= text_.size(); }
  char peek() const noexcept { return text_[pos_]; }
  void skip_blanks() noexcept;
  [[noreturn]] void fail(const std::string& message) const { fail_at(pos_, message); }
  [[noreturn]] void fail_at(std::size_t position, const std::string& message) const;

  std::string_view text_;
  const PassRegistry& registry_;
  std::size_t pos_ = 0;
};

/// Parses a pipeline string (see PipelineParser for the grammar) into a Pass, using the
/// passes of `registry`.
Pass parse_pipeline(std::string_view text, const PassRegistry& registry = PassRegistry::global());

/// The pipeline string of `pass` (its canonical form).
std::string print_pipeline(const Pass& pass);

} // namespace ctir

#ifdef CTIR_HEADER_ONLY
#include <ctir/runtime/pass/pipeline-inl.hpp>
#endif
