// Definitions of <ctir/runtime/pass/pipeline.hpp>.
#pragma once

#include <ctir/runtime/pass/pipeline.hpp>

#include <ctir/core/detail/names.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ctir {

CTIR_INLINE Pass PipelineParser::parse() {
  std::vector<Pass> passes = parse_list(0);
  skip_blanks();
  if (pos_ != text_.size()) {
    fail(text_[pos_] == ')' ? "unbalanced ')'" : "expected ',' between passes");
  }
  if (passes.size() == 1) {
    return std::move(passes.front());
  }
  return wrap([&] { return detail::implicit_sequential(std::move(passes), registry_); }, 0);
}

CTIR_INLINE std::vector<Pass> PipelineParser::parse_list(std::size_t depth) {
  std::vector<Pass> passes;
  skip_blanks();
  if (at_end() || peek() == ')') {
    return passes;
  }
  while (true) {
    passes.push_back(parse_element(depth));
    skip_blanks();
    if (!at_end() && peek() == ',') {
      ++pos_;
      continue;
    }
    return passes;
  }
}

CTIR_INLINE Pass PipelineParser::parse_element(std::size_t depth) {
  skip_blanks();
  const std::size_t start = pos_;
  const std::string name = parse_name("a pass name");
  PassOptionValues options;
  skip_blanks();
  if (!at_end() && peek() == '{') {
    options = parse_options();
    skip_blanks();
  }
  if (name == "sequential") {
    return parse_sequential(start, options, depth);
  }
  if (!at_end() && peek() == '(') {
    fail_at(pos_, "pass '" + name + "' does not take nested passes (only 'sequential' does)");
  }
  if (!registry_.contains(name)) {
    fail_at(start, registry_.unknown_message(name).substr(6)); // drop "ctir: "
  }
  return wrap([&] { return registry_.create(name, options); }, start);
}

CTIR_INLINE Pass PipelineParser::parse_sequential(std::size_t start,
                                                  const PassOptionValues& options,
                                                  std::size_t depth) {
  if (depth >= max_depth) {
    fail_at(start, "sequentials nested more than " + std::to_string(max_depth) + " deep");
  }
  PassInfo info{.name = "sequential"};
  std::string name_storage;
  for (const PassOptionValue& option : options) {
    if (option.name == "name") {
      name_storage = option.value;
      info.name = name_storage;
    } else if (option.name == "opt_level") {
      std::optional<int> level = config_traits<int>::parse(option.value);
      if (!level) {
        fail_at(start, "option 'opt_level' of 'sequential' has type int; '" + option.value +
                           "' is not a valid int");
      }
      info.opt_level = *level;
    } else {
      fail_at(start,
              "'sequential' has no option '" + option.name + "'" +
                  detail::did_you_mean(detail::nearest_names(option.name, {"name", "opt_level"})) +
                  " (its options: 'name', 'opt_level')");
    }
  }
  skip_blanks();
  if (at_end() || peek() != '(') {
    fail_at(pos_, "expected '(' after 'sequential'");
  }
  ++pos_;
  std::vector<Pass> passes = parse_list(depth + 1);
  skip_blanks();
  if (at_end() || peek() != ')') {
    fail_at(pos_, at_end() ? "missing ')'" : "expected ',' or ')'");
  }
  ++pos_;
  // The PassInfo copies (and interns) the name before name_storage goes away.
  return wrap([&] { return sequential(std::move(passes), info, registry_); }, start);
}

CTIR_INLINE PassOptionValues PipelineParser::parse_options() {
  PassOptionValues options;
  ++pos_; // '{'
  skip_blanks();
  if (!at_end() && peek() == '}') {
    ++pos_;
    return options;
  }
  while (true) {
    skip_blanks();
    PassOptionValue option;
    option.name = parse_name("an option name");
    skip_blanks();
    if (at_end() || peek() != '=') {
      fail_at(pos_, "expected '=' after option '" + option.name + "'");
    }
    ++pos_;
    skip_blanks();
    option.value = parse_value();
    options.push_back(std::move(option));
    skip_blanks();
    if (!at_end() && peek() == ',') {
      ++pos_;
      continue;
    }
    if (!at_end() && peek() == '}') {
      ++pos_;
      return options;
    }
    fail_at(pos_, "expected ',' or '}' in options");
  }
}

CTIR_INLINE std::string PipelineParser::parse_name(const char* what) {
  if (at_end() || !detail::is_pipeline_name_start(peek())) {
    fail_at(pos_, std::string("expected ") + what);
  }
  const std::size_t start = pos_;
  while (!at_end() && detail::is_pipeline_name_char(peek())) {
    ++pos_;
  }
  return std::string(text_.substr(start, pos_ - start));
}

CTIR_INLINE std::string PipelineParser::parse_value() {
  std::string value;
  if (!at_end() && peek() == '"') {
    const std::size_t start = pos_;
    ++pos_;
    while (true) {
      if (at_end()) {
        fail_at(start, "unterminated quoted value");
      }
      char c = text_[pos_++];
      if (c == '"') {
        return value;
      }
      if (c == '\\') {
        if (at_end()) {
          fail_at(start, "unterminated quoted value");
        }
        c = text_[pos_++];
      }
      value += c;
    }
  }
  const std::size_t start = pos_;
  while (!at_end() && detail::is_pipeline_bare_char(peek())) {
    ++pos_;
  }
  if (pos_ == start) {
    fail_at(pos_, "expected a value");
  }
  return std::string(text_.substr(start, pos_ - start));
}

template <class F>
Pass PipelineParser::wrap(F&& make, std::size_t column) {
  try {
    return std::forward<F>(make)();
  } catch (const PipelineError& error) {
    std::string message = error.what();
    if (message.rfind("ctir: ", 0) == 0) {
      message.erase(0, 6);
    }
    fail_at(column, message);
  }
}

CTIR_INLINE void PipelineParser::skip_blanks() noexcept {
  while (!at_end() && (peek() == ' ' || peek() == '\t' || peek() == '\n' || peek() == '\r')) {
    ++pos_;
  }
}

CTIR_INLINE void PipelineParser::fail_at(std::size_t position, const std::string& message) const {
  std::string text = "ctir: bad pipeline at column " + std::to_string(position + 1) + ": " +
                     message + "\n  " + std::string(text_) + "\n  " + std::string(position, ' ') +
                     "^";
  throw PipelineError(text);
}

CTIR_INLINE Pass parse_pipeline(std::string_view text, const PassRegistry& registry) {
  return PipelineParser(text, registry).parse();
}

CTIR_INLINE std::string print_pipeline(const Pass& pass) { return pass.str(); }

} // namespace ctir
