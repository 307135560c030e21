// The one answer rule for scripts: generator/answers.py written again in ES5 (old Android
// WebViews, Anki desktop's one page for every card). tests/test_answers.py runs both over
// the same table of cases (tests/answers_cases.json); docs/answers.md states the rule.
//   paperdeckAnswers.read(text, count): the typed numbers (an array), or null
//   paperdeckAnswers.accepts(expected, got, tol): within tol = {abs: x} or {rel: x}
// A plain `var` on purpose: every card's scripts run in one page, and defining it again
// is harmless; cards, the study site and Node (module.exports) all read it.
var paperdeckAnswers = (function () {
  var SLACK_ULPS = 4;
  var ULP = Math.pow(2, -52);
  var MINUS = /[\u2010\u2011\u2012\u2013\u2014\u2212\ufe63\uff0d]/g;
  var TIMES_TEN = /\s*[\u00d7\u00b7\u22c5xX*]\s*10\s*\^\s*\{?\s*([-+]?\d+)\s*\}?/g;
  var BRACKETS = /[\[\](){}]/g;
  var SLASH = /\s*\/\s*/g;
  var PLAIN = /[\s,;]+/;
  var COMMA_DECIMAL = /[\s;]+/;
  var DECIMAL = /^[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$/;
  var FRACTION = /^([-+]?\d+(?:\.\d+)?)\/(\d+(?:\.\d+)?)$/;

  function bound(expected, tol) {
    var a = tol && tol.abs ? Number(tol.abs) : 0;
    var r = tol && tol.rel ? Number(tol.rel) : 0;
    return Math.max(a, r * Math.abs(expected));
  }
  function accepts(expected, got, tol) {
    var diff = Math.abs(expected - got);
    return diff <= bound(expected, tol) + SLACK_ULPS * ULP * Math.max(Math.abs(expected), Math.abs(got));
  }
  function one(text) {
    var value, m;
    if (DECIMAL.test(text)) {
      value = Number(text);
    } else if ((m = FRACTION.exec(text))) {
      if (!Number(m[2])) { return null; }
      value = Number(m[1]) / Number(m[2]);
    } else {
      return null;
    }
    return isFinite(value) ? value : null;
  }
  function split(text, separators, decimalComma) {
    var parts = text.split(separators), out = [];
    for (var i = 0; i < parts.length; i++) {
      if (!parts[i]) { continue; }
      var x = one(decimalComma ? parts[i].replace(",", ".") : parts[i]);
      if (x === null) { return null; }
      out.push(x);
    }
    return out;
  }
  function read(text, count) {
    var normal = String(text).replace(MINUS, "-").replace(TIMES_TEN, "e$1").replace(BRACKETS, " ")
      .replace(SLASH, "/");
    var plain = split(normal, PLAIN, false);
    if (plain && plain.length === count) { return plain; }
    var comma = split(normal, COMMA_DECIMAL, true);  // 2,66 3,66: decimal commas
    if (comma && comma.length === count) { return comma; }
    return plain || comma;
  }
  return { read: read, accepts: accepts, bound: bound };
})();
if (typeof module !== "undefined" && module.exports) { module.exports = paperdeckAnswers; }
