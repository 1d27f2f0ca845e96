// C source code generation for the tensor-level functions of a module.
#pragma once

#include <ctir/core/error.hpp>
#include <ctir/core/linkage.hpp>
#include <ctir/ir/module.hpp>
#include <ctir/ir/tensor/prim_func.hpp>

#include <string>

namespace ctir::codegen {

/// What the C code generator emits besides the loops themselves.
struct CodegenOptions {
  /// Check every load and store index against its tensor's shape (an index out of bounds
  /// is then an error, as in the interpreter). Off: the indices are trusted, as in
  /// hand-written C; a program that indexes out of bounds then has undefined behaviour.
  bool bounds_checks = true;
};

/// A construct the C code generator cannot emit (a tensor used as a scalar, an index
/// count that differs from the rank, an unbound variable ...); names the function and the
/// node.
class CodegenError : public NodeError {
public:
  using NodeError::NodeError;
};

/// The C source of every tensor-level function of `mod`, one translation unit.
///
/// Each PrimFunc `@f` becomes `static int prim_f(ctir_status*, DLTensor*...)` with a
/// comment giving its ctir signature, and an exported entry point
/// `int ctir_call_f(DLTensor** args, char* error, size_t error_size)` that returns 0 on
/// success and nonzero after writing the first error into `error`. Every parameter,
/// scalars included (as rank-0 tensors), crosses as a DLPack `DLTensor`; the caller
/// checks dtypes and ranks, the function checks its symbolic dimensions before it runs.
///
/// The semantics are the interpreter's (eval/scalar.hpp): wrapping integers, floor
/// division and modulo (division by zero is an error), saturating float-to-integer
/// casts, floats rounded once to their dtype, `select` evaluating both branches,
/// zero-filled `alloc` buffers. An error does not stop the function at once: the faulting
/// load yields 0, the faulting store or division is skipped, and the function returns
/// the first error when it ends. Parallel loops become `#pragma omp parallel for` and
/// vectorized loops `#pragma omp simd` (under `#ifdef _OPENMP`) when their iterations
/// provably write distinct elements and read nothing written in the loop; otherwise, and
/// for unroll loops, they run serially. Graph-level functions are not emitted.
///
/// Type errors the interpreter reports when it reaches them (an operation mixing a float
/// and an integer, a store or `let` of the wrong dtype) become errors at the same point of
/// the C code. float16 is stored as its bits and computed as float, rounded to half
/// precision after each operation as the interpreter rounds. Throws CodegenError for what
/// cannot be emitted at all: tensors used as scalars, wrong index counts, unbound
/// variables, a dtype C has no type for.
std::string emit_c(const IRModule& mod, const CodegenOptions& options = {});

/// The name of the C function a PrimFunc named `name` becomes (`prim_` + the name with
/// characters C does not allow replaced by `_`).
std::string c_function_name(const std::string& name);

/// The name of the exported entry point of a PrimFunc named `name` (`ctir_call_` + ...).
std::string c_entry_name(const std::string& name);

} // namespace ctir::codegen

#ifdef CTIR_HEADER_ONLY
#include <ctir/codegen/c_codegen-inl.hpp>
#endif
