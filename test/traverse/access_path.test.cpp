// Tests of AccessPath: printing, comparing, following a path into a value.
#include <ctir/ctir.hpp>
#include <ctir/traverse/access_path.hpp>

#include <doctest/doctest.h>
#include <ir_generator.hpp>

using namespace ctir;
using ctir::testing::make_add;

TEST_CASE("the empty path is the root") {
  const AccessPath root;
  CHECK(root.is_root());
  CHECK(root.size() == 0);
  CHECK(root.str() == "<root>");
}

TEST_CASE("fields print as .name and array elements as [i], in order") {
  const AccessPath path = AccessPath().field("body").field("seq").index(0).field("value");
  CHECK(path.str() == "<root>.body.seq[0].value");
  CHECK(path.size() == 4);
  CHECK(path.steps()[2].kind == AccessPath::Step::Kind::index);
  CHECK(path.steps()[2].index == 0);
  CHECK(path.steps()[3].name == "value");
  AccessPath built;
  built.push_field("params");
  built.push_index(12);
  CHECK(built.str() == "<root>.params[12]");
}

TEST_CASE("paths compare step by step") {
  CHECK(AccessPath().field("a").index(1) == AccessPath().field("a").index(1));
  CHECK_FALSE(AccessPath().field("a").index(1) == AccessPath().field("a").index(2));
  CHECK_FALSE(AccessPath().field("a") == AccessPath().field("b"));
  CHECK_FALSE(AccessPath().field("a") == AccessPath().field("a").field("b"));
}

TEST_CASE("resolve follows a path into a value through the runtime field tables") {
  const PrimFunc f = make_add(1);
  const auto* loop = f->body->seq[0].as<ForNode>();
  REQUIRE(loop != nullptr);
  CHECK(AccessPath().resolve(f).same_as(f));
  CHECK(AccessPath().field("body").field("seq").index(0).resolve(f).get() == loop);
  CHECK(
      AccessPath().field("body").field("seq").index(0).field("var").resolve(f).same_as(loop->var));
  CHECK(AccessPath().field("params").index(1).resolve(f).same_as(f->params[1]));
  // A path that ends at a plain value names the node holding it.
  const ObjectRef literal = AccessPath()
                                .field("body")
                                .field("seq")
                                .index(0)
                                .field("body")
                                .field("seq")
                                .index(0)
                                .field("value")
                                .field("b")
                                .field("value")
                                .resolve(f);
  REQUIRE(literal.is<FloatImmNode>());
  CHECK(literal.as<FloatImmNode>()->value == 1.0);
  // A path that stops at an array names its holder.
  CHECK(AccessPath().field("params").resolve(f).same_as(f));
}

TEST_CASE("resolve gives null for a path the value does not have") {
  const PrimFunc f = make_add(1);
  CHECK_FALSE(AccessPath().field("no_such_field").resolve(f).defined());
  CHECK_FALSE(AccessPath().field("params").index(2).resolve(f).defined());
  CHECK_FALSE(AccessPath().field("body").index(0).resolve(f).defined());
  CHECK_FALSE(AccessPath().field("params").field("x").resolve(f).defined());
  CHECK_FALSE(AccessPath().index(0).resolve(f).defined());
  CHECK_FALSE(AccessPath().field("params").index(0).field("name").field("x").resolve(f).defined());
  CHECK_FALSE(AccessPath().field("body").resolve(ObjectRef()).defined());
  // Through a null field.
  const Var x = Var::make("x");
  CHECK_FALSE(AccessPath().field("ty").field("dtype").resolve(x).defined());
}
