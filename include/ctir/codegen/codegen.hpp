// The native backend: C code generation and NativeModule (build, load, call).
#pragma once

#include <ctir/codegen/c_codegen.hpp>
#include <ctir/codegen/module.hpp>
