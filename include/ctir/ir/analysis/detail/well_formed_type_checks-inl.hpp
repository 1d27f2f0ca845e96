// Definitions of <ctir/ir/analysis/detail/well_formed_checker.hpp>: the type checks of
// calls, call_dps and tensor accesses, and the diagnostics.
#pragma once

#include <ctir/ir/analysis/detail/well_formed_checker.hpp>

#include <ctir/core/error.hpp>
#include <ctir/ir/builder.hpp> // known_dtype_of_node
#include <ctir/ir/op_registry.hpp>
#include <ctir/ir/type_str.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ctir::detail::well_formed {

// ---- type checks ------------------------------------------------------------------------

CTIR_INLINE void Checker::check(const Object& node) {
  const std::uint32_t type = node.dynamic_type_index();
  if (type == CallNode::type_index) {
    check_call(static_cast<const CallNode&>(node));
  } else if (type == CallDpsNode::type_index) {
    check_call_dps(static_cast<const CallDpsNode&>(node));
  } else if (type == TensorStoreNode::type_index) {
    const auto& store = static_cast<const TensorStoreNode&>(node);
    check_access(node, "store into", store.dest, store.indices.size());
  } else if (type == TensorLoadNode::type_index) {
    const auto& load = static_cast<const TensorLoadNode&>(node);
    check_access(node, "load from", load.source, load.indices.size());
  } else {
    check_dtypes(node, type);
  }
}

CTIR_INLINE void Checker::check_dtypes(const Object& node, std::uint32_t type) {
  if (type == NotNode::type_index) {
    check_bool(node, static_cast<const NotNode&>(node).a, "the operand of '!'");
  } else if (type == AndNode::type_index) {
    const auto& binary = static_cast<const AndNode&>(node);
    check_bool(node, binary.a, "an operand of '&&'");
    check_bool(node, binary.b, "an operand of '&&'");
  } else if (type == OrNode::type_index) {
    const auto& binary = static_cast<const OrNode&>(node);
    check_bool(node, binary.a, "an operand of '||'");
    check_bool(node, binary.b, "an operand of '||'");
  } else if (type == SelectNode::type_index) {
    check_bool(node, static_cast<const SelectNode&>(node).cond, "the condition of select");
  } else if (type == IfThenElseNode::type_index) {
    check_bool(node, static_cast<const IfThenElseNode&>(node).cond, "the condition of if");
  } else if (type == NegNode::type_index) {
    const std::optional<DataType> dtype =
        known_dtype_of_node(static_cast<const NegNode&>(node).a.get());
    if (dtype && dtype->is_bool()) {
      report(WellFormedDiagnostic::Kind::ill_typed, node,
             "the operand of '-' must be an integer or a float, found bool (use '!' to negate "
             "a bool)");
    }
  }
}

CTIR_INLINE void Checker::check_bool(const Object& node, const PrimExpr& operand,
                                     std::string_view what) {
  const std::optional<DataType> dtype = known_dtype_of_node(operand.get());
  if (dtype && !dtype->is_bool()) {
    report(WellFormedDiagnostic::Kind::ill_typed, node,
           std::string(what) + " must be a bool, found " + dtype->str());
  }
}

