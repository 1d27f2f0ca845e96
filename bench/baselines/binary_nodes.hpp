// The binary scalar node types as an X-macro list, for the switches of the baselines.
#pragma once

#define CTIR_BENCH_BINARY_NODES(X)                                                                 \
  X(AddNode)                                                                                       \
  X(SubNode)                                                                                       \
  X(MulNode)                                                                                       \
  X(DivNode)                                                                                       \
  X(ModNode)                                                                                       \
  X(MinNode)                                                                                       \
  X(MaxNode)                                                                                       \
  X(EQNode)                                                                                        \
  X(NENode)                                                                                        \
  X(LTNode)                                                                                        \
  X(LENode)                                                                                        \
  X(GTNode)                                                                                        \
  X(GENode)                                                                                        \
  X(AndNode)                                                                                       \
  X(OrNode)
