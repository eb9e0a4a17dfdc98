"""tablée: an online card-game server for French card tables."""

__version__ = "0.1.0"
