"""The corpus ids this engine cites: rulebook sections and this implementation's rulings."""

from __future__ import annotations

G = "yo-soy-el-jefe"
RULINGS = f"{G}/rulings"

# Rulebook sections.
SETUP_FIRST_PLAYER = f"{G}/2-preparacion/primer-jugador"
TURN_ACTIONS = f"{G}/3-desarrollo/acciones-del-turno"
ROLL = f"{G}/3-desarrollo/tirar-el-dado"
DRAW = f"{G}/3-desarrollo/tomar-cartas"
NEGOTIATE = f"{G}/3-1-negociar"
BOSS_FAMILY = f"{G}/3-1-negociar/cartas-de-familia-del-jefe"
PARTICIPATION = f"{G}/3-2-1-participacion"
CONSIDERATION = f"{G}/3-2-1-participacion/contraprestacion"
TRAVEL = f"{G}/3-2-2-cartas-de-influencia/viaje"
HIRE = f"{G}/3-2-2-cartas-de-influencia/empleo"
BOSS = f"{G}/3-2-2-cartas-de-influencia/jefe"
STOP = f"{G}/3-2-2-cartas-de-influencia/parada"
CLOSE = f"{G}/3-3-cierre"
PAYMENT = f"{G}/3-3-cierre/pago"
FAIL = f"{G}/3-3-cierre/fracaso"
END = f"{G}/4-finalizacion"
END_DIE = f"{G}/4-finalizacion/dado-de-fin"
V_MANDATORY = f"{G}/5-variantes/negociacion-obligatoria"
V_MINIMUM = f"{G}/5-variantes/minimo-para-negociar"
TWO_PLAYERS = f"{G}/5-variantes/dos-jugadores"

# Rulings of this implementation (rules_corpus/data/yo-soy-el-jefe/authored/rulings.toml).
R_PROTOCOL = f"{RULINGS}/protocolo-de-negociacion"
R_STOP_TIMING = f"{RULINGS}/momento-de-la-parada"
R_PRICES = f"{RULINGS}/menu-de-precios"
R_BOUND = f"{RULINGS}/limite-de-ofertas"
R_PROMISES = f"{RULINGS}/promesas"
R_CLOSE_GROUP = f"{RULINGS}/composicion-del-cierre"
R_TRAVEL_TARGETS = f"{RULINGS}/objetivos-de-viaje"
R_PLACE_FAMILY = f"{RULINGS}/colocar-familia"
R_HIRE_AT_LIMIT = f"{RULINGS}/empleo-en-el-limite"
R_BOSS_CHANGE = f"{RULINGS}/cambio-de-jefe"
R_MONEY_VIEW = f"{RULINGS}/dinero-a-la-vista"
R_BANK = f"{RULINGS}/banquero"
R_FIRST_PLAYER = f"{RULINGS}/primer-jugador-y-marcador"
R_TIES = f"{RULINGS}/fin-y-empates"
R_FAILURE_LIMIT = f"{RULINGS}/limite-de-negociaciones-fallidas"
R_END_DIE = f"{RULINGS}/dado-de-fin-y-partida-rapida"
R_TWO_PLAYERS = f"{RULINGS}/dos-jugadores"
R_DECK = f"{RULINGS}/mazo-agotado"
R_VARIANTS = f"{RULINGS}/variantes"

# Every id an IllegalMove or a Result of this engine can carry: every id above.
CITED: frozenset[str] = frozenset(
    value for name, value in dict(globals()).items() if name.isupper() and isinstance(value, str) and "/" in value
)
