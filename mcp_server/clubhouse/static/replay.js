// Replay controls: forward, back, start, end and a slider; each step is fetched as JSON from the server.
(function () {
  "use strict";
  var page = document.querySelector("[data-steps]");
  if (!page || !window.fetch) { return; }
  var count = parseInt(page.getAttribute("data-steps"), 10);
  var base = page.getAttribute("data-url");
  var lang = page.getAttribute("data-lang");
  var slider = document.getElementById("slider");
  var position = document.getElementById("position");
  var title = document.getElementById("step-title");
  var list = document.getElementById("step-events");
  var summary = document.getElementById("summary");
  var view = document.getElementById("view");
  var current = parseInt(slider.value, 10);
  var wanted = current;
  function show(index) {
    index = Math.max(0, Math.min(count - 1, index));
    wanted = index;
    slider.value = index;
    position.textContent = index + " / " + (count - 1);
    fetch(base + index + "?lang=" + encodeURIComponent(lang)).then(function (r) { return r.json(); }).then(function (d) {
      if (d.index !== wanted) { return; }
      current = d.index;
      title.textContent = d.title;
      summary.textContent = d.summary;
      view.innerHTML = d.view_html;  // built by the server with every value escaped
      list.innerHTML = "";
      d.events.forEach(function (text) { var li = document.createElement("li"); li.textContent = text; list.appendChild(li); });
      page.setAttribute("data-step", d.index);
      history.replaceState(null, "", "?lang=" + encodeURIComponent(lang) + "&step=" + d.index);
    });
  }
  document.getElementById("controls").addEventListener("submit", function (e) {
    e.preventDefault();
    var id = e.submitter ? e.submitter.id : "next";
    if (id === "first") { show(0); } else if (id === "last") { show(count - 1); }
    else if (id === "prev") { show(wanted - 1); } else { show(wanted + 1); }
  });
  slider.addEventListener("input", function () { show(parseInt(slider.value, 10)); });
  document.addEventListener("keydown", function (e) {
    if (e.target && e.target.tagName === "INPUT") { return; }
    if (e.key === "ArrowRight") { show(wanted + 1); } else if (e.key === "ArrowLeft") { show(wanted - 1); }
  });
})();
