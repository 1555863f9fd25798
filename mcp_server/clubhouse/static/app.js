// The MCP App (ui://club-agentes/table): the host renders this page in a sandboxed frame beside a call of
// get_view, wait_for_turn or play_move, and sends it the call's arguments and result (SEP-1865, JSON-RPC over
// postMessage). It draws the seat's table with draw.js from the result's structuredContent: the seat's own
// view (its hand face up, nothing else hidden). play_move and wait_for_turn carry no view, so the app asks
// the host to call get_view with the same table and seat token (when the host proxies tool calls).
(function () {
  "use strict";
  var LABELS = JSON.parse(document.getElementById("draw-labels").textContent);
  var root = document.getElementById("app");
  var resultBox = document.getElementById("result");
  var note = document.getElementById("note");
  var nextId = 1;
  var pending = {};
  var host = { capabilities: {}, context: {} };
  var args = null;
  var last = null;
  var ROLL = /seat (\d+)[^.;]*?(?:rolled|the die shows) ([+−])/;

  function lang() {
    var loc = (host.context && host.context.locale) || navigator.language || "en";
    return /^es\b/i.test(loc) ? "es" : "en";
  }

  function words() { return LABELS[lang()] || LABELS.en; }

  function send(message) { window.parent.postMessage(message, "*"); }

  function request(method, params) {
    var id = nextId++;
    send({ jsonrpc: "2.0", id: id, method: method, params: params || {} });
    return new Promise(function (resolve, reject) { pending[id] = { resolve: resolve, reject: reject }; });
  }

  function notify(method, params) { send({ jsonrpc: "2.0", method: method, params: params || {} }); }

  function names(sc) {
    return (sc.seats || []).map(function (s) {
      return s.agent || (s.open ? "—" : s.kind) || words().seat + " " + s.seat;
    });
  }

  function die(events) {
    for (var i = (events || []).length - 1; i >= 0; i--) {
      var m = ROLL.exec(events[i].text || "");
      if (m) { return { seat: parseInt(m[1], 10), plus: m[2] === "+", version: events[i].version }; }
    }
    return null;
  }

  // A get_view result (TableView) as the scene draw.js draws.
  function sceneOf(sc, events) {
    var shown = names(sc);
    var evs = events || sc.events || [];
    // the last move: the first event of the newest version (its other events follow from it)
    var lastEvent = null;
    evs.forEach(function (e) { if (!lastEvent || e.version > lastEvent.version) { lastEvent = e; } });
    var seats = (sc.seats || []).map(function (s, i) { return { seat: s.seat, name: shown[i], rating: null }; });
    return {
      game: sc.game,
      view: sc.view,
      version: sc.version,
      seats: seats,
      you: sc.seat,
      deciding: (sc.decision && sc.decision.seats) || [],
      winners: (sc.result && sc.result.winners) || [],
      // the tools' sentences are English (for the model): marked so on a Spanish host
      last: lastEvent ? { seat: undefined, version: lastEvent.version, text: lastEvent.text, lang: "en" } : null,
      prompt: sc.decision ? sc.decision.prompt : "",
      prompt_lang: "en",
      die: die(evs)
    };
  }

  function draw(sc, events) {
    ClubDraw.table(root, sceneOf(sc, events), words());
    if (sc.result) { ClubDraw.result(resultBox, sc.result, names(sc), words()); } else { resultBox.replaceChildren(); }
    note.textContent = "";
    document.documentElement.setAttribute("data-drawn", String(sc.version));
  }

  function show(result) {
    var sc = result && result.structuredContent;
    if (!sc) { note.textContent = result && result.isError ? ((result.content || [])[0] || {}).text || "" : ""; return; }
    last = sc;
    if (sc.view) { draw(sc); return; }
    // play_move / wait_for_turn: no view in the answer; ask the host for get_view with the same seat.
    var token = args && args.seat_token;
    if (token && sc.table_id && host.capabilities.serverTools) {
      request("tools/call", { name: "get_view", arguments: { table_id: sc.table_id, seat_token: token } })
        .then(function (res) {
          var view = res && res.structuredContent;
          if (view && view.view) { draw(view, (sc.events || []).length ? sc.events : view.events); }
        })
        .catch(function (err) { note.textContent = String(err && err.message || err); });
    } else {
      note.textContent = sc.decision ? sc.decision.prompt : "";
    }
  }

  function redraw() { if (last) { show({ structuredContent: last }); } }

  window.addEventListener("message", function (event) {
    var m = event.data;
    if (!m || m.jsonrpc !== "2.0") { return; }
    if (m.id !== undefined && pending[m.id] && (m.result !== undefined || m.error !== undefined)) {
      var p = pending[m.id];
      delete pending[m.id];
      if (m.error) { p.reject(new Error(m.error.message || "error")); } else { p.resolve(m.result); }
      return;
    }
    if (m.method === "ui/notifications/tool-input") { args = (m.params && m.params.arguments) || null; }
    else if (m.method === "ui/notifications/tool-result") { show(m.params); }
    else if (m.method === "ui/notifications/host-context-changed") {
      Object.keys(m.params || {}).forEach(function (k) { host.context[k] = m.params[k]; });
      redraw();
    } else if (m.method === "ui/resource-teardown" && m.id !== undefined) {
      send({ jsonrpc: "2.0", id: m.id, result: {} });
    } else if (m.method === "ping" && m.id !== undefined) {
      send({ jsonrpc: "2.0", id: m.id, result: {} });
    }
  });

  if (window.ResizeObserver) {
    var sent = 0;
    new ResizeObserver(function () {
      var height = Math.ceil(document.documentElement.scrollHeight);
      if (height !== sent) { sent = height; notify("ui/notifications/size-changed", { width: Math.ceil(document.documentElement.scrollWidth), height: height }); }
    }).observe(document.body);
  }

  request("ui/initialize", {
    protocolVersion: "2026-01-26",
    appInfo: { name: "club-agentes-table", version: "1" },
    appCapabilities: { availableDisplayModes: ["inline", "fullscreen"] }
  }).then(function (init) {
    host.capabilities = (init && init.hostCapabilities) || {};
    host.context = (init && init.hostContext) || {};
    document.documentElement.lang = lang();
    notify("ui/notifications/initialized", {});
    redraw();
  });
})();
