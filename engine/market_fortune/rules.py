"""The corpus ids that Market Fortune's engine cites: rulebook sections, rulings, compendium cards."""

from __future__ import annotations

from club_agentes.engine.market_fortune.components import STRATEGIES

# Rulebook sections (rules_corpus/data/market-fortune/sections.toml).
SETUP = "market-fortune/cap-1/preparacion"
DISCARD_RULE = "market-fortune/cap-2/regla-critica-de-descarte"
RULE_OF_EIGHT = "market-fortune/cap-2/regla-8-cartas"
YOUR_TURN = "market-fortune/cap-2/tu-turno"
MOMENTUM = "market-fortune/cap-2/regla-de-momentum"
INVESTMENT = "market-fortune/cap-3"
OPTIMISATION = "market-fortune/cap-3/optimizacion-del-portafolio"
RED = "market-fortune/cap-4/roja"
BLUE = "market-fortune/cap-4/azul"
GREEN = "market-fortune/cap-4/verde"
YELLOW = "market-fortune/cap-4/amarilla"
COMBAT = "market-fortune/cap-4/sistema-de-combate"
VICTORY = "market-fortune/cap-5"
FINAL_COUNT = "market-fortune/cap-5/cierre-del-mercado"
DECLARE = "market-fortune/cap-5/declarar-victoria"
FAMILIA = "market-fortune/cap-6/familia"
FORTUNA = "market-fortune/cap-6/fortuna"
CAMPEONATO = "market-fortune/cap-6/campeonato"
STRATEGY_DISCARD = "market-fortune/faq/descarte-de-estrategias"
ONE_GREEN = "market-fortune/faq/varias-verdes"
FAILED_DECLARATION = "market-fortune/faq/cuarta-inversion-sin-25m"

# Rulings of this implementation (rules_corpus/data/market-fortune/authored/rulings.toml).
R = "market-fortune/rulings/"
RULING_FIRST_PLAYER = R + "primer-jugador"
RULING_NO_FREE_STRATEGY = R + "sin-estrategia-gratis"
RULING_RED_TIMING = R + "cuando-usar-rojas"
RULING_EIGHT_LIMIT = R + "regla-de-8-como-limite"
RULING_BUILD_DISCARD = R + "construir-y-descartar"
RULING_SAME_INDUSTRY = R + "optimizacion-misma-industria"
RULING_OPTIMISE_WHEN = R + "optimizacion-en-tu-turno"
RULING_FOUR_MAX = R + "maximo-cuatro-inversiones"
RULING_DECLARE_WHEN = R + "cuando-declarar"
RULING_FAILED = R + "declaracion-fallida"
RULING_FAMILIA = R + "familia-sin-declaracion"
RULING_MATCH = R + "campeonato-partidas"
RULING_BLOCKED = R + "campeonato-cartas-bloqueadas"
RULING_DECKS = R + "mazos-agotados"
RULING_LIMIT = R + "limite-de-turnos"
RULING_ATTACKS = R + "ataques-y-defensas"
RULING_MOMENTUM = R + "momentum-todo-el-turno"
RULING_BONUSES = R + "verdes-y-amarillas"
RULING_NO_ACTION = R + "sin-accion-posible"
RULING_HIDDEN = R + "informacion-oculta"
RULING_TERMS = R + "terminos-del-mercado"
RULING_FACE_UP = R + "inversiones-volteadas"

# The ids the engine cites: in an IllegalMove (each has a test named after it in
# tests/engine/market_fortune/test_rules.py) or as a Result's rule (RESULT_IDS).
RESULT_IDS = frozenset({FINAL_COUNT, FAMILIA, CAMPEONATO, RULING_LIMIT})
REFUSAL_IDS = frozenset(
    {
        DISCARD_RULE,
        RULE_OF_EIGHT,
        YOUR_TURN,
        MOMENTUM,
        INVESTMENT,
        OPTIMISATION,
        RED,
        BLUE,
        GREEN,
        YELLOW,
        COMBAT,
        VICTORY,
        DECLARE,
        STRATEGY_DISCARD,
        ONE_GREEN,
        FAILED_DECLARATION,
        RULING_RED_TIMING,
        RULING_BUILD_DISCARD,
        RULING_SAME_INDUSTRY,
        RULING_OPTIMISE_WHEN,
        RULING_FOUR_MAX,
        RULING_FAMILIA,
        RULING_BLOCKED,
        RULING_DECKS,
        RULING_MOMENTUM,
        RULING_NO_ACTION,
        RULING_FACE_UP,
    }
    # Card sections: every red card (its fields and conditions) and the blues that
    # cancel only some attacks.
    | {s.section for s in STRATEGIES if s.colour == "roja"}
    | {s.section for s in STRATEGIES if s.colour == "azul" and len(s.spec.defends) < 3}
)
ALL_RULE_IDS = RESULT_IDS | REFUSAL_IDS
# Every ruling this implementation wrote (cited or not), for the corpus check.
RULING_IDS = frozenset(v for k, v in dict(globals()).items() if k.startswith("RULING_") and isinstance(v, str))
