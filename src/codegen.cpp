// ctir::compiled: the C code generator and the native runtime module.
#include <ctir/codegen/c_codegen-inl.hpp>
#include <ctir/codegen/module-inl.hpp>
