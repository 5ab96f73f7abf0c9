"""Where strokes are laid out in time: a section on an even beat, looped, humanized, conducted."""