CTIR_INLINE void Checker::check_call(const CallNode& call) {
  if (!call.op.defined()) {
    return;
  }
  if (const auto* op = call.op.as<OpNode>()) {
    const OpDef* def = OpRegistry::global().find(op->name);
    if (def == nullptr) {
      std::string message;
      try {
        static_cast<void>(OpRegistry::global().get(op->name));
      } catch (const Error& error) {
        message = strip_ctir_prefix(error.what());
      }
      report(WellFormedDiagnostic::Kind::ill_typed, call, "call of " + message);
      return;
    }
    if (!def->arity.accepts(call.args.size())) {
      report(WellFormedDiagnostic::Kind::ill_typed, call,
             "operator '" + op->name + "' takes " + def->arity.str() + ", but the call gives " +
                 std::to_string(call.args.size()));
      return;
    }
    try {
      def->check_attrs(call.attrs);
    } catch (const Error& error) {
      report(WellFormedDiagnostic::Kind::ill_typed, call, strip_ctir_prefix(error.what()));
      return;
    }
    std::vector<Type>& types = arg_types_;
    types.clear();
    for (const Expr& arg : call.args) {
      types.push_back(type_of(arg));
      if (!types.back().defined()) {
        return; // an argument of unknown type: nothing to check
      }
    }
    try {
      *call_types_.try_emplace(&call).first = def->infer_type(types, call.attrs);
    } catch (const Error& error) {
      std::string listing;
      for (const Type& t : types) {
        listing += (listing.empty() ? "" : ", ") + type_str(t);
      }
      report(WellFormedDiagnostic::Kind::ill_typed, call,
             "ill-typed call of '" + op->name + "' with arguments of types (" + listing +
                 "): " + strip_ctir_prefix(error.what()));
    }
    return;
  }
  if (const auto* global = call.op.as<GlobalVarNode>()) {
    const BaseFunc target = mod_.find(global->name);
    if (!target.defined()) {
      report(WellFormedDiagnostic::Kind::ill_typed, call,
             "call of '@" + global->name + "', which is not a function of the module");
    } else if (target.as<PrimFuncNode>() != nullptr) {
      report(WellFormedDiagnostic::Kind::ill_typed, call,
             "call of tensor-level function '@" + global->name +
                 "' as a graph-level function (call it with call_dps)");
    } else if (const auto* function = target.as<FunctionNode>()) {
      if (function->params.size() != call.args.size()) {
        report(WellFormedDiagnostic::Kind::ill_typed, call,
               "call of '@" + global->name + "' gives " + std::to_string(call.args.size()) +
                   " arguments, but it takes " + std::to_string(function->params.size()));
      } else if (function->ret_type.defined()) {
        *call_types_.try_emplace(&call).first = function->ret_type;
      }
    }
  }
}

CTIR_INLINE void Checker::check_call_dps(const CallDpsNode& call) {
  if (!call.func.defined()) {
    return;
  }
  const std::string& name = call.func->name;
  const BaseFunc target = mod_.find(name);
  if (!target.defined()) {
    report(WellFormedDiagnostic::Kind::ill_typed, call,
           "call_dps of '@" + name + "', which is not a function of the module");
    return;
  }
  const auto* prim = target.as<PrimFuncNode>();
  if (prim == nullptr) {
    report(WellFormedDiagnostic::Kind::ill_typed, call,
           "call_dps of '@" + name +
               "', which is a graph-level function, not a PrimFunc (call_dps calls "
               "tensor-level functions)");
    return;
  }
  if (prim->params.size() != call.args.size() + 1) {
    report(WellFormedDiagnostic::Kind::ill_typed, call,
           "call_dps of '@" + name + "' passes " + std::to_string(call.args.size()) +
               " arguments and the output, but '@" + name + "' takes " +
               std::to_string(prim->params.size()) + " parameters");
  }
}

CTIR_INLINE void Checker::check_access(const Object& node, std::string_view what, const Var& tensor,
                                       std::size_t index_count) {
  if (!tensor.defined() || !tensor->ty.defined()) {
    return;
  }
  const std::string name = "'%" + tensor->name + "'";
  if (const auto* tensor_type = tensor->ty.as<TensorTypeNode>()) {
    if (tensor_type->ndim() != index_count) {
      report(WellFormedDiagnostic::Kind::ill_typed, node,
             std::string(what) + " " + name + " uses " + std::to_string(index_count) +
                 (index_count == 1 ? " index" : " indices") + ", but " + name + " has type " +
                 type_str(tensor->ty) + " of rank " + std::to_string(tensor_type->ndim()));
    }
  } else {
    report(WellFormedDiagnostic::Kind::ill_typed, node,
           std::string(what) + " " + name + ", which is not a tensor (its type is " +
               type_str(tensor->ty) + ")");
  }
}

