// Test support: random graph-level modules written as text, with lets, closures and shared
// values nested in if branches, for round trips and pipelines.
#pragma once

#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace ctir::testing {

/// Random graph-level functions written as text, of the shapes users write and the
/// passes trip on: lets and closures nested in if branches and blocks, closures called
/// once or several times, values shared across branches and scopes, call_dps of
/// computed values into a loop kernel, calls between functions. Every value is a
/// Tensor[(4), float32].
class ScopedTextGenerator {
public:
  explicit ScopedTextGenerator(std::uint64_t seed) : rng_(seed) {}

  /// The kernel and one to three graph functions, each after the first may call those
  /// before it; the last is @main.
  std::string module(int depth) {
    std::string out = R"(prim @kernel[%n](%A: Tensor[(%n), float32], %B: Tensor[(%n), float32]) {
  for %i in range(0, %n) {
    %B[%i] = %A[%i] + 1f;
  }
}
)";
    globals_.clear();
    for (int k = 0, count = 1 + pick(3); k < count; ++k) {
      scopes_.assign(1, {});
      scopes_.back().values = {"%x", "%y"};
      const std::string name = k + 1 == count ? "@main" : "@g" + std::to_string(k);
      out += "def " + name + "(%x: " + type_ + ", %y: " + type_ + ", %c: bool) -> " + type_ + " " +
             block(depth, "") + "\n";
      globals_.push_back(name);
    }
    return out;
  }

private:
  /// The values and closures a scope binds.
  struct Scope {
    std::vector<std::string> values;
    std::vector<std::string> closures;
  };

  std::mt19937_64 rng_;
  std::vector<Scope> scopes_;
  std::vector<std::string> globals_; ///< the functions written so far
  int names_ = 0;
  int temps_ = 0;
  std::string type_ = "Tensor[(4), float32]";

  int pick(int n) { return static_cast<int>(rng_() % static_cast<std::uint64_t>(n)); }
  bool chance(int percent) { return pick(100) < percent; }

  std::vector<std::string> visible(bool closures) const {
    std::vector<std::string> found;
    for (const Scope& scope : scopes_) {
      const auto& names = closures ? scope.closures : scope.values;
      found.insert(found.end(), names.begin(), names.end());
    }
    return found;
  }
  std::string any_of(const std::vector<std::string>& names) {
    return names[static_cast<std::size_t>(pick(static_cast<int>(names.size())))];
  }

  std::string atom() {
    const std::vector<std::string> values = visible(false);
    if (!values.empty() && chance(85)) {
      return any_of(values);
    }
    return chance(50) ? "const([1f, 2f, 3f, 4f])" : "const([0f, 0f, 0f, 0f])";
  }

  std::string expr(int depth, const std::string& indent) {
    static const char* const unary[] = {"exp", "negative", "tanh", "relu"};
    static const char* const binary[] = {"add", "multiply", "subtract", "maximum"};
    switch (pick(depth > 0 ? 9 : 4)) {
    case 0:
      return std::string(unary[pick(4)]) + "(" + atom() + ")";
    case 1: {
      const std::string lhs = atom();
      const std::string rhs = chance(20) ? std::string(chance(50) ? "1f" : "0f") : atom();
      return std::string(binary[pick(4)]) + "(" + lhs + ", " + rhs + ")";
    }
    case 2:
      return "call_dps @kernel(" + atom() + ") -> " + type_;
    case 3: {
      const std::vector<std::string> closures = visible(true);
      if (closures.empty()) {
        return "exp(" + atom() + ")";
      }
      const std::string callee = any_of(closures);
      return callee + "(" + atom() + ")";
    }
    case 4:
    case 5: {
      const std::string then_branch = block(depth - 1, indent);
      return "if (%c) " + then_branch + " else " + block(depth - 1, indent);
    }
    case 6: {
      const std::string first = atom();
      if (!globals_.empty() && chance(50)) {
        const std::string callee = any_of(globals_);
        return callee + "(" + first + ", " + atom() + ", %c)";
      }
      return "(" + first + ", " + atom() + ")." + std::to_string(pick(2));
    }
    case 7:
      return block(depth - 1, indent);
    default: {
      const std::string lhs = atom();
      return "add(" + lhs + ", " + atom() + ")";
    }
    }
  }

  /// `{ bindings; result }`: lets, closures bound by lets, and temporaries.
  std::string block(int depth, const std::string& indent) {
    scopes_.emplace_back();
    const std::string inner = indent + "  ";
    std::string out = "{\n";
    for (int n = 1 + pick(4); n-- > 0;) {
      const int kind = pick(10);
      if (kind < 3 && depth > 0) {
        const std::string name = "%v" + std::to_string(names_++);
        const std::string param = "%a" + std::to_string(names_++);
        scopes_.emplace_back();
        scopes_.back().values.push_back(param);
        const std::string body = block(depth - 1, inner);
        scopes_.pop_back();
        out += inner + "let " + name + " = fn (" + param + ": " + type_ + ") -> " + type_ + " " +
               body + ";\n";
        scopes_.back().closures.push_back(name);
      } else {
        const std::string name =
            kind < 6 ? "%v" + std::to_string(names_++) : "%" + std::to_string(temps_++);
        out += inner + (kind < 6 ? "let " : "") + name + " = " + expr(depth, inner) + ";\n";
        scopes_.back().values.push_back(name);
      }
    }
    out += inner + expr(depth, inner) + "\n" + indent + "}";
    scopes_.pop_back();
    return out;
  }
};

} // namespace ctir::testing
