"""Adapters for AI-research libraries: OpenSpiel, PettingZoo and Gymnasium (the `interop` extra).

They are thin shells over the engine protocol; the simulator never goes through them. Every
observation they hand out shows what `state.view(seat)` shows and nothing more: strings are the
view itself, tensors the view's encoding (`parlour.interop.encoding`), written straight from the
position by each game's writer, which the tests hold to the view-based encoder value for value.
"""
