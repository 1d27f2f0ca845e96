// Definitions of <ctir/codegen/c_codegen.hpp>.
#pragma once

#include <ctir/codegen/c_codegen.hpp>
#include <ctir/ir/tensor/binary_view.hpp>

#include <ctir/codegen/detail/c_prelude.hpp>
#include <ctir/eval/scalar.hpp>
#include <ctir/ir/builder.hpp>
#include <ctir/ir/tensor/expr.hpp>
#include <ctir/ir/tensor/stmt.hpp>
#include <ctir/ir/type.hpp>
#include <ctir/ir/type_str.hpp>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

namespace ctir::codegen {

namespace detail {

/// Expressions and blocks nest at most this deep in emitted C (C compilers give up
/// long before).
inline constexpr int max_nesting = 2000;

CTIR_INLINE std::string sanitize(std::string_view name) {
  std::string out;
  for (const char c : name) {
    const bool ok =
        (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    out += ok ? c : '_';
  }
  if (out.empty() || (out[0] >= '0' && out[0] <= '9') || out[0] == '_') {
    out.insert(0, "v");
  }
  return out;
}

/// Whether `name` may collide with a C keyword, a standard macro or a generated name.
CTIR_INLINE bool reserved(const std::string& name) {
  static const std::set<std::string, std::less<>> words = {
      "auto",     "break",  "case",   "char",     "const",    "continue", "default",  "do",
      "double",   "else",   "enum",   "extern",   "float",    "for",      "goto",     "if",
      "inline",   "int",    "long",   "register", "restrict", "return",   "short",    "signed",
      "sizeof",   "static", "struct", "switch",   "typedef",  "union",    "unsigned", "void",
      "volatile", "while",  "bool",   "true",     "false",    "NULL",     "NAN",      "INFINITY",
      "EOF",      "errno",  "isnan",  "isinf",    "signbit",  "assert",   "stdin",    "stdout",
      "stderr",   "st",     "main",   "fmod",     "trunc",    "calloc",   "free",     "snprintf"};
  if (words.contains(name)) {
    return true;
  }
  for (const std::string_view prefix : {"ctir_", "prim_", "CTIR_", "INT", "UINT", "SIZE_", "FLT_",
                                        "DBL_", "HUGE_", "FP_", "M_", "kDL", "DL"}) {
    if (name.starts_with(prefix)) {
      return true;
    }
  }
  return name.ends_with("_t");
}

/// The C spelling of a dtype's values and the suffix of its helpers.
struct CType {
  const char* name;
  const char* suffix;         // arithmetic helpers: ctir_add_<suffix>
  const char* element_suffix; // loads, stores, select: ctir_load_<element_suffix>
  const char* storage;        // an element in memory (float16 values are floats in C)
};

CTIR_INLINE std::string escape_c(std::string_view text) {
  std::string out;
  for (const char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else if (static_cast<unsigned char>(c) < 0x20) {
      out += '?';
    } else if (c == '?') {
      out += "\\?"; // no trigraphs
    } else {
      out += c;
    }
  }
  return out;
}

/// Comment text: `*/` cannot end the comment early.
CTIR_INLINE std::string comment_safe(std::string text) {
  for (std::size_t at = text.find("*/"); at != std::string::npos; at = text.find("*/", at)) {
    text.replace(at, 2, "* /");
  }
  return text;
}

/// The C text of a float literal of `dtype`, exact (hexadecimal).
CTIR_INLINE std::string float_literal(double value, DataType dtype) {
  const bool single = dtype.bits <= 32;
  if (std::isnan(value)) {
    return single ? "(float)NAN" : "(double)NAN";
  }
  if (std::isinf(value)) {
    return std::string(value < 0 ? "-" : "") + (single ? "INFINITY" : "(double)INFINITY");
  }
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%a", value);
  std::string text = buffer;
  if (single) {
    text += 'f';
  }
  return value < 0 || std::signbit(value) ? "(" + text + ")" : text;
}

/// Emits the tensor-level functions of a module as C.
class CEmitter {
public:
  explicit CEmitter(const CodegenOptions& options) : options_(options) {}

  void emit_function(const PrimFuncNode& function, const std::string& name);

  std::string take() { return std::move(out_); }

private:
  struct VarInfo {
    std::string name;
    DataType dtype;
    bool tensor = false;
    std::size_t rank = 0;
    /// A loop counter: an int64_t in C whatever its dtype.
    bool counter = false;
  };
  struct Emitted {
    std::string text;
    DataType dtype;
    /// The C expression is an int64_t already (an int64 value or a loop counter).
    bool int64_in_c = false;
  };

  [[noreturn]] void fail(const Object* node, const std::string& what) const {
    throw CodegenError(node != nullptr ? ref_of(node) : ObjectRef(),
                       "ctir: cannot emit C for @" + function_name_ + ": " + what);
  }

  CType ctype(DataType dtype, const Object* node) const {
    switch (dtype.code) {
    case DataType::Code::bool_:
      return {"uint8_t", "b", "u8", "uint8_t"};
    case DataType::Code::uint:
      if (dtype.bits == 8) {
        return {"uint8_t", "u8", "u8", "uint8_t"};
      }
      break;
    case DataType::Code::int_:
      switch (dtype.bits) {
      case 8:
        return {"int8_t", "i8", "i8", "int8_t"};
      case 16:
        return {"int16_t", "i16", "i16", "int16_t"};
      case 32:
        return {"int32_t", "i32", "i32", "int32_t"};
      case 64:
        return {"int64_t", "i64", "i64", "int64_t"};
      default:
        break;
      }
      break;
    case DataType::Code::float_:
      if (dtype.bits == 32) {
        return {"float", "f32", "f32", "float"};
      }
      if (dtype.bits == 64) {
        return {"double", "f64", "f64", "double"};
      }
      if (dtype.bits == 16) {
        return {"float", "f16", "f16", "uint16_t"};
      }
      break;
    }
    fail(node, "the C backend does not support the dtype " + dtype.str());
  }

  std::string claim(const std::string& base) {
    std::string name = sanitize(base);
    if (reserved(name)) {
      name += '_';
    }
    std::string candidate = name;
    for (int k = 1; used_.contains(candidate); ++k) {
      candidate = name + "_" + std::to_string(k);
    }
    used_.insert(candidate);
    return candidate;
  }

  /// A tensor's data pointer name and its dimension names, all unused.
  std::string claim_tensor(const std::string& base, std::size_t rank) {
    std::string name = sanitize(base);
    if (reserved(name)) {
      name += '_';
    }
    for (int k = 0;; ++k) {
      const std::string candidate = k == 0 ? name : name + "_" + std::to_string(k);
      bool free = !used_.contains(candidate) && !used_.contains(candidate + "_dl");
      for (std::size_t d = 0; d < rank && free; ++d) {
        free = !used_.contains(candidate + "_d" + std::to_string(d));
      }
      if (free) {
        used_.insert(candidate);
        used_.insert(candidate + "_dl");
        for (std::size_t d = 0; d < rank; ++d) {
          used_.insert(candidate + "_d" + std::to_string(d));
        }
        return candidate;
      }
    }
  }

  const VarInfo& info(const VarNode* var, const Object* site) const {
    const auto it = vars_.find(var);
    if (it == vars_.end()) {
      fail(site, "the variable %" + (var ? var->name : std::string("?")) + " is not bound here");
    }
    return it->second;
  }

  void line(const std::string& text) {
    out_.append(static_cast<std::size_t>(indent_) * 2, ' ');
    out_ += text;
    out_ += '\n';
  }

  /// A string literal naming an error site, for the C helpers' `what` argument.
  std::string what(const std::string& text) const {
    return "\"" + escape_c("in @" + function_name_ + ": " + text) + "\"";
  }

  std::string node_text(const Object* node) const {
    if (node != nullptr && instance_of<PrimExprNode>(*node)) {
      return prim_expr_str(ref_of(static_cast<const PrimExprNode*>(node)));
    }
    if (node == nullptr) {
      return "?";
    }
    return std::string(node->dynamic_type_key());
  }

  Emitted expr(const PrimExprNode* node, int depth);
  /// An element read from memory as a value (float16 is stored as its bits).
  static std::string load_text(const std::string& element, DataType dtype) {
    return dtype.is_float() && dtype.bits == 16 ? "ctir_half_to_float(" + element + ")" : element;
  }
  /// A value as the element stored in memory.
  static std::string store_text(const std::string& value, DataType dtype) {
    return dtype.is_float() && dtype.bits == 16 ? "ctir_float_to_half(" + value + ")" : value;
  }
  /// An expression that fails when it runs: what the interpreter reports there.
  Emitted runtime_error(const Object* node, const std::string& message, DataType dtype) {
    return {"(ctir_fail(st, " + what(message) + "), (" + ctype(dtype, node).name + ")0)", dtype};
  }
  Emitted binary(BinaryOp op, const PrimExprNode* node, const PrimExprNode* a,
                 const PrimExprNode* b, int depth);
  std::string convert(const Emitted& value, DataType to, const Object* node);
  std::string offset(const VarNode* tensor, const std::vector<PrimExpr>& indices,
                     const Object* site, int depth);
  void block(const SeqStmtNode* seq, int depth);
  void stmt(const StmtNode* node, int depth, std::vector<std::string>& heap);
  void loop(const ForNode& node, int depth);
  bool independent_iterations(const ForNode& node) const;

  const CodegenOptions& options_;
  std::string out_;
  int indent_ = 0;
  std::string function_name_;
  std::unordered_set<std::string> used_;
  std::unordered_map<const VarNode*, VarInfo> vars_;
};

CTIR_INLINE std::string CEmitter::convert(const Emitted& value, DataType to, const Object* node) {
  const DataType from = value.dtype;
  if (from == to) {
    return value.text;
  }
  const CType target = ctype(to, node);
  ctype(from, node);
  if (to.is_bool()) {
    return "(uint8_t)(" + value.text + " != 0)";
  }
  if (to.is_float() && to.bits == 16) {
    return "ctir_f16((double)(" + value.text + "))";
  }
  if (to.is_float()) {
    // Through double, as the interpreter converts: an int64 rounds once to double, then
    // to float32.
    if (to.bits == 64 || from.is_float() || from.bits < 32) {
      return "(" + std::string(target.name) + ")(" + value.text + ")"; // exact or one rounding
    }
    return "(" + std::string(target.name) + ")(double)(" + value.text + ")";
  }
  if (from.is_float()) {
    return std::string("ctir_f2i_") + target.suffix + "((double)(" + value.text + "))";
  }
  return "(" + std::string(target.name) + ")(" + value.text + ")";
}

CTIR_INLINE std::string CEmitter::offset(const VarNode* tensor,
                                         const std::vector<PrimExpr>& indices, const Object* site,
                                         int depth) {
  const VarInfo& buffer = info(tensor, site);
  if (!buffer.tensor) {
    fail(site, "%" + tensor->name + " is a scalar, not a tensor");
  }
  if (indices.size() != buffer.rank) {
    fail(site, "%" + tensor->name + " has rank " + std::to_string(buffer.rank) + ", but " +
                   std::to_string(indices.size()) + " indices were given in " + node_text(site));
  }
  if (indices.empty()) {
    return "0";
  }
  std::vector<std::string> parts;
  for (const PrimExpr& index : indices) {
    const Emitted e = expr(index.get(), depth + 1);
    if (e.dtype.is_float()) {
      fail(index.get(),
           "the index " + prim_expr_str(index) + " is a " + e.dtype.str() + ", not an integer");
    }
    const bool wide = e.int64_in_c || (e.dtype.is_int() && e.dtype.bits == 64);
    parts.push_back(wide ? e.text : "(int64_t)" + e.text);
  }
  std::string text;
  if (options_.bounds_checks) {
    text = "0";
    for (std::size_t d = 0; d < parts.size(); ++d) {
      text = "ctir_idx(" + text + ", " + parts[d] + ", " + buffer.name + "_d" + std::to_string(d) +
             ")";
    }
    return text;
  }
  text = parts[0];
  for (std::size_t d = 1; d < parts.size(); ++d) {
    text = "(" + text + ") * " + buffer.name + "_d" + std::to_string(d) + " + " + parts[d];
  }
  return text;
}

CTIR_INLINE CEmitter::Emitted CEmitter::binary(BinaryOp op, const PrimExprNode* node,
                                               const PrimExprNode* a, const PrimExprNode* b,
                                               int depth) {
  const Emitted x = expr(a, depth + 1);
  const Emitted y = expr(b, depth + 1);
  if (op == BinaryOp::logical_and || op == BinaryOp::logical_or) {
    return {"(" + x.text + (op == BinaryOp::logical_and ? " && " : " || ") + y.text + ")",
            DataType::boolean()};
  }
  if (x.dtype.is_float() != y.dtype.is_float()) {
    return runtime_error(node,
                         "the operands of " + node_text(node) + " have dtypes " + x.dtype.str() +
                             " and " + y.dtype.str() +
                             "; one is a float and the other not (insert a cast)",
                         x.dtype);
  }
  const bool floating = x.dtype.is_float();
  const char* symbol = nullptr;
  switch (op) {
  case BinaryOp::eq:
    symbol = " == ";
    break;
  case BinaryOp::ne:
    symbol = " != ";
    break;
  case BinaryOp::lt:
    symbol = " < ";
    break;
  case BinaryOp::le:
    symbol = " <= ";
    break;
  case BinaryOp::gt:
    symbol = " > ";
    break;
  case BinaryOp::ge:
    symbol = " >= ";
    break;
  default:
    break;
  }
  if (symbol != nullptr) {
    // Exact values: widen both sides when the dtypes differ.
    const char* wide = floating ? "(double)" : "(int64_t)";
    if (x.dtype == y.dtype) {
      return {"(" + x.text + symbol + y.text + ")", DataType::boolean()};
    }
    return {"(" + std::string(wide) + x.text + symbol + wide + y.text + ")", DataType::boolean()};
  }
  const DataType dtype = x.dtype;
  const CType c = ctype(dtype, node);
  if (floating) {
    const std::string type = c.name;
    const bool same = x.dtype == y.dtype;
    const bool half = dtype.bits == 16;
    const auto infix = [&](const char* sym) -> std::string {
      if (half) {
        return "ctir_f16((double)" + x.text + sym + "(double)" + y.text + ")";
      }
      if (same) {
        return "(" + x.text + sym + y.text + ")";
      }
      return "(" + type + ")((double)" + x.text + sym + "(double)" + y.text + ")";
    };
    switch (op) {
    case BinaryOp::add:
      return {infix(" + "), dtype};
    case BinaryOp::sub:
      return {infix(" - "), dtype};
    case BinaryOp::mul:
      return {infix(" * "), dtype};
    case BinaryOp::div:
      return {infix(" / "), dtype};
    case BinaryOp::mod:
      if (half) {
        return {"ctir_f16(ctir_fmod_floor(" + x.text + ", " + y.text + "))", dtype};
      }
      return {"(" + type + ")ctir_fmod_floor(" + x.text + ", " + y.text + ")", dtype};
    case BinaryOp::min:
      return {"(" + type + ")ctir_fmin(" + x.text + ", " + y.text + ")", dtype};
    case BinaryOp::max:
      return {"(" + type + ")ctir_fmax(" + x.text + ", " + y.text + ")", dtype};
    default:
      break;
    }
    fail(node, "unknown binary operator in " + node_text(node));
  }
  // Integers: the right operand in the left's dtype, then wrapping helpers.
  const std::string right = convert(y, dtype, node);
  const std::string suffix = c.suffix;
  switch (op) {
  case BinaryOp::add:
    return {"ctir_add_" + suffix + "(" + x.text + ", " + right + ")", dtype};
  case BinaryOp::sub:
    return {"ctir_sub_" + suffix + "(" + x.text + ", " + right + ")", dtype};
  case BinaryOp::mul:
    return {"ctir_mul_" + suffix + "(" + x.text + ", " + right + ")", dtype};
  case BinaryOp::min:
    return {"ctir_min_" + suffix + "(" + x.text + ", " + right + ")", dtype};
  case BinaryOp::max:
    return {"ctir_max_" + suffix + "(" + x.text + ", " + right + ")", dtype};
  case BinaryOp::div:
  case BinaryOp::mod: {
    const bool div = op == BinaryOp::div;
    return {std::string(div ? "ctir_div_" : "ctir_mod_") + suffix + "(" + x.text + ", " + right +
                ", st, " +
                what(std::string("integer ") + (div ? "division" : "modulo") + " by zero in " +
                     node_text(node)) +
                ")",
            dtype};
  }
  default:
    break;
  }
  fail(node, "unknown binary operator in " + node_text(node));
}

CTIR_INLINE CEmitter::Emitted CEmitter::expr(const PrimExprNode* node, int depth) {
  if (node == nullptr) {
    fail(nullptr, "a scalar expression is missing (a null field)");
  }
  if (depth > max_nesting) {
    fail(node, "the expression nests deeper than " + std::to_string(max_nesting) + " levels");
  }
  BinaryOp op{};
  const PrimExprNode* a = nullptr;
  const PrimExprNode* b = nullptr;
  if (view_binary(*node, op, a, b)) {
    return binary(op, node, a, b, depth);
  }
  switch (node->dynamic_type_index()) {
  case IntImmNode::type_index: {
    const auto& imm = static_cast<const IntImmNode&>(*node);
    ctype(imm.dtype, node);
    if (imm.dtype.is_float()) {
      return {float_literal(eval::detail::round_to_dtype(imm.dtype, static_cast<double>(imm.value)),
                            imm.dtype),
              imm.dtype};
    }
    // The value wrapped to the dtype, as the interpreter reads a literal.
    std::int64_t v = imm.value;
    if (imm.dtype.is_bool()) {
      v = v != 0 ? 1 : 0;
    } else if (imm.dtype.is_uint()) {
      v = static_cast<std::int64_t>(static_cast<std::uint64_t>(v) & 0xFFU);
    } else if (imm.dtype.bits < 64) {
      const unsigned shift = 64U - imm.dtype.bits;
      v = static_cast<std::int64_t>(static_cast<std::uint64_t>(v) << shift) >> shift;
    }
    std::string text;
    if (imm.dtype.bits == 64) {
      text = v == INT64_MIN ? "INT64_MIN" : "INT64_C(" + std::to_string(v) + ")";
    } else if (imm.dtype.bits == 32) {
      text = v == INT32_MIN ? "INT32_MIN" : std::to_string(v);
    } else {
      text = "(" + std::string(ctype(imm.dtype, node).name) + ")" + std::to_string(v);
    }
    return {v < 0 ? "(" + text + ")" : text, imm.dtype};
  }
  case FloatImmNode::type_index: {
    const auto& imm = static_cast<const FloatImmNode&>(*node);
    ctype(imm.dtype, node);
    if (!imm.dtype.is_float()) {
      return {convert({float_literal(imm.value, DataType::float64()), DataType::float64()},
                      imm.dtype, node),
              imm.dtype};
    }
    // Rounded to the dtype first, as the interpreter reads a literal.
    return {float_literal(eval::detail::round_to_dtype(imm.dtype, imm.value), imm.dtype),
            imm.dtype};
  }
  case VarNode::type_index: {
    const auto* var = static_cast<const VarNode*>(node);
    const VarInfo& v = info(var, node);
    if (v.tensor) {
      if (v.rank != 0) {
        fail(node, "%" + var->name + " is a tensor of rank " + std::to_string(v.rank) +
                       ", not a scalar (load an element)");
      }
      return {load_text(v.name + "[0]", v.dtype), v.dtype};
    }
    return {v.name, v.dtype, v.counter};
  }
  case NotNode::type_index: {
    const Emitted x = expr(static_cast<const NotNode&>(*node).a.get(), depth + 1);
    return {"(!" + x.text + ")", DataType::boolean()};
  }
  case NegNode::type_index: {
    const Emitted x = expr(static_cast<const NegNode&>(*node).a.get(), depth + 1);
    const CType c = ctype(x.dtype, node);
    if (x.dtype.is_float()) {
      return {"(-" + x.text + ")", x.dtype};
    }
    return {std::string("ctir_neg_") + c.suffix + "(" + x.text + ")", x.dtype};
  }
  case CastNode::type_index: {
    const auto& cast = static_cast<const CastNode&>(*node);
    const Emitted x = expr(cast.value.get(), depth + 1);
    return {convert(x, cast.dtype, node), cast.dtype};
  }
  case SelectNode::type_index: {
    const auto& select = static_cast<const SelectNode&>(*node);
    const Emitted c = expr(select.cond.get(), depth + 1);
    const Emitted t = expr(select.true_value.get(), depth + 1);
    const Emitted f = expr(select.false_value.get(), depth + 1);
    if (t.dtype.is_float() != f.dtype.is_float()) {
      return runtime_error(node,
                           "the branches of " + node_text(node) + " have dtypes " + t.dtype.str() +
                               " and " + f.dtype.str() +
                               "; one is a float and the other not (insert a cast)",
                           t.dtype);
    }
    const CType ct = ctype(t.dtype, node);
    return {std::string("ctir_select_") + ct.element_suffix + "(" + c.text + " != 0, " + t.text +
                ", " + convert(f, t.dtype, node) + ")",
            t.dtype};
  }
  case TensorLoadNode::type_index: {
    const auto& load = static_cast<const TensorLoadNode&>(*node);
    const std::string off = offset(load.source.get(), load.indices, node, depth);
    const VarInfo& buffer = info(load.source.get(), node);
    const CType c = ctype(buffer.dtype, node);
    if (!options_.bounds_checks || load.indices.empty()) {
      return {load_text(buffer.name + "[" + off + "]", buffer.dtype), buffer.dtype};
    }
    return {std::string("ctir_load_") + c.element_suffix + "(" + buffer.name + ", " + off +
                ", st, " + what("index out of bounds in " + node_text(node)) + ")",
            buffer.dtype};
  }
  default:
    fail(node,
         "cannot emit a " + std::string(node->dynamic_type_key()) + " node as a scalar expression");
  }
}

/// Collects what a loop body stores to and loads from, for the parallel-safety check.
struct Accesses {
  std::vector<const TensorStoreNode*> stores;
  std::unordered_set<const VarNode*> loaded;
  bool allocates = false;
};

CTIR_INLINE void collect_expr(const PrimExprNode* node, Accesses& acc) {
  std::vector<const PrimExprNode*> stack{node};
  while (!stack.empty()) {
    const PrimExprNode* e = stack.back();
    stack.pop_back();
    if (e == nullptr) {
      continue;
    }
    BinaryOp op{};
    const PrimExprNode* a = nullptr;
    const PrimExprNode* b = nullptr;
    if (view_binary(*e, op, a, b)) {
      stack.push_back(a);
      stack.push_back(b);
      continue;
    }
    switch (e->dynamic_type_index()) {
    case VarNode::type_index: // a rank-0 tensor may be read as a scalar
      acc.loaded.insert(static_cast<const VarNode*>(e));
      break;
    case TensorLoadNode::type_index: {
      const auto* load = static_cast<const TensorLoadNode*>(e);
      acc.loaded.insert(load->source.get());
      for (const PrimExpr& index : load->indices) {
        stack.push_back(index.get());
      }
      break;
    }
    case NotNode::type_index:
      stack.push_back(static_cast<const NotNode*>(e)->a.get());
      break;
    case NegNode::type_index:
      stack.push_back(static_cast<const NegNode*>(e)->a.get());
      break;
    case CastNode::type_index:
      stack.push_back(static_cast<const CastNode*>(e)->value.get());
      break;
    case SelectNode::type_index: {
      const auto* select = static_cast<const SelectNode*>(e);
      stack.push_back(select->cond.get());
      stack.push_back(select->true_value.get());
      stack.push_back(select->false_value.get());
      break;
    }
    default:
      break;
    }
  }
}

CTIR_INLINE void collect_stmt(const StmtNode* node, Accesses& acc) {
  std::vector<const StmtNode*> stack{node};
  while (!stack.empty()) {
    const StmtNode* s = stack.back();
    stack.pop_back();
    if (s == nullptr) {
      continue;
    }
    switch (s->dynamic_type_index()) {
    case SeqStmtNode::type_index:
      for (const Stmt& child : static_cast<const SeqStmtNode*>(s)->seq) {
        stack.push_back(child.get());
      }
      break;
    case ForNode::type_index: {
      const auto* f = static_cast<const ForNode*>(s);
      collect_expr(f->begin.get(), acc);
      collect_expr(f->end.get(), acc);
      stack.push_back(f->body.get());
      break;
    }
    case TensorStoreNode::type_index: {
      const auto* store = static_cast<const TensorStoreNode*>(s);
      acc.stores.push_back(store);
      collect_expr(store->value.get(), acc);
      for (const PrimExpr& index : store->indices) {
        collect_expr(index.get(), acc);
      }
      break;
    }
    case BindNode::type_index:
      collect_expr(static_cast<const BindNode*>(s)->value.get(), acc);
      break;
    case IfThenElseNode::type_index: {
      const auto* branch = static_cast<const IfThenElseNode*>(s);
      collect_expr(branch->cond.get(), acc);
      stack.push_back(branch->then_case.get());
      stack.push_back(branch->else_case.get());
      break;
    }
    case AllocateNode::type_index:
      acc.allocates = true;
      break;
    default:
      break;
    }
  }
}

CTIR_INLINE bool CEmitter::independent_iterations(const ForNode& node) const {
  // Iterations are independent when each store has the loop variable itself as one of
  // its indices (so two iterations never write the same element) and nothing stored in
  // the loop is read in it. Buffers allocated in the body are private to an iteration,
  // but `alloc` needs the heap; such loops stay serial to keep the check simple.
  Accesses acc;
  collect_stmt(node.body.get(), acc);
  if (acc.allocates) {
    return false;
  }
  for (const TensorStoreNode* store : acc.stores) {
    bool distinct = false;
    for (const PrimExpr& index : store->indices) {
      distinct = distinct || index.get() == node.var.get();
    }
    if (!distinct || acc.loaded.contains(store->dest.get())) {
      return false;
    }
  }
  return true;
}

CTIR_INLINE void CEmitter::loop(const ForNode& node, int depth) {
  if (!node.var.defined()) {
    fail(&node, "the loop has no variable");
  }
  const Emitted begin = expr(node.begin.get(), depth + 1);
  const Emitted end = expr(node.end.get(), depth + 1);
  if (begin.dtype.is_float() || end.dtype.is_float()) {
    fail(&node, "the loop over %" + node.var->name + " has a float bound");
  }
  const DataType dtype = dtype_of(node.var);
  ctype(dtype, &node);
  const std::string name = claim(node.var->name);
  vars_[node.var.get()] = {name, dtype, false, 0, true};
  const bool independent = independent_iterations(node);
  switch (node.kind) {
  case ForKind::serial:
    break;
  case ForKind::parallel:
  case ForKind::vectorized:
    if (independent) {
      line("#ifdef _OPENMP");
      line(node.kind == ForKind::parallel ? "#pragma omp parallel for" : "#pragma omp simd");
      line("#endif");
    } else {
      line(std::string("/* ") + std::string(to_string(node.kind)) +
           " loop kept serial: its iterations may write or read the same elements */");
    }
    break;
  case ForKind::unroll:
    line("/* unroll loop: left to the C compiler */");
    break;
  }
  // The counter is 64-bit, as the interpreter's; the variable has its dtype's values.
  line("for (int64_t " + name + " = " + begin.text + "; " + name + " < " + end.text + "; ++" +
       name + ") {");
  ++indent_;
  block(node.body.get(), depth + 1);
  --indent_;
  line("}");
}

CTIR_INLINE void CEmitter::block(const SeqStmtNode* seq, int depth) {
  if (seq == nullptr) {
    fail(nullptr, "a block is missing (a null field)");
  }
  if (depth > max_nesting) {
    fail(seq, "the statements nest deeper than " + std::to_string(max_nesting) + " levels");
  }
  std::vector<std::string> heap;
  for (const Stmt& child : seq->seq) {
    stmt(child.get(), depth, heap);
  }
  for (auto it = heap.rbegin(); it != heap.rend(); ++it) {
    line("free(" + *it + ");");
  }
}

CTIR_INLINE void CEmitter::stmt(const StmtNode* node, int depth, std::vector<std::string>& heap) {
  if (node == nullptr) {
    fail(nullptr, "a statement is missing (a null field)");
  }
  switch (node->dynamic_type_index()) {
  case SeqStmtNode::type_index:
    line("{");
    ++indent_;
    block(static_cast<const SeqStmtNode*>(node), depth + 1);
    --indent_;
    line("}");
    return;
  case ForNode::type_index:
    loop(static_cast<const ForNode&>(*node), depth);
    return;
  case TensorStoreNode::type_index: {
    const auto& store = static_cast<const TensorStoreNode&>(*node);
    const Emitted value = expr(store.value.get(), depth + 1);
    const std::string off = offset(store.dest.get(), store.indices, node, depth);
    const VarInfo& buffer = info(store.dest.get(), node);
    if (value.dtype != buffer.dtype) {
      line("ctir_fail(st, " +
           what("stores a " + value.dtype.str() + " value into %" + store.dest->name +
                " of dtype " + buffer.dtype.str() + " (insert a cast)") +
           ");");
      return;
    }
    const CType c = ctype(buffer.dtype, node);
    const std::string stored =
        buffer.dtype.is_bool() ? "(uint8_t)(" + value.text + " != 0)" : value.text;
    if (!options_.bounds_checks || store.indices.empty()) {
      line(buffer.name + "[" + off + "] = " + store_text(stored, buffer.dtype) + ";");
    } else {
      line(std::string("ctir_store_") + c.element_suffix + "(" + buffer.name + ", " + off + ", " +
           stored + ", st, " + what("index out of bounds in the store to %" + store.dest->name) +
           ");");
    }
    return;
  }
  case BindNode::type_index: {
    const auto& bind = static_cast<const BindNode&>(*node);
    if (!bind.var.defined()) {
      fail(node, "the let has no variable");
    }
    const Emitted value = expr(bind.value.get(), depth + 1);
    if (const auto* prim = bind.var->ty.as<PrimTypeNode>(); prim && prim->dtype != value.dtype) {
      line("ctir_fail(st, " +
           what("binds a " + value.dtype.str() + " value to %" + bind.var->name + " of type " +
                prim->dtype.str()) +
           ");");
    }
    const CType c = ctype(value.dtype, node);
    const std::string name = claim(bind.var->name);
    vars_[bind.var.get()] = {name, value.dtype, false, 0};
    line("const " + std::string(c.name) + " " + name + " = " + value.text + ";");
    return;
  }
  case IfThenElseNode::type_index: {
    const auto& branch = static_cast<const IfThenElseNode&>(*node);
    const Emitted cond = expr(branch.cond.get(), depth + 1);
    line("if (" + cond.text + ") {");
    ++indent_;
    if (branch.then_case.defined()) {
      block(branch.then_case.get(), depth + 1);
    }
    --indent_;
    if (branch.else_case.defined()) {
      line("} else {");
      ++indent_;
      block(branch.else_case.get(), depth + 1);
      --indent_;
    }
    line("}");
    return;
  }
  case AllocateNode::type_index: {
    const auto& alloc = static_cast<const AllocateNode&>(*node);
    if (!alloc.buffer.defined()) {
      fail(node, "the allocation has no buffer");
    }
    const auto* type = alloc.buffer->ty.as<TensorTypeNode>();
    if (type == nullptr) {
      fail(node, "the buffer %" + alloc.buffer->name + " must have a tensor type, not " +
                     type_str(alloc.buffer->ty));
    }
    const CType c = ctype(type->dtype, node);
    std::vector<std::string> dims;
    std::int64_t constant = 1;
    bool is_constant = true;
    for (const PrimExpr& dim : type->shape) {
      const Emitted e = expr(dim.get(), depth + 1);
      if (e.dtype.is_float()) {
        fail(node,
             "the dimension " + prim_expr_str(dim) + " of %" + alloc.buffer->name + " is a float");
      }
      dims.push_back(e.text);
      const auto* imm = dim.as<IntImmNode>();
      if (imm != nullptr && imm->value >= 0 && constant <= 4096) {
        constant *= imm->value;
      } else {
        is_constant = false;
      }
    }
    const std::string name = claim_tensor(alloc.buffer->name, dims.size());
    vars_[alloc.buffer.get()] = {name, type->dtype, true, dims.size()};
    line("/* alloc %" + comment_safe(alloc.buffer->name) + ": " +
         comment_safe(type_str(alloc.buffer->ty)) + " */");
    if (is_constant && constant <= 4096) {
      // Small buffers of a literal shape live on the stack.
      for (std::size_t d = 0; d < dims.size(); ++d) {
        line("const int64_t " + name + "_d" + std::to_string(d) + " = " + dims[d] + ";");
      }
      line(std::string(c.storage) + " " + name + "[" +
           std::to_string(constant == 0 ? 1 : constant) + "] = {0};");
      return;
    }
    std::string count = "1";
    std::string negative;
    for (std::size_t d = 0; d < dims.size(); ++d) {
      const std::string dn = name + "_d" + std::to_string(d);
      line("int64_t " + dn + " = (int64_t)" + dims[d] + ";");
      count += " * " + dn;
      negative += (negative.empty() ? "" : " || ") + dn + " < 0";
    }
    std::string zero;
    for (std::size_t d = 0; d < dims.size(); ++d) {
      zero += name + "_d" + std::to_string(d) + " = 0; ";
    }
    if (!dims.empty()) {
      line("if (" + negative + ") {");
      line("  ctir_fail(st, " +
           what("a dimension of the buffer %" + alloc.buffer->name + " is negative") + ");");
      line("  " + zero);
      line("}");
    }
    line(std::string(c.storage) + "* " + name + " = (" + c.storage + "*)ctir_alloc(" + count +
         ", sizeof(" + c.storage + "), st, " +
         what("out of memory allocating %" + alloc.buffer->name) + ");");
    if (!dims.empty()) {
      line("if (" + name + " == NULL) { " + zero + "}");
    }
    heap.push_back(name);
    return;
  }
  default:
    fail(node, "cannot emit a " + std::string(node->dynamic_type_key()) + " statement");
  }
}

CTIR_INLINE void CEmitter::emit_function(const PrimFuncNode& function, const std::string& name) {
  function_name_ = name;
  used_.clear();
  vars_.clear();
  indent_ = 0;
  // The signature, as the text format writes it.
  std::string signature = "prim @" + name + "(";
  for (std::size_t k = 0; k < function.params.size(); ++k) {
    const Var& param = function.params[k];
    if (!param.defined()) {
      fail(&function, "parameter " + std::to_string(k) + " is missing");
    }
    signature += (k ? ", %" : "%") + param->name + ": " + type_str(param->ty);
  }
  signature += ")";
  out_ += "\n/* " + comment_safe(signature) + " */\n";

  std::string params_text;
  struct Param {
    const VarNode* var;
    std::string name;
    const TensorTypeNode* tensor;
    DataType dtype;
  };
  std::vector<Param> params;
  for (const Var& param : function.params) {
    const auto* tensor = param->ty.as<TensorTypeNode>();
    const auto* prim = param->ty.as<PrimTypeNode>();
    if (tensor == nullptr && prim == nullptr) {
      fail(param.get(), "the parameter %" + param->name + " has type " + type_str(param->ty) +
                            "; only tensors and scalars cross into C");
    }
    const DataType dtype = tensor ? tensor->dtype : prim->dtype;
    ctype(dtype, param.get());
    const std::string cname = claim_tensor(param->name, tensor ? tensor->shape.size() : 0);
    params.push_back({param.get(), cname, tensor, dtype});
    params_text += ", DLTensor* " + cname + "_dl";
  }
  const std::string cfunction = c_function_name(name);
  out_ += "static int " + cfunction + "(ctir_status* st" + params_text + ") {\n";
  indent_ = 1;
  // Data pointers and dimensions.
  for (const Param& p : params) {
    const CType c = ctype(p.dtype, p.var);
    if (p.tensor != nullptr) {
      line(std::string(c.storage) + "* restrict " + p.name + " = (" + c.storage + "*)((char*)" +
           p.name + "_dl->data + " + p.name + "_dl->byte_offset);");
      vars_[p.var] = {p.name, p.dtype, true, p.tensor->shape.size()};
    }
  }
  // Shape variables, bound by their first mention as a whole dimension.
  for (const Param& p : params) {
    if (p.tensor == nullptr) {
      continue;
    }
    for (std::size_t d = 0; d < p.tensor->shape.size(); ++d) {
      const auto* var = p.tensor->shape[d].as<VarNode>();
      if (var != nullptr && !vars_.contains(var)) {
        const DataType dtype = dtype_of(p.tensor->shape[d]);
        const CType c = ctype(dtype, var);
        const std::string vname = claim(var->name);
        line("const " + std::string(c.name) + " " + vname + " = (" + c.name + ")" + p.name +
             "_dl->shape[" + std::to_string(d) + "];");
        vars_[var] = {vname, dtype, false, 0};
      }
    }
  }
  // Scalar parameters; one that is also a shape variable must agree with the shape.
  for (const Param& p : params) {
    if (p.tensor != nullptr) {
      continue;
    }
    const CType c = ctype(p.dtype, p.var);
    const std::string value = load_text("*(const " + std::string(c.storage) + "*)((const char*)" +
                                            p.name + "_dl->data + " + p.name + "_dl->byte_offset)",
                                        p.dtype);
    if (const auto it = vars_.find(p.var); it != vars_.end()) {
      line("if ((int64_t)" + value + " != (int64_t)" + it->second.name + ") ctir_fail_dim(st, " +
           what("the scalar %" + p.var->name) + ", (int64_t)" + value + ", (int64_t)" +
           it->second.name + ");");
      continue;
    }
    line("const " + std::string(c.name) + " " + p.name + " = " + value + ";");
    vars_[p.var] = {p.name, p.dtype, false, 0};
  }
  // Every dimension but the mention that bound a shape variable is a check. Past the
  // checks, the dimensions are what the signature says: the body sees them as the
  // signature's expressions (literals, shape variables), so the C compiler can relate
  // loop bounds to the bounds checks and drop checks that cannot fail.
  std::unordered_set<const VarNode*> bound;
  std::vector<std::string> dims;
  for (const Param& p : params) {
    if (p.tensor == nullptr) {
      continue;
    }
    for (std::size_t d = 0; d < p.tensor->shape.size(); ++d) {
      const PrimExpr& dim = p.tensor->shape[d];
      const std::string actual = p.name + "_dl->shape[" + std::to_string(d) + "]";
      const std::string dn = p.name + "_d" + std::to_string(d);
      const auto* var = dim.as<VarNode>();
      if (var != nullptr && bound.insert(var).second) {
        dims.push_back("const int64_t " + dn + " = " + actual + ";"); // the binding mention
        continue;
      }
      const Emitted e = expr(dim.get(), 1);
      if (e.dtype.is_float()) {
        fail(p.var, "the dimension " + prim_expr_str(dim) + " of %" + p.var->name + " is a float");
      }
      const std::string wide =
          e.dtype.is_int() && e.dtype.bits == 64 ? e.text : "(int64_t)" + e.text;
      line("if (" + actual + " != " + wide + ") ctir_fail_dim(st, " +
           what("dimension " + std::to_string(d) + " of %" + p.var->name + " (" +
                prim_expr_str(dim) + ")") +
           ", " + actual + ", " + wide + ");");
      dims.push_back("const int64_t " + dn + " = " + wide + ";");
    }
  }
  line("if (st->failed) return 1;");
  for (const std::string& text : dims) {
    line(text);
  }
  if (!function.body.defined()) {
    fail(&function, "the function has no body");
  }
  block(function.body.get(), 1);
  line("return st->failed;");
  out_ += "}\n\n";
  // The exported entry point: every parameter a DLTensor, in order.
  out_ += "CTIR_EXPORT int " + c_entry_name(name) +
          "(DLTensor** args, char* error, size_t error_size) {\n";
  out_ += "  ctir_status st = {0, error, error_size};\n";
  std::string call = "  return " + cfunction + "(&st";
  for (std::size_t k = 0; k < params.size(); ++k) {
    call += ", args[" + std::to_string(k) + "]";
  }
  out_ += call + ");\n}\n";
}

} // namespace detail

CTIR_INLINE std::string c_function_name(const std::string& name) {
  return "prim_" + detail::sanitize(name);
}

CTIR_INLINE std::string c_entry_name(const std::string& name) {
  return "ctir_call_" + detail::sanitize(name);
}

CTIR_INLINE std::string emit_c(const IRModule& mod, const CodegenOptions& options) {
  std::string out = "/* Generated by ctir: the tensor-level functions of a module as C. */\n";
  out += detail::c_prelude;
  detail::CEmitter emitter(options);
  std::set<std::string, std::less<>> entries;
  for (const auto& [global, function] : mod) {
    const auto* prim = function.as<PrimFuncNode>();
    if (prim == nullptr) {
      continue;
    }
    if (!entries.insert(c_entry_name(global->name)).second) {
      throw CodegenError(function, "ctir: cannot emit C for @" + global->name + ": its C name " +
                                       c_function_name(global->name) +
                                       " is taken by another function");
    }
    emitter.emit_function(*prim, global->name);
  }
  return out + emitter.take();
}

} // namespace ctir::codegen