CTIR_INLINE Type Checker::type_of(const Expr& expr) const {
  if (!expr.defined()) {
    return {};
  }
  const std::uint32_t type = expr->dynamic_type_index();
  if (type == VarNode::type_index) {
    return static_cast<const VarNode&>(*expr).ty;
  }
  if (type == IntImmNode::type_index) {
    return TensorType::make({}, static_cast<const IntImmNode&>(*expr).dtype);
  }
  if (type == FloatImmNode::type_index) {
    return TensorType::make({}, static_cast<const FloatImmNode&>(*expr).dtype);
  }
  if (type == ConstantNode::type_index) {
    const TensorData& data = static_cast<const ConstantNode&>(*expr).data;
    std::vector<PrimExpr> shape;
    for (std::int64_t d : data.shape()) {
      shape.push_back(IntImm::make(d));
    }
    return TensorType::make(std::move(shape), data.dtype());
  }
  if (type == CallDpsNode::type_index) {
    return static_cast<const CallDpsNode&>(*expr).out_type;
  }
  if (type == CallNode::type_index) {
    const Type* known = call_types_.find(expr.get());
    return known == nullptr ? Type() : *known;
  }
  if (type == TupleNode::type_index) {
    std::vector<Type> fields;
    for (const Expr& field : static_cast<const TupleNode&>(*expr).fields) {
      fields.push_back(type_of(field));
      if (!fields.back().defined()) {
        return {};
      }
    }
    return TupleType::make(std::move(fields));
  }
  if (type == TupleGetItemNode::type_index) {
    const auto& item = static_cast<const TupleGetItemNode&>(*expr);
    const Type tuple = type_of(item.tuple);
    if (const auto* tuple_type = tuple.as<TupleTypeNode>()) {
      if (item.index >= 0 && static_cast<std::size_t>(item.index) < tuple_type->fields.size()) {
        return tuple_type->fields[static_cast<std::size_t>(item.index)];
      }
    }
  }
  return {};
}

// ---- diagnostics ------------------------------------------------------------------------

CTIR_INLINE std::string Checker::variable_name(const Object& var) {
  const TypeInfo& info = var.type_info();
  if (var.dynamic_type_index() == VarNode::type_index) {
    return "%" + static_cast<const VarNode&>(var).name;
  }
  if (info.variable_name != nullptr) {
    return "%" + std::string(info.variable_name(var));
  }
  return "a variable of type " + std::string(info.key);
}

CTIR_INLINE void Checker::report_undefined(const Object& var) {
  auto [record, first] = undefined_.try_emplace(&var);
  ++record->uses;
  if (first) {
    record->diagnostic = report(WellFormedDiagnostic::Kind::undefined_variable, var,
                                "variable '" + variable_name(var) + "' is used but not defined");
  }
}

CTIR_INLINE void Checker::report_duplicate(const Object& var) {
  report(WellFormedDiagnostic::Kind::duplicate_definition, var,
         "variable '" + variable_name(var) +
             "' is defined more than once; this is a second definition");
}

CTIR_INLINE std::size_t Checker::report(WellFormedDiagnostic::Kind kind, const Object& node,
                                        std::string message) {
  if (diagnostics_.size() >= options_.max_diagnostics) {
    return Step::npos;
  }
  WellFormedDiagnostic diagnostic;
  diagnostic.kind = kind;
  diagnostic.message = std::move(message);
  diagnostic.node = ObjectRef::borrow(&node);
  diagnostic.location = "@" + mod_.global_at(function_)->name;
  for (std::size_t k = 0; k < path_.size(); ++k) {
    const Step& step = path_[k];
    diagnostic.path.push_field(step.field);
    if (step.index != Step::npos) {
      diagnostic.path.push_index(step.index);
    }
    if (k == 0) {
      continue; // `functions[i]` is the function's name in the location
    }
    diagnostic.location += '.';
    diagnostic.location += step.field;
    if (step.index != Step::npos) {
      diagnostic.location += '[' + std::to_string(step.index) + ']';
    }
  }
  diagnostics_.push_back(std::move(diagnostic));
  return diagnostics_.size() - 1;
}

} // namespace ctir::detail::well_formed
