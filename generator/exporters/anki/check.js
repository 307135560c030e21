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
  // Reading, the tolerance and the verdict's words are the one answer rule, paperdeckAnswers
  // (generator/answers.js), which the note type puts ahead of this script; the site says the same.
  var rule = paperdeckAnswers;
  function values(text) { return rule.read(String(text || ""), -1) || []; }  // keys: plain numbers
  function judge(box, typed, verdict) {
    var expected = values(box.getAttribute("data-expected"));
    var tol = rule.tolerance(box.getAttribute("data-abs"), box.getAttribute("data-rel"));
    // The key as the question asks for it (notes.py writes it beside the key): "0.133", not 0.132622.
    var keyNode = box.parentNode.querySelector("[data-shown]");
    var shown = keyNode ? keyNode.getAttribute("data-shown").split(" ") : [];
    var hits = document.querySelectorAll(".pd-mistake[data-values]");
    var mistakes = [];
    for (var h = 0; h < hits.length; h++) {
      hits[h].className = "pd-mistake";
      mistakes.push(values(hits[h].getAttribute("data-values")));
    }
    var said = rule.verdict(expected, typed, tol, shown, mistakes);
    verdict.hidden = false;
    if (said.message === null) {
      verdict.className = "pd-verdict pd-none";
      verdict.textContent = "Nothing typed: compare your working with the key below.";
      return;
    }
    var text = said.message;
    if (said.mistake >= 0) {
      hits[said.mistake].className = "pd-mistake pd-hit";
      text += rule.MISTAKE + hits[said.mistake].getAttribute("data-mistake") + ".";
    }
    verdict.className = "pd-verdict " + (said.right ? "pd-right" : "pd-wrong");
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
