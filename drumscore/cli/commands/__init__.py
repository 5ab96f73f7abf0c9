"""One module per subcommand, each with add_parser(subparsers) and run(args) -> int; its help
line is in drumscore.cli.COMMANDS, which imports the module only when its command is parsed."""
