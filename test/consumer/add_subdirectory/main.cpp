// Uses ctir built from source through add_subdirectory.
#include <ctir/ctir.hpp>

int main() { return 0; }
