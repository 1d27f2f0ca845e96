// Tests of ctir/ir/attrs.hpp: sorted attribute maps, typed access, equality, hashing, printing.
#include <ctir/ir/attrs.hpp>

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace {

using ctir::Attrs;
using ctir::AttrValue;
using attrs_traits = ctir::value_traits<Attrs>;

std::vector<std::string> keys_of(const Attrs& attrs) {
  std::vector<std::string> keys;
  for (const auto& [key, value] : attrs) {
    keys.push_back(key);
  }
  return keys;
}

std::string printed(const Attrs& attrs) { return ctir::print_value(attrs); }

static_assert(ctir::field_value<Attrs>, "Attrs must be usable as a plain node field");

} // namespace

TEST_CASE("attribute keys are kept sorted whatever the insertion order") {
  Attrs attrs;
  attrs.set("zeta", true).set("alpha", std::int64_t{1}).set("mu", 0.5).set("beta", "b");
  CHECK(keys_of(attrs) == std::vector<std::string>{"alpha", "beta", "mu", "zeta"});
  CHECK(attrs.size() == 4);

  const Attrs listed{{"c", true}, {"a", true}, {"b", true}};
  CHECK(keys_of(listed) == std::vector<std::string>{"a", "b", "c"});
}

TEST_CASE("an empty Attrs has no entries") {
  const Attrs attrs;
  CHECK(attrs.empty());
  CHECK(attrs.size() == 0);
  CHECK(attrs.begin() == attrs.end());
  CHECK(attrs.find("anything") == nullptr);
  CHECK_FALSE(attrs.contains(""));
}

TEST_CASE("set replaces the value of an existing key instead of adding one") {
  Attrs attrs{{"axis", std::int64_t{1}}};
  attrs.set("axis", std::int64_t{2});
  CHECK(attrs.size() == 1);
  CHECK(attrs.get<std::int64_t>("axis") == 2);
  // Replacing may change the alternative.
  attrs.set("axis", "last");
  CHECK(attrs.size() == 1);
  CHECK(attrs.get<std::string>("axis") == "last");
  CHECK_FALSE(attrs.get<std::int64_t>("axis").has_value());
}

TEST_CASE("a key listed twice in an initializer list keeps the last value") {
  const Attrs attrs{{"k", std::int64_t{1}}, {"k", std::int64_t{2}}};
  CHECK(attrs.size() == 1);
  CHECK(attrs.get<std::int64_t>("k") == 2);
}

TEST_CASE("literals in an initializer list pick the natural alternative") {
  const Attrs attrs{
      {"b", true}, {"i", 3}, {"d", 0.25}, {"s", "text"}, {"v", std::vector<std::int64_t>{3, 2}}};
  CHECK(attrs.get<bool>("b") == true);
  CHECK(attrs.get<std::int64_t>("i") == 3);
  CHECK(attrs.get<double>("d") == 0.25);
  CHECK(attrs.get<std::string>("s") == "text");
  CHECK(attrs.get<std::vector<std::int64_t>>("v") == std::vector<std::int64_t>{3, 2});
  // A string literal is a string, never a bool.
  CHECK_FALSE(attrs.get<bool>("s").has_value());
}

TEST_CASE("find and contains see exactly the keys that are there") {
  const Attrs attrs{{"a", true}, {"c", std::int64_t{7}}};
  REQUIRE(attrs.find("c") != nullptr);
  CHECK(std::get<std::int64_t>(*attrs.find("c")) == 7);
  CHECK(attrs.find("b") == nullptr);
  CHECK(attrs.find("") == nullptr);
  CHECK(attrs.find("cc") == nullptr);
  CHECK(attrs.contains("a"));
  CHECK_FALSE(attrs.contains("A"));
}

TEST_CASE("get returns nothing for a missing key or another alternative") {
  const Attrs attrs{{"flag", true}, {"n", std::int64_t{4}}};
  CHECK(attrs.get<bool>("flag") == true);
  CHECK_FALSE(attrs.get<bool>("missing").has_value());
  CHECK_FALSE(attrs.get<std::int64_t>("flag").has_value());
  CHECK_FALSE(attrs.get<double>("n").has_value()); // no silent conversion
  CHECK_FALSE(attrs.get<std::string>("n").has_value());
}

TEST_CASE("attribute maps with the same entries are equal whatever the insertion order") {
  Attrs a;
  a.set("x", std::int64_t{1}).set("y", "s");
  Attrs b;
  b.set("y", "s").set("x", std::int64_t{1});
  CHECK(a == b);
  CHECK(attrs_traits::equal(a, b));
  CHECK(attrs_traits::hash(a) == attrs_traits::hash(b));
}

