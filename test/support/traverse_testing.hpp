// Test helpers for walk/map/visit/mutate: seed 003's add_one, and node types registered at
// run time (a plug-in statement with children, a probe expression that counts reads).
#pragma once

#include <ctir/core/object.hpp>
#include <ctir/core/ref.hpp>
#include <ctir/core/type_registry.hpp>
#include <ctir/hooks/type_table.hpp>
#include <ctir/ir/ir.hpp>

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace ctir::testing {

/// Seed 003's add_one and its pieces.
struct AddOne {
  Var n = Var::make("n", DataType::int32());
  Var A = Var::make("A", TensorType::make({n}, DataType::float32()));
  Var B = Var::make("B", TensorType::make({n}, DataType::float32()));
  Var i = Var::make("i", DataType::int32());
  PrimFunc func = PrimFunc::make(
      "add_one", {A, B},
      For::make(i, 0, n, TensorStore::make(B, {i}, TensorLoad::make(A, {i}) + 1.0f)));

  const ForNode& loop() const { return *func->body->seq[0].as<ForNode>(); }
  const TensorStoreNode& store() const { return *loop().body->seq[0].as<TensorStoreNode>(); }
};

/// The parts of a function shaped like add_one: its loop, store and load.
inline const ForNode& loop_of(const PrimFunc& f) { return *f->body->seq[0].as<ForNode>(); }
inline const TensorStoreNode& store_of(const PrimFunc& f) {
  return *loop_of(f).body->seq[0].as<TensorStoreNode>();
}
inline const TensorLoadNode& load_of(const PrimFunc& f) {
  return *store_of(f).value.as<AddNode>()->a.as<TensorLoadNode>();
}
/// The first shape dimension of a tensor variable's type.
inline const PrimExpr& dim_of(const Var& v) { return v->ty.as<TensorTypeNode>()->shape[0]; }

/// A statement type a plug-in registers at run time: a block of children of any node type
/// (exposed through a node-array field), an ignored node field, and a plain value.
struct PluginBlockNode : StmtNode {
  std::vector<ObjectRef> children;
  ObjectRef hidden; ///< flagged ignore: no traversal may see it
  std::string tag;
};

/// A scalar expression type registered at run time whose field reads are counted, to see
/// whether a traversal entered it.
struct ProbeExprNode : PrimExprNode {
  std::vector<ObjectRef> operands;
  static inline std::size_t reads = 0;
};

namespace detail {

template <class T>
void destroy_plugin(Object* object) noexcept {
  delete static_cast<T*>(object);
}
template <class T>
Object* clone_plugin(const Object& object) {
  return new T(static_cast<const T&>(object));
}

inline std::size_t block_size(const Object& o, const FieldInfo&) {
  return static_cast<const PluginBlockNode&>(o).children.size();
}
inline const Object* block_at(const Object& o, const FieldInfo&, std::size_t i) {
  return static_cast<const PluginBlockNode&>(o).children[i].get();
}
inline void block_set_at(Object& o, const FieldInfo&, std::size_t i, ObjectRef value) {
  static_cast<PluginBlockNode&>(o).children[i] = std::move(value);
}
inline const Object* block_hidden(const Object& o, const FieldInfo&) {
  return static_cast<const PluginBlockNode&>(o).hidden.get();
}
inline void block_set_hidden(Object& o, const FieldInfo&, ObjectRef value) {
  static_cast<PluginBlockNode&>(o).hidden = std::move(value);
}
inline bool block_tag_equal(const Object& a, const Object& b, const FieldInfo&) {
  return static_cast<const PluginBlockNode&>(a).tag == static_cast<const PluginBlockNode&>(b).tag;
}
inline std::uint64_t block_tag_hash(const Object& a, const FieldInfo&) {
  return hash_bytes(static_cast<const PluginBlockNode&>(a).tag);
}
inline void block_tag_print(const Object& a, const FieldInfo&, std::string& out) {
  out += static_cast<const PluginBlockNode&>(a).tag;
}
inline bool block_tag_default(const Object& a, const FieldInfo&) {
  return static_cast<const PluginBlockNode&>(a).tag.empty();
}

inline std::size_t probe_size(const Object& o, const FieldInfo&) {
  ++ProbeExprNode::reads;
  return static_cast<const ProbeExprNode&>(o).operands.size();
}
inline const Object* probe_at(const Object& o, const FieldInfo&, std::size_t i) {
  return static_cast<const ProbeExprNode&>(o).operands[i].get();
}
inline void probe_set_at(Object& o, const FieldInfo&, std::size_t i, ObjectRef value) {
  static_cast<ProbeExprNode&>(o).operands[i] = std::move(value);
}

} // namespace detail

/// The descriptor of PluginBlockNode ("test.PluginBlock", a statement).
inline const TypeInfo& plugin_block_type() {
  static const TypeInfo& type = [&]() -> const TypeInfo& {
    register_type<StmtNode>();
    RuntimeTypeSpec spec;
    spec.key = "test.PluginBlock";
    spec.parent_key = "ir.Stmt";
    FieldInfo children;
    children.name = "children";
    children.kind = FieldKind::node_array;
    children.element_type_index = Object::type_index;
    children.size = &detail::block_size;
    children.at = &detail::block_at;
    children.set_at = &detail::block_set_at;
    FieldInfo hidden;
    hidden.name = "hidden";
    hidden.kind = FieldKind::node;
    hidden.flags = field_flags::ignore;
    hidden.element_type_index = Object::type_index;
    hidden.get = &detail::block_hidden;
    hidden.set = &detail::block_set_hidden;
    FieldInfo tag;
    tag.name = "tag";
    tag.kind = FieldKind::value;
    tag.equal = &detail::block_tag_equal;
    tag.hash = &detail::block_tag_hash;
    tag.print = &detail::block_tag_print;
    tag.is_default = &detail::block_tag_default;
    spec.own_fields = {children, hidden, tag};
    spec.destroy = &detail::destroy_plugin<PluginBlockNode>;
    spec.clone = &detail::clone_plugin<PluginBlockNode>;
    return TypeRegistry::global().add_runtime_type(std::move(spec));
  }();
  return type;
}

/// The descriptor of ProbeExprNode ("test.ProbeExpr", a scalar expression).
inline const TypeInfo& probe_expr_type() {
  static const TypeInfo& type = [&]() -> const TypeInfo& {
    register_type<PrimExprNode>();
    RuntimeTypeSpec spec;
    spec.key = "test.ProbeExpr";
    spec.parent_key = "ir.PrimExpr";
    FieldInfo operands;
    operands.name = "operands";
    operands.kind = FieldKind::node_array;
    operands.element_type_index = Object::type_index;
    operands.size = &detail::probe_size;
    operands.at = &detail::probe_at;
    operands.set_at = &detail::probe_set_at;
    spec.own_fields = {operands};
    spec.destroy = &detail::destroy_plugin<ProbeExprNode>;
    spec.clone = &detail::clone_plugin<ProbeExprNode>;
    return TypeRegistry::global().add_runtime_type(std::move(spec));
  }();
  return type;
}

/// A plug-in block holding `children` (what a plug-in's factory does: allocate, then stamp
/// the object with its run-time descriptor).
inline Stmt plugin_block(std::vector<ObjectRef> children, std::string tag = "block",
                         ObjectRef hidden = {}) {
  auto* node = new PluginBlockNode();
  ctir::detail::object_access::stamp(*node, &plugin_block_type());
  node->children = std::move(children);
  node->hidden = std::move(hidden);
  node->tag = std::move(tag);
  return Stmt::adopt_new(node);
}

/// A probe expression over `operands`.
inline PrimExpr probe_expr(std::vector<ObjectRef> operands) {
  auto* node = new ProbeExprNode();
  ctir::detail::object_access::stamp(*node, &probe_expr_type());
  node->operands = std::move(operands);
  return PrimExpr::adopt_new(node);
}

/// The children of a plug-in block.
inline const std::vector<ObjectRef>& block_children(const ObjectRef& block) {
  return static_cast<const PluginBlockNode&>(*block).children;
}

/// A node's type key without the "ir." prefix ("For", "SeqStmt").
inline std::string short_key(const Object& node) {
  std::string key(node.dynamic_type_key());
  return key.rfind("ir.", 0) == 0 ? key.substr(3) : key;
}

} // namespace ctir::testing
