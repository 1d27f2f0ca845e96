// Uses ctir as installed and found by find_package(ctir).
#include <ctir/ctir.hpp>

int main() { return 0; }
