// Definitions of <ctir/traverse/assert_structural_equal.hpp>.
#pragma once

#include <ctir/traverse/assert_structural_equal.hpp>

#include <ctir/core/type_info.hpp>

#include <exception>
#include <string>
#include <utility>

namespace ctir {

namespace detail {

CTIR_INLINE std::string structural_short_repr(const Object* node) {
  if (node == nullptr) {
    return "null";
  }
  const TypeInfo& info = node->type_info();
  std::string out(info.key);
  out += '(';
  if (info.repr != nullptr) {
    info.repr(*node, out);
  } else if (info.is_variable && info.variable_name != nullptr) {
    out += '\'';
    out += info.variable_name(*node);
    out += '\'';
  } else {
    bool first = true;
    for (const FieldInfo& field : info.fields) {
      if (field.ignored()) {
        continue;
      }
      out += first ? "" : ", ";
      first = false;
      out += field.name;
      out += '=';
      if (field.kind == FieldKind::value) {
        if (field.print != nullptr) {
          field.print(*node, field, out);
        }
      } else if (field.kind == FieldKind::node) {
        const Object* child = field.get(*node, field);
        out += child == nullptr ? std::string("null") : std::string(child->dynamic_type_key());
      } else {
        out += '[';
        out += std::to_string(field.size(*node, field));
        out += " items]";
      }
    }
  }
  out += ')';
  return out;
}

CTIR_INLINE std::string render_mismatch_side(const ObjectRef& root, const Object* node,
                                             const AccessPath& path) {
  if (program_printer != nullptr && root.defined()) {
    try {
      std::string text = program_printer(root, node, path);
      if (!text.empty() && text.back() != '\n') {
        text += '\n';
      }
      return text;
    } catch (const std::exception&) {
      // A printer that cannot print this program must not hide the mismatch itself.
    }
  }
  return "  " + structural_short_repr(node) + "\n";
}

} // namespace detail

CTIR_INLINE std::string format_structural_mismatch(const ObjectRef& lhs, const ObjectRef& rhs,
                                                   const StructuralMismatch& mismatch) {
  std::string message = "StructuralEqual check failed, caused by lhs at ";
  message += mismatch.lhs_path.str();
  message += ":\n";
  message += detail::render_mismatch_side(lhs, mismatch.lhs_node.get(), mismatch.lhs_path);
  message += "and rhs at ";
  message += mismatch.rhs_path.str();
  message += ":\n";
  message += detail::render_mismatch_side(rhs, mismatch.rhs_node.get(), mismatch.rhs_path);
  message += "reason: ";
  message += mismatch.reason;
  return message;
}

CTIR_INLINE StructuralEqualError::StructuralEqualError(StructuralMismatch mismatch,
                                                       const std::string& message)
    : Error(message), mismatch_(std::move(mismatch)) {}

} // namespace ctir
