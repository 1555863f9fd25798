// The drawn table: one module that draws a game's table from the engine's view (structured data), used by the
// spectator pages (live table and replay) and by the MCP App (ui://club-agentes/table). It builds DOM nodes
// with textContent only (no HTML strings), so nothing in a view can inject markup, and it draws only what the
// view holds: a spectator's view has no hidden card, a seat's view adds that seat's own hand.
//
//   ClubDraw.table(element, scene, labels)   draw (or redraw) a table into element
//   ClubDraw.result(element, result, names, labels)   draw a finished game's result: a bar and lines per seat
//
// A scene is {game, view, version, seats: [{seat, name, rating, mu, sigma, href}], you (a seat, or null for
// a spectator), deciding: [seat], winners: [seat], last: {seat, text, version, lang} | null (the last move in
// one line and its language), prompt (the decision in words), prompt_lang (its language, when not the
// labels'), die: {seat, plus, version} | null (Market Fortune's last roll of the Fortune die)}.
// labels are the words of one language (i18n.py's DRAW_TEXTS[lang]).
(function (root) {
  "use strict";

  var L = {};

  // ------------------------------------------------------------------ words

  function tr(key, vars) {
    var s = Object.prototype.hasOwnProperty.call(L, key) ? L[key] : key;
    if (vars) {
      Object.keys(vars).forEach(function (k) { s = s.split("{" + k + "}").join(String(vars[k])); });
    }
    return s;
  }

  // "carta|cartas" by count, with {n} filled in.
  function count(key, n, vars) {
    var forms = tr(key).split("|");
    var word = n === 1 ? forms[0] : (forms[1] || forms[0]);
    var out = word.indexOf("{n}") >= 0 ? word : "{n} " + word;
    vars = vars || {};
    vars.n = n;
    Object.keys(vars).forEach(function (k) { out = out.split("{" + k + "}").join(String(vars[k])); });
    return out;
  }

  // ------------------------------------------------------------------ DOM

  function h(tag, attrs) {
    var el = document.createElement(tag);
    if (attrs) {
      Object.keys(attrs).forEach(function (k) {
        var v = attrs[k];
        if (v === null || v === undefined || v === false) { return; }
        if (k === "text") { el.textContent = String(v); }
        else if (k === "cls") { el.className = v; }
        else { el.setAttribute(k, v === true ? "" : String(v)); }
      });
    }
    for (var i = 2; i < arguments.length; i++) { add(el, arguments[i]); }
    return el;
  }

  function add(el, child) {
    if (child === null || child === undefined || child === false) { return; }
    if (Array.isArray(child)) { child.forEach(function (c) { add(el, c); }); return; }
    el.appendChild(typeof child === "string" ? document.createTextNode(child) : child);
  }

  function slug(s) {
    return String(s || "").normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase().replace(/[^a-z0-9]+/g, "-");
  }

  // ------------------------------------------------------------------ shared parts

  // A face-up card: the top line (value, cost), the name, a sub line (kind, industry), a tooltip.
  function card(id, cls, top, name, sub, tip, extra) {
    var attrs = { cls: "card " + cls, "data-card": id, title: tip || name };
    if (extra) { Object.keys(extra).forEach(function (k) { attrs[k] = extra[k]; }); }
    return h("div", attrs,
      top ? h("span", { cls: "card-top", text: top }) : null,
      h("span", { cls: "card-name", text: name }),
      sub ? h("span", { cls: "card-sub", text: sub }) : null);
  }

  // Hidden cards: one back with their count (nothing when there are none, unless keep is set).
  function backs(kind, n, label, keep) {
    if (!n && !keep) { return null; }
    return h("div", { cls: "card back back-" + kind, "data-back": kind, "data-count": n, title: label + ": " + n,
      "aria-label": label + ": " + n },
      h("span", { cls: "back-mark", text: tr("back_" + kind) }),
      h("span", { cls: "count", text: "×" + n }));
  }

  // A pile: the deck (a back with its size) and, when given, its discard (the top card and the size).
  function pile(key, label, deck, backKind, discard) {
    var parts = [h("div", { cls: "pile-deck", "data-pile": key + "-deck", "data-size": deck },
      backs(backKind, deck, tr("deck"), true), h("span", { cls: "pile-label", text: tr("deck") + " " + deck }))];
    if (discard) {
      var top = discard.top || (discard.back && discard.size ? backs(discard.back, discard.size, tr("discard"), true)
        : h("div", { cls: "card empty", text: discard.size ? tr("blocked") : tr("empty") }));
      parts.push(h("div", { cls: "pile-discard", "data-pile": key + "-discard", "data-size": discard.size },
        top, h("span", { cls: "pile-label", text: tr("discard") + " " + discard.size })));
    }
    return h("figure", { cls: "pile pile-" + key }, h("figcaption", { text: label }), h("div", { cls: "pile-row" }, parts));
  }

  function zone(label, cls) {
    var body = h("div", { cls: "zone-cards" });
    for (var i = 2; i < arguments.length; i++) { add(body, arguments[i]); }
    return h("div", { cls: "zone " + (cls || "") }, h("span", { cls: "zone-label", text: label }), body);
  }

  function badge(text, cls) { return h("span", { cls: "badge " + (cls || ""), text: text }); }

  // A seat: who plays it (name, rating), its badges, then the game's zones.
  function seatPanel(scene, s, badges, body) {
    var info = (scene.seats || [])[s] || { seat: s, name: tr("seat") + " " + s };
    var classes = ["seat"];
    if (scene.you === s) { classes.push("is-you"); }
    if ((scene.deciding || []).indexOf(s) >= 0) { classes.push("is-deciding"); }
    if (scene.last && scene.last.seat === s) { classes.push("is-last"); }
    var who = info.href ? h("a", { href: info.href, text: info.name }) : document.createTextNode(info.name || "");
    var rating = typeof info.rating === "number"
      ? h("span", { cls: "seat-rating", title: tr("rating_tip", { mu: fmt(info.mu), sigma: fmt(info.sigma) }),
        text: tr("rating") + " " + fmt(info.rating) })
      : null;
    var tags = [];
    if (scene.you === s) { tags.push(badge(tr("you"), "you")); }
    if ((scene.deciding || []).indexOf(s) >= 0) { tags.push(badge(tr("deciding"), "deciding")); }
    if (scene.winners && scene.winners.indexOf(s) >= 0) { tags.push(badge("★ " + tr("winner"), "winner")); }
    return h("section", { cls: classes.join(" "), "data-seat": s, "aria-label": tr("seat") + " " + s + ": " + info.name },
      h("header", { cls: "seat-head" },
        h("span", { cls: "seat-no", text: tr("seat") + " " + s }),
        h("span", { cls: "seat-name" }, who),
        rating,
        h("span", { cls: "seat-badges" }, tags.concat(badges || []))),
      h("div", { cls: "seat-body" }, body));
  }

  function fmt(x) {
    if (typeof x !== "number") { return "—"; }
    return Math.abs(x - Math.round(x)) < 1e-9 ? String(Math.round(x)) : x.toFixed(1);
  }

  // The seats placed around the table: the bottom seat (yours, or seat 0), then the others clockwise on the
  // left, across the top and on the right. layout "rows" lists every seat in full width (Se Vende's tableaux).
  function arrange(scene, n, panels, center, layout) {
    var bottom = typeof scene.you === "number" ? scene.you : 0;
    var order = [];
    for (var i = 1; i < n; i++) { order.push((bottom + i) % n); }
    var felt = h("div", { cls: "felt layout-" + (layout || "around") + " seats-" + n });
    if (layout === "rows") {
      add(felt, h("div", { cls: "felt-center" }, center));
      add(felt, h("div", { cls: "felt-rows" }, order.map(function (s) { return panels[s]; }), panels[bottom]));
      return felt;
    }
    var left = null, right = null, top = order;
    if (order.length >= 4) { left = order[0]; right = order[order.length - 1]; top = order.slice(1, -1); }
    add(felt, h("div", { cls: "felt-top" }, top.map(function (s) { return panels[s]; })));
    if (left !== null) { add(felt, h("div", { cls: "felt-left" }, panels[left])); }
    add(felt, h("div", { cls: "felt-center" }, center));
    if (right !== null) { add(felt, h("div", { cls: "felt-right" }, panels[right])); }
    add(felt, h("div", { cls: "felt-bottom" }, panels[bottom]));
    return felt;
  }

  // The score bar: one chip per seat (its score as the game counts it) and the end condition's progress.
  function scorebar(scene, chips, progress) {
    return h("div", { cls: "scorebar" },
      h("ul", { cls: "scores", "aria-label": tr("scores") }, chips.map(function (c) {
        var info = (scene.seats || [])[c.seat] || { name: "" };
        var cls = "score-chip" + (scene.last && scene.last.seat === c.seat ? " is-last" : "") +
          ((scene.deciding || []).indexOf(c.seat) >= 0 ? " is-deciding" : "");
        return h("li", { cls: cls, "data-seat": c.seat, "data-score": c.value, title: c.tip || null },
          h("span", { cls: "chip-seat", text: c.seat }),
          h("span", { cls: "chip-name", text: info.name || tr("seat") + " " + c.seat }),
          h("strong", { cls: "chip-score", text: c.text }));
      })),
      h("ul", { cls: "progress", "aria-label": tr("end_condition") }, progress.map(function (p) {
        var bar = h("span", { cls: "bar" }, h("span", { cls: "fill" }));
        bar.firstChild.style.width = Math.max(0, Math.min(100, 100 * p.value / Math.max(1, p.max))) + "%";
        return h("li", { "data-progress": p.key, "data-value": p.value, "data-max": p.max },
          h("span", { cls: "progress-label", text: p.label }), bar,
          h("span", { cls: "progress-text", text: p.text || p.value + " / " + p.max }));
      })));
  }

  function lastMove(scene) {
    var last = scene.last;
    var body = [h("span", { cls: "lastmove-text", text: tr("no_move_yet") })];
    if (last) {
      var who = typeof last.seat === "number"
        ? h("span", { cls: "lastmove-who", text: tr("seat") + " " + last.seat + " · " + (((scene.seats || [])[last.seat] || {}).name || "") })
        : null;
      body = [who, h("span", { cls: "lastmove-text", text: last.text || "", lang: last.lang && last.lang !== L.lang ? last.lang : null })];
    }
    return h("p", { cls: "lastmove", "data-version": last ? last.version : 0, "data-seat": last && typeof last.seat === "number" ? last.seat : null },
      h("span", { cls: "lastmove-label", text: tr("last_move") }), body);
  }

  function decision(scene, text) {
    if (!text) { return null; }
    var lang = scene.prompt_lang && scene.prompt_lang !== L.lang ? scene.prompt_lang : null;
    return h("p", { cls: "decision-line" }, h("span", { cls: "decision-label", text: tr("decision") }),
      h("span", { text: text, lang: lang }));
  }

  // ------------------------------------------------------------------ Market Fortune

  // Where the long industry names may break on a small card (soft hyphens: Chromium has no Spanish hyphenation).
  var MF_BREAKS = {
    "Inmobiliaria": "Inmobi\u00adliaria", "Manufactura": "Manufac\u00adtura", "Telecomunicaciones": "Telecomu\u00adnicaciones",
    "Entretenimiento": "Entrete\u00adnimiento", "Agroalimentaria": "Agroali\u00admentaria", "Tecnología": "Tecno\u00adlogía"
  };

  function mfCard(c) {
    if (!c) { return null; }
    if (c.kind === "estrategia") {
      // (its effect text is left out: it may name other cards, and the rulebook section has it)
      return card(c.id, "mf-strategy col-" + c.colour, tr("mf_colour_" + c.colour), c.name, tr("mf_strategy"),
        c.name + " — " + tr("mf_strategy") + " " + tr("mf_colour_" + c.colour));
    }
    var stock = c.kind === "accion";
    var value = stock ? c.value + "M" : "+" + c.value + "M";
    return card(c.id, (stock ? "mf-stock" : "mf-return") + " ind-" + slug(c.industry), value, MF_BREAKS[c.industry] || c.industry,
      stock ? tr("mf_stock") : tr("mf_return"), c.name, { "data-value": c.value });
  }

  function mfInvestment(inv) {
    var cls = "investment" + (inv.face_up ? " face-up" : " face-down") + (inv.has_green ? " with-green" : "");
    var attrs = { cls: cls, "data-investment": inv.index, "data-face-up": inv.face_up ? "true" : "false" };
    var title = "#" + inv.index + " · " + (inv.face_up ? tr("face_up") : tr("face_down"));
    if (inv.value === undefined) {
      return h("div", attrs, h("span", { cls: "inv-title", text: title }),
        h("div", { cls: "inv-cards inv-down", title: tr("mf_investment") + " " + title }, downCard(false), downCard(true)),
        inv.has_green ? h("div", { cls: "inv-green" }, backs("strategy", 1, tr("mf_green_attached"), true)) : null);
    }
    attrs["data-value"] = inv.value;
    return h("div", attrs, h("span", { cls: "inv-title", text: title + " · " + inv.value + "M" }),
      h("div", { cls: "inv-cards" }, mfCard(inv.stock), mfCard(inv["return"])),
      inv.green ? h("div", { cls: "inv-green" }, mfCard(inv.green),
        h("span", { cls: "inv-bonus", text: "+" + fmt(inv.green_bonus) + "M" })) : null);
  }

  function downCard(mark) {
    return h("div", { cls: "card back back-investment", "data-back": "investment" },
      mark ? h("span", { cls: "back-mark", text: tr("back_investment") }) : null);
  }

  function mfKnownOf(entry, part, kind) {
    var out = [];
    ["known_to_all", "known_to_you"].forEach(function (k) {
      if (entry[k] && entry[k][part]) {
        entry[k][part].forEach(function (c) { if (!kind || c.kind === kind) { out.push(c); } });
      }
    });
    return out;
  }

  function mfSeat(scene, v, p) {
    var s = p.seat;
    var mine = scene.you === s;
    var hand, strats;
    if (mine) {
      hand = zone(tr("hand") + " (" + p.hand + ")", "hand", (v.hand || []).map(mfCard));
      strats = zone(tr("mf_strategies") + " (" + p.strategies + ")", "strategies", (v.strategies || []).map(mfCard));
    } else {
      var knownStock = mfKnownOf(p, "hand", "accion"), knownReturn = mfKnownOf(p, "hand", "rendimiento");
      var knownStrats = mfKnownOf(p, "strategies");
      hand = zone(tr("hand") + " (" + p.hand + ")", "hand",
        backs("stock", p.hand_stock - knownStock.length, tr("mf_stock")),
        backs("return", p.hand_return - knownReturn.length, tr("mf_return")),
        knownStock.concat(knownReturn).map(function (c) { var el = mfCard(c); el.classList.add("known"); return el; }),
        p.hand ? null : h("span", { cls: "none", text: tr("empty") }));
      strats = zone(tr("mf_strategies") + " (" + p.strategies + ")", "strategies",
        backs("strategy", p.strategies - knownStrats.length, tr("mf_strategies")),
        knownStrats.map(function (c) { var el = mfCard(c); el.classList.add("known"); return el; }),
        p.strategies ? null : h("span", { cls: "none", text: tr("none") }));
    }
    var slots = p.investments.map(mfInvestment);
    for (var k = p.investments.length; k < 4; k++) {
      slots.push(h("div", { cls: "investment empty-slot", "aria-hidden": "true" }, h("span", { text: "#" + k })));
    }
    var badges = [];
    if (v.turn && v.turn.seat === s && !v.result) { badges.push(badge(tr("on_turn"), "turn")); }
    if (p.no_risk_next_turn) { badges.push(badge(tr("mf_no_risk"), "warn")); }
    if (p.match_total !== undefined) { badges.push(badge(tr("mf_match_total", { m: p.match_total, g: p.games_won }))); }
    var body = [hand, strats,
      zone(tr("mf_investments") + " (" + p.investments.length + "/4)", "investments", slots),
      h("p", { cls: "seat-note", text: tr("mf_building_cards", { n: p.building_cards }) })];
    return seatPanel(scene, s, badges, body);
  }

  // The Fortune die's last roll: {seat, plus, version}, found by the page's server or the app in the newest
  // public event that names one (the view does not carry it).
  function mfDie(scene) {
    return scene.die || null;
  }

  function mfCenter(scene, v) {
    var piles = v.piles;
    function discard(p) {
      var top = p.discard_top ? mfCard(p.discard_top) : (p.blocked ? backs("blocked", 1, tr("blocked"), true) : null);
      return { top: top, size: p.discard_size };
    }
    var die = mfDie(scene);
    var dieEl = h("figure", { cls: "die", "data-die": die ? (die.plus ? "+" : "−") : "" },
      h("figcaption", { text: tr("mf_die") }),
      h("div", { cls: "die-face" + (die ? (die.plus ? " plus" : " minus") : " unrolled"), text: die ? (die.plus ? "+" : "−") : "?" }),
      h("span", { cls: "die-note", text: die ? tr("mf_die_roll", { seat: die.seat }) : tr("mf_die_none") }));
    var t = v.turn;
    var turnEl = h("div", { cls: "turn-box" },
      h("strong", { text: tr("mf_turn", { n: t.number, limit: t.limit }) }),
      h("span", { text: v.result ? tr("game_over") : tr("mf_step_" + t.step.replace(/-/g, "_")) }),
      t.lucky_investor ? badge(tr("mf_lucky"), "good") : null,
      t.no_risk_this_turn ? badge(tr("mf_no_risk_now"), "warn") : null,
      t.red_used ? badge(tr("mf_red_used")) : null);
    var attack = null;
    if (v.attack) {
      var a = v.attack;
      attack = h("div", { cls: "attack", "data-attacker": a.attacker },
        h("strong", { text: tr("mf_attack", { seat: a.attacker, targets: a.targets.join(", ") }) }),
        mfCard(a.card), h("span", { text: tr("mf_attack_hits_" + slug(a.attacks)) }));
    }
    var match = null;
    if (v.match) {
      match = h("p", { cls: "match", text: tr("mf_match", { game: v.match.game, limit: v.match.game_limit, target: v.match.target }) });
    }
    return h("div", { cls: "center mf-center" },
      h("div", { cls: "piles" },
        pile("stock", tr("mf_pile_stock"), piles.stock.deck, "stock", discard(piles.stock)),
        pile("return", tr("mf_pile_return"), piles["return"].deck, "return", discard(piles["return"])),
        pile("strategy", tr("mf_pile_strategy"), piles.strategy.deck, "strategy", discard(piles.strategy)),
        dieEl),
      turnEl, attack, match);
  }

  function mfScores(scene, v) {
    var chips = v.players.map(function (p) {
      var known = 0, all = true;
      p.investments.forEach(function (inv) {
        if (inv.value !== undefined) { known += inv.value + (inv.green_bonus || 0); } else { all = false; }
      });
      var text = p.investments.length + "/4 " + tr("mf_inv_short");
      if (v.match) { text += " · " + p.match_total + "M"; }
      else if (p.investments.length && all) { text += " · " + fmt(known) + "M"; }
      return { seat: p.seat, value: p.investments.length, text: text, tip: tr("mf_score_tip") };
    });
    var most = Math.max.apply(null, v.players.map(function (p) { return p.investments.length; }));
    var progress = [{ key: "investments", label: v.win_value === null ? tr("mf_goal_familia") : tr("mf_goal_fortuna", { m: v.win_value }), value: most, max: 4 }];
    if (v.match) {
      var best = Math.max.apply(null, v.match.totals);
      progress.push({ key: "match", label: tr("mf_goal_match", { m: v.match.target }), value: best, max: v.match.target, text: best + "M / " + v.match.target + "M" });
    }
    progress.push({ key: "turns", label: tr("turn_limit"), value: v.turn.number, max: v.turn.limit });
    return scorebar(scene, chips, progress);
  }

  function marketFortune(scene, v) {
    var panels = {};
    v.players.forEach(function (p) { panels[p.seat] = mfSeat(scene, v, p); });
    return [mfScores(scene, v), lastMove(scene), decision(scene, scene.prompt),
      arrange(scene, v.seats, panels, mfCenter(scene, v), "around")];
  }

  // ------------------------------------------------------------------ Se Vende

  var SV_PHASES = ["Explorar", "Desarrollar", "Asentar", "Consumir", "Producir"];
  var SV_NUMERALS = ["I", "II", "III", "IV", "V"];
  var SV_GOOD_COLOURS = { "novedad": "blue", "elementos-raros": "brown", "genes": "green", "tecnologia-alienigena": "yellow" };

  function svPhaseOf(power) {
    for (var i = 0; i < SV_PHASES.length; i++) {
      if (power.indexOf(SV_PHASES[i]) === 0) { return SV_NUMERALS[i]; }
    }
    return "★";
  }

  function svCard(c) {
    var dev = c.type === "development";
    var cls = "sv-card " + (dev ? "sv-dev" : "sv-world") + (c.military ? " military" : "") +
      (c.good_kind ? " good-" + SV_GOOD_COLOURS[c.good_kind] : "") + (c.world ? " world-" + c.world : "");
    var top = (c.military ? tr("sv_defence") + " " + c.defence : tr("sv_cost") + " " + c.cost) + " · " + c.vp + " " + tr("vp");
    var tip = c.name + " — " + (c.description || "") + ((c.powers || []).length ? "\n" + c.powers.join("\n") : "") +
      ((c.special || []).length ? "\n" + c.special.join("\n") : "");
    var el = card(c.id, cls, top, c.name, dev ? tr("sv_development") : tr("sv_world_" + (c.world || "plain")), tip);
    var marks = (c.powers || []).map(svPhaseOf);
    if ((c.special || []).length) { marks.push("?"); }
    if (marks.length) { el.appendChild(h("span", { cls: "card-powers", text: marks.join(" ") })); }
    if (c.good !== undefined && c.good !== null) {
      el.appendChild(h("span", { cls: "good good-" + SV_GOOD_COLOURS[c.good], "data-good": c.good,
        title: tr("sv_good") + ": " + c.good }));
    }
    if (c.powers_start_next_phase) { el.classList.add("fresh"); }
    return el;
  }

  function svSeat(scene, v, p) {
    var s = p.seat;
    var mine = scene.you === s;
    var acts = v.actions || {};
    var action = null;
    if (acts.revealed && acts.revealed[String(s)]) {
      var a = acts.revealed[String(s)];
      action = h("div", { cls: "card sv-action", "data-action": a.code, text: a.name });
    } else if (v.step === "choose_action") {
      if (mine && acts.mine) {
        action = h("div", { cls: "card sv-action sealed-own", "data-action": acts.mine.code, text: acts.mine.name });
      } else if ((scene.deciding || []).indexOf(s) < 0) {
        action = backs("action", 1, tr("sv_sealed"), true);
      } else {
        action = h("div", { cls: "card empty", text: tr("sv_choosing") });
      }
    }
    var goods = Object.keys(p.goods_by_kind || {}).map(function (k) {
      return h("span", { cls: "good-count good-" + SV_GOOD_COLOURS[k], title: k, text: p.goods_by_kind[k] });
    });
    var badges = [badge(tr("sv_military") + " " + p.military), badge(tr("sv_chips") + " " + p.chips)];
    var hand = mine
      ? zone(tr("hand") + " (" + p.hand_size + ")", "hand", (v.hand || []).map(svCard))
      : zone(tr("hand"), "hand", backs("sv", p.hand_size, tr("hand"), true));
    var body = [
      h("div", { cls: "sv-side" }, hand, action ? zone(tr("sv_action"), "action", action) : null,
        goods.length ? zone(tr("sv_goods"), "goods", goods) : null),
      zone(tr("sv_tableau") + " (" + p.tableau_size + "/12)", "tableau", p.tableau.map(svCard))];
    return seatPanel(scene, s, badges, body);
  }

  function svCenter(scene, v) {
    var acts = v.actions || {};
    var chosen = acts.phases_this_round || [];
    var left = acts.phases_left || [];
    var track = h("ol", { cls: "phase-track", "aria-label": tr("sv_phases") }, SV_PHASES.map(function (name, i) {
      var state = "idle";
      if (v.step === "choose_action") { state = "sealed"; }
      else if (chosen.indexOf(name) >= 0) {
        state = v.phase === name ? "current" : (left.indexOf(name) >= 0 ? "next" : "done");
      } else { state = "skipped"; }
      return h("li", { cls: "phase phase-" + state, "data-phase": name, "data-state": state },
        h("span", { cls: "phase-no", text: SV_NUMERALS[i] }), h("span", { cls: "phase-name", text: name }),
        h("span", { cls: "phase-state", text: tr("sv_phase_" + state) }));
    }));
    var chipsOut = v.chip_pool_at_start - v.chip_pool;
    return h("div", { cls: "center sv-center" },
      h("p", { cls: "round-line", text: tr("sv_round", { n: v.round, limit: v.turn_limit }) + " · " +
        tr("sv_step_" + v.step) }),
      track,
      h("div", { cls: "piles" },
        pile("supply", tr("sv_supply"), v.supply_size, "sv", { top: null, back: "sv-discard", size: v.discard_size }),
        h("figure", { cls: "chips-pool", "data-pile": "chips", "data-size": v.chip_pool },
          h("figcaption", { text: tr("sv_chip_pool") }),
          h("div", { cls: "chip-stack", text: v.chip_pool }),
          h("span", { cls: "pile-label", text: tr("sv_chips_out", { n: chipsOut, total: v.chip_pool_at_start }) +
            (v.tens_added ? " · " + tr("sv_tens") : "") }))));
  }

  function svScores(scene, v) {
    var chips = v.players.map(function (p) {
      return { seat: p.seat, value: p.score, text: p.score + " " + tr("vp") };
    });
    var big = Math.max.apply(null, v.players.map(function (p) { return p.tableau_size; }));
    return scorebar(scene, chips, [
      { key: "chips", label: tr("sv_end_chips"), value: v.chip_pool_at_start - v.chip_pool, max: v.chip_pool_at_start },
      { key: "tableau", label: tr("sv_end_tableau"), value: big, max: 12 },
      { key: "rounds", label: tr("sv_end_rounds"), value: v.round, max: v.turn_limit }]);
  }

  function seVende(scene, v) {
    var panels = {};
    v.players.forEach(function (p) { panels[p.seat] = svSeat(scene, v, p); });
    var ending = (v.game_ends_after_this_round || []).length
      ? h("p", { cls: "ending", text: tr("sv_ends_this_round") }) : null;
    return [svScores(scene, v), lastMove(scene), decision(scene, scene.prompt), ending,
      arrange(scene, v.seats, panels, svCenter(scene, v), "rows")];
  }

  // ------------------------------------------------------------------ Yo soy el jefe

  var YSJ_COLOURS = ["rojo", "azul", "amarillo", "naranja", "rosa", "verde"];

  function ysjCard(c) {
    var colour = c.colour ? " fam-" + c.colour : "";
    var any = !c.colour || c.colour === "gris";
    var colour = c.kind === "travel" ? (any ? tr("ysj_any_colour") : tr("ysj_colour", { colour: c.colour })) : c.colour;
    var tip = c.name + " — " + tr("ysj_effect_" + c.kind, { colour: colour });
    return card(c.id, "ysj-card ysj-" + c.kind + colour, tr("ysj_kind_" + c.kind), c.name, null, tip);
  }

  function investorToken(colour, extra) {
    return h("span", { cls: "investor fam-" + colour + (extra ? " " + extra : ""), "data-investor": colour,
      title: tr("ysj_investor") + " " + colour, text: colour });
  }

  function moneyPile(text, exact) {
    var size = ["no money", "a small pile", "a medium pile", "a large pile", "a huge pile"];
    var level = 0;
    size.forEach(function (s, i) { if (text && text.indexOf(s) === 0) { level = i; } });
    var label = exact !== undefined ? exact + "M" : tr("ysj_money_" + level);
    return h("span", { cls: "money money-" + level, "data-money-level": level, title: label },
      h("span", { cls: "money-stack", "aria-hidden": "true" }), h("span", { text: label }));
  }

  function ysjSeat(scene, v, p) {
    var s = p.seat;
    var mine = scene.you === s;
    var neg = v.negotiation;
    var badges = [];
    if (neg && neg.boss === s) { badges.push(badge(tr("ysj_boss"), "boss")); }
    else if (v.turn === s && !neg && v.phase !== "over") { badges.push(badge(tr("on_turn"), "turn")); }
    var hand = mine
      ? zone(tr("hand") + " (" + p.hand_count + "/" + v.hand_limit + ")", "hand", (v.hand || []).map(ysjCard))
      : zone(tr("hand"), "hand", backs("ysj", p.hand_count - (p.known_cards || []).length, tr("hand"), true),
        (p.known_cards || []).map(function (c) { var el = ysjCard(c); el.classList.add("known"); return el; }));
    var used = Object.keys(p.used || {}).map(function (k) {
      return h("span", { cls: "used-card", text: ysjSlot(k) + (p.used[k] > 1 ? " ×" + p.used[k] : "") });
    });
    var body = [
      zone(tr("ysj_investors"), "investors", p.investors.length ? p.investors.map(function (c) { return investorToken(c); })
        : h("span", { cls: "none", text: tr("none") })),
      hand,
      zone(tr("ysj_money"), "money-zone", moneyPile(p.money_pile, p.money)),
      used.length ? zone(tr("ysj_used"), "used", used) : null];
    return seatPanel(scene, s, badges, body);
  }

  // "family rojo" / "travel gris" / "stop": a used-card slot label in the page's language.
  function ysjSlot(label) {
    var parts = label.split(" ");
    return tr("ysj_kind_" + parts[0]) + (parts[1] ? " " + parts[1] : "");
  }

  function needs(space) {
    var out = (space.mandatory || []).map(function (c) { return h("span", { cls: "need fam-" + c, title: c }); });
    if ((space.optional || []).length) {
      out.push(h("span", { cls: "need-optional", title: tr("ysj_optional", { n: space.optional_needed }) },
        h("span", { cls: "need-count", text: space.optional_needed + "/" }),
        space.optional.map(function (c) { return h("span", { cls: "need optional fam-" + c, title: c }); })));
    }
    return out;
  }

  // A space's needs from the board's words (Space.describe(): "rojo, naranja + 1 of azul/rosa", "azul + 2 of
  // rojo/verde/rosa"); the marker's and the negotiation's space come as data.
  function parseNeeds(text) {
    var out = { mandatory: [], optional: [], optional_needed: 0 };
    String(text || "").split(" + ").forEach(function (part) {
      var m = /^(\d+) of (.+)$/.exec(part.trim());
      if (m) { out.optional_needed = parseInt(m[1], 10); out.optional = m[2].split("/"); }
      else { part.split(",").forEach(function (c) { if (c.trim()) { out.mandatory.push(c.trim()); } }); }
    });
    return out;
  }

  function ysjBoard(scene, v) {
    var spaces = {};
    (v.deals || []).forEach(function (d) { spaces[d.space] = d; });
    var negSpace = v.negotiation ? v.negotiation.space.space : null;
    var full = {};
    if (v.marker_space) { full[v.marker_space.space] = v.marker_space; }
    if (v.negotiation) { full[negSpace] = v.negotiation.space; }
    var cells = v.board.map(function (b) {
      var deal = spaces[b.space];
      var cls = "space" + (b.covered_by ? " covered" : "") + (v.marker === b.space ? " has-marker" : "") +
        (negSpace === b.space ? " negotiating" : "");
      var need = needs(full[b.space] || parseNeeds(b.needs));
      return h("li", { cls: cls, "data-space": b.space, "data-covered": b.covered_by || "", title: b.needs },
        h("span", { cls: "space-no", text: b.space }),
        h("span", { cls: "space-div", text: count("ysj_dividends", b.dividends) }),
        h("span", { cls: "space-needs" }, need),
        deal ? h("span", { cls: "deal-token", "data-deal": deal.deal, text: "#" + deal.card + " · " + tr("seat") + " " + deal.boss + " · " + deal.payout + "M" }) : null,
        v.marker === b.space ? h("span", { cls: "marker", "data-marker": b.space, title: tr("ysj_marker"), text: "$" }) : null);
    });
    return h("ol", { cls: "board", "aria-label": tr("ysj_board") }, cells);
  }

  function ysjNegotiation(scene, v) {
    var neg = v.negotiation;
    if (!neg) {
      var last = v.last_deal;
      var text = last ? (last.failed ? tr("ysj_last_failed", { space: last.space, boss: last.boss })
        : tr("ysj_last_deal", { space: last.space, boss: last.boss, payout: last.payout })) : tr("ysj_no_negotiation");
      return h("div", { cls: "negotiation idle" }, h("p", { text: text }));
    }
    var prices = neg.prices.map(function (q) {
      return h("li", { cls: "quote quote-" + q.status, "data-seat": q.seat, "data-colour": q.colour },
        investorToken(q.colour, "small"),
        h("span", { text: tr("seat") + " " + q.seat }),
        h("strong", { text: q.named_as }),
        h("span", { cls: "quote-status", text: tr("ysj_status_" + q.status) }));
    });
    var placed = neg.placed_family_cards.map(function (f) {
      return h("li", { "data-card": f.card }, investorToken(f.colour, "small family-card"), h("span", { text: tr("ysj_placed_by", { seat: f.seat }) }));
    });
    var travelled = neg.travelled_investors.map(function (t) {
      return h("li", {}, investorToken(t.colour, "small away"), h("span", { text: tr("ysj_travelled", { seat: t.holder }) }));
    });
    return h("div", { cls: "negotiation", "data-boss": neg.boss },
      h("p", { cls: "neg-head" },
        h("strong", { text: tr("ysj_negotiation", { space: neg.space.space }) }),
        h("span", { text: tr("ysj_payout", { d: neg.dividends, v: neg.dividend_value, p: neg.payout }) })),
      h("p", {}, badge(tr("ysj_boss"), "boss"), " " + tr("seat") + " " + neg.boss + " · " +
        (((scene.seats || [])[neg.boss] || {}).name || "")),
      h("div", { cls: "promised" },
        h("span", { text: tr("ysj_promised", { p: neg.promised, payout: neg.payout }) }),
        (function () { var b = h("span", { cls: "bar" }, h("span", { cls: "fill" })); b.firstChild.style.width = Math.min(100, 100 * neg.promised / Math.max(1, neg.payout)) + "%"; return b; })()),
      prices.length ? h("div", {}, h("span", { cls: "zone-label", text: tr("ysj_quotes") }), h("ul", { cls: "quotes" }, prices)) : null,
      placed.length ? h("div", {}, h("span", { cls: "zone-label", text: tr("ysj_family_cards") }), h("ul", { cls: "quotes" }, placed)) : null,
      travelled.length ? h("div", {}, h("span", { cls: "zone-label", text: tr("ysj_travelled_title") }), h("ul", { cls: "quotes" }, travelled)) : null,
      h("p", { cls: "neg-state", text: neg.complete ? (neg.boss_may_close ? tr("ysj_may_close") : tr("ysj_complete")) : tr("ysj_incomplete") }));
  }

  function ysjCenter(scene, v) {
    var beside = v.investors.filter(function (i) { return i.holder === "beside the board"; });
    var next = v.next_deal_card;
    var nextText = next ? tr("ysj_next_card", { n: next.number, d: next.dividend }) +
      (next.end_numbers.length ? " · " + tr("ysj_ends_on", { faces: next.end_numbers.join("/") }) : "") +
      (next.final ? " · " + tr("ysj_final") : "") : tr("ysj_no_cards");
    return h("div", { cls: "center ysj-center" },
      h("div", { cls: "ysj-main" }, ysjBoard(scene, v), ysjNegotiation(scene, v)),
      h("div", { cls: "piles" },
        pile("deck", tr("ysj_influence"), v.deck_count, "ysj", { top: v.discard_top ? ysjCard(v.discard_top) : null, size: v.discard_count }),
        h("figure", { cls: "pile deal-deck", "data-pile": "deals", "data-size": v.deal_cards_left },
          h("figcaption", { text: tr("ysj_deal_cards") }),
          backs("deal", v.deal_cards_left, tr("ysj_deal_cards"), true),
          h("span", { cls: "pile-label", text: nextText })),
        h("figure", { cls: "die", "data-die": v.last_roll || "" }, h("figcaption", { text: tr("ysj_die") }),
          h("div", { cls: "die-face" + (v.last_roll ? "" : " unrolled"), text: v.last_roll || "?" })),
        h("figure", { cls: "beside" }, h("figcaption", { text: tr("ysj_beside") }),
          h("div", { cls: "zone-cards" }, beside.length ? beside.map(function (i) { return investorToken(i.colour); })
            : h("span", { cls: "none", text: tr("none") })))));
  }

  function ysjScores(scene, v) {
    var chips = v.players.map(function (p) {
      var level = parseInt(moneyPile(p.money_pile, p.money).getAttribute("data-money-level"), 10);
      return { seat: p.seat, value: p.money !== undefined ? p.money : level, tip: tr("ysj_money_" + level),
        text: (p.money !== undefined ? p.money + "M" : tr("ysj_money_short_" + level)) + " · " +
          p.investors.length + " " + tr("ysj_inv_short") };
    });
    if (v.result) {
      chips = v.result.money.map(function (m, s) { return { seat: s, value: m, text: m + "M" }; });
    }
    return scorebar(scene, chips, [
      { key: "deals", label: tr("ysj_end_deals"), value: v.deals_done, max: v.deals_done + v.deal_cards_left },
      { key: "failed", label: tr("ysj_end_failed"), value: v.failed_in_a_row, max: v.failed_negotiations_limit }]);
  }

  function yoSoyElJefe(scene, v) {
    var panels = {};
    v.players.forEach(function (p) { panels[p.seat] = ysjSeat(scene, v, p); });
    return [ysjScores(scene, v), lastMove(scene), decision(scene, scene.prompt),
      arrange(scene, v.seats, panels, ysjCenter(scene, v), "around")];
  }

  // ------------------------------------------------------------------ entry points

  var GAMES = { "market-fortune": marketFortune, "se-vende": seVende, "yo-soy-el-jefe": yoSoyElJefe };

  function table(element, scene, labels) {
    L = labels || {};
    var draw = GAMES[scene.game];
    var root = h("div", { cls: "drawn-table game-" + scene.game, "data-game": scene.game, "data-version": scene.version });
    if (!draw || !scene.view) {
      add(root, h("p", { text: tr("no_view") }));
    } else {
      add(root, draw(scene, scene.view));
    }
    element.replaceChildren(root);
    return root;
  }

  // A result: the reason, then per seat a bar of its total (scaled to the best) and its lines.
  function result(element, res, names, labels) {
    L = labels || {};
    if (!res) { element.replaceChildren(); return null; }
    var totals = res.breakdown.map(function (b) { return Math.max(0, b.total); });
    var best = Math.max.apply(null, totals.concat([1]));
    var rows = res.breakdown.map(function (b) {
      var won = res.winners.indexOf(b.seat) >= 0;
      var bar = h("span", { cls: "bar" }, h("span", { cls: "fill" }));
      bar.firstChild.style.width = (100 * Math.max(0, b.total) / best) + "%";
      return h("li", { cls: "result-seat" + (won ? " winner" : ""), "data-seat": b.seat, "data-total": b.total },
        h("span", { cls: "result-name", text: (won ? "★ " : "") + tr("seat") + " " + b.seat + " · " + (names[b.seat] || "") }),
        bar,
        h("strong", { cls: "result-total", text: fmt(b.total) + " " + (b.unit || "") }),
        h("ul", { cls: "result-lines" }, b.lines.map(function (ln) {
          var label = Array.isArray(ln) ? ln[0] : ln.label;
          var amount = Array.isArray(ln) ? ln[1] : ln.amount;
          var lang = !Array.isArray(ln) && ln.label_lang && ln.label_lang !== L.lang ? ln.label_lang : null;
          return h("li", {}, h("span", { text: label, lang: lang }), h("span", { cls: "num", text: fmt(amount) }));
        })));
    });
    var reasonLang = res.reason_lang && res.reason_lang !== L.lang ? res.reason_lang : null;
    var root = h("div", { cls: "drawn-result" }, h("p", { cls: "reason", text: res.reason, lang: reasonLang }),
      h("ol", { cls: "result-bars" }, rows));
    element.replaceChildren(root);
    return root;
  }

  root.ClubDraw = { table: table, result: result };
})(typeof window !== "undefined" ? window : this);