TEST_CASE("attribute maps differ when a key, a value or an alternative differs") {
  const Attrs base{{"x", std::int64_t{1}}};
  const std::vector<Attrs> others{
      Attrs{},
      Attrs{{"y", std::int64_t{1}}},
      Attrs{{"x", std::int64_t{2}}},
      Attrs{{"x", 1.0}},  // same number, other alternative
      Attrs{{"x", true}}, // same truth, other alternative
      Attrs{{"x", "1"}},
      Attrs{{"x", std::vector<std::int64_t>{1}}},
      Attrs{{"x", std::int64_t{1}}, {"z", true}},
  };
  for (std::size_t i = 0; i < others.size(); ++i) {
    CAPTURE(i);
    CHECK_FALSE(base == others[i]);
    CHECK_FALSE(attrs_traits::equal(base, others[i]));
    CHECK_FALSE(attrs_traits::equal(others[i], base));
  }
}

TEST_CASE("value_traits of Attrs: equal maps hash equal") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const std::vector<Attrs> samples{
      Attrs{},
      Attrs{{"a", true}},
      Attrs{{"a", false}},
      Attrs{{"a", std::int64_t{0}}},
      Attrs{{"a", 0.0}},
      Attrs{{"a", -0.0}},
      Attrs{{"a", nan}},
      Attrs{{"a", -nan}},
      Attrs{{"a", ""}},
      Attrs{{"a", std::vector<std::int64_t>{}}},
      Attrs{{"a", std::vector<std::int64_t>{1, 2}}},
      Attrs{{"a", true}, {"b", true}},
      Attrs{{"b", true}},
  };
  for (const Attrs& a : samples) {
    CHECK(attrs_traits::equal(a, a));
    for (const Attrs& b : samples) {
      if (attrs_traits::equal(a, b)) {
        CHECK(attrs_traits::hash(a) == attrs_traits::hash(b));
      }
    }
  }
}

TEST_CASE("value_traits of Attrs compare floats like every float field") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  // Every NaN equals every NaN; -0.0 and 0.0 are different values.
  CHECK(attrs_traits::equal(Attrs{{"a", nan}}, Attrs{{"a", -nan}}));
  CHECK_FALSE(attrs_traits::equal(Attrs{{"a", 0.0}}, Attrs{{"a", -0.0}}));
  CHECK(attrs_traits::hash(Attrs{{"a", 0.0}}) != attrs_traits::hash(Attrs{{"a", -0.0}}));
}

TEST_CASE("Attrs operator== agrees with the structural equality of value_traits") {
  // An attribute map holding a NaN must at least equal itself, or a function that carries
  // one compares unequal to itself through operator== while the structural utilities say
  // the opposite.
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const Attrs with_nan{{"threshold", nan}};
  CHECK(attrs_traits::equal(with_nan, with_nan));
  CHECK(with_nan == with_nan);
  const Attrs zero{{"z", 0.0}};
  const Attrs negative_zero{{"z", -0.0}};
  CHECK((zero == negative_zero) == attrs_traits::equal(zero, negative_zero));
}

TEST_CASE("attributes print sorted, in the text format's literal syntax") {
  const Attrs attrs{{"SkipOptimization", true},
                    {"axis", std::int64_t{-1}},
                    {"alpha", 0.5},
                    {"name", "say \"hi\"\\"},
                    {"newshape", std::vector<std::int64_t>{3, 2}}};
  CHECK(printed(attrs) == "{SkipOptimization = true, alpha = 0.5f64, axis = -1, "
                          "name = \"say \\\"hi\\\"\\\\\", newshape = [3, 2]}");
  CHECK(printed(Attrs{}) == "{}");
  CHECK(printed(Attrs{{"f", false}}) == "{f = false}");
  CHECK(printed(Attrs{{"e", std::vector<std::int64_t>{}}}) == "{e = []}");
}

TEST_CASE("float attributes print in the shortest form that reads back") {
  CHECK(printed(Attrs{{"x", 1.0}}) == "{x = 1f64}");
  CHECK(printed(Attrs{{"x", 0.1}}) == "{x = 0.1f64}");
  CHECK(printed(Attrs{{"x", 1e-7}}) == "{x = 1e-07f64}");
  CHECK(printed(Attrs{{"x", std::numeric_limits<double>::infinity()}}) == "{x = inff64}");
  CHECK(printed(Attrs{{"x", -std::numeric_limits<double>::infinity()}}) == "{x = -inff64}");
  CHECK(printed(Attrs{{"x", std::numeric_limits<double>::quiet_NaN()}}) == "{x = nanf64}");
}

TEST_CASE("print_attr_value prints one value") {
  std::string out;
  ctir::print_attr_value(AttrValue{std::int64_t{42}}, out);
  out += ' ';
  ctir::print_attr_value(AttrValue{std::string("s")}, out);
  out += ' ';
  ctir::print_attr_value(AttrValue{2.5}, out);
  CHECK(out == "42 \"s\" 2.5f64");
}
