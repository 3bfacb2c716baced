"""Encodings of a game for learners and environments: a seat's observation as a vector."""
