// The printer of the unified text format: modules, functions, expressions, statements, types.
#pragma once

#include <ctir/core/error.hpp>
#include <ctir/ir/builder.hpp>
#include <ctir/ir/families.hpp>
#include <ctir/ir/graph/expr.hpp>
#include <ctir/ir/module.hpp>
#include <ctir/ir/tensor/expr.hpp>
#include <ctir/ir/tensor/prim_func.hpp>
#include <ctir/ir/tensor/stmt.hpp>
#include <ctir/ir/type.hpp>
#include <ctir/ir/var.hpp>
#include <ctir/text/detail/print_graph.hpp>
#include <ctir/text/detail/print_literal.hpp>
#include <ctir/text/detail/print_map.hpp>
#include <ctir/text/detail/print_names.hpp>

#include <algorithm>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ctir {

/// A range of printed text: byte offsets [begin, end).
struct TextRange {
  std::size_t begin;
  std::size_t end;

  friend bool operator==(const TextRange&, const TextRange&) = default;
};

namespace detail {
class Printer;
} // namespace detail

/// Printed text together with where each node's text lies in it.
///
/// Nodes are identified by address: query with nodes of the IR that was printed, while
/// that IR is alive.
class PrintedText {
public:
  PrintedText() = default;

  /// The text.
  const std::string& text() const noexcept { return text_; }

  /// The first (leftmost) place `node` was printed, if it was.
  ///
  /// A function's range is its whole definition; a temporary's is its expression at the
  /// binding (`%0 = ` excluded); a variable's is its name at the site; a statement's
  /// includes its `;` or its block; a parenthesized operand's excludes the parentheses.
  std::optional<TextRange> range_of(const Object* node) const {
    std::optional<TextRange> first;
    for_each_range(node, [&](TextRange range) {
      if (!first || before(range, *first)) {
        first = range;
      }
    });
    return first;
  }
  template <ir_node T>
  std::optional<TextRange> range_of(const Ref<T>& node) const {
    return range_of(static_cast<const Object*>(node.get()));
  }

  /// Every place `node` was printed, left to right (a variable at each use, a
  /// temporary at its binding and at each `%N`).
  std::vector<TextRange> ranges_of(const Object* node) const {
    std::vector<TextRange> result;
    for_each_range(node, [&](TextRange range) { result.push_back(range); });
    std::sort(result.begin(), result.end(), before);
    return result;
  }
  template <ir_node T>
  std::vector<TextRange> ranges_of(const Ref<T>& node) const {
    return ranges_of(static_cast<const Object*>(node.get()));
  }

  /// The lines holding the node's first range, each followed by a line that underlines
  /// the node with `^`, with up to `context` lines of text before and after; every
  /// line ends with a newline. Empty if the node was not printed.
  ///
  ///         %B[%i] = %A[%i] + 1f;
  ///                  ^^^^^^^^^^^
  std::string underline(const Object* node, std::size_t context = 2) const {
    const std::optional<TextRange> range = range_of(node);
    if (!range) {
      return {};
    }
    const std::string& t = text_;
    auto line_start = [&](std::size_t pos) {
      const std::size_t newline = pos == 0 ? std::string::npos : t.rfind('\n', pos - 1);
      return newline == std::string::npos ? std::size_t{0} : newline + 1;
    };
    auto line_end = [&](std::size_t pos) {
      const std::size_t newline = t.find('\n', pos);
      return newline == std::string::npos ? t.size() : newline;
    };
    const std::size_t last_char = range->end > range->begin ? range->end - 1 : range->begin;
    std::size_t start = line_start(range->begin);
    for (std::size_t k = 0; k < context && start > 0; ++k) {
      start = line_start(start - 1);
    }
    std::size_t stop = line_end(last_char);
    for (std::size_t k = 0; k < context && stop + 1 < t.size(); ++k) {
      stop = line_end(stop + 1);
    }
    std::string out;
    std::size_t begin = start;
    while (true) {
      const std::size_t end = line_end(begin);
      out.append(t, begin, end - begin);
      out += '\n';
      // Underline the part of this line inside the range; a line that starts inside
      // the range is underlined from its first non-blank character.
      std::size_t from = std::max(begin, range->begin);
      if (from > range->begin) {
        while (from < end && t[from] == ' ') {
          ++from;
        }
      }
      const std::size_t to = std::min(end, range->end);
      if (from < to ||
          (range->begin == range->end && begin <= range->begin && range->begin <= end)) {
        out.append(from - begin, ' ');
        out.append(std::max<std::size_t>(to - std::min(from, to), 1), '^');
        out += '\n';
      }
      if (end >= stop || end + 1 >= t.size()) {
        break;
      }
      begin = end + 1;
    }
    return out;
  }
  template <ir_node T>
  std::string underline(const Ref<T>& node, std::size_t context = 2) const {
    return underline(static_cast<const Object*>(node.get()), context);
  }

private:
  friend class detail::Printer;
  struct Record {
    const Object* node;
    TextRange range;
    std::uint32_t next; ///< 1-based index of the node's next record; 0 ends the chain
  };
  /// 1-based indices of a node's first and last records.
  struct Chain {
    std::uint32_t first = 0;
    std::uint32_t last = 0;
  };

  static bool before(const TextRange& a, const TextRange& b) {
    return a.begin != b.begin ? a.begin < b.begin : a.end > b.end;
  }

