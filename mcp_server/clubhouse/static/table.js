// Live table: apply each server-sent "update" to the page; stop at "end". No hidden card ever reaches here:
// the server sends the spectator's view and public events only.
(function () {
  "use strict";
  var page = document.querySelector("[data-stream]");
  if (!page || !window.EventSource) { return; }
  var status = document.getElementById("status");
  var prompt = document.getElementById("prompt");
  var summary = document.getElementById("summary");
  var view = document.getElementById("view");
  var events = document.getElementById("events");
  var result = document.getElementById("result");
  var source = new EventSource(page.getAttribute("data-stream"));
  source.addEventListener("update", function (message) {
    var data = JSON.parse(message.data);
    status.textContent = data.status_text;
    prompt.textContent = data.prompt;
    summary.textContent = data.summary;
    view.innerHTML = data.view_html;  // built by the server with every value escaped
    var none = document.getElementById("no-events");
    if (none && data.events.length) { none.remove(); }
    data.events.forEach(function (e) {
      var li = document.createElement("li");
      li.setAttribute("data-version", e.version);
      li.textContent = e.text;
      events.appendChild(li);
    });
    if (data.events.length) { events.scrollTop = events.scrollHeight; }
    if (data.result_html) {
      result.innerHTML = data.result_html + result.querySelector("p").outerHTML;
      result.hidden = false;
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
