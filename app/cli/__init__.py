"""The `pickwise` command line: one module per command group, all with `--json`."""
