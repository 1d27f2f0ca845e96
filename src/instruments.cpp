// ctir::compiled: the built-in pass instruments and PrintIR.
#include <ctir/pass/detail/line_diff-inl.hpp>
#include <ctir/pass/instruments/bisect-inl.hpp>
#include <ctir/pass/instruments/dump_ir-inl.hpp>
#include <ctir/pass/instruments/immutable_input-inl.hpp>
#include <ctir/pass/instruments/print_changed-inl.hpp>
#include <ctir/pass/instruments/print_ir-inl.hpp>
#include <ctir/pass/instruments/timing-inl.hpp>
#include <ctir/pass/instruments/trace-inl.hpp>
#include <ctir/pass/instruments/verify-inl.hpp>
#include <ctir/pass/print_ir_pass-inl.hpp>
