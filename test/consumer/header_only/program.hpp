// The functions second.cpp gives first.cpp in the header-only program.
#pragma once

#include <ctir/ir/module.hpp>

#include <string>

namespace header_only_program {
ctir::IRModule make_module();
std::string print_module(const ctir::IRModule& mod);
} // namespace header_only_program