  template <class F>
  void for_each_range(const Object* node, F&& f) const {
    const Chain* chain = chains_.find(node);
    for (std::uint32_t id = chain == nullptr ? 0 : chain->first; id != 0;
         id = records_[id - 1].next) {
      f(records_[id - 1].range);
    }
  }

  /// Links the records of each node into a chain: linear, where sorting them all
  /// would cost n log n.
  void index() {
    for (std::size_t i = 0; i < records_.size(); ++i) {
      const auto id = static_cast<std::uint32_t>(i + 1);
      Chain& chain = *chains_.try_emplace(records_[i].node).first;
      if (chain.first == 0) {
        chain.first = id;
      } else {
        records_[chain.last - 1].next = id;
      }
      chain.last = id;
    }
  }

  std::string text_;
  std::vector<Record> records_;
  detail::PointerMap<Chain> chains_;
};

namespace detail {

/// Indentation grows two spaces per level up to this depth and stays there: whitespace
/// is free in the format, and capping it keeps the text of IR nested a million levels
/// deep linear in size.
inline constexpr std::size_t max_indent_levels = 32;

/// Precedence of unary `-` and `!`: above every binary operator.
inline constexpr int unary_precedence = 12;
/// Precedence of literals, variables, loads and call-like forms: never parenthesized.
inline constexpr int atom_precedence = 100;

/// A binary node seen through its operator.
struct BinaryView {
  std::string_view symbol;
  int precedence = 0; ///< 0: printed as a call, `min(a, b)`
  const PrimExprNode* a = nullptr;
  const PrimExprNode* b = nullptr;
};

template <BinaryOp... Ops>
bool view_binary_of(const Object& node, BinaryView& view) {
  const std::uint32_t index = node.dynamic_type_index();
  return ((index == BinaryNode<Ops>::type_index
               ? (view = {BinaryNode<Ops>::symbol, BinaryNode<Ops>::precedence,
                          static_cast<const BinaryNode<Ops>&>(node).a.get(),
                          static_cast<const BinaryNode<Ops>&>(node).b.get()},
                  true)
               : false) ||
          ...);
}

/// Whether `node` is one of the binary nodes; fills `view` if so.
inline bool view_binary(const Object& node, BinaryView& view) {
  using enum BinaryOp;
  return view_binary_of<add, sub, mul, div, mod, min, max, eq, ne, lt, le, gt, ge, logical_and,
                        logical_or>(node, view);
}

/// The precedence an operand prints with.
inline int precedence_of(const Object& node) {
  switch (node.dynamic_type_index()) {
  case NegNode::type_index:
  case NotNode::type_index:
    return unary_precedence;
  default:
    break;
  }
  BinaryView view;
  if (view_binary(node, view) && view.precedence != 0) {
    return view.precedence;
  }
  return atom_precedence;
}

/// The engine behind print and print_with_ranges.
///
/// Printing never recurses: every node pushes the pieces still to print onto an
/// explicit work stack (in reverse), so IR a million levels deep prints on the default
/// stack, in time and memory linear in the size of the IR and the text.
class Printer {
public:
  explicit Printer(bool record_ranges) : record_(record_ranges) {}

  /// Prints a whole module: its functions in order, a blank line between two.
  void module(const IRModule& printed) {
    module_ = &printed;
    push(Step::end_range, printed.node().get(), 0, out_.size());
    if (!printed.empty()) {
      push_text("\n");
    }
    for (std::size_t i = printed.size(); i-- > 0;) {
      push(Step::function, nullptr, static_cast<std::uint32_t>(i));
      if (i > 0) {
        push_text("\n\n");
      }
    }
    run();
  }

  /// Prints one node: a module node, a function, an expression, a statement or a type.
  void root(const Object* node) {
    if (node == nullptr) {
      throw Error("ctir: cannot print a null node");
    }
    if (node->dynamic_type_index() == IRModuleNode::type_index) {
      const IRModule wrapped(ref_of(static_cast<const IRModuleNode*>(node)));
      module(wrapped);
      return;
    }
    names_.clear();
    temps_ = 0;
    switch (node->dynamic_type_index()) {
    case FunctionNode::type_index: {
      const auto& function = static_cast<const FunctionNode&>(*node);
      if (function.name.empty()) {
        // Without a name it is a closure, which the format writes as an expression.
        graph_root(*node);
      } else {
        start_def(function, function.name, nullptr);
        run();
        out_ += '\n';
      }
      return;
    }
    case PrimFuncNode::type_index: {
      const auto& function = static_cast<const PrimFuncNode&>(*node);
      start_prim(function, function.name.empty() ? std::string_view("main") : function.name,
                 nullptr);
      run();
      out_ += '\n';
      return;
    }
    default:
      break;
    }
    if (instance_of<PrimExprNode>(*node)) {
      push(Step::prim_expr, node);
    } else if (instance_of<ExprNode>(*node)) {
      graph_root(*node);
      return;
    } else if (instance_of<StmtNode>(*node)) {
      push(Step::stmt, node);
    } else if (instance_of<TypeNode>(*node)) {
      push(Step::type, node);
    } else {
      throw NodeError(ref_of(node), "ctir: the text format has no syntax for a " +
                                        std::string(node->dynamic_type_key()));
    }
    run();
  }

  /// The text and its ranges.
  PrintedText finish() && {
    PrintedText result;
    result.text_ = std::move(out_);
    result.records_ = std::move(records_);
    result.index();
    return result;
  }

