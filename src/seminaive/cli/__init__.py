"""The command line: ``seminaive SUBCOMMAND ...``, one module per subcommand."""
