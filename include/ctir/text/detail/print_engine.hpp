// The engine behind <ctir/text/printer.hpp>, its state and work stack (only the printer's
// definitions use it); its steps are defined by job in print_engine_*-inl.hpp.
#pragma once

#include <ctir/core/detail/pointer_map.hpp>
#include <ctir/ir/graph/expr.hpp>
#include <ctir/ir/module.hpp>
#include <ctir/ir/tensor/expr.hpp>
#include <ctir/ir/tensor/prim_func.hpp>
#include <ctir/ir/tensor/stmt.hpp>
#include <ctir/ir/type.hpp>
#include <ctir/ir/var.hpp>
#include <ctir/text/detail/print_graph.hpp>
#include <ctir/text/detail/print_names.hpp>
#include <ctir/text/printed_text.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ctir::detail {

/// How deeply a statement's tensor-level expression may nest in printed text
/// (parentheses, call-like forms, load indices) before the printer binds inner parts to
/// temporaries `%N = e;`: far above what is written by hand, and low enough that a line
/// stays readable. The parser reads expressions at any depth, so this is a matter of
/// form: where no statement can bind them (types, graph-level operands), expressions are
/// written whole.
inline constexpr std::size_t max_printed_expr_depth = 64;

/// The engine behind print and print_with_ranges.
///
/// Printing never recurses: every node pushes the pieces still to print onto an
/// explicit work stack (in reverse), so IR a million levels deep prints on the default
/// stack, in time and memory linear in the size of the IR and the text.
class Printer {
public:
  explicit Printer(bool record_ranges) : record_(record_ranges) {}

  /// Prints a whole module: its functions in order, a blank line between two.
  void module(const IRModule& printed);

  /// Prints one node: a module node, a function, an expression, a statement or a type.
  void root(const Object* node);

