// NativeModule: a module's tensor-level functions compiled to a shared object through C
// and loaded with dlopen; its graph-level functions run over the compiled kernels.
#pragma once

#include <ctir/codegen/c_codegen.hpp>
#include <ctir/core/error.hpp>
#include <ctir/core/linkage.hpp>
#include <ctir/eval/value.hpp>
#include <ctir/ir/module.hpp>

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace ctir::codegen {

/// How build() compiles the generated C.
struct BuildOptions {
  /// The C compiler command (may carry arguments: "ccache gcc"). Empty: the `CC`
  /// environment variable, else the compiler found when ctir was configured, else `cc`.
  std::string compiler;
  /// Compile with `-fopenmp` when the compiler accepts it, so that parallel loops run on
  /// several threads.
  bool openmp = true;
  /// Optimization and other flags, before `-shared -fPIC`.
  std::vector<std::string> flags = {"-O2"};
  CodegenOptions codegen;
};

/// Building or loading a native module failed: the compiler is missing or rejected the
/// code (its message is included), the shared object cannot be loaded, a file is unreadable.
class BuildError : public Error {
public:
  using Error::Error;
};

class NativeModule;

namespace detail {
/// The loaded shared object, its entry points and the module (defined in module-inl.hpp).
struct NativeModuleState;
} // namespace detail

/// A function of a NativeModule, callable like Interpreter::call.
///
/// A tensor-level function takes every parameter (scalars as scalars or rank-0 tensors)
/// and returns the final value of every parameter, in order; a graph-level function
/// returns one value. Arguments are checked before native code runs (arity, kind, dtype,
/// rank, literal dimensions; symbolic dimensions are checked by the function's prologue):
/// a mismatch, like an error inside the function (an index out of bounds, an integer
/// division by zero), throws eval::EvalError. Inputs are never modified.
class NativeFunction {
public:
  std::vector<eval::Value> operator()(std::vector<eval::Value> args) const;
  const std::string& name() const noexcept { return name_; }

private:
  friend class NativeModule;
  NativeFunction(std::shared_ptr<const detail::NativeModuleState> module, std::string name)
      : module_(std::move(module)), name_(std::move(name)) {}
  std::shared_ptr<const detail::NativeModuleState> module_;
  std::string name_;
};

/// A module compiled to native code: what TVM calls a runtime::Module. (ctir's
/// `ctir::runtime` namespace is the type-erased traversal layer, unrelated.)
///
/// The tensor-level functions are C compiled into one shared object; the graph-level
/// functions (after LegalizeOps: `call_dps` into those, tuples, lets, constants, `if`,
/// calls of other graph functions) are run by a small executor that allocates each
/// `call_dps` output and calls the kernel. An operator call left in a graph function is
/// an error naming the operator when the function runs. Copies share the loaded object,
/// which is unloaded (dlclose) when the last copy goes.
class NativeModule {
public:
  /// The function `name`; throws ctir::Error listing the module's functions if absent.
  NativeFunction get_function(std::string_view name) const;
  bool contains(std::string_view name) const;
  /// The module the native code was built from (tensor-level functions included).
  const IRModule& module() const;
  /// The C source it was compiled from (empty for a module loaded from files).
  const std::string& c_source() const;
  /// Whether the shared object was compiled with OpenMP.
  bool openmp() const;
  /// Writes the shared object to `path` and the module's text (the signatures and the
  /// graph-level functions) to `path + ".ctir"`; throws BuildError if it cannot.
  void save(const std::string& path) const;
  /// Loads what save() wrote; throws BuildError if a file is missing or unreadable, or
  /// the shared object lacks a function of the metadata.
  static NativeModule load(const std::string& path);

private:
  explicit NativeModule(std::shared_ptr<detail::NativeModuleState> state)
      : state_(std::move(state)) {}
  friend NativeModule build(const IRModule& mod, const BuildOptions& options);
  std::shared_ptr<detail::NativeModuleState> state_;
};

/// Compiles the tensor-level functions of `mod` to native code and loads them.
///
/// Writes emit_c(mod) to a temporary directory, compiles it with the C compiler (see
/// BuildOptions::compiler) as `-O2 -shared -fPIC -ffp-contract=off` (plus `-fopenmp` when
/// accepted), loads it with dlopen and removes the directory. Throws CodegenError for a
/// construct C cannot express and BuildError when the compiler is missing or fails (with
/// its message).
NativeModule build(const IRModule& mod, const BuildOptions& options = {});

/// The C compiler build() uses by default: `CC` if set, else the configured compiler.
std::string default_c_compiler();

} // namespace ctir::codegen

namespace ctir {
using codegen::build;
} // namespace ctir

#ifdef CTIR_HEADER_ONLY
#include <ctir/codegen/module-inl.hpp>
#endif
