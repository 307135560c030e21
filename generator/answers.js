// The one answer rule, for pages: reading a typed answer and the tolerance rule.
// TEMPORARY COPY for the study site (site branch): the house branch owns this file and
// its Python twin generator/answers.py, both run over one shared table of cases; at the
// merge its version replaces this one. Same API: a global ``paperdeckAnswers`` with
//   read(text, count) -> array of numbers, or null if a part is not a number
//                        (an array of another length when the count does not fit)
//   accepts(expected, got, tol) -> boolean, tol = {abs: x} or {rel: x}
// Extracted from generator/exporters/anki/check.js (``numbers`` and ``within``). ES5.
(function (root) {
  function one(text) {
    var m = /^(-?\d+(?:\.\d+)?)\/(\d+(?:\.\d+)?)$/.exec(text);
    if (m) { return Number(m[1]) / Number(m[2]); }
    return /^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(text) ? Number(text) : NaN;
  }
  function split(text, separators, decimalComma) {
    var t = String(text).replace(/[\u2212\u2012\u2013\u2014]/g, "-")
      .replace(/\s*(\u00d7|x|\*)\s*10\s*\^\s*\{?\s*([-+]?\d+)\s*\}?/gi, "e$2")
      .replace(/[\[\]\(\)\{\}]/g, " ");
    var parts = t.split(separators), out = [];
    for (var i = 0; i < parts.length; i++) {
      var p = parts[i].replace(/^\s+|\s+$/g, "");
      if (!p) { continue; }
      var x = one(decimalComma ? p.replace(",", ".") : p);
      if (isNaN(x) || !isFinite(x)) { return null; }
      out.push(x);
    }
    return out;
  }
  function read(text, count) {
    var plain = split(text, /[\s,;]+/, false);
    if (plain && plain.length === count) { return plain; }
    var comma = split(text, /[\s;]+/, true);  // 2,66 3,66: decimal commas
    if (comma && comma.length === count) { return comma; }
    return plain || comma;
  }
  function accepts(expected, got, tol) {
    var abs = tol && tol.abs != null ? Number(tol.abs) : NaN;
    var rel = tol && tol.rel != null ? Number(tol.rel) : NaN;
    var diff = Math.abs(expected - got);
    if (!isNaN(abs) && diff <= abs + 1e-9) { return true; }
    return !isNaN(rel) && diff <= rel * Math.abs(expected) + 1e-12;
  }
  root.paperdeckAnswers = { read: read, accepts: accepts };
})(this);
