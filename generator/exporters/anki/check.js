// ES5 only, wrapped in a function: Anki desktop runs every card's scripts in one page,
// so top-level ``let``/``const`` would clash from the second card on, and old Android
// WebViews know no newer syntax.
(function () {
  var PREFIX = "paperdeck:typed:";
  function makeStore() {
    try {
      var s = window.sessionStorage;
      s.setItem(PREFIX + "probe", "1");
      s.removeItem(PREFIX + "probe");
      return {
        get: function (k) { return s.getItem(PREFIX + k); },
        set: function (k, v) { s.setItem(PREFIX + k, v); },
        del: function (k) { s.removeItem(PREFIX + k); }
      };
    } catch (e) {
      var o = window.paperdeckTyped = window.paperdeckTyped || {};
      return {
        get: function (k) { return Object.prototype.hasOwnProperty.call(o, k) ? o[k] : null; },
        set: function (k, v) { o[k] = v; },
        del: function (k) { delete o[k]; }
      };
    }
  }
  // Reading and the tolerance are the one answer rule, paperdeckAnswers (generator/answers.js),
  // which the note type puts ahead of this script.
  var rule = paperdeckAnswers;
  function values(text) { return rule.read(String(text || ""), -1) || []; }  // keys: plain numbers
  function fmt(x) { return String(Math.round(x * 1e6) / 1e6); }
  function matches(expected, got, tol) {
    if (!got || got.length !== expected.length) { return false; }
    for (var i = 0; i < expected.length; i++) {
      if (!rule.accepts(expected[i], got[i], tol)) { return false; }
    }
    return true;
  }
  function judge(box, typed, verdict) {
    var expected = values(box.getAttribute("data-expected"));
    var abs = parseFloat(box.getAttribute("data-abs"));
    var rel = parseFloat(box.getAttribute("data-rel"));
    var within = !isNaN(abs) ? {abs: abs} : {rel: rel};
    var tol = !isNaN(abs) ? (abs > 0 ? "\u00b1" + abs : "exactly") : "\u00b1" + rel * 100 + "%";
    // The key as the question asks for it (notes.py writes it beside the key): "0.133", not 0.132622.
    var keyNode = box.parentNode.querySelector("[data-shown]");
    var shown = keyNode ? keyNode.getAttribute("data-shown").split(" ") : [];
    var hits = document.querySelectorAll(".pd-mistake[data-values]");
    for (var h = 0; h < hits.length; h++) { hits[h].className = "pd-mistake"; }
    verdict.hidden = false;
    if (!typed || !/\S/.test(typed)) {
      verdict.className = "pd-verdict pd-none";
      verdict.textContent = "Nothing typed: compare your working with the key below.";
      return;
    }
    var got = rule.read(typed, expected.length);
    if (!got) {
      verdict.className = "pd-verdict pd-wrong";
      verdict.textContent = "Could not read \u201c" + typed + "\u201d as numbers.";
      return;
    }
    if (got.length !== expected.length) {
      verdict.className = "pd-verdict pd-wrong";
      verdict.textContent = "Expected " + expected.length + " number" + (expected.length === 1 ? "" : "s") +
        ", got " + got.length + ".";
      return;
    }
    var wrong = [];
    for (var i = 0; i < expected.length; i++) {
      if (!rule.accepts(expected[i], got[i], within)) { wrong.push(i); }
    }
    if (!wrong.length) {
      verdict.className = "pd-verdict pd-right";
      verdict.textContent = "\u2714 Correct: " +
        (expected.length === 1 ? "within " : "every number within ") + tol + " of the key.";
      return;
    }
    var k = wrong[0];
    var text = "\u2718 " + wrong.length + " of " + expected.length + " off (" + tol + "): " +
      (expected.length > 1 ? "number " + (k + 1) + " is " : "you typed ") + fmt(got[k]) +
      ", the key has " + (shown.length === expected.length ? shown[k] : fmt(expected[k])) + ".";
    for (var j = 0; j < hits.length; j++) {
      if (matches(values(hits[j].getAttribute("data-values")), got, within)) {
        hits[j].className = "pd-mistake pd-hit";
        text += " It matches a known mistake: " + hits[j].getAttribute("data-mistake") + ".";
        break;
      }
    }
    verdict.className = "pd-verdict pd-wrong";
    verdict.textContent = text;
  }
  var store = makeStore();
  var boxes = document.querySelectorAll(".pd-check");
  for (var b = 0; b < boxes.length; b++) {
    (function (box) {
      var id = box.getAttribute("data-id");
      var input = box.getElementsByTagName("input")[0];
      var label = box.getElementsByTagName("label")[0];
      if (!input || !label) { return; }
      label.hidden = false;
      if (box.getAttribute("data-side") === "front") {
        store.del(id);
        input.addEventListener("input", function () { store.set(id, input.value); });
        input.addEventListener("keydown", function (event) {
          if (event.key !== "Enter" && event.keyCode !== 13) { return; }
          event.preventDefault();
          store.set(id, input.value);
          if (typeof pycmd === "function") { pycmd("ans"); } else { input.blur(); }
        });
        if (typeof pycmd === "function") { input.focus(); }
        return;
      }
      var verdict = box.querySelector(".pd-verdict");
      var typed = store.get(id);
      input.value = typed || "";
      judge(box, typed, verdict);
      input.addEventListener("input", function () {
        store.set(id, input.value);
        judge(box, input.value, verdict);
      });
    })(boxes[b]);
  }
})();
