// The reference of the include budget: the standard and Boost.Hana headers ctir needs,
// and an empty main.
#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <variant>
#include <vector>

#include <boost/hana.hpp>

int main() {}
