// A user's abstract node type reached by a walk without a CTIR_FAMILY declaration.
// expect: has no family declared in this translation unit
// expect: CTIR_FAMILY(Root)
#include <ctir/ctir.hpp>

#include <boost/hana/define_struct.hpp>

struct ShapeNode : ctir::Object {
  CTIR_ABSTRACT_NODE(ShapeNode, ctir::Object, "fail.Shape");
};
struct CircleNode final : ShapeNode {
  CTIR_NODE(CircleNode, ShapeNode, "fail.Circle");
  BOOST_HANA_DEFINE_STRUCT(CircleNode, (double, radius));
};
struct SceneNode final : ctir::Object {
  CTIR_NODE(SceneNode, ctir::Object, "fail.Scene");
  BOOST_HANA_DEFINE_STRUCT(SceneNode, (ctir::Ref<ShapeNode>, shape));
};

int main() {
  int circles = 0;
  ctir::walk(ctir::Ref<SceneNode>{}, ctir::on<CircleNode>([&](const CircleNode&) { ++circles; }));
  return circles;
}
