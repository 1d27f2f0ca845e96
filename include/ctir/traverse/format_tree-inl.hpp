// Definitions of <ctir/traverse/format_tree.hpp>.
#pragma once

#include <ctir/traverse/format_tree.hpp>

#include <ctir/core/detail/pointer_map.hpp>
#include <ctir/core/type_info.hpp>
#include <ctir/traverse/detail/sharing.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ctir {

namespace detail {

/// The short display name of a type: the part of its key after the last '.'.
CTIR_INLINE std::string_view short_type_name(const TypeInfo& info) {
  const std::string_view key = info.key;
  const std::size_t dot = key.rfind('.');
  return dot == std::string_view::npos ? key : key.substr(dot + 1);
}

/// The child of Object a type descends from ("ir.Expr", "ir.Stmt", "ir.Type", ...).
CTIR_INLINE std::uint32_t category_of(const TypeInfo& info) {
  return info.depth >= 1 ? info.ancestors[1] : info.index;
}

class TreeFormatter {
public:
  std::string run(const Object& root) {
    struct Item {
      const Object* node;
      std::string label;  // "body: " or "params[0]: "
      std::string prefix; // the indentation of this line
      bool last;
      bool is_root;
      bool def_site;
    };
    std::vector<Item> stack;
    stack.push_back({&root, "", "", true, true, false});
    while (!stack.empty()) {
      Item item = std::move(stack.back());
      stack.pop_back();
      std::string child_prefix = item.prefix;
      if (!item.is_root) {
        out_ += item.prefix;
        out_ += item.last ? "└── " : "├── ";
        child_prefix += item.last ? "    " : "│   ";
      }
      out_ += item.label;
      if (shared_reference(*item.node)) {
        out_ += '\n';
        continue;
      }
      std::vector<Branch> branches;
      write_node_line(*item.node, item.def_site, branches);
      out_ += '\n';
      for (std::size_t i = branches.size(); i-- > 0;) {
        stack.push_back({branches[i].node, std::move(branches[i].label), child_prefix,
                         i + 1 == branches.size(), false, branches[i].def_site});
      }
    }
    return std::move(out_);
  }

private:
  struct Branch {
    const Object* node;
    std::string label;
    bool def_site;
  };

  /// A graph-level node reached through several uses is drawn once, as `#k = Call(...)`
  /// with its children; every later use is the line `#k`, so the drawing of a DAG is
  /// linear in its distinct nodes. Writes the `#k`; true for a later use.
  bool shared_reference(const Object& node) {
    if (node.use_count() <= 1 || !structural::visited_once(node)) {
      return false;
    }
    const std::size_t next = shared_ids_.size();
    const auto [id, first] = shared_ids_.try_emplace(&node, next);
    out_ += '#';
    out_ += std::to_string(*id);
    if (first) {
      out_ += " = ";
    }
    return !first;
  }

  static bool is_variable(const Object& node) { return node.type_info().is_variable; }

  static std::string variable_name(const Object& node) {
    const TypeInfo& info = node.type_info();
    return info.variable_name != nullptr ? std::string(info.variable_name(node)) : "?";
  }

  /// Types and leaf nodes of another category print inside their parent's line.
  static bool is_inline_child(const Object& parent, const Object& child, bool def_site) {
    if (is_variable(child)) {
      return !def_site;
    }
    const TypeInfo& info = child.type_info();
    if (info.repr != nullptr || info.key == "ir.Type" || category_is_type(info)) {
      return true;
    }
    return is_leaf(child) && category_of(info) != category_of(parent.type_info());
  }

  static bool category_is_type(const TypeInfo& info) {
    const TypeInfo* root = &info;
    while (root->parent != nullptr && root->parent->parent != nullptr) {
      root = root->parent;
    }
    return root->key == "ir.Type";
  }

  /// A node whose visible fields are all plain values.
  static bool is_leaf(const Object& node) {
    for (const FieldInfo& field : node.type_info().fields) {
      if (!field.ignored() && field.kind != FieldKind::value) {
        return false;
      }
    }
    return true;
  }

  /// `Key(a=1, b=x)`: a node rendered on one line, recursively.
  static void write_inline(const Object& node, std::string& out) {
    const TypeInfo& info = node.type_info();
    if (is_variable(node)) {
      out += variable_name(node);
      return;
    }
    if (info.repr != nullptr) {
      info.repr(node, out);
      return;
    }
    out += short_type_name(info);
    std::string fields;
    for (const FieldInfo& field : info.fields) {
      write_inline_field(node, field, fields);
    }
    if (!fields.empty()) {
      out += '(';
      out += fields;
      out += ')';
    }
  }

  static void append_separator(std::string& out) {
    if (!out.empty()) {
      out += ", ";
    }
  }

  static void write_inline_field(const Object& node, const FieldInfo& field, std::string& out) {
    if (field.ignored()) {
      return;
    }
    switch (field.kind) {
    case FieldKind::value:
      if ((field.flags & field_flags::elide_default) != 0 && field.is_default(node, field)) {
        return;
      }
      append_separator(out);
      out += field.name;
      out += '=';
      field.print(node, field, out);
      return;
    case FieldKind::node:
      if (const Object* child = field.get(node, field)) {
        append_separator(out);
        out += field.name;
        out += '=';
        write_inline(*child, out);
      }
      return;
    case FieldKind::node_array: {
      append_separator(out);
      out += field.name;
      out += "=[";
      const std::size_t size = field.size(node, field);
      for (std::size_t i = 0; i < size; ++i) {
        if (i != 0) {
          out += ", ";
        }
        if (const Object* child = field.at(node, field, i)) {
          write_inline(*child, out);
        } else {
          out += "null";
        }
      }
      out += ']';
      return;
    }
    }
  }

  void write_node_line(const Object& node, bool def_site, std::vector<Branch>& branches) {
    const TypeInfo& info = node.type_info();
    if (is_variable(node)) {
      out_ += variable_name(node);
      if (!def_site) {
        return;
      }
      out_ += " = ";
    }
    out_ += short_type_name(info);
    std::string header;
    for (const FieldInfo& field : info.fields) {
      if (field.ignored()) {
        continue;
      }
      const bool field_defines = field.def_kind != DefRegionKind::none;
      if (field.kind == FieldKind::value) {
        write_inline_field(node, field, header);
      } else if (field.kind == FieldKind::node) {
        const Object* child = field.get(node, field);
        if (child == nullptr) {
          continue;
        }
        if (is_variable(node) || is_inline_child(node, *child, field_defines)) {
          write_inline_field(node, field, header);
        } else {
          branches.push_back({child, std::string(field.name) + ": ", field_defines});
        }
      } else {
        const std::size_t size = field.size(node, field);
        bool all_inline = true;
        for (std::size_t i = 0; i < size && all_inline; ++i) {
          const Object* child = field.at(node, field, i);
          all_inline = child == nullptr || is_inline_child(node, *child, field_defines);
        }
        if (all_inline) {
          write_inline_field(node, field, header);
          continue;
        }
        for (std::size_t i = 0; i < size; ++i) {
          if (const Object* child = field.at(node, field, i)) {
            branches.push_back(
                {child, std::string(field.name) + "[" + std::to_string(i) + "]: ", field_defines});
          }
        }
      }
    }
    if (!header.empty()) {
      out_ += '(';
      out_ += header;
      out_ += ')';
    }
  }

  std::string out_;
  PointerMap<std::size_t> shared_ids_;
};

} // namespace detail

CTIR_INLINE std::string format_tree(const Object& root) {
  return detail::TreeFormatter().run(root);
}

} // namespace ctir
