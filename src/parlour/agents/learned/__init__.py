"""Learned evaluators: small networks over a seat's observation tensor, run with numpy.

`weights` reads and checks the files (`evaluator_<N>p.npz` in a game's folder, or any file made by
`parlour train`); `evaluator` runs them for the search bots (`mcts:eval=learned`).
"""
