// The template core included, nothing used.
#include <ctir/ctir.hpp>

int main() {}