  /// The text alone (no ranges were recorded).
  std::string take_text() && { return std::move(out_); }

private:
  enum class Step : std::uint8_t {
    text,         // ptr: characters, aux: length
    index,        // aux: a projection index, printed as `.N`
    dtype,        // arg: packed DataType; ptr: the node it belongs to
    end_range,    // ptr: node; aux: where its text began
    close_block,  // ptr: the SeqStmt (or null); aux: where it began
    function,     // arg: index of the module's function
    type,         // ptr: TypeNode
    prim_expr,    // ptr: PrimExprNode; arg: 1 to parenthesize
    binary_rest,  // ptr: binary node; aux: where it began
    stmt,         // ptr: StmtNode
    seq_block,    // ptr: SeqStmtNode
    seq_next,     // ptr: SeqStmtNode; aux: index of the next statement
    param,        // ptr: VarNode, printed `%x: T`
    shape_var,    // ptr: VarNode, printed `%n` (`%n: int64` unless int32)
    fn_attrs,     // ptr: BaseFuncNode
    call_attrs,   // ptr: CallNode
    graph_expr,   // ptr: expression at a use; arg: its plan index (atom_index for atoms)
    graph_inline, // ptr: non-atomic expression printed in place; arg: its plan index
    graph_block,  // arg: block id; aux: 1 for braces
    graph_items,  // arg: block id; aux: index of the next line; flag: first line of a bare block
    graph_lets,   // arg: block id (closes the ranges of its lets)
  };
  struct Task {
    Step step;
    std::uint8_t flag = 0;
    std::uint32_t arg = 0;
    const void* ptr = nullptr;
    std::size_t aux = 0;
  };

  void push(Step step, const void* ptr = nullptr, std::uint32_t arg = 0, std::size_t aux = 0,
            std::uint8_t flag = 0) {
    stack_.push_back(Task{step, flag, arg, ptr, aux});
  }
  void push_text(std::string_view text) { push(Step::text, text.data(), 0, text.size()); }
  /// Pushes `items` (in printing order) separated by ", ", each as task `step`.
  template <class Refs>
  void push_list(Step step, const Refs& items, const Object& owner, std::string_view field) {
    for (std::size_t i = items.size(); i-- > 0;) {
      if (!items[i].defined()) {
        throw_null_field(owner, std::string(field) + '[' + std::to_string(i) + ']');
      }
      push(step, items[i].get());
      if (i > 0) {
        push_text(", ");
      }
    }
  }

  void record(const Object* node, std::size_t begin) {
    if (record_) {
      records_.push_back({node, TextRange{begin, out_.size()}, 0});
    }
  }
  void newline() {
    out_ += '\n';
    out_.append(2 * std::min(indent_, max_indent_levels), ' ');
  }

  void emit_var(const VarNode* var) {
    const std::size_t begin = out_.size();
    out_ += '%';
    out_ += names_.name_of(var);
    record(var, begin);
  }
  void emit_global(const GlobalVarNode* global) {
    check_global_name(global->name, *global);
    const std::size_t begin = out_.size();
    out_ += '@';
    out_ += global->name;
    record(global, begin);
  }
  void emit_dtype(DataType dtype, const Object* owner) {
    if (!is_printable_dtype(dtype)) {
      throw NodeError(ref_of(owner), "ctir: the text format has no name for the dtype " +
                                         dtype.str() + " (of a " +
                                         std::string(owner->dynamic_type_key()) + ")");
    }
    out_ += dtype.str();
  }
  static std::uint32_t pack(DataType dtype) {
    return (static_cast<std::uint32_t>(dtype.code) << 8U) | dtype.bits;
  }
  static DataType unpack(std::uint32_t packed) {
    return DataType{static_cast<DataType::Code>(packed >> 8U),
                    static_cast<std::uint8_t>(packed & 0xFFU)};
  }
  static void check_global_name(std::string_view name, const Object& owner) {
    if (!is_global_name(name)) {
      throw NodeError(ref_of(&owner), "ctir: cannot print the global name '" + std::string(name) +
                                          "': global names are [A-Za-z_][A-Za-z0-9_]* or digits");
    }
  }

  void run() {
    while (!stack_.empty()) {
      const Task task = stack_.back();
      stack_.pop_back();
      step(task);
    }
  }

