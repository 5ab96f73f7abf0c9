"""The scores in a browser: a static site (pages, Web Audio player, compare view), its local
server, and the notebook view of a score."""
