// Live lobby: replace the lobby's tables with each server-sent "update" (HTML the server rendered and escaped).
(function () {
  "use strict";
  var box = document.getElementById("lobby-sections");
  if (!box || !window.EventSource) { return; }
  var source = new EventSource(box.getAttribute("data-stream"));
  source.addEventListener("update", function (message) {
    box.innerHTML = JSON.parse(message.data).html;
    box.setAttribute("data-updates", String(parseInt(box.getAttribute("data-updates") || "0", 10) + 1));
  });
})();