  void step(const Task& task) {
    const auto* node = static_cast<const Object*>(task.ptr);
    switch (task.step) {
    case Step::text:
      out_.append(static_cast<const char*>(task.ptr), task.aux);
      break;
    case Step::index:
      out_ += '.';
      out_ += std::to_string(task.aux);
      break;
    case Step::dtype:
      emit_dtype(unpack(task.arg), node);
      break;
    case Step::end_range:
      record(node, task.aux);
      break;
    case Step::close_block:
      --indent_;
      newline();
      out_ += '}';
      if (node != nullptr) {
        record(node, task.aux);
      }
      break;
    case Step::function:
      module_function(task.arg);
      break;
    case Step::type:
      type(*node);
      break;
    case Step::prim_expr:
      prim_expr(*node, task.arg != 0);
      break;
    case Step::binary_rest: {
      BinaryView view;
      view_binary(*node, view);
      out_ += ' ';
      out_ += view.symbol;
      out_ += ' ';
      push(Step::end_range, node, 0, task.aux);
      push_operand(*node, view.b, "b", precedence_of(*view.b) <= view.precedence);
      break;
    }
    case Step::stmt:
      stmt(*node);
      break;
    case Step::seq_block:
      seq_block(static_cast<const SeqStmtNode&>(*node));
      break;
    case Step::seq_next: {
      const auto& seq = static_cast<const SeqStmtNode&>(*node);
      const std::size_t i = task.aux;
      if (i + 1 < seq.seq.size()) {
        push(Step::seq_next, node, 0, i + 1);
      }
      if (!seq.seq[i].defined()) {
        throw_null_field(seq, "seq[" + std::to_string(i) + "]");
      }
      newline();
      push(Step::stmt, seq.seq[i].get());
      break;
    }
    case Step::param:
    case Step::shape_var: {
      const auto& var = static_cast<const VarNode&>(*node);
      emit_var(&var);
      const bool annotate =
          var.ty.defined() && (task.step == Step::param || !var.ty.is<PrimTypeNode>() ||
                               var.ty.as<PrimTypeNode>()->dtype != DataType::int32());
      if (annotate) {
        out_ += ": ";
        push(Step::type, var.ty.get());
      }
      break;
    }
    case Step::fn_attrs:
      fn_attrs(static_cast<const BaseFuncNode&>(*node));
      break;
    case Step::call_attrs:
      call_attrs(static_cast<const CallNode&>(*node));
      break;
    case Step::graph_expr:
      graph_expr(*node, task.arg);
      break;
    case Step::graph_inline:
      graph_inline(*node, task.arg);
      break;
    case Step::graph_block:
      if (task.aux != 0) {
        out_ += '{';
        ++indent_;
        push(Step::close_block);
      }
      push(Step::graph_items, nullptr, task.arg, 0, task.aux != 0 ? 0 : 1);
      break;
    case Step::graph_items:
      graph_item(static_cast<std::int32_t>(task.arg), task.aux, task.flag != 0);
      break;
    case Step::graph_lets:
      for (const GraphItem& item : plan_.block(static_cast<std::int32_t>(task.arg)).items) {
        if (item.kind == GraphItem::Kind::let) {
          record(item.node, item.begin);
        }
      }
      break;
    }
  }

  // ---- functions ----------------------------------------------------------------------

  void module_function(std::size_t i) {
    const GlobalVar& global = module_->global_at(i);
    const BaseFunc& function = module_->function_at(i);
    names_.clear();
    temps_ = 0;
    if (const auto* graph = function.as<FunctionNode>()) {
      start_def(*graph, global->name, global.get());
    } else if (const auto* prim = function.as<PrimFuncNode>()) {
      start_prim(*prim, global->name, global.get());
    } else {
      throw NodeError(function, "ctir: the text format has no syntax for a module function of "
                                "type " +
                                    std::string(function->dynamic_type_key()));
    }
  }

  void emit_def_name(std::string_view keyword, std::string_view name, const Object& function,
                     const GlobalVarNode* global) {
    check_global_name(name, global != nullptr ? static_cast<const Object&>(*global) : function);
    out_ += keyword;
    const std::size_t begin = out_.size();
    out_ += '@';
    out_ += name;
    if (global != nullptr) {
      record(global, begin);
    }
  }

  /// `def @name(%x: T, ...) -> R attributes {...} { ... }`
  void start_def(const FunctionNode& function, std::string_view name, const GlobalVarNode* global) {
    if (!function.body.defined()) {
      throw_null_field(function, "body");
    }
    plan_.build(*function.body);
    const std::size_t begin = out_.size();
    emit_def_name("def ", name, function, global);
    out_ += '(';
    push(Step::end_range, &function, 0, begin);
    push(Step::graph_block, nullptr, 0, 1);
    push_text(" ");
    push(Step::fn_attrs, &function);
    push_signature_rest(function);
  }

  /// The closing `)` and result type of a graph function's signature, then its params.
  void push_signature_rest(const FunctionNode& function) {
    if (function.ret_type.defined()) {
      push(Step::type, function.ret_type.get());
      push_text(" -> ");
    }
    push_text(")");
    push_list(Step::param, function.params, function, "params");
  }

  /// `prim @name[%n, ...](%A: T, ...) attributes {...} { ... }`
  void start_prim(const PrimFuncNode& function, std::string_view name,
                  const GlobalVarNode* global) {
    if (!function.body.defined()) {
      throw_null_field(function, "body");
    }
    for (std::size_t i = 0; i < function.params.size(); ++i) {
      if (!function.params[i].defined()) {
        throw_null_field(function, "params[" + std::to_string(i) + "]");
      }
    }
    const std::size_t begin = out_.size();
    emit_def_name("prim ", name, function, global);
    push(Step::end_range, &function, 0, begin);
    push(Step::seq_block, function.body.get());
    push_text(" ");
    push(Step::fn_attrs, &function);
    push_text(")");
    push_list(Step::param, function.params, function, "params");
    push_text("(");
    const std::vector<Var> shape_vars = function.shape_vars();
    if (!shape_vars.empty()) {
      // The vars are owned by the parameters' types, which outlive the printing.
      push_text("]");
      push_list(Step::shape_var, shape_vars, function, "shape_vars");
      push_text("[");
    }
  }

  void fn_attrs(const BaseFuncNode& function) {
    if (function.attrs.empty()) {
      return;
    }
    out_ += " attributes {";
    bool first = true;
    for (const auto& [key, value] : function.attrs) {
      check_attr_key(key, function);
      out_ += first ? "" : ", ";
      first = false;
      out_ += key;
      out_ += " = ";
      append_attr_value(out_, value);
    }
    out_ += '}';
  }

