"""Playing now: audio through PortAudio, MIDI ports, and the live display of the stroke heard."""
