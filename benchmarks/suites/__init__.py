"""One module per suite: ``cases(mode)`` returns its `benchmarks._suite.Case` list."""