  void call_attrs(const CallNode& call) {
    bool first = call.args.empty();
    for (const auto& [key, value] : call.attrs) {
      check_attr_key(key, call);
      out_ += first ? "" : ", ";
      first = false;
      out_ += key;
      out_ += '=';
      append_attr_value(out_, value);
    }
  }

  static void check_attr_key(const std::string& key, const Object& owner) {
    if (!is_dotted_name(key)) {
      throw NodeError(ref_of(&owner), "ctir: cannot print the attribute key '" + key +
                                          "': keys are [A-Za-z_][A-Za-z0-9_.]*");
    }
  }

  // ---- types --------------------------------------------------------------------------

  void type(const Object& node) {
    const std::size_t begin = out_.size();
    switch (node.dynamic_type_index()) {
    case PrimTypeNode::type_index:
      emit_dtype(static_cast<const PrimTypeNode&>(node).dtype, &node);
      record(&node, begin);
      return;
    case TensorTypeNode::type_index: {
      const auto& tensor = static_cast<const TensorTypeNode&>(node);
      out_ += "Tensor[(";
      push(Step::end_range, &node, 0, begin);
      push_text("]");
      push(Step::dtype, &node, pack(tensor.dtype));
      push_text("), ");
      push_list(Step::prim_expr, tensor.shape, node, "shape");
      return;
    }
    case TupleTypeNode::type_index:
      out_ += "Tuple[";
      push(Step::end_range, &node, 0, begin);
      push_text("]");
      push_list(Step::type, static_cast<const TupleTypeNode&>(node).fields, node, "fields");
      return;
    case FuncTypeNode::type_index: {
      const auto& func = static_cast<const FuncTypeNode&>(node);
      out_ += "fn (";
      push(Step::end_range, &node, 0, begin);
      if (func.ret.defined()) {
        push(Step::type, func.ret.get());
        push_text(" -> ");
      }
      push_text(")");
      push_list(Step::type, func.params, node, "params");
      return;
    }
    default:
      throw NodeError(ref_of(&node), "ctir: the text format has no syntax for the type " +
                                         std::string(node.dynamic_type_key()));
    }
  }

  // ---- tensor-level expressions -------------------------------------------------------

  /// Pushes `operand` of `owner`, parenthesized if `parens`.
  void push_operand(const Object& owner, const Object* operand, std::string_view field,
                    bool parens) {
    if (operand == nullptr) {
      throw_null_field(owner, std::string(field));
    }
    push(Step::prim_expr, operand, parens ? 1U : 0U);
  }

  void prim_expr(const Object& node, bool parens) {
    if (parens) {
      out_ += '(';
      push_text(")");
    }
    const std::size_t begin = out_.size();
    switch (node.dynamic_type_index()) {
    case VarNode::type_index:
      emit_var(&static_cast<const VarNode&>(node));
      return;
    case IntImmNode::type_index: {
      const auto& imm = static_cast<const IntImmNode&>(node);
      if (imm.dtype.is_float() || !append_int_literal(out_, imm.value, imm.dtype)) {
        throw NodeError(ref_of(&node), "ctir: cannot print an IntImm of dtype " + imm.dtype.str());
      }
      record(&node, begin);
      return;
    }
    case FloatImmNode::type_index: {
      const auto& imm = static_cast<const FloatImmNode&>(node);
      if (!append_float_literal(out_, imm.value, imm.dtype)) {
        throw NodeError(ref_of(&node), "ctir: cannot print a FloatImm of dtype " + imm.dtype.str());
      }
      record(&node, begin);
      return;
    }
    case NegNode::type_index:
    case NotNode::type_index: {
      const bool neg = node.dynamic_type_index() == NegNode::type_index;
      const PrimExprNode* a = neg ? static_cast<const NegNode&>(node).a.get()
                                  : static_cast<const NotNode&>(node).a.get();
      out_ += neg ? '-' : '!';
      push(Step::end_range, &node, 0, begin);
      // `-(3)`: without parentheses it would read back as the literal -3.
      const bool literal = a != nullptr && (a->dynamic_type_index() == FloatImmNode::type_index ||
                                            (a->dynamic_type_index() == IntImmNode::type_index &&
                                             !static_cast<const IntImmNode*>(a)->dtype.is_bool()));
      push_operand(node, a, "a",
                   (a != nullptr && precedence_of(*a) <= unary_precedence) || (neg && literal));
      return;
    }
    case SelectNode::type_index: {
      const auto& select = static_cast<const SelectNode&>(node);
      out_ += "select(";
      push(Step::end_range, &node, 0, begin);
      push_text(")");
      push_operand(node, select.false_value.get(), "false_value", false);
      push_text(", ");
      push_operand(node, select.true_value.get(), "true_value", false);
      push_text(", ");
      push_operand(node, select.cond.get(), "cond", false);
      return;
    }
    case CastNode::type_index: {
      const auto& cast = static_cast<const CastNode&>(node);
      out_ += "cast<";
      emit_dtype(cast.dtype, &node);
      out_ += ">(";
      push(Step::end_range, &node, 0, begin);
      push_text(")");
      push_operand(node, cast.value.get(), "value", false);
      return;
    }
    case TensorLoadNode::type_index: {
      const auto& load = static_cast<const TensorLoadNode&>(node);
      if (!load.source.defined()) {
        throw_null_field(node, "source");
      }
      emit_var(load.source.get());
      out_ += '[';
      push(Step::end_range, &node, 0, begin);
      push_text("]");
      push_list(Step::prim_expr, load.indices, node, "indices");
      return;
    }
    default:
      break;
    }
    BinaryView view;
    if (!view_binary(node, view)) {
      throw NodeError(ref_of(&node), "ctir: the text format has no syntax for a " +
                                         std::string(node.dynamic_type_key()));
    }
    if (view.b == nullptr) {
      throw_null_field(node, "b");
    }
    if (view.precedence == 0) {
      out_ += view.symbol;
      out_ += '(';
      push(Step::end_range, &node, 0, begin);
      push_text(")");
      push_operand(node, view.b, "b", false);
      push_text(", ");
      push_operand(node, view.a, "a", false);
      return;
    }
    // Left associative: an operand of equal precedence needs parentheses only on the right.
    push(Step::binary_rest, &node, 0, begin);
    push_operand(node, view.a, "a", view.a != nullptr && precedence_of(*view.a) < view.precedence);
  }

