// Definitions of <ctir/codegen/module.hpp>: compiling, loading, calling, the executor of
// graph-level functions.
#pragma once

#include <ctir/codegen/module.hpp>

#include <ctir/codegen/c_codegen.hpp>
#include <ctir/eval/error.hpp>
#include <ctir/eval/kernels.hpp>
#include <ctir/eval/scalar.hpp>
#include <ctir/ir/graph/expr.hpp>
#include <ctir/ir/tensor/prim_func.hpp>
#include <ctir/ir/type.hpp>
#include <ctir/ir/type_str.hpp>
#include <ctir/text/parser.hpp>
#include <ctir/text/printer.hpp>

#include <dlfcn.h>
#include <dlpack/dlpack.h>
#include <sys/wait.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#ifndef CTIR_C_COMPILER
#define CTIR_C_COMPILER "cc"
#endif

namespace ctir::codegen {

namespace detail {

/// The signature of every exported entry point (see emit_c).
using EntryPoint = int (*)(DLTensor**, char*, std::size_t);

struct NativeModuleState {
  IRModule mod;
  std::string c_source;
  std::string shared_object; // the bytes of the .so, for save()
  bool openmp = false;
  void* handle = nullptr;
  std::unordered_map<std::string, EntryPoint> entries;

  NativeModuleState() = default;
  NativeModuleState(const NativeModuleState&) = delete;
  NativeModuleState& operator=(const NativeModuleState&) = delete;
  ~NativeModuleState() {
    if (handle != nullptr) {
      dlclose(handle);
    }
  }
};

/// A temporary directory, removed with its contents when this goes.
class TempDir {
public:
  TempDir() {
    const char* base = std::getenv("TMPDIR");
    std::string pattern =
        std::string(base != nullptr && *base != 0 ? base : "/tmp") + "/ctir-native-XXXXXX";
    if (mkdtemp(pattern.data()) == nullptr) {
      throw BuildError("ctir: cannot create a temporary directory from " + pattern);
    }
    path_ = pattern;
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  ~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  const std::string& path() const noexcept { return path_; }

private:
  std::string path_;
};

CTIR_INLINE std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw BuildError("ctir: cannot read " + path);
  }
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

CTIR_INLINE void write_file(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary);
  out << bytes;
  out.close();
  if (!out) {
    throw BuildError("ctir: cannot write " + path);
  }
}

/// `text` quoted for the POSIX shell.
CTIR_INLINE std::string shell_quote(const std::string& text) {
  std::string out = "'";
  for (const char c : text) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out += c;
    }
  }
  return out + "'";
}

