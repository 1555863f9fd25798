// Replay controls: start, back, play/pause (at a chosen speed), forward, end, a slider, the move list and the
// keys (← →, space, Home, End). Each step is fetched as JSON and drawn; the URL keeps the step (a link to it).
(function () {
  "use strict";
  var page = document.querySelector("[data-steps]");
  if (!page || !window.fetch || !window.ClubDraw) { return; }
  var count = parseInt(page.getAttribute("data-steps"), 10);
  var base = page.getAttribute("data-url");
  var lang = page.getAttribute("data-lang");
  var labels = JSON.parse(document.getElementById("draw-labels").textContent);
  var slider = document.getElementById("slider");
  var position = document.getElementById("position");
  var title = document.getElementById("step-title");
  var list = document.getElementById("step-events");
  var summary = document.getElementById("summary");
  var drawn = document.getElementById("drawn");
  var moves = document.getElementById("moves");
  var play = document.getElementById("play");
  var speed = document.getElementById("speed");
  var wanted = parseInt(slider.value, 10);
  var timer = null;
  var cache = {};

  play.hidden = false;
  speed.parentNode.hidden = false;
  ClubDraw.table(drawn, JSON.parse(document.getElementById("scene").textContent), labels);
  var resultData = document.getElementById("result-data");
  if (resultData) {
    var r = JSON.parse(resultData.textContent);
    if (r.result) { ClubDraw.result(document.getElementById("result-drawn"), r.result, r.names, labels); }
  }

  function mark(index) {
    var old = moves.querySelector('[aria-current="step"]');
    if (old) { old.removeAttribute("aria-current"); }
    var now = moves.querySelector('a[data-step="' + index + '"]');
    if (now) {
      now.setAttribute("aria-current", "step");
      var box = moves.parentNode;
      var top = now.offsetTop - box.offsetTop;
      if (top < box.scrollTop || top > box.scrollTop + box.clientHeight - now.offsetHeight) {
        box.scrollTop = Math.max(0, top - box.clientHeight / 2);
      }
    }
  }

  function apply(d) {
    title.textContent = d.title;
    summary.textContent = d.summary;
    if (d.summary_lang !== lang) { summary.lang = d.summary_lang; } else { summary.removeAttribute("lang"); }
    ClubDraw.table(drawn, d.scene, labels);
    list.replaceChildren();
    d.events.forEach(function (e) {
      var li = document.createElement("li");
      li.textContent = e.text;
      if (e.lang !== lang) { li.lang = e.lang; }  // a sentence left as written
      list.appendChild(li);
    });
    page.setAttribute("data-step", d.index);
    mark(d.index);
    history.replaceState(null, "", "?lang=" + encodeURIComponent(lang) + "&step=" + d.index);
  }

  function fetchStep(index) {
    if (!cache[index]) {
      cache[index] = fetch(base + index + "?lang=" + encodeURIComponent(lang)).then(function (r) { return r.json(); });
    }
    return cache[index];
  }

  function show(index) {
    index = Math.max(0, Math.min(count - 1, index));
    wanted = index;
    slider.value = index;
    position.textContent = index + " / " + (count - 1);
    return fetchStep(index).then(function (d) {
      if (d.index === wanted) { apply(d); }
      if (index + 1 < count) { fetchStep(index + 1); }  // the next step is ready when it is asked for
    });
  }

  function stop() {
    if (timer !== null) { clearTimeout(timer); timer = null; }
    play.firstChild.textContent = "▶ ";
    play.lastChild.textContent = page.getAttribute("data-play");
    play.setAttribute("aria-label", page.getAttribute("data-play"));
    page.removeAttribute("data-playing");
  }

  function tick() {
    if (wanted >= count - 1) { stop(); return; }
    show(wanted + 1).then(function () {
      if (timer !== null) { timer = setTimeout(tick, parseInt(speed.value, 10)); }
    });
  }

  function start() {
    if (wanted >= count - 1) { show(0); }
    play.firstChild.textContent = "❚❚ ";
    play.lastChild.textContent = page.getAttribute("data-pause");
    play.setAttribute("aria-label", page.getAttribute("data-pause"));
    page.setAttribute("data-playing", "true");
    timer = setTimeout(tick, parseInt(speed.value, 10));
  }

  function toggle() { if (timer === null) { start(); } else { stop(); } }

  document.getElementById("controls").addEventListener("submit", function (e) {
    e.preventDefault();
    var id = e.submitter ? e.submitter.id : "next";
    stop();
    if (id === "first") { show(0); } else if (id === "last") { show(count - 1); }
    else if (id === "prev") { show(wanted - 1); } else { show(wanted + 1); }
  });
  play.addEventListener("click", toggle);
  slider.addEventListener("input", function () { stop(); show(parseInt(slider.value, 10)); });
  moves.addEventListener("click", function (e) {
    var a = e.target.closest("a[data-step]");
    if (!a) { return; }
    e.preventDefault();
    stop();
    show(parseInt(a.getAttribute("data-step"), 10));
  });
  document.addEventListener("keydown", function (e) {
    var tag = e.target && e.target.tagName;
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA" || e.altKey || e.ctrlKey || e.metaKey) { return; }
    if (e.key === "ArrowRight") { stop(); show(wanted + 1); }
    else if (e.key === "ArrowLeft") { stop(); show(wanted - 1); }
    else if (e.key === "Home") { stop(); show(0); }
    else if (e.key === "End") { stop(); show(count - 1); }
    else if (e.key === " " && tag !== "BUTTON") { toggle(); }
    else { return; }
    e.preventDefault();
  });
  mark(wanted);
})();
