// A family lists a type that is not a subclass of its root.
// expect: lists a type that is abstract or does not derive from
#include <ctir/ctir.hpp>

struct RootNode : ctir::Object {
  CTIR_ABSTRACT_NODE(RootNode, ctir::Object, "fail.Root");
};
struct LeafNode final : RootNode {
  CTIR_NODE(LeafNode, RootNode, "fail.Leaf");
};
CTIR_FAMILY(RootNode, LeafNode, ctir::ForNode);

int main() { return static_cast<int>(ctir::family_t<RootNode>::size); }
