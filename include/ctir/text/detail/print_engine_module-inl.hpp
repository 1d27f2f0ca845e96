// Definitions of the print engine (<ctir/text/detail/print_engine-inl.hpp>).
// The driver (the work stack and its steps), modules, functions and attributes.
#pragma once

#include <ctir/text/detail/print_engine.hpp>

#include <ctir/core/error.hpp>
#include <ctir/text/detail/print_literal.hpp>

#include <string>
#include <string_view>
#include <utility>

namespace ctir::detail {

CTIR_INLINE void Printer::module(const IRModule& printed) {
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

CTIR_INLINE void Printer::root(const Object* node) {
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
  stmt_ = {};
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
    start_prim(function, function.name.empty() ? std::string_view("main") : function.name, nullptr);
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

CTIR_INLINE PrintedText Printer::finish() && {
  PrintedText result;
  result.text_ = std::move(out_);
  result.records_ = std::move(records_);
  result.index();
  return result;
}

CTIR_INLINE void Printer::emit_global(const GlobalVarNode* global) {
  check_global_name(global->name, *global);
  const std::size_t begin = out_.size();
  out_ += '@';
  out_ += global->name;
  record(global, begin);
}

CTIR_INLINE void Printer::emit_dtype(DataType dtype, const Object* owner) {
  if (!is_printable_dtype(dtype)) {
    throw NodeError(ref_of(owner), "ctir: the text format has no name for the dtype " +
                                       dtype.str() + " (of a " +
                                       std::string(owner->dynamic_type_key()) + ")");
  }
  out_ += dtype.str();
}

CTIR_INLINE void Printer::check_global_name(std::string_view name, const Object& owner) {
  if (!is_global_name(name)) {
    throw NodeError(ref_of(&owner), "ctir: cannot print the global name '" + std::string(name) +
                                        "': global names are [A-Za-z_][A-Za-z0-9_]* or digits");
  }
}

CTIR_INLINE void Printer::run() {
  while (!stack_.empty()) {
    const Task task = stack_.back();
    stack_.pop_back();
    step(task);
  }
}

CTIR_INLINE void Printer::step(const Task& task) {
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
    prim_expr(*node, task.arg != 0, task.aux, task.flag);
    break;
  case Step::prim_temp:
    out_ += '%';
    out_ += std::to_string(task.arg);
    out_ += " = ";
    push_text(";");
    push(Step::prim_expr, node, 0, 1, prim_define);
    break;
  case Step::newline:
    newline();
    break;
  case Step::binary_rest:
    binary_rest(*node, task.aux, task.arg, task.flag);
    break;
  case Step::stmt:
    stmt(*node, task.flag != 0);
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
    // A shape variable is defined by the pattern of the types that mention it, and may
    // also be a parameter of its own: a mention, not a second binding.
    if (task.step == Step::param) {
      emit_def(&var);
    } else {
      emit_var(&var);
    }
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

CTIR_INLINE void Printer::module_function(std::size_t i) {
  const GlobalVar& global = module_->global_at(i);
  const BaseFunc& function = module_->function_at(i);
  names_.clear();
  temps_ = 0;
  stmt_ = {};
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

CTIR_INLINE void Printer::emit_def_name(std::string_view keyword, std::string_view name,
                                        const Object& function, const GlobalVarNode* global) {
  check_global_name(name, global != nullptr ? static_cast<const Object&>(*global) : function);
  out_ += keyword;
  const std::size_t begin = out_.size();
  out_ += '@';
  out_ += name;
  if (global != nullptr) {
    record(global, begin);
  }
}

CTIR_INLINE void Printer::start_def(const FunctionNode& function, std::string_view name,
                                    const GlobalVarNode* global) {
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

CTIR_INLINE void Printer::push_signature_rest(const FunctionNode& function) {
  if (function.ret_type.defined()) {
    push(Step::type, function.ret_type.get());
    push_text(" -> ");
  }
  push_text(")");
  push_list(Step::param, function.params, function, "params");
}

CTIR_INLINE void Printer::start_prim(const PrimFuncNode& function, std::string_view name,
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

CTIR_INLINE void Printer::fn_attrs(const BaseFuncNode& function) {
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

CTIR_INLINE void Printer::call_attrs(const CallNode& call) {
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

CTIR_INLINE void Printer::check_attr_key(const std::string& key, const Object& owner) {
  if (!is_dotted_name(key)) {
    throw NodeError(ref_of(&owner), "ctir: cannot print the attribute key '" + key +
                                        "': keys are [A-Za-z_][A-Za-z0-9_.]*");
  }
}

} // namespace ctir::detail
