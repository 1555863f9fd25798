"""The corpus sections Se Vende's generators cite: rulebook sections and this implementation's rulings."""

from __future__ import annotations

# Rulebook: summary.
ELECCION = "se-vende/resumen/eleccion-secreta"
FASES = "se-vende/resumen/fases-elegidas"
BONUS = "se-vende/resumen/bonus"
USOS = "se-vende/resumen/usos-de-las-cartas"
LIMITE_RESUMEN = "se-vende/resumen/limite-de-mano"
FIN_RESUMEN = "se-vende/resumen/fin"

# Rulebook: setup.
PASO_1 = "se-vende/preparacion/paso-1-fichas"
PASO_2 = "se-vende/preparacion/paso-2-cartas-de-accion"
PASO_3 = "se-vende/preparacion/paso-3-mundos-iniciales"
PASO_4 = "se-vende/preparacion/paso-4-reparto"
PASO_5 = "se-vende/preparacion/paso-5-descarte"
PASO_6 = "se-vende/preparacion/paso-6-suministro"
PASO_7 = "se-vende/preparacion/paso-7-alfa-centauro"
PASO_8 = "se-vende/preparacion/paso-8-reparto-final"

# Rulebook: scoring, the end, answered rules questions.
PUNTUACION = "se-vende/puntuacion"
FIN = "se-vende/fin-de-la-partida"
VARIOS = "se-vende/preguntas/fase-elegida-por-varios"
NO_COLOCAR = "se-vende/preguntas/no-colocar-nada"
MILITARES = "se-vende/preguntas/mundos-militares"
CAIDA = "se-vende/preguntas/bienes-de-caida"
COMERCIO = "se-vende/preguntas/comercio"
HASTA_N = "se-vende/preguntas/poderes-hasta-n-bienes"
DOBLE = "se-vende/preguntas/bonus-2x-pv"
LIMITE = "se-vende/preguntas/limite-de-mano"
PRODUCIR = "se-vende/preguntas/producir"
FICHAS_10 = "se-vende/preguntas/fichas-de-10"
NUEVOS = "se-vende/preguntas/poderes-nuevos"

# Rulings of this implementation (where the rulebook is silent).
R_ERRATA_MUNDO = "se-vende/rulings/errata-mundo-inicial-repetido"
R_FICHAS = "se-vende/rulings/fichas"
R_ACCIONES = "se-vende/rulings/cartas-de-accion"
R_PODERES = "se-vende/rulings/poderes"
R_EXPLORAR = "se-vende/rulings/explorar"
R_DESARROLLAR = "se-vende/rulings/desarrollar"
R_ASENTAR = "se-vende/rulings/asentar"
R_PAGAR = "se-vende/rulings/pagar-costos"
R_CONSUMIR = "se-vende/rulings/consumir"
R_MANO = "se-vende/rulings/poderes-de-mano"
R_PRODUCIR = "se-vende/rulings/producir"
R_MAZO = "se-vende/rulings/mazo-agotado"
R_EMPATES = "se-vende/rulings/empates"
R_CARTAS = "se-vende/rulings/cartas-propias"
CARTAS = "se-vende/cartas"