  // ---- statements ---------------------------------------------------------------------

  void seq_block(const SeqStmtNode& seq) {
    const std::size_t begin = out_.size();
    out_ += '{';
    ++indent_;
    push(Step::close_block, &seq, 0, begin);
    if (!seq.seq.empty()) {
      push(Step::seq_next, &seq, 0, 0);
    }
  }

  void stmt(const Object& node) {
    const std::size_t begin = out_.size();
    switch (node.dynamic_type_index()) {
    case SeqStmtNode::type_index:
      // A block inside a block: `{ ... }` on its own.
      seq_block(static_cast<const SeqStmtNode&>(node));
      return;
    case ForNode::type_index: {
      const auto& loop = static_cast<const ForNode&>(node);
      if (!loop.var.defined()) {
        throw_null_field(node, "var");
      }
      if (!loop.body.defined()) {
        throw_null_field(node, "body");
      }
      const std::string_view kind = to_string(loop.kind);
      if (kind == "?") {
        throw NodeError(ref_of(&node), "ctir: cannot print a For of unknown kind");
      }
      out_ += "for ";
      emit_var(loop.var.get());
      out_ += " in ";
      out_ += kind;
      out_ += '(';
      push(Step::end_range, &node, 0, begin);
      push(Step::seq_block, loop.body.get());
      push_text(") ");
      push_operand(node, loop.end.get(), "end", false);
      push_text(", ");
      push_operand(node, loop.begin.get(), "begin", false);
      return;
    }
    case TensorStoreNode::type_index: {
      const auto& store = static_cast<const TensorStoreNode&>(node);
      if (!store.dest.defined()) {
        throw_null_field(node, "dest");
      }
      emit_var(store.dest.get());
      out_ += '[';
      push(Step::end_range, &node, 0, begin);
      push_text(";");
      push_operand(node, store.value.get(), "value", false);
      push_text("] = ");
      push_list(Step::prim_expr, store.indices, node, "indices");
      return;
    }
    case BindNode::type_index: {
      const auto& bind = static_cast<const BindNode&>(node);
      if (!bind.var.defined()) {
        throw_null_field(node, "var");
      }
      out_ += "let ";
      emit_var(bind.var.get());
      // Annotated only when the type is not the one the value gives it.
      const Type& ty = bind.var->ty;
      const bool annotate =
          ty.defined() && !(ty.is<PrimTypeNode>() &&
                            ty.as<PrimTypeNode>()->dtype == dtype_of_node(bind.value.get()));
      push(Step::end_range, &node, 0, begin);
      push_text(";");
      push_operand(node, bind.value.get(), "value", false);
      push_text(" = ");
      if (annotate) {
        out_ += ": ";
        push(Step::type, ty.get());
      }
      return;
    }
    case IfThenElseNode::type_index: {
      const auto& branch = static_cast<const IfThenElseNode&>(node);
      if (!branch.then_case.defined()) {
        throw_null_field(node, "then_case");
      }
      out_ += "if (";
      push(Step::end_range, &node, 0, begin);
      if (branch.else_case.defined()) {
        push(Step::seq_block, branch.else_case.get());
        push_text(" else ");
      }
      push(Step::seq_block, branch.then_case.get());
      push_text(") ");
      push_operand(node, branch.cond.get(), "cond", false);
      return;
    }
    case AllocateNode::type_index: {
      const auto& alloc = static_cast<const AllocateNode&>(node);
      if (!alloc.buffer.defined()) {
        throw_null_field(node, "buffer");
      }
      if (!alloc.buffer->ty.defined()) {
        throw NodeError(ref_of(&node), "ctir: cannot print an Allocate whose buffer has no type");
      }
      out_ += "alloc ";
      emit_var(alloc.buffer.get());
      out_ += ": ";
      push(Step::end_range, &node, 0, begin);
      push_text(";");
      push(Step::type, alloc.buffer->ty.get());
      return;
    }
    default:
      throw NodeError(ref_of(&node), "ctir: the text format has no syntax for a " +
                                         std::string(node.dynamic_type_key()));
    }
  }

  // ---- graph-level expressions --------------------------------------------------------

  /// A graph-level expression printed on its own: its bindings, then its result, at the
  /// left margin and without braces.
  void graph_root(const Object& node) {
    plan_.build(node);
    push(Step::graph_block, nullptr, 0, 0);
    run();
  }

