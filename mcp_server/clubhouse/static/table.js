// Live table: draw the table from the scene the page carries, then apply each server-sent "update" (a new
// scene, new public events, the result) until "end". No hidden card ever reaches here: the server sends the
// spectator's view and public events only.
(function () {
  "use strict";
  var page = document.querySelector("[data-stream]");
  if (!page || !window.ClubDraw) { return; }
  var labels = JSON.parse(document.getElementById("draw-labels").textContent);
  var drawn = document.getElementById("drawn");
  var status = document.getElementById("status");
  var summary = document.getElementById("summary");
  var events = document.getElementById("events");
  var result = document.getElementById("result");

  function drawResult(data) {
    var target = document.getElementById("result-drawn");
    if (target && data && data.result) { ClubDraw.result(target, data.result, data.names || [], labels); }
  }

  ClubDraw.table(drawn, JSON.parse(document.getElementById("scene").textContent), labels);
  drawResult(JSON.parse(document.getElementById("result-data").textContent));
  if (page.getAttribute("data-ended") === "true" || !window.EventSource) { return; }

  var source = new EventSource(page.getAttribute("data-stream"));
  source.addEventListener("update", function (message) {
    var data = JSON.parse(message.data);
    status.textContent = data.status_text;
    summary.textContent = data.summary;
    if (data.summary_lang !== document.documentElement.lang) { summary.lang = data.summary_lang; } else { summary.removeAttribute("lang"); }
    ClubDraw.table(drawn, data.scene, labels);
    drawn.setAttribute("data-version", data.version);
    var none = document.getElementById("no-events");
    if (none && data.events.length) { none.remove(); }
    data.events.forEach(function (e) {
      var li = document.createElement("li");
      li.setAttribute("data-version", e.version);
      li.textContent = e.text;
      if (e.lang && e.lang !== document.documentElement.lang) { li.lang = e.lang; }  // a sentence left as written
      events.appendChild(li);
    });
    if (data.events.length) { events.scrollTop = events.scrollHeight; }
    if (data.result_html) {
      var link = result.querySelector("#replay-link").parentNode.outerHTML;
      result.innerHTML = data.result_html + link;  // built by the server with every value escaped
      result.hidden = false;
      drawResult(data);
    }
    page.setAttribute("data-version", data.version);
    page.setAttribute("data-status", data.status);
  });
  source.addEventListener("end", function () {
    source.close();
    page.setAttribute("data-ended", "true");
  });
  source.onerror = function () {
    if (page.getAttribute("data-ended") !== "true") { status.textContent = page.getAttribute("data-lost"); }
  };
})();
