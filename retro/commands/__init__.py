"""One module per ``retro`` subcommand.

Each module defines ``register(subparsers)``, which adds its parser and sets
``func`` (a callable taking the parsed arguments and returning an exit code).
:mod:`retro.cli` discovers the modules of this package; a command only formats the
verdict values that the library returns.
"""