  /// The text and its ranges.
  PrintedText finish() &&;

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
    prim_expr,    // ptr: PrimExprNode; arg: 1 to parenthesize; aux: nesting depth; flag: PrimFlag
    prim_temp,    // ptr: PrimExprNode bound to a temporary; arg: its number
    newline,      //
    binary_rest,  // ptr: binary node; aux: where it began; arg: depth; flag: PrimFlag
    stmt,         // ptr: StmtNode; flag: 1 when its deep expressions are planned
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
  /// Flags of a prim_expr task.
  enum PrimFlag : std::uint8_t {
    prim_define = 1, ///< a temporary's own expression: printed in full, not as `%N`
    prim_fixed = 2,  ///< outside a statement's expressions (a type): never bound
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
  /// `aux` and `flag` go to every item's task (a prim_expr's depth and flags).
  template <class Refs>
  void push_list(Step step, const Refs& items, const Object& owner, std::string_view field,
                 std::size_t aux = 0, std::uint8_t flag = 0) {
    for (std::size_t i = items.size(); i-- > 0;) {
      if (!items[i].defined()) {
        throw_null_field(owner, std::string(field) + '[' + std::to_string(i) + ']');
      }
      push(step, items[i].get(), 0, aux, flag);
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
  /// A variable where it is bound (see NameTable::define).
  void emit_def(const VarNode* var) {
    const std::size_t begin = out_.size();
    out_ += '%';
    out_ += names_.define(var);
    record(var, begin);
  }
  /// A variable where it is bound, by a statement printed again after temporaries were
  /// planned for it (restart_with_temps): the name its first printing defined.
  void emit_def_again(const VarNode* var, bool again) {
    if (again) {
      emit_var(var);
    } else {
      emit_def(var);
    }
  }
  void emit_global(const GlobalVarNode* global);
  void emit_dtype(DataType dtype, const Object* owner);
  static std::uint32_t pack(DataType dtype) {
    return (static_cast<std::uint32_t>(dtype.code) << 8U) | dtype.bits;
  }
  static DataType unpack(std::uint32_t packed) {
    return DataType{static_cast<DataType::Code>(packed >> 8U),
                    static_cast<std::uint8_t>(packed & 0xFFU)};
  }
  static void check_global_name(std::string_view name, const Object& owner);

  // ---- the work stack (print_engine_module-inl.hpp) -------------------------------------

  void run();

  void step(const Task& task);

  // ---- functions (print_engine_module-inl.hpp) ------------------------------------------

  void module_function(std::size_t i);

  void emit_def_name(std::string_view keyword, std::string_view name, const Object& function,
                     const GlobalVarNode* global);

  /// `def @name(%x: T, ...) -> R attributes {...} { ... }`
  void start_def(const FunctionNode& function, std::string_view name, const GlobalVarNode* global);

  /// The closing `)` and result type of a graph function's signature, then its params.
  void push_signature_rest(const FunctionNode& function);

  /// `prim @name[%n, ...](%A: T, ...) attributes {...} { ... }`
  void start_prim(const PrimFuncNode& function, std::string_view name, const GlobalVarNode* global);

  void fn_attrs(const BaseFuncNode& function);

  void call_attrs(const CallNode& call);

  static void check_attr_key(const std::string& key, const Object& owner);

  // ---- types (print_engine_tensor-inl.hpp) ----------------------------------------------

  void type(const Object& node);

  // ---- tensor-level expressions (print_engine_tensor-inl.hpp) ---------------------------

  /// Pushes `operand` of `owner`, parenthesized if `parens`.
  void push_operand(const Object& owner, const Object* operand, std::string_view field, bool parens,
                    std::size_t depth);

  /// Whether `node` prints as a temporary `%N` here (an atom: never parenthesized).
  bool is_temp(const Object& node) const {
    return prim_temps_.size() != 0 && prim_temps_.contains(&node);
  }

  /// Writes `%N` for `node` if it is bound to a temporary.
  bool emit_temp_use(const Object& node);

  /// The operator and right operand of a binary node whose left operand `begin` starts.
  void binary_rest(const Object& node, std::size_t begin, std::size_t depth, std::uint8_t flags);

  void prim_expr(const Object& node, bool parens, std::size_t depth, std::uint8_t flags);

  /// The statement being printed nested its expressions past max_printed_expr_depth:
  /// takes back its text and prints it again after temporaries for its deep parts.
  void restart_with_temps();

  /// Chooses the parts of `stmt`'s expressions bound to temporaries (prim_temps_,
  /// temp_order_), inner ones first, so that none nests past max_printed_expr_depth.
  void plan_prim_temps(const Object& stmt);

  // ---- statements (print_engine_tensor-inl.hpp) -----------------------------------------

  void seq_block(const SeqStmtNode& seq);

  void stmt(const Object& node, bool planned);

  // ---- graph-level expressions (print_engine_graph-inl.hpp) -----------------------------

  /// A graph-level expression printed on its own: its bindings, then its result, at the
  /// left margin and without braces.
  void graph_root(const Object& node);

  void graph_item(std::int32_t block, std::size_t i, bool first_of_bare_block);

  /// An expression where it is used: an atom in place, a temporary as `%N`, anything
  /// else inline. `index` is its plan index (atom_index for an atom).
  void graph_expr(const Object& node, std::uint32_t index);

  /// Pushes graph_expr tasks for edges [first, last), separated by ", ".
  void push_edges(const GraphEdge* first, const GraphEdge* last);

  void atom(const Object& node);

  static void check_index(const TupleGetItemNode& item);

  void graph_inline(const Object& node, std::uint32_t index);

  bool record_;
  std::string out_;
  std::vector<PrintedText::Record> records_;
  std::vector<Task> stack_;
  std::size_t indent_ = 0;
  std::int64_t temps_ = 0;
  /// The statement whose expressions are printing, and where its text began.
  struct StmtStart {
    const Object* node = nullptr;
    std::size_t text = 0;
    std::size_t records = 0;
    std::size_t stack = 0;
    bool planned = false;
  } stmt_;
  PointerMap<std::uint32_t> prim_temps_; ///< node -> 1 + its temporary's number
  std::vector<const Object*> temp_order_;
  NameTable names_;
  GraphPlan plan_;
  const IRModule* module_ = nullptr;
};

} // namespace ctir::detail
