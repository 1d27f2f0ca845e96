// Tests of ctir/pass/config.hpp: typed config keys registered once, checked values, listing.
#include <ctir/pass/config.hpp>

#include <ctir/pass/context.hpp>

#include <doctest/doctest.h>
#include <pass_testing.hpp>

#include <algorithm>
#include <string>

using namespace ctir;
using namespace ctir::testing;

CTIR_REGISTER_PASS_CONFIG_OPTION("test.UnrollLoop.max_extent", int, 0,
                                 "unroll loops of at most this many iterations");
CTIR_REGISTER_PASS_CONFIG_OPTION("test.UnrollLoop.explicit", bool, false);
CTIR_REGISTER_PASS_CONFIG_OPTION("test.Dump.directory", std::string, "dumps");
// Registering the same key again the same way (a header in several files) is fine.
CTIR_REGISTER_PASS_CONFIG_OPTION("test.UnrollLoop.max_extent", int, 0,
                                 "unroll loops of at most this many iterations");
// Registering it differently during static initialisation is reported on use.
CTIR_REGISTER_PASS_CONFIG_OPTION("test.Conflict", int, 1);
CTIR_REGISTER_PASS_CONFIG_OPTION("test.Conflict", std::string, "1");

namespace {
const ConfigKey<double> scale_key =
    register_pass_config_option<double>("test.Scale.factor", 1.5, "a scale");
const ConfigKey<std::int64_t> big_key =
    register_pass_config_option<std::int64_t>("test.Big.limit", std::int64_t{1} << 40);
} // namespace

TEST_CASE("a registered key reads as its default until set") {
  const PassContext ctx;
  CHECK(ctx.config<int>("test.UnrollLoop.max_extent") == 0);
  CHECK(ctx.config<bool>("test.UnrollLoop.explicit") == false);
  CHECK(ctx.config<std::string>("test.Dump.directory") == "dumps");
  CHECK(ctx.config(scale_key) == 1.5);
  CHECK(ctx.config(big_key) == (std::int64_t{1} << 40));
  CHECK(ctx.find_config("test.UnrollLoop.max_extent") == nullptr);
}

TEST_CASE("a key is set by a typed value, in the options or later") {
  PassContext ctx{{.config = {{"test.UnrollLoop.max_extent", 4}, {"test.Dump.directory", "out"}}}};
  CHECK(ctx.config<int>("test.UnrollLoop.max_extent") == 4);
  CHECK(ctx.config<std::string>("test.Dump.directory") == "out");
  ctx.set_config("test.UnrollLoop.max_extent", 8);
  CHECK(ctx.config<int>("test.UnrollLoop.max_extent") == 8);
  ctx.set_config(scale_key, 2.0);
  CHECK(ctx.config(scale_key) == 2.0);
  CHECK(ctx.config_settings().size() == 3);
}

TEST_CASE("a key is set from text, for command lines") {
  PassContext ctx;
  ctx.set_config_from_string("test.UnrollLoop.max_extent", "16");
  ctx.set_config_from_string("test.UnrollLoop.explicit", "true");
  ctx.set_config_from_string("test.Scale.factor", "0.25");
  CHECK(ctx.config<int>("test.UnrollLoop.max_extent") == 16);
  CHECK(ctx.config<bool>("test.UnrollLoop.explicit"));
  CHECK(ctx.config(scale_key) == 0.25);
  CHECK(error_of([&] { ctx.set_config_from_string("test.UnrollLoop.max_extent", "lots"); }) ==
        "ctir: pass config option 'test.UnrollLoop.max_extent' has type int; 'lots' is not a valid "
        "int");
  CHECK(error_of([&] { ctx.set_config_from_string("test.UnrollLoop.explicit", "yes"); }) ==
        "ctir: pass config option 'test.UnrollLoop.explicit' has type bool; 'yes' is not a valid "
        "bool");
}

TEST_CASE("an unknown key is an error listing the candidates and the nearest one") {
  PassContext ctx;
  const std::string message = error_of([&] { ctx.set_config("test.UnrollLoop.max_extnt", 4); });
  CHECK(contains(message, "ctir: unknown pass config option 'test.UnrollLoop.max_extnt'; did "
                          "you mean 'test.UnrollLoop.max_extent'?"));
  CHECK(contains(message, "registered options: "));
  CHECK(contains(message, "'test.Dump.directory'"));
  CHECK(error_of([&] {
          PassContext bad{{.config = {{"nope", 1}}}};
        }).starts_with("ctir: unknown pass config option 'nope'"));
  CHECK(error_of([&] {
          static_cast<void>(ctx.config<int>("nope"));
        }).starts_with("ctir: unknown pass config option 'nope'"));
}