/// Runs a command through the shell; its exit status and its combined output.
CTIR_INLINE int run_command(const std::string& command, std::string& output) {
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  if (pipe == nullptr) {
    output = "cannot start a shell";
    return -1;
  }
  char buffer[4096];
  std::size_t count = 0;
  while ((count = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) {
    output.append(buffer, count);
  }
  const int status = pclose(pipe);
  if (status == -1) {
    return -1;
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

CTIR_INLINE std::vector<std::string> split_words(const std::string& text) {
  std::vector<std::string> words;
  std::istringstream in(text);
  std::string word;
  while (in >> word) {
    words.push_back(word);
  }
  return words;
}

CTIR_INLINE void open_entries(NativeModuleState& state, const std::string& where) {
  for (const auto& [global, function] : state.mod) {
    if (!function.is<PrimFuncNode>()) {
      continue;
    }
    const std::string symbol = c_entry_name(global->name);
    void* address = dlsym(state.handle, symbol.c_str());
    if (address == nullptr) {
      throw BuildError("ctir: " + where + " has no entry point " + symbol + " for @" +
                       global->name);
    }
    // POSIX guarantees that a data pointer from dlsym converts to a function pointer.
    state.entries[global->name] = reinterpret_cast<EntryPoint>(address);
  }
}

CTIR_INLINE void load_shared_object(NativeModuleState& state, const std::string& path) {
  state.handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (state.handle == nullptr) {
    const char* message = dlerror();
    throw BuildError("ctir: cannot load " + path + ": " + (message ? message : "dlopen failed"));
  }
  // An OpenMP runtime's idle worker threads live on after the module that started them is
  // unloaded; unloading the runtime under them would crash. Pin it once it is loaded.
  for (const char* runtime : {"libgomp.so.1", "libomp.so.5", "libomp.so", "libiomp5.so"}) {
    dlopen(runtime, RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE);
  }
  open_entries(state, path);
}

CTIR_INLINE DLDataType dl_dtype(DataType dtype) {
  DLDataType out{};
  out.lanes = 1;
  out.bits = dtype.bits;
  switch (dtype.code) {
  case DataType::Code::int_:
    out.code = kDLInt;
    break;
  case DataType::Code::uint:
  case DataType::Code::bool_: // DLPack 0.6 has no bool: one-bit unsigned, stored in a byte
    out.code = kDLUInt;
    break;
  case DataType::Code::float_:
    out.code = kDLFloat;
    break;
  }
  return out;
}

[[noreturn]] CTIR_INLINE void call_error(const Object* node, const std::string& what,
                                         const std::string& function) {
  throw eval::detail::make_error(node, what, function);
}

/// Checks `value` against a parameter's type (kind, dtype, rank, literal dimensions).
CTIR_INLINE void check_argument(const Var& param, const eval::Value& value, std::size_t k,
                                const std::string& function) {
  const std::string what =
      "argument " + std::to_string(k) + " (%" + param->name + ": " + type_str(param->ty) + ")";
  if (const auto* prim = param->ty.as<PrimTypeNode>()) {
    const bool scalar = value.is_scalar() && value.as_scalar().dtype == prim->dtype;
    const bool rank0 = value.is_tensor() && value.as_tensor().ndim() == 0 &&
                       value.as_tensor().dtype() == prim->dtype;
    if (!scalar && !rank0) {
      call_error(nullptr,
                 what + " must be a " + prim->dtype.str() + " scalar, not " +
                     (value.is_tensor() || value.is_scalar()
                          ? type_str(value.type())
                          : std::string(eval::Value::kind_name(value.kind()))),
                 function);
    }
    return;
  }
  const auto* tensor = param->ty.as<TensorTypeNode>();
  if (tensor == nullptr) {
    call_error(nullptr, what + " has a type native code cannot take", function);
  }
  if (!value.is_tensor()) {
    call_error(nullptr,
               what + " must be a tensor, not a " +
                   std::string(eval::Value::kind_name(value.kind())),
               function);
  }
  const TensorData& data = value.as_tensor();
  if (data.dtype() != tensor->dtype) {
    call_error(nullptr, what + " has dtype " + data.dtype().str() + ", not " + tensor->dtype.str(),
               function);
  }
  if (data.ndim() != tensor->shape.size()) {
    call_error(nullptr,
               what + " has rank " + std::to_string(data.ndim()) + ", not " +
                   std::to_string(tensor->shape.size()),
               function);
  }
  for (std::size_t d = 0; d < data.ndim(); ++d) {
    if (const auto* imm = tensor->shape[d].as<IntImmNode>();
        imm != nullptr && imm->value != data.shape()[d]) {
      call_error(nullptr,
                 what + " has dimension " + std::to_string(d) + " of size " +
                     std::to_string(data.shape()[d]) + ", not " + std::to_string(imm->value),
                 function);
    }
  }
}

/// Runs a tensor-level function natively; the final values of all its parameters.
CTIR_INLINE std::vector<eval::Value> call_prim(const NativeModuleState& state,
                                               const PrimFuncNode& function,
                                               const std::string& name,
                                               std::vector<eval::Value> args) {
  if (args.size() != function.params.size()) {
    call_error(nullptr,
               "@" + name + " takes " + std::to_string(function.params.size()) +
                   " arguments, but " + std::to_string(args.size()) + " were given",
               name);
  }
  for (std::size_t k = 0; k < args.size(); ++k) {
    check_argument(function.params[k], args[k], k, name);
  }
  const auto entry = state.entries.find(name);
  if (entry == state.entries.end()) {
    call_error(nullptr, "the native module has no code for @" + name, name);
  }
  // Scalars cross as rank-0 tensors; every tensor is unshared first, so the function
  // writes its own copy and parameters never alias.
  std::vector<TensorData> scalars(args.size());
  std::vector<DLTensor> tensors(args.size());
  std::vector<DLTensor*> pointers(args.size());
  for (std::size_t k = 0; k < args.size(); ++k) {
    TensorData* data = nullptr;
    if (args[k].is_scalar()) {
      scalars[k] = eval::to_tensor(args[k].as_scalar());
      data = &scalars[k];
    } else {
      data = &args[k].mutable_tensor();
    }
    DLTensor& t = tensors[k];
    t.data = data->mutable_data();
    t.device = DLDevice{kDLCPU, 0};
    t.ndim = static_cast<int>(data->ndim());
    t.dtype = dl_dtype(data->dtype());
    // DLPack's shape is not const, but nothing writes it.
    t.shape = const_cast<std::int64_t*>(data->shape().data());
    t.strides = nullptr;
    t.byte_offset = 0;
    pointers[k] = &t;
  }
  char message[1024] = {0};
  if (entry->second(pointers.data(), message, sizeof message) != 0) {
    std::string text = message;
    const std::string prefix = "in @" + name + ": ";
    if (text.starts_with(prefix)) {
      text.erase(0, prefix.size());
    }
    call_error(nullptr, text, name);
  }
  return args;
}

/// Runs graph-level functions over the native kernels (see NativeModule).
class Executor {
public:
  explicit Executor(const NativeModuleState& state) : state_(state) {}

  eval::Value call(const FunctionNode& function, const std::string& name,
                   std::vector<eval::Value> args, int depth) {
    if (depth > max_depth) {
      call_error(nullptr, "calls nest deeper than " + std::to_string(max_depth), name);
    }
    if (args.size() != function.params.size()) {
      call_error(nullptr,
                 "@" + name + " takes " + std::to_string(function.params.size()) +
                     " arguments, but " + std::to_string(args.size()) + " were given",
                 name);
    }
    Frame frame{name, {}, {}};
    for (std::size_t k = 0; k < args.size(); ++k) {
      const Var& param = function.params[k];
      if (param->ty.is<TensorTypeNode>() || param->ty.is<PrimTypeNode>()) {
        check_argument(param, args[k], k, name);
      }
      // Shape variables of the parameter types, for the dimensions of call_dps outputs.
      if (const auto* tensor = param->ty.as<TensorTypeNode>()) {
        for (std::size_t d = 0; d < tensor->shape.size(); ++d) {
          if (const auto* var = tensor->shape[d].as<VarNode>()) {
            frame.dims.emplace(var, args[k].as_tensor().shape()[d]);
          }
        }
      }
      if (args[k].is_scalar()) {
        args[k] = eval::Value(eval::to_tensor(args[k].as_scalar()));
      }
      frame.env.emplace(param.get(), std::move(args[k]));
    }
    return eval(function.body.get(), frame, depth);
  }

private:
  static constexpr int max_depth = 2000;

  struct Frame {
    std::string name;
    std::unordered_map<const Object*, eval::Value> env; // variables and evaluated nodes
    std::unordered_map<const VarNode*, std::int64_t> dims;
  };

  std::int64_t dimension(const PrimExpr& dim, const Frame& frame, const Object* site) {
    if (const auto* imm = dim.as<IntImmNode>()) {
      return imm->value;
    }
    if (const auto* var = dim.as<VarNode>()) {
      if (const auto it = frame.dims.find(var); it != frame.dims.end()) {
        return it->second;
      }
    }
    call_error(site,
               "the output dimension " + prim_expr_str(dim) +
                   " is neither a literal nor a dimension of a parameter",
               frame.name);
  }

  eval::Value eval(const ExprNode* node, Frame& frame, int depth) {
    if (node == nullptr) {
      call_error(nullptr, "an expression is missing (a null field)", frame.name);
    }
    if (depth > max_depth) {
      call_error(node, "expressions nest deeper than " + std::to_string(max_depth), frame.name);
    }
    // Let chains run in a loop, so that long chains need no native stack.
    while (node->dynamic_type_index() == LetNode::type_index) {
      const auto& let = static_cast<const LetNode&>(*node);
      eval::Value value = eval(let.value.get(), frame, depth + 1);
      frame.env[let.var.get()] = std::move(value);
      node = let.body.get();
      if (node == nullptr) {
        call_error(&let, "the let has no body", frame.name);
      }
    }
    if (const auto it = frame.env.find(node); it != frame.env.end()) {
      return it->second;
    }
    eval::Value result = compute(node, frame, depth);
    if (node->dynamic_type_index() != VarNode::type_index) {
      frame.env.emplace(node, result);
    }
    return result;
  }

  eval::Value compute(const ExprNode* node, Frame& frame, int depth) {
    switch (node->dynamic_type_index()) {
    case VarNode::type_index:
      call_error(node, "the variable is not bound here", frame.name);
    case ConstantNode::type_index:
      return eval::Value(static_cast<const ConstantNode&>(*node).data);
    case IntImmNode::type_index: {
      const auto& imm = static_cast<const IntImmNode&>(*node);
      return eval::Value(eval::to_tensor(eval::Scalar::make_int(imm.dtype, imm.value)));
    }
    case FloatImmNode::type_index: {
      const auto& imm = static_cast<const FloatImmNode&>(*node);
      return eval::Value(eval::to_tensor(eval::Scalar::make_float(imm.dtype, imm.value)));
    }
    case TupleNode::type_index: {
      std::vector<eval::Value> fields;
      for (const Expr& field : static_cast<const TupleNode&>(*node).fields) {
        fields.push_back(eval(field.get(), frame, depth + 1));
      }
      return eval::Value::tuple(std::move(fields));
    }
    case TupleGetItemNode::type_index: {
      const auto& get = static_cast<const TupleGetItemNode&>(*node);
      const eval::Value tuple = eval(get.tuple.get(), frame, depth + 1);
      if (!tuple.is_tuple() || get.index < 0 ||
          static_cast<std::size_t>(get.index) >= tuple.fields().size()) {
        call_error(node, "the projection is out of range or not of a tuple", frame.name);
      }
      return tuple.fields()[static_cast<std::size_t>(get.index)];
    }
    case IfNode::type_index: {
      const auto& branch = static_cast<const IfNode&>(*node);
      const eval::Value cond = eval(branch.cond.get(), frame, depth + 1);
      if (!cond.is_tensor() || cond.as_tensor().size() != 1) {
        call_error(node, "the condition is not a scalar", frame.name);
      }
      const bool truth = eval::read_element(cond.as_tensor(), 0).truthy();
      return eval(truth ? branch.then_branch.get() : branch.else_branch.get(), frame, depth + 1);
    }
    case CallDpsNode::type_index:
      return call_dps(static_cast<const CallDpsNode&>(*node), frame, depth);
    case CallNode::type_index: {
      const auto& call = static_cast<const CallNode&>(*node);
      if (const auto* op = call.op.as<OpNode>()) {
        call_error(node,
                   "the operator '" + op->name +
                       "' has no native code (run LegalizeOps to lower it to tensor-level "
                       "functions)",
                   frame.name);
      }
      const auto* global = call.op.as<GlobalVarNode>();
      if (global == nullptr) {
        call_error(node,
                   "native code cannot run a call of a closure (only calls of global functions)",
                   frame.name);
      }
      std::vector<eval::Value> args;
      for (const Expr& arg : call.args) {
        args.push_back(eval(arg.get(), frame, depth + 1));
      }
      const BaseFunc callee = state_.mod.find(global->name);
      if (const auto* graph = callee.as<FunctionNode>()) {
        return this->call(*graph, global->name, std::move(args), depth + 1);
      }
      call_error(node, "@" + global->name + " is not a graph-level function of the module",
                 frame.name);
    }
    default:
      call_error(node,
                 "native code cannot run a " + std::string(node->dynamic_type_key()) +
                     " (closures and graph-level scalar code stay with the interpreter)",
                 frame.name);
    }
  }

  eval::Value call_dps(const CallDpsNode& call, Frame& frame, int depth) {
    const std::string name = call.func.defined() ? call.func->name : std::string();
    const BaseFunc function = state_.mod.find(name);
    const auto* prim = function.as<PrimFuncNode>();
    if (prim == nullptr) {
      call_error(&call, "@" + name + " is not a tensor-level function of the module", frame.name);
    }
    std::vector<eval::Value> args;
    for (const Expr& arg : call.args) {
      args.push_back(eval(arg.get(), frame, depth + 1));
    }
    std::vector<Type> out_types;
    if (const auto* tuple = call.out_type.as<TupleTypeNode>()) {
      out_types = tuple->fields;
    } else {
      out_types.push_back(call.out_type);
    }
    for (const Type& type : out_types) {
      const auto* tensor = type.as<TensorTypeNode>();
      if (tensor == nullptr) {
        call_error(&call, "the output type " + type_str(type) + " is not a tensor type",
                   frame.name);
      }
      std::vector<std::int64_t> shape;
      for (const PrimExpr& dim : tensor->shape) {
        shape.push_back(dimension(dim, frame, &call));
      }
      try {
        args.emplace_back(eval::make_tensor(tensor->dtype, shape, "the output"));
      } catch (const Error& e) {
        call_error(&call, e.what(), frame.name);
      }
    }
    std::vector<eval::Value> finals = call_prim(state_, *prim, name, std::move(args));
    std::vector<eval::Value> outs(
        std::make_move_iterator(finals.end() - static_cast<std::ptrdiff_t>(out_types.size())),
        std::make_move_iterator(finals.end()));
    if (call.out_type.is<TupleTypeNode>()) {
      return eval::Value::tuple(std::move(outs));
    }
    return std::move(outs.front());
  }

  const NativeModuleState& state_;
};

} // namespace detail

CTIR_INLINE std::vector<eval::Value>
NativeFunction::operator()(std::vector<eval::Value> args) const {
  const BaseFunc function = module_->mod.find(name_);
  if (const auto* prim = function.as<PrimFuncNode>()) {
    return detail::call_prim(*module_, *prim, name_, std::move(args));
  }
  detail::Executor executor(*module_);
  return {executor.call(*function.as<FunctionNode>(), name_, std::move(args), 0)};
}

CTIR_INLINE bool NativeModule::contains(std::string_view name) const {
  return state_->mod.contains(std::string(name));
}

CTIR_INLINE NativeFunction NativeModule::get_function(std::string_view name) const {
  const BaseFunc function = state_->mod.find(std::string(name));
  if (!function.is<PrimFuncNode>() && !function.is<FunctionNode>()) {
    std::string names;
    for (const auto& [global, f] : state_->mod) {
      names += (names.empty() ? "@" : ", @") + global->name;
    }
    throw Error("ctir: the native module has no function @" + std::string(name) + " (it has " +
                (names.empty() ? std::string("none") : names) + ")");
  }
  return NativeFunction(state_, std::string(name));
}

CTIR_INLINE const IRModule& NativeModule::module() const { return state_->mod; }

CTIR_INLINE const std::string& NativeModule::c_source() const { return state_->c_source; }

CTIR_INLINE bool NativeModule::openmp() const { return state_->openmp; }

CTIR_INLINE void NativeModule::save(const std::string& path) const {
  detail::write_file(path, state_->shared_object);
  detail::write_file(path + ".ctir", std::string("# ctir native module: the signatures of ") +
                                         path + (state_->openmp ? " (OpenMP)" : "") + "\n" +
                                         print(state_->mod));
}

CTIR_INLINE NativeModule NativeModule::load(const std::string& path) {
  auto state = std::make_shared<detail::NativeModuleState>();
  const std::string metadata = detail::read_file(path + ".ctir");
  try {
    state->mod = parse_module(metadata, path + ".ctir");
  } catch (const Error& e) {
    throw BuildError(std::string("ctir: the metadata of ") + path + " does not parse: " + e.what());
  }
  state->openmp = metadata.find("(OpenMP)\n") != std::string::npos;
  state->shared_object = detail::read_file(path);
  detail::load_shared_object(*state, path);
  return NativeModule(std::move(state));
}

CTIR_INLINE std::string default_c_compiler() {
  const char* cc = std::getenv("CC");
  return cc != nullptr && *cc != 0 ? std::string(cc) : std::string(CTIR_C_COMPILER);
}

CTIR_INLINE NativeModule build(const IRModule& mod, const BuildOptions& options) {
  auto state = std::make_shared<detail::NativeModuleState>();
  state->mod = mod;
  state->c_source = emit_c(mod, options.codegen);
  const detail::TempDir dir;
  const std::string source = dir.path() + "/module.c";
  const std::string object = dir.path() + "/module.so";
  detail::write_file(source, state->c_source);
  const std::string compiler = options.compiler.empty() ? default_c_compiler() : options.compiler;
  const std::vector<std::string> words = detail::split_words(compiler);
  if (words.empty()) {
    throw BuildError("ctir: no C compiler (BuildOptions::compiler and CC are blank)");
  }
  std::string command;
  for (const std::string& word : words) {
    command += detail::shell_quote(word) + " ";
  }
  for (const std::string& flag : options.flags) {
    command += detail::shell_quote(flag) + " ";
  }
  command += "-shared -fPIC -fvisibility=hidden -ffp-contract=off -o " +
             detail::shell_quote(object) + " " + detail::shell_quote(source);
  std::string output;
  int status = 1;
  if (options.openmp) {
    status = detail::run_command(command + " -fopenmp", output);
    state->openmp = status == 0;
  }
  if (status != 0) {
    // Without OpenMP: the compiler may not know -fopenmp; a real failure repeats.
    output.clear();
    status = detail::run_command(command, output);
  }
  if (status != 0) {
    while (!output.empty() && output.back() == '\n') {
      output.pop_back();
    }
    throw BuildError("ctir: the C compiler '" + compiler + "' failed (exit status " +
                     std::to_string(status) + ")" + (output.empty() ? "" : ":\n" + output));
  }
  state->shared_object = detail::read_file(object);
  detail::load_shared_object(*state, object);
  return NativeModule(std::move(state));
}

} // namespace ctir::codegen
