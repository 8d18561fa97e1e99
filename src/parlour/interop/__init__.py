"""Adapters for AI-research libraries: OpenSpiel, PettingZoo and Gymnasium (the `interop` extra).

They are thin shells over the engine protocol; the simulator never goes through them. Every
observation they hand out is computed from `state.view(seat)` alone, so an adapter can reveal
exactly what the seat's view reveals and nothing more.
"""