TEST_CASE("a value of the wrong type is an error naming both types") {
  PassContext ctx;
  CHECK(error_of([&] { ctx.set_config("test.UnrollLoop.max_extent", "four"); }) ==
        "ctir: pass config option 'test.UnrollLoop.max_extent' has type int, but a value of "
        "type string was given (four)");
  CHECK(error_of([&] { ctx.set_config("test.UnrollLoop.explicit", 1); }) ==
        "ctir: pass config option 'test.UnrollLoop.explicit' has type bool, but a value of type "
        "int was given (1)");
  CHECK(error_of([&] { static_cast<void>(ctx.config<double>("test.UnrollLoop.max_extent")); }) ==
        "ctir: pass config option 'test.UnrollLoop.max_extent' has type int, but it was read as "
        "double");
}

TEST_CASE("integers convert losslessly to wider integer and floating-point keys") {
  PassContext ctx;
  ctx.set_config("test.Big.limit", 7); // int -> int64
  CHECK(ctx.config(big_key) == 7);
  ctx.set_config("test.Scale.factor", 3); // int -> double
  CHECK(ctx.config(scale_key) == 3.0);
  ctx.set_config("test.UnrollLoop.max_extent", std::int64_t{12}); // fits in int
  CHECK(ctx.config<int>("test.UnrollLoop.max_extent") == 12);
  CHECK(contains(
      error_of([&] { ctx.set_config("test.UnrollLoop.max_extent", std::int64_t{1} << 40); }),
      "has type int, but a value of type int64 was given"));
  CHECK(contains(error_of([&] { ctx.set_config("test.UnrollLoop.max_extent", 2.5); }),
                 "has type int, but a value of type double was given (2.5)"));
}

TEST_CASE("list_configs reports every key with its type, default and description") {
  const std::vector<ConfigOptionInfo> configs = list_configs();
  CHECK(std::is_sorted(configs.begin(), configs.end(),
                       [](const auto& a, const auto& b) { return a.key < b.key; }));
  const auto find = [&](const std::string& key) {
    return *std::find_if(configs.begin(), configs.end(),
                         [&](const ConfigOptionInfo& info) { return info.key == key; });
  };
  const ConfigOptionInfo max_extent = find("test.UnrollLoop.max_extent");
  CHECK(max_extent.type == "int");
  CHECK(max_extent.default_value == "0");
  CHECK(max_extent.description == "unroll loops of at most this many iterations");
  CHECK(find("test.Dump.directory").type == "string");
  CHECK(find("test.Dump.directory").default_value == "dumps");
  CHECK(find("test.Scale.factor").default_value == "1.5");
  CHECK(find("test.UnrollLoop.explicit").type == "bool");
}

TEST_CASE("registering a key twice differently is an error (at run time) or reported on use "
          "(static registration)") {
  CHECK(error_of(
            [] { register_pass_config_option<std::string>("test.UnrollLoop.max_extent", "x"); }) ==
        "ctir: pass config option 'test.UnrollLoop.max_extent' is registered twice, as int and as "
        "string");
  CHECK(error_of([] { register_pass_config_option<int>("test.UnrollLoop.max_extent", 3); }) ==
        "ctir: pass config option 'test.UnrollLoop.max_extent' is registered twice with different "
        "defaults (0 and 3)");
  CHECK_NOTHROW(register_pass_config_option<int>("test.UnrollLoop.max_extent", 0));
  PassContext ctx;
  CHECK(error_of([&] { ctx.set_config("test.Conflict", 1); }) ==
        "ctir: pass config option 'test.Conflict' is registered twice, as int and as string");
}

TEST_CASE("config values compare, print and report their type") {
  const ConfigValue four = 4;
  const ConfigValue text = "four";
  const ConfigValue none;
  CHECK(four.holds<int>());
  CHECK(four.get<int>() == 4);
  CHECK(four.str() == "4");
  CHECK(text.type_name() == "string");
  CHECK(none.type_name() == "none");
  CHECK_FALSE(none.has_value());
  CHECK(four == ConfigValue(4));
  CHECK_FALSE(four == ConfigValue(5));
  CHECK_FALSE(four == text);
  CHECK(error_of([&] { static_cast<void>(text.get<int>()); }) ==
        "ctir: a config value of type string was read as int");
  CHECK(convert_config_value<double>(four) == 4.0);
  CHECK_FALSE(convert_config_value<int>(text).has_value());
  CHECK(config_traits<double>::print(0.1) == "0.1");
  CHECK(config_traits<int>::parse("+7") == 7);
  CHECK_FALSE(config_traits<int>::parse("7x").has_value());
  CHECK_FALSE(config_traits<int>::parse("").has_value());
}
