"""The steps of a Market Fortune turn, one file per action or step, each with its checks, listing and effects.

* :mod:`.main`: the start of the turn (the three actions and what may come before them).
* :mod:`.build`: Construir (take a card) and its discard step.
* :mod:`.risk`: Arriesgar (form an investment, the die, Momentum) and the step after forming.
* :mod:`.dominate`: Dominar (take a strategy) and the step after it (use a red just taken).
* :mod:`.optimisation`: optimising a face-down investment and paying for it.
* :mod:`.declaration`: declaring victory, attaching greens, the count, a failed declaration.
* :mod:`.reds`: playing a red strategy: its checks, its ways of being played, its effects.
* :mod:`.strategy_takes`: the cards a red strategy lets you take (Comprar Más, Rescate).
* :mod:`.trim`: the rule of 8 at the end of the turn.
* :mod:`.reaction`: answering an attack (a blue defence or none) and the attack's effect.
"""