  void graph_item(std::int32_t block, std::size_t i, bool first_of_bare_block) {
    std::vector<GraphItem>& items = plan_.block(block).items;
    if (i >= items.size()) {
      return;
    }
    if (i + 1 < items.size()) {
      push(Step::graph_items, nullptr, static_cast<std::uint32_t>(block), i + 1);
    }
    if (!first_of_bare_block) {
      newline();
    }
    GraphItem& item = items[i];
    switch (item.kind) {
    case GraphItem::Kind::temp: {
      GraphNodeInfo& info = plan_.info(item.index);
      info.temp_number = temps_++;
      out_ += '%';
      out_ += std::to_string(info.temp_number);
      out_ += " = ";
      push_text(";");
      push(Step::graph_inline, item.node, item.index);
      break;
    }
    case GraphItem::Kind::let: {
      const auto& let = static_cast<const LetNode&>(*item.node);
      const GraphEdge& value = plan_.edges_begin(item.index)[0];
      item.begin = out_.size();
      out_ += "let ";
      emit_var(let.var.get());
      push_text(";");
      push(Step::graph_expr, value.node, value.index);
      push_text(" = ");
      if (let.var->ty.defined()) {
        out_ += ": ";
        push(Step::type, let.var->ty.get());
      }
      break;
    }
    case GraphItem::Kind::result:
      push(Step::graph_lets, nullptr, static_cast<std::uint32_t>(block));
      push(Step::graph_expr, item.node, item.index);
      break;
    }
  }

  /// An expression where it is used: an atom in place, a temporary as `%N`, anything
  /// else inline. `index` is its plan index (atom_index for an atom).
  void graph_expr(const Object& node, std::uint32_t index) {
    if (index == atom_index) {
      atom(node);
      return;
    }
    const GraphNodeInfo& info = plan_.info(index);
    if (info.mode != GraphMode::temp) {
      graph_inline(node, index);
      return;
    }
    if (info.temp_number < 0) {
      throw Error("ctir: internal printer error: a temporary is used before its binding");
    }
    const std::size_t begin = out_.size();
    out_ += '%';
    out_ += std::to_string(info.temp_number);
    record(&node, begin);
  }

  /// Pushes graph_expr tasks for edges [first, last), separated by ", ".
  void push_edges(const GraphEdge* first, const GraphEdge* last) {
    for (const GraphEdge* edge = last; edge != first;) {
      --edge;
      push(Step::graph_expr, edge->node, edge->index);
      if (edge != first) {
        push_text(", ");
      }
    }
  }

  void atom(const Object& node) {
    const std::size_t begin = out_.size();
    if (instance_of<PrimExprNode>(node)) {
      prim_expr(node, false);
      return;
    }
    switch (node.dynamic_type_index()) {
    case GlobalVarNode::type_index:
      emit_global(&static_cast<const GlobalVarNode&>(node));
      return;
    case OpNode::type_index: {
      const std::string& name = static_cast<const OpNode&>(node).name;
      if (!is_dotted_name(name) || is_reserved_word(name)) {
        throw NodeError(ref_of(&node), "ctir: cannot print the operator name '" + name +
                                           "': operator names are [A-Za-z_][A-Za-z0-9_.]* and "
                                           "not a keyword of the format");
      }
      out_ += name;
      record(&node, begin);
      return;
    }
    case ConstantNode::type_index: {
      const TensorData& data = static_cast<const ConstantNode&>(node).data;
      if (!is_printable_dtype(data.dtype())) {
        throw NodeError(ref_of(&node), "ctir: the text format has no name for the dtype " +
                                           data.dtype().str() + " (of a Constant)");
      }
      out_ += "const(";
      append_tensor_elements(out_, data);
      if (data.size() == 0 && data.ndim() > 0) {
        // `[]` says neither the shape nor the dtype: the type says both.
        out_ += ", Tensor[(";
        for (std::size_t d = 0; d < data.ndim(); ++d) {
          out_ += d == 0 ? "" : ", ";
          out_ += std::to_string(data.shape()[d]);
        }
        out_ += "), ";
        out_ += data.dtype().str();
        out_ += ']';
      }
      out_ += ')';
      record(&node, begin);
      return;
    }
    case TupleGetItemNode::type_index: {
      // `%t.0.1`: the variable, then the indices from the innermost projection out, each
      // projection's range ending after its own index. A loop: chains may be deep.
      std::vector<const TupleGetItemNode*> chain;
      for (const Object* current = &node;
           current->dynamic_type_index() == TupleGetItemNode::type_index;
           current = static_cast<const TupleGetItemNode*>(current)->tuple.get()) {
        chain.push_back(static_cast<const TupleGetItemNode*>(current));
        check_index(*chain.back());
      }
      emit_var(projected_var(node));
      for (std::size_t k = chain.size(); k-- > 0;) {
        out_ += '.';
        out_ += std::to_string(chain[k]->index);
        record(chain[k], begin);
      }
      return;
    }
    default:
      throw NodeError(ref_of(&node), "ctir: the text format has no syntax for a " +
                                         std::string(node.dynamic_type_key()));
    }
  }

  static void check_index(const TupleGetItemNode& item) {
    if (item.index < 0) {
      throw NodeError(ref_of(&item), "ctir: cannot print a TupleGetItem with the negative index " +
                                         std::to_string(item.index));
    }
  }

