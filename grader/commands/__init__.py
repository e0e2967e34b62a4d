"""Each command's steps as library functions over typed options: what a command does, with
no parsing and no printing. ``cli/`` parses into these and renders what they return; tests
call them directly."""
