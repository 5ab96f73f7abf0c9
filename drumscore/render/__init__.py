"""From the model to sound and notation: mixing, kits, SoundFont, MIDI, MusicXML, engraving."""
