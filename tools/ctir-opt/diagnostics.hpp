// How ctir-opt reports errors and pass diagnostics on stderr: `ctir-opt: error: ...`.
#pragma once

#include <ctir/pass/context.hpp>

#include <exception>
#include <string>
#include <string_view>

namespace ctir_opt {

/// `message` without the `ctir: ` a library message starts with.
std::string_view without_library_prefix(std::string_view message);

/// `ctir-opt: error: <message>` with a final newline (a leading `ctir: ` of a library
/// message is dropped: the tool's name takes its place).
std::string format_error(std::string_view message);

/// The report of an exception caught by ctir-opt: a parse error as the parser words it
/// (`file:line:column: error: ...` and the line with a caret), a pass or instrument error
/// naming the pass, anything else as format_error.
std::string describe_exception(const std::exception& error);

/// The line printed for a diagnostic a pass emitted: `ctir-opt: warning: ...`.
std::string format_diagnostic(const ctir::Diagnostic& diagnostic);

/// Makes an error thrown inside a pass about a node show the IR with that node underlined.
void install_pass_error_printer();

} // namespace ctir_opt