  void graph_inline(const Object& node, std::uint32_t index) {
    const GraphNodeInfo& info = plan_.info(index);
    const GraphEdge* edges = plan_.edges_begin(index);
    const GraphEdge* edges_end = edges + plan_.edge_count(index);
    const std::size_t begin = out_.size();
    push(Step::end_range, &node, 0, begin);
    switch (info.kind) {
    case GraphKind::call: {
      const GraphEdge& callee = edges[0];
      const std::uint32_t callee_type = callee.node->dynamic_type_index();
      const bool direct =
          callee_type == OpNode::type_index || callee_type == GlobalVarNode::type_index;
      const bool callable = direct || callee_type == VarNode::type_index ||
                            callee_type == TupleGetItemNode::type_index ||
                            callee.index != atom_index;
      if (!callable) {
        throw NodeError(ref_of(&node), "ctir: cannot print a call of a " +
                                           std::string(callee.node->dynamic_type_key()) +
                                           ": a callee is an operator, a global, a variable or "
                                           "an expression bound to a temporary");
      }
      push_text(")");
      push(Step::call_attrs, &node);
      push_edges(edges + 1, edges_end);
      if (direct) {
        atom(*callee.node);
        out_ += '(';
      } else {
        push_text("(");
        push(Step::graph_expr, callee.node, callee.index);
      }
      return;
    }
    case GraphKind::tuple:
      out_ += '(';
      push_text(edges_end - edges == 1 ? ",)" : ")");
      push_edges(edges, edges_end);
      return;
    case GraphKind::get_item: {
      const auto& item = static_cast<const TupleGetItemNode&>(node);
      check_index(item);
      push(Step::index, nullptr, 0, static_cast<std::size_t>(item.index));
      push(Step::graph_expr, edges[0].node, edges[0].index);
      return;
    }
    case GraphKind::let:
      push(Step::graph_block, nullptr, static_cast<std::uint32_t>(info.inner), 1);
      return;
    case GraphKind::if_:
      out_ += "if (";
      push(Step::graph_block, nullptr, static_cast<std::uint32_t>(info.inner + 1), 1);
      push_text(" else ");
      push(Step::graph_block, nullptr, static_cast<std::uint32_t>(info.inner), 1);
      push_text(") ");
      push(Step::graph_expr, edges[0].node, edges[0].index);
      return;
    case GraphKind::function:
      out_ += "fn (";
      push(Step::graph_block, nullptr, static_cast<std::uint32_t>(info.inner), 1);
      push_text(" ");
      push(Step::fn_attrs, &node);
      push_signature_rest(static_cast<const FunctionNode&>(node));
      return;
    case GraphKind::call_dps: {
      const auto& call = static_cast<const CallDpsNode&>(node);
      if (!call.out_type.defined()) {
        throw_null_field(node, "out_type");
      }
      out_ += "call_dps ";
      emit_global(call.func.get());
      out_ += '(';
      push(Step::type, call.out_type.get());
      push_text(") -> ");
      push_edges(edges, edges_end);
      return;
    }
    case GraphKind::atom:
      break;
    }
  }

  bool record_;
  std::string out_;
  std::vector<PrintedText::Record> records_;
  std::vector<Task> stack_;
  std::size_t indent_ = 0;
  std::int64_t temps_ = 0;
  NameTable names_;
  GraphPlan plan_;
  const IRModule* module_ = nullptr;
};

} // namespace detail

/// Prints `module` in the text format, recording where each node's text lies.
inline PrintedText print_with_ranges(const IRModule& module) {
  detail::Printer printer(true);
  printer.module(module);
  return std::move(printer).finish();
}

/// Prints one node in the text format, recording where each node's text lies: a module
/// node; a function (a `def`/`prim` named by its name hint, ending with a newline like a
/// module; a graph function without a name prints as a closure `fn`, a tensor-level one
/// as `@main`); an expression (graph-level: its temporaries, then its value, without
/// braces); a statement (a SeqStmt as a `{ ... }` block) or a type. Only modules and
/// functions end with a newline.
///
/// Throws ctir::Error (a NodeError naming the node where there is one) for IR the format
/// cannot express: a null field that must be set, a dtype or a name the format has no
/// spelling for, a node type it has no syntax for.
inline PrintedText print_with_ranges(const ObjectRef& node) {
  detail::Printer printer(true);
  printer.root(node.get());
  return std::move(printer).finish();
}

/// Prints `module` in the text format: its functions in module order, separated by a
/// blank line, ending with a newline. Canonical and deterministic.
inline std::string print(const IRModule& module) {
  detail::Printer printer(false);
  printer.module(module);
  return std::move(printer).take_text();
}

/// Prints one node in the text format (see print_with_ranges).
inline std::string print(const ObjectRef& node) {
  detail::Printer printer(false);
  printer.root(node.get());
  return std::move(printer).take_text();
}

/// A node type print accepts: expressions, statements, types, module nodes, or any node
/// (checked when printed).
template <class T>
concept printable_node = std::derived_from<T, ExprNode> || std::derived_from<T, StmtNode> ||
    std::derived_from<T, TypeNode> || std::same_as<T, IRModuleNode> || std::same_as<T, Object>;

/// Writes the module's text.
inline std::ostream& operator<<(std::ostream& os, const IRModule& module) {
  return os << print(module);
}

/// Writes the node's text; a null Ref writes `null`, IR the format cannot express
/// writes `<cannot print: reason>` (streams are for people; use print to get the error).
template <printable_node T>
std::ostream& operator<<(std::ostream& os, const Ref<T>& node) {
  if (!node.defined()) {
    return os << "null";
  }
  try {
    return os << print(ObjectRef(node));
  } catch (const Error& error) {
    return os << "<cannot print: " << error.what() << '>';
  }
}

} // namespace ctir
