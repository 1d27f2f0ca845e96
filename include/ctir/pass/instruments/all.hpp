// Every built-in pass instrument and debugging pass, in one include.
#pragma once

#include <ctir/pass/instruments/bisect.hpp>
#include <ctir/pass/instruments/dump_ir.hpp>
#include <ctir/pass/instruments/immutable_input.hpp>
#include <ctir/pass/instruments/print_changed.hpp>
#include <ctir/pass/instruments/print_ir.hpp>
#include <ctir/pass/instruments/timing.hpp>
#include <ctir/pass/instruments/trace.hpp>
#include <ctir/pass/instruments/verify.hpp>
#include <ctir/pass/print_ir_pass.hpp>
