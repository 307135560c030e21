// Today's problem of a Problem card. The note carries its problems as JSON in a
// <script class="pd-variants">; this picks one from the date and the note's id and
// writes it into the card's [data-pd] slots before MathJax and the answer check run.
// ES5 in a function, like check.js. Every client has the date, so the front and the
// back pick the same problem without storage (AnkiDroid reloads the page between
// them); where sessionStorage survives, the front's pick also carries a review across
// midnight. Without JavaScript the card shows the note's own fields: problem 0.
(function () {
  var nodes = document.querySelectorAll("script.pd-variants");
  var node = nodes[nodes.length - 1];
  if (!node) { return; }
  var variants;
  try { variants = JSON.parse(node.textContent); } catch (e) { return; }
  if (!variants || variants.length < 2) { return; }
  var n = variants.length;
  var id = node.getAttribute("data-id") || "";
  var side = node.getAttribute("data-side");
  var day = paperdeckToday.day();  // generator/today.js, ahead of this in the same script
  var questions = [];  // what each problem asks: no two days in a row the same (as on the site)
  for (var q = 0; q < n; q++) { questions.push(variants[q].Prompt); }
  var pick = paperdeckToday.pick(id, n, day, questions);
  var key = "paperdeck:variant:" + id;
  try {
    var store = window.sessionStorage;
    if (side === "front") {
      store.setItem(key, day + ":" + pick);
    } else {
      var kept = (store.getItem(key) || "").split(":");
      if (kept.length === 2 && day - Number(kept[0]) <= 1 && day >= Number(kept[0])) {
        pick = Number(kept[1]) % n;
      }
    }
  } catch (e) { /* no storage: the date alone decides */ }
  var problem = variants[pick];
  var card = node.parentNode;
  var slots = card.querySelectorAll("[data-pd]");
  for (var s = 0; s < slots.length; s++) {
    var name = slots[s].getAttribute("data-pd");
    if (Object.prototype.hasOwnProperty.call(problem, name)) { slots[s].innerHTML = problem[name]; }
  }
  var boxes = card.querySelectorAll(".pd-check");
  for (var b = 0; b < boxes.length; b++) { boxes[b].setAttribute("data-expected", problem.Expected); }
  card.setAttribute("data-variant", String(pick));
})();
