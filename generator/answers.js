// The one answer rule for scripts: generator/answers.py written again in ES5 (old Android
// WebViews, Anki desktop's one page for every card). tests/test_answers.py runs both over
// the same table of cases (tests/answers_cases.json); docs/answers.md states the rule.
//   paperdeckAnswers.read(text, count): the typed numbers (an array), or null
//   paperdeckAnswers.accepts(expected, got, tol): within tol = {abs: x}, {rel: y} or both
//     (then within max(x, y*|expected|))
//   paperdeckAnswers.tolerance(abs, rel): tol from a card's or page's data-abs and data-rel
//     ("" or absent: not given)
//   paperdeckAnswers.verdict(expected, typed, tol, shown, mistakes): what the learner reads
//     on a card and on the site alike, {right, message, wrong, got, mistake}; message is null
//     when nothing is typed (each output says what to do then)
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
  function tolerance(abs, rel) {
    var tol = {}, a = parseFloat(abs), r = parseFloat(rel);
    if (!isNaN(a)) { tol.abs = a; }
    if (!isNaN(r)) { tol.rel = r; }
    return tol;
  }
  function words(tol) {  // as presentation.tolerance_words says it, in a line's room
    var a = tol && tol.abs ? Number(tol.abs) : 0;
    var r = tol && tol.rel ? Number(tol.rel) : 0;
    var parts = [];
    if (a) { parts.push("\u00b1" + a); }
    if (r) { parts.push("\u00b1" + r * 100 + "%"); }
    return parts.length ? parts.join(" or ") : "exactly";
  }
  function fmt(x) { return String(Math.round(x * 1e6) / 1e6); }
  function matches(expected, got, tol) {
    if (!got || got.length !== expected.length) { return false; }
    for (var i = 0; i < expected.length; i++) {
      if (!accepts(expected[i], got[i], tol)) { return false; }
    }
    return true;
  }
  // mistakes: the known mistakes' numbers, [[x, ...], ...]; the verdict names the first the
  // typed numbers match (its index in ``mistake``, -1 if none) for the output to show.
  function verdict(expected, typed, tol, shown, mistakes) {
    var out = {right: false, message: null, wrong: -1, got: null, mistake: -1};
    if (!typed || !/\S/.test(typed)) { return out; }
    var got = out.got = read(typed, expected.length);
    if (!got) {
      out.message = "Could not read \u201c" + typed + "\u201d as numbers.";
      return out;
    }
    if (got.length !== expected.length) {
      out.message = "Expected " + expected.length + " number" + (expected.length === 1 ? "" : "s") +
        ", got " + got.length + ".";
      return out;
    }
    var wrong = [];
    for (var i = 0; i < expected.length; i++) {
      if (!accepts(expected[i], got[i], tol)) { wrong.push(i); }
    }
    if (!wrong.length) {
      out.right = true;
      out.message = "\u2714 Correct: " + (words(tol) === "exactly" ? "exactly the key." :
        (expected.length === 1 ? "within " : "every number within ") + words(tol) + " of the key.");
      return out;
    }
    var k = out.wrong = wrong[0];
    out.message = "\u2718 " + wrong.length + " of " + expected.length + " off (" + words(tol) + "): " +
      (expected.length > 1 ? "number " + (k + 1) + " is " : "you typed ") + fmt(got[k]) +
      ", the key has " + (shown && shown.length === expected.length ? shown[k] : fmt(expected[k])) + ".";
    for (var m = 0; mistakes && m < mistakes.length; m++) {
      if (matches(mistakes[m], got, tol)) { out.mistake = m; break; }
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
  return { read: read, accepts: accepts, bound: bound, tolerance: tolerance, words: words, verdict: verdict,
    MISTAKE: " It matches a known mistake: " };
})();
if (typeof module !== "undefined" && module.exports) { module.exports = paperdeckAnswers; }
