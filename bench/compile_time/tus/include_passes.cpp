// The template core and the standard passes included, nothing used.
#include <ctir/ctir.hpp>
#include <ctir/passes/passes.hpp>

int main() {}
