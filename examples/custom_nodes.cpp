// Declaring node types: hooks written by hand, reflected from a Hana struct, or given at run time.
#include <ctir/ctir.hpp>
#include <ctir/hooks/runtime_type.hpp>
#include <ctir/traverse/format_tree.hpp>

#include <boost/hana/define_struct.hpp>
#include <iostream>

namespace my {
using namespace ctir;

// [hooks.begin]
/// `prefetch %A[indices] { body }`: a statement of our own, with hooks declared once.
struct PrefetchNode final : StmtNode {
  CTIR_NODE(PrefetchNode, StmtNode, "my.Prefetch");
  Var buffer;
  std::vector<PrimExpr> indices;
  SeqStmt body;
  std::int64_t distance = 1;
  CTIR_FIELDS(CTIR_FIELD(buffer), CTIR_FIELD(indices), CTIR_FIELD(body),
              CTIR_FIELD(distance).elide_default());

  struct ref_methods {
    static Ref<PrefetchNode> make(Var buffer, std::vector<PrimExpr> indices, Stmt body,
                                  std::int64_t distance = 1) {
      auto node = make_object<PrefetchNode>();
      node->buffer = std::move(buffer);
      node->indices = std::move(indices);
      node->body = as_block(std::move(body));
      node->distance = distance;
      return std::move(node).publish();
    }
  };
};
using Prefetch = Ref<PrefetchNode>;
// [hooks.end]

// [reflect.begin]
/// No CTIR_FIELDS: a Boost.Hana Struct falls back to its reflected fields (kind NONE).
struct CommentNode final : StmtNode {
  CTIR_NODE(CommentNode, StmtNode, "my.Comment");
  BOOST_HANA_DEFINE_STRUCT(CommentNode, (std::string, text), (Stmt, annotated));
};
// [reflect.end]

} // namespace my

int main() {
  using namespace ctir;
  Var n = Var::make("n", DataType::int32());
  Var A = Var::make("A", TensorType::make({n}, DataType::float32()));
  Var i = Var::make("i", DataType::int32());

  // [use.begin]
  my::Prefetch prefetch = my::Prefetch::make(A, {i + 1}, SeqStmt::make({}), 4);
  Stmt loop = For::make(i, 0, n, prefetch);
  std::cout << format_tree(loop) << '\n';
  // Hooks are visible at compile time ...
  static_assert(field_count_v<my::PrefetchNode> == 5); // span, then the four own fields
  static_assert(field_index<my::PrefetchNode>("body") == 3);
  // ... and at run time, through the same declaration.
  for (const FieldInfo& field : type_info_v<my::PrefetchNode>.fields) {
    std::cout << field.name << (field.ignored() ? " (ignored)" : "") << '\n';
  }
  // [use.end]

  auto comment = make_object<my::CommentNode>();
  comment->text = "hot loop";
  comment->annotated = loop;
  std::cout << '\n' << format_tree(Stmt(std::move(comment))) << '\n';

  // [runtime.begin]
  // A plug-in's statement type, described entirely at run time.
  const TypeInfo& barrier = register_dynamic_type<StmtNode>(
      "plugin.Barrier",
      {{.name = "scope", .kind = FieldKind::value},
       {.name = "after", .kind = FieldKind::node, .element_type_key = "ir.Stmt"}});
  auto node = make_dynamic<StmtNode>(barrier);
  node->values[0] = std::string("shared");
  node->nodes[0] = loop;
  Stmt stmt = std::move(node);
  std::cout << format_tree(stmt);
  // [runtime.end]
  return 0;
}
